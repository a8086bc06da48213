import EnergyLabCore

/// ACSM metabolic equation for leg cycling on an ergometer.
///
/// ```
/// VO2 (mL/kg/min) = 1.8 x WR / BM + 3.5 + 3.5
/// WR (kg·m/min) = power (W) x 6.12
/// ```
/// BM body mass (kg). The second 3.5 is the cost of unloaded cycling. Valid
/// for work rates of 300-1200 kg·m/min (about 50-200 W).
/// ACSM's Guidelines for Exercise Testing and Prescription.
public struct ACSMLegCycling: EnergyModel {
  public init() {}

  /// kg·m/min of work rate per watt (1 W = 6.118 kg·m/min; ACSM rounds to 6.12).
  public static let kilogramMetersPerMinutePerWatt = 6.12
  public static let validWorkRate = 300.0...1200.0

  public let info = ModelInfo(
    id: "acsm-cycling", name: "ACSM leg ergometry equation",
    equation: "VO2 = 1.8*WR/BM + 3.5 + 3.5 (mL/kg/min); WR = W*6.12 kg*m/min",
    inputs: ["power (W)", "body mass BM (kg)"], validRange: "300-1200 kg*m/min (about 50-200 W)",
    citation: "ACSM's Guidelines for Exercise Testing and Prescription")

  public func evaluate(_ input: ModelInput) throws -> ModelOutput {
    let watts = try input.required(input.powerWatts, .power, for: info.id)
    let mass = try input.required(input.bodyMassKilograms, .mass, for: info.id)
    let workRate = watts * Self.kilogramMetersPerMinutePerWatt
    let vo2 = 1.8 * workRate / mass + 2 * Oxygen.restingMillilitersPerKilogramPerMinute
    var diagnostics: [Diagnostic] = []
    if !Self.validWorkRate.contains(workRate) {
      diagnostics.append(
        Diagnostic(
          code: "work-rate-outside-valid-range",
          message: "\(Fixed.format(workRate, digits: 0)) kg*m/min is outside 300-1200"))
    }
    return try ACSMCommon.output(vo2: vo2, input: input, diagnostics: diagnostics, model: info.id)
  }
}

/// ACSM metabolic equation for arm ergometry.
///
/// ```
/// VO2 (mL/kg/min) = 3 x WR / BM + 3.5,   WR = W x 6.12 kg·m/min
/// ```
/// Valid for work rates of 150-750 kg·m/min (about 25-125 W).
/// ACSM's Guidelines for Exercise Testing and Prescription.
public struct ACSMArmErgometry: EnergyModel {
  public init() {}

  public static let validWorkRate = 150.0...750.0

  public let info = ModelInfo(
    id: "acsm-arm", name: "ACSM arm ergometry equation",
    equation: "VO2 = 3*WR/BM + 3.5 (mL/kg/min); WR = W*6.12 kg*m/min",
    inputs: ["power (W)", "body mass BM (kg)"], validRange: "150-750 kg*m/min (about 25-125 W)",
    citation: "ACSM's Guidelines for Exercise Testing and Prescription")

  public func evaluate(_ input: ModelInput) throws -> ModelOutput {
    let watts = try input.required(input.powerWatts, .power, for: info.id)
    let mass = try input.required(input.bodyMassKilograms, .mass, for: info.id)
    let workRate = watts * ACSMLegCycling.kilogramMetersPerMinutePerWatt
    let vo2 = 3 * workRate / mass + Oxygen.restingMillilitersPerKilogramPerMinute
    var diagnostics: [Diagnostic] = []
    if !Self.validWorkRate.contains(workRate) {
      diagnostics.append(
        Diagnostic(
          code: "work-rate-outside-valid-range",
          message: "\(Fixed.format(workRate, digits: 0)) kg*m/min is outside 150-750"))
    }
    return try ACSMCommon.output(vo2: vo2, input: input, diagnostics: diagnostics, model: info.id)
  }
}

