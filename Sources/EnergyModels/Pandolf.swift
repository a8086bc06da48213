import EnergyLabCore

/// Pandolf load-carriage equation: metabolic rate of standing or walking with
/// a load.
///
/// ```
/// M (W) = 1.5 W + 2.0 (W + L) (L / W)^2 + eta (W + L) (1.5 V^2 + 0.35 V G)
/// kcal/min = M x 60 / 4184
/// ```
/// W body mass (kg), L load (kg), V speed (m/s), G grade (%), eta terrain
/// factor (1.0 treadmill or blacktop; 1.1 dirt road; 1.2 light brush; 1.5
/// heavy brush; 1.8 swampy bog; 2.1 loose sand). Derived for level and uphill
/// walking at 0.7-1.6 m/s; a negative grade gives a diagnostic.
/// Pandolf KB, Givoni B, Goldman RF. Predicting energy expenditure with
/// loads while standing or walking very slowly. J Appl Physiol 1977;43:577-581.
public struct Pandolf1977: EnergyModel {
  public init() {}

  public let info = ModelInfo(
    id: "pandolf-1977", name: "Pandolf load-carriage equation",
    equation: "M (W) = 1.5*W + 2.0*(W+L)*(L/W)^2 + eta*(W+L)*(1.5*V^2 + 0.35*V*G); kcal/min = M*60/4184",
    inputs: [
      "body mass W (kg)", "load L (kg, default 0)", "speed V (m/s)", "grade G (%)",
      "terrain factor eta (default 1.0)",
    ],
    validRange: "walking 0.7-1.6 m/s, level or uphill",
    citation: "Pandolf, Givoni & Goldman, J Appl Physiol 1977;43:577-581")

  public func evaluate(_ input: ModelInput) throws -> ModelOutput {
    let mass = try input.required(input.bodyMassKilograms, .mass, for: info.id)
    let speed = try input.required(input.speedMetersPerSecond, .speed, for: info.id)
    let load = input.loadKilograms ?? 0
    let terrain = input.terrainFactor ?? 1.0
    let gradePercent = (input.gradeFraction ?? 0) * 100
    let watts =
      1.5 * mass + 2.0 * (mass + load) * (load / mass) * (load / mass)
      + terrain * (mass + load) * (1.5 * speed * speed + 0.35 * speed * gradePercent)
    var diagnostics: [Diagnostic] = []
    if speed > 0 && !(0.7...1.6).contains(speed) {
      diagnostics.append(
        Diagnostic(
          code: "speed-outside-valid-range",
          message:
            "\(Fixed.format(speed, digits: 2)) m/s is outside the 0.7-1.6 m/s the equation was derived for"))
    }
    if gradePercent < 0 {
      diagnostics.append(
        Diagnostic(
          code: "negative-grade",
          message: "Pandolf 1977 is not defined for downhill walking (Santee et al. 2003 add a correction)"))
    }
    return MetabolicPower.output(wattsPerKilogram: watts / mass, input: input, diagnostics: diagnostics)
  }
}

/// Conversions for models that predict metabolic power.
public enum MetabolicPower {
  /// Joules in one kilocalorie (thermochemical).
  public static let joulesPerKilocalorie = 4184.0

  /// kcal/min from W/kg and body mass; VO2 from the same power at 5 kcal per
  /// litre of oxygen (ACSM convention), so that models compare on one scale.
  static func output(wattsPerKilogram: Double, input: ModelInput, diagnostics: [Diagnostic]) -> ModelOutput {
    let mass = input.bodyMassKilograms ?? .nan
    let perMinute = wattsPerKilogram * mass * 60 / joulesPerKilocalorie
    let vo2 = wattsPerKilogram * 60 / joulesPerKilocalorie / Oxygen.kilocaloriesPerLiter * 1000
    return ModelOutput(
      vo2MillilitersPerKilogramPerMinute: vo2, kilocaloriesPerMinute: perMinute,
      energyKilocalories: input.effectiveDurationSeconds.map { perMinute * $0 / 60 }, diagnostics: diagnostics
    )
  }
}
