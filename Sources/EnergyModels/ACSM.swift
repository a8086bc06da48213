import EnergyLabCore

/// ACSM metabolic equation for walking.
///
/// ```
/// VO2 (mL/kg/min) = 0.1 x S + 1.8 x S x G + 3.5
/// kcal/min        = VO2 x body mass (kg) / 1000 x 5
/// ```
/// S is speed in m/min, G grade as a fraction. Valid for steady-state
/// walking from 1.9 to 3.7 mph (50-100 m/min), level or uphill; speeds
/// outside give a diagnostic and the equation's value. ACSM publishes no
/// downhill treatment, and the grade term drives VO2 below zero on a
/// descent steeper than about 5.6 % (0.1 S + 1.8 S G < 0): a negative grade
/// is costed as level ground (G = 0, the equation's own domain), with the
/// treatment and the equation's value reported (`downhill-as-level`).
/// American College of Sports Medicine, ACSM's Guidelines for Exercise
/// Testing and Prescription; as printed in the PEM thesis (L830-836).
public struct ACSMWalking: EnergyModel {
  public init() {}

  public static let validSpeedMilesPerHour = 1.9...3.7

  public let info = ModelInfo(
    id: "acsm-walking", name: "ACSM walking equation",
    equation: "VO2 = 0.1*S + 1.8*S*G + 3.5 (mL/kg/min); kcal/min = VO2*kg/1000*5",
    inputs: ["speed S (m/min)", "grade G (fraction)", "body mass (kg)"],
    validRange: "1.9-3.7 mph (50-100 m/min), steady state, level or uphill; descents costed as level",
    citation: "ACSM's Guidelines for Exercise Testing and Prescription; PEM thesis L830-836",
    notes: "S.E.E. up to 7 % (PEM thesis L878); a negative grade is costed as level ground")

  public func evaluate(_ input: ModelInput) throws -> ModelOutput {
    let speed = try input.required(input.speedMetersPerSecond, .speed, for: info.id)
    let grade = input.gradeFraction ?? 0
    let metersPerMinute = Units.metersPerMinute(fromMetersPerSecond: speed)
    let vo2 = { (g: Double) in
      0.1 * metersPerMinute + 1.8 * metersPerMinute * g + Oxygen.restingMillilitersPerKilogramPerMinute
    }
    var diagnostics: [Diagnostic] = []
    let mph = Units.milesPerHour(fromMetersPerSecond: speed)
    if !Self.validSpeedMilesPerHour.contains(mph) {
      diagnostics.append(
        Diagnostic(
          code: "speed-outside-valid-range",
          message: "\(Fixed.format(mph, digits: 2)) mph is outside the walking equation's 1.9-3.7 mph"))
    }
    return try ACSMCommon.output(
      vo2: vo2(max(0, grade)), equationVO2: grade < 0 ? vo2(grade) : nil, grade: grade, input: input,
      diagnostics: diagnostics, model: info.id)
  }
}

/// ACSM metabolic equation for running.
///
/// ```
/// VO2 (mL/kg/min) = 0.2 x S + 0.9 x S x G + 3.5
/// ```
/// S in m/min, G fraction. Valid for steady-state running above 5.0 mph
/// (134 m/min), level or uphill (PEM thesis L842-846); a negative grade is
/// costed as level ground, as for walking (`downhill-as-level`).
public struct ACSMRunning: EnergyModel {
  public init() {}

  public static let minimumSpeedMilesPerHour = 5.0

  public let info = ModelInfo(
    id: "acsm-running", name: "ACSM running equation",
    equation: "VO2 = 0.2*S + 0.9*S*G + 3.5 (mL/kg/min); kcal/min = VO2*kg/1000*5",
    inputs: ["speed S (m/min)", "grade G (fraction)", "body mass (kg)"],
    validRange: "> 5.0 mph (134 m/min), steady state, level or uphill; descents costed as level",
    citation: "ACSM's Guidelines for Exercise Testing and Prescription; PEM thesis L842-846")

  public func evaluate(_ input: ModelInput) throws -> ModelOutput {
    let speed = try input.required(input.speedMetersPerSecond, .speed, for: info.id)
    let grade = input.gradeFraction ?? 0
    let metersPerMinute = Units.metersPerMinute(fromMetersPerSecond: speed)
    let vo2 = { (g: Double) in
      0.2 * metersPerMinute + 0.9 * metersPerMinute * g + Oxygen.restingMillilitersPerKilogramPerMinute
    }
    var diagnostics: [Diagnostic] = []
    let mph = Units.milesPerHour(fromMetersPerSecond: speed)
    if mph <= Self.minimumSpeedMilesPerHour {
      diagnostics.append(
        Diagnostic(
          code: "speed-outside-valid-range",
          message: "\(Fixed.format(mph, digits: 2)) mph is not above the running equation's 5.0 mph"))
    }
    return try ACSMCommon.output(
      vo2: vo2(max(0, grade)), equationVO2: grade < 0 ? vo2(grade) : nil, grade: grade, input: input,
      diagnostics: diagnostics, model: info.id)
  }
}

enum ACSMCommon {
  /// kcal/min and energy from VO2; `equationVO2` is the published
  /// equation's value where a descent was costed as level ground instead.
  /// Any rate below rest is raised to rest.
  static func output(
    vo2: Double, equationVO2: Double? = nil, grade: Double = 0, input: ModelInput, diagnostics: [Diagnostic],
    model: String
  ) throws -> ModelOutput {
    let mass = try input.required(input.bodyMassKilograms, .mass, for: model)
    let perMinute = Oxygen.kilocaloriesPerMinute(
      vo2MillilitersPerKilogramPerMinute: vo2, bodyMassKilograms: mass)
    var output = ModelOutput(
      vo2MillilitersPerKilogramPerMinute: vo2, kilocaloriesPerMinute: perMinute,
      energyKilocalories: input.effectiveDurationSeconds.map { perMinute * $0 / 60 }, diagnostics: diagnostics
    )
    if let equationVO2 {
      output.treatment = DomainTreatment(
        code: "downhill-as-level",
        description:
          "the ACSM equations are for level and uphill gait and publish no downhill term; a descent (grade \(Fixed.format(grade, digits: 3))) is costed as level ground",
        equationKilocaloriesPerMinute: Oxygen.kilocaloriesPerMinute(
          vo2MillilitersPerKilogramPerMinute: equationVO2, bodyMassKilograms: mass))
    }
    output.floorAtRest(bodyMassKilograms: mass, durationSeconds: input.effectiveDurationSeconds, model: model)
    return output
  }
}