/// ACSM metabolic equation for stepping.
///
/// ```
/// VO2 (mL/kg/min) = 0.2 x f + 1.33 x 1.8 x H x f + 3.5
/// ```
/// f stepping rate (steps/min), H step height (m); 1.33 adds the cost of
/// stepping down to that of stepping up. Valid for 12-30 steps/min and step
/// heights of 0.04-0.40 m.
/// ACSM's Guidelines for Exercise Testing and Prescription.
public struct ACSMStepping: EnergyModel {
  public init() {}

  public let info = ModelInfo(
    id: "acsm-stepping", name: "ACSM stepping equation",
    equation: "VO2 = 0.2*f + 1.33*1.8*H*f + 3.5 (mL/kg/min)",
    inputs: ["step rate f (steps/min)", "step height H (m)", "body mass (kg)"],
    validRange: "12-30 steps/min, step height 0.04-0.40 m",
    citation: "ACSM's Guidelines for Exercise Testing and Prescription")

  public func evaluate(_ input: ModelInput) throws -> ModelOutput {
    let rate = try input.required(input.stepRatePerMinute, .stepRate, for: info.id)
    let height = try input.required(input.stepHeightMeters, .stepHeight, for: info.id)
    let vo2 = 0.2 * rate + 1.33 * 1.8 * height * rate + Oxygen.restingMillilitersPerKilogramPerMinute
    var diagnostics: [Diagnostic] = []
    if !(12...30).contains(rate) {
      diagnostics.append(
        Diagnostic(
          code: "step-rate-outside-valid-range",
          message: "\(Fixed.format(rate, digits: 1)) steps/min is outside 12-30"))
    }
    if !(0.04...0.40).contains(height) {
      diagnostics.append(
        Diagnostic(
          code: "step-height-outside-valid-range",
          message: "step height \(Fixed.format(height, digits: 3)) m is outside 0.04-0.40 m"))
    }
    return try ACSMCommon.output(vo2: vo2, input: input, diagnostics: diagnostics, model: info.id)
  }
}

/// ACSM walking or running by speed, for tracks whose gait is not known.
///
/// Walking equation up to `transitionSpeedMetersPerSecond`, running equation
/// above it. Between the walking range's top (3.7 mph, 1.65 m/s) and the
/// running range's bottom (5.0 mph, 2.24 m/s) neither equation is validated;
/// speeds there give a `speed-between-acsm-ranges` diagnostic. The default
/// transition, 2.0 m/s (4.5 mph), is near the preferred walk-run transition
/// speed of adults (about 2.0-2.1 m/s; Hreljac, Med Sci Sports Exerc 1993).
public struct ACSMByGait: EnergyModel {
  public var transitionSpeedMetersPerSecond: Double

  public init(transitionSpeedMetersPerSecond: Double = 2.0) {
    self.transitionSpeedMetersPerSecond = transitionSpeedMetersPerSecond
  }

  public var info: ModelInfo {
    ModelInfo(
      id: "acsm-gait", name: "ACSM walking or running by speed",
      equation:
        "acsm-walking below \(Fixed.shortest(transitionSpeedMetersPerSecond)) m/s, acsm-running above",
      inputs: ["speed (m/s)", "grade (fraction)", "body mass (kg)"],
      validRange: "walking 1.9-3.7 mph, running > 5.0 mph; 3.7-5.0 mph is flagged",
      citation: "ACSM's Guidelines for Exercise Testing and Prescription; transition after Hreljac 1993")
  }

  public func evaluate(_ input: ModelInput) throws -> ModelOutput {
    let speed = try input.required(input.speedMetersPerSecond, .speed, for: info.id)
    let mph = Units.milesPerHour(fromMetersPerSecond: speed)
    var output =
      speed <= transitionSpeedMetersPerSecond
      ? try ACSMWalking().evaluate(input) : try ACSMRunning().evaluate(input)
    if mph > ACSMWalking.validSpeedMilesPerHour.upperBound && mph <= ACSMRunning.minimumSpeedMilesPerHour {
      output.diagnostics = output.diagnostics.filter { $0.code != "speed-outside-valid-range" }
      output.diagnostics.append(
        Diagnostic(
          code: "speed-between-acsm-ranges",
          message:
            "\(Fixed.format(mph, digits: 2)) mph lies between the walking (<= 3.7) and running (> 5.0) ranges"
        ))
    }
    return output
  }
}
