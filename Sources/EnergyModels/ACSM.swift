import EnergyLabCore

/// ACSM metabolic equation for walking.
///
/// ```
/// VO2 (mL/kg/min) = 0.1 x S + 1.8 x S x G + 3.5
/// kcal/min        = VO2 x body mass (kg) / 1000 x 5
/// ```
/// S is speed in m/min, G grade as a fraction. Valid for steady-state
/// walking from 1.9 to 3.7 mph (50-100 m/min); speeds outside, and negative
/// grades, give a diagnostic and the equation's value.
/// American College of Sports Medicine, ACSM's Guidelines for Exercise
/// Testing and Prescription; as printed in the PEM thesis (L830-836).
public struct ACSMWalking: EnergyModel {
  public init() {}

  public static let validSpeedMilesPerHour = 1.9...3.7

  public let info = ModelInfo(
    id: "acsm-walking", name: "ACSM walking equation",
    equation: "VO2 = 0.1*S + 1.8*S*G + 3.5 (mL/kg/min); kcal/min = VO2*kg/1000*5",
    inputs: ["speed S (m/min)", "grade G (fraction)", "body mass (kg)"],
    validRange: "1.9-3.7 mph (50-100 m/min), steady state, level or uphill",
    citation: "ACSM's Guidelines for Exercise Testing and Prescription; PEM thesis L830-836",
    notes: "S.E.E. up to 7 % (PEM thesis L878)")

  public func evaluate(_ input: ModelInput) throws -> ModelOutput {
    let speed = try input.required(input.speedMetersPerSecond, .speed, for: info.id)
    let grade = input.gradeFraction ?? 0
    let metersPerMinute = Units.metersPerMinute(fromMetersPerSecond: speed)
    let vo2 =
      0.1 * metersPerMinute + 1.8 * metersPerMinute * grade + Oxygen.restingMillilitersPerKilogramPerMinute
    var diagnostics: [Diagnostic] = []
    let mph = Units.milesPerHour(fromMetersPerSecond: speed)
    if !Self.validSpeedMilesPerHour.contains(mph) {
      diagnostics.append(
        Diagnostic(
          code: "speed-outside-valid-range",
          message: "\(Fixed.format(mph, digits: 2)) mph is outside the walking equation's 1.9-3.7 mph"))
    }
    if grade < 0 {
      diagnostics.append(
        Diagnostic(
          code: "negative-grade",
          message:
            "the ACSM equations are for level and uphill walking; grade \(Fixed.format(grade, digits: 3)) lowers VO2 linearly"
        ))
    }
    return try ACSMCommon.output(vo2: vo2, input: input, diagnostics: diagnostics, model: info.id)
  }
}

/// ACSM metabolic equation for running.
///
/// ```
/// VO2 (mL/kg/min) = 0.2 x S + 0.9 x S x G + 3.5
/// ```
/// S in m/min, G fraction. Valid for steady-state running above 5.0 mph
/// (134 m/min) (PEM thesis L842-846).
public struct ACSMRunning: EnergyModel {
  public init() {}

  public static let minimumSpeedMilesPerHour = 5.0

  public let info = ModelInfo(
    id: "acsm-running", name: "ACSM running equation",
    equation: "VO2 = 0.2*S + 0.9*S*G + 3.5 (mL/kg/min); kcal/min = VO2*kg/1000*5",
    inputs: ["speed S (m/min)", "grade G (fraction)", "body mass (kg)"],
    validRange: "> 5.0 mph (134 m/min), steady state",
    citation: "ACSM's Guidelines for Exercise Testing and Prescription; PEM thesis L842-846")

  public func evaluate(_ input: ModelInput) throws -> ModelOutput {
    let speed = try input.required(input.speedMetersPerSecond, .speed, for: info.id)
    let grade = input.gradeFraction ?? 0
    let metersPerMinute = Units.metersPerMinute(fromMetersPerSecond: speed)
    let vo2 =
      0.2 * metersPerMinute + 0.9 * metersPerMinute * grade + Oxygen.restingMillilitersPerKilogramPerMinute
    var diagnostics: [Diagnostic] = []
    let mph = Units.milesPerHour(fromMetersPerSecond: speed)
    if mph <= Self.minimumSpeedMilesPerHour {
      diagnostics.append(
        Diagnostic(
          code: "speed-outside-valid-range",
          message: "\(Fixed.format(mph, digits: 2)) mph is not above the running equation's 5.0 mph"))
    }
    return try ACSMCommon.output(vo2: vo2, input: input, diagnostics: diagnostics, model: info.id)
  }
}

enum ACSMCommon {
  static func output(vo2: Double, input: ModelInput, diagnostics: [Diagnostic], model: String) throws
    -> ModelOutput
  {
    let mass = try input.required(input.bodyMassKilograms, .mass, for: model)
    let perMinute = Oxygen.kilocaloriesPerMinute(
      vo2MillilitersPerKilogramPerMinute: vo2, bodyMassKilograms: mass)
    return ModelOutput(
      vo2MillilitersPerKilogramPerMinute: vo2, kilocaloriesPerMinute: perMinute,
      energyKilocalories: input.effectiveDurationSeconds.map { perMinute * $0 / 60 }, diagnostics: diagnostics
    )
  }
}
