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
/// walking at 0.7-1.6 m/s. On a descent (G < 0) the grade term turns
/// negative and soon drives M below zero; there the published downhill
/// correction of Santee et al. (2001) is subtracted:
/// ```
/// CF (W) = eta [G (W + L) V / 3.5 - (W + L) (G + 6)^2 / W + (25 - V^2)]
/// M_down = M - CF
/// ```
/// (`santee-2001-downhill`, reported with the uncorrected value). A result
/// below the equation's standing cost, 1.5 W + 2.0 (W + L) (L / W)^2, is
/// raised to it (`floored-at-standing`).
/// Pandolf KB, Givoni B, Goldman RF. Predicting energy expenditure with
/// loads while standing or walking very slowly. J Appl Physiol 1977;43:577-581.
/// Santee WR, Allison WF, Blanchard LA, Small MG. A proposed model for load
/// carriage on sloped terrain. Aviat Space Environ Med 2001;72(6):562-566.
public struct Pandolf1977: EnergyModel {
  public init() {}

  public let info = ModelInfo(
    id: "pandolf-1977", name: "Pandolf load-carriage equation",
    equation:
      "M (W) = 1.5*W + 2.0*(W+L)*(L/W)^2 + eta*(W+L)*(1.5*V^2 + 0.35*V*G); G < 0: M - eta*(G*(W+L)*V/3.5 - (W+L)*(G+6)^2/W + 25 - V^2); kcal/min = M*60/4184",
    inputs: [
      "body mass W (kg)", "load L (kg, default 0)", "speed V (m/s)", "grade G (%)",
      "terrain factor eta (default 1.0)",
    ],
    validRange: "walking 0.7-1.6 m/s; descents with the Santee et al. 2001 correction",
    citation:
      "Pandolf, Givoni & Goldman, J Appl Physiol 1977;43:577-581; Santee et al., Aviat Space Environ Med 2001;72:562-566"
  )

  public func evaluate(_ input: ModelInput) throws -> ModelOutput {
    let mass = try input.required(input.bodyMassKilograms, .mass, for: info.id)
    let speed = try input.required(input.speedMetersPerSecond, .speed, for: info.id)
    let load = input.loadKilograms ?? 0
    let terrain = input.terrainFactor ?? 1.0
    let gradePercent = (input.gradeFraction ?? 0) * 100
    let standing = 1.5 * mass + 2.0 * (mass + load) * (load / mass) * (load / mass)
    let equation = standing + terrain * (mass + load) * (1.5 * speed * speed + 0.35 * speed * gradePercent)
    var watts = equation
    var treatment: DomainTreatment?
    if gradePercent < 0 {
      watts -= Self.santeeCorrectionWatts(
        bodyMassKilograms: mass, loadKilograms: load, speedMetersPerSecond: speed, gradePercent: gradePercent,
        terrainFactor: terrain)
      treatment = DomainTreatment(
        code: "santee-2001-downhill",
        description:
          "a descent (grade \(Fixed.format(gradePercent, digits: 1)) %) with the downhill correction of Santee et al. 2001",
        equationKilocaloriesPerMinute: equation * 60 / MetabolicPower.joulesPerKilocalorie)
    }
    if watts < standing {
      treatment = DomainTreatment(
        code: "floored-at-standing",
        description:
          "\(Fixed.format(watts / mass, digits: 2)) W/kg is below the equation's standing cost; costed as standing",
        equationKilocaloriesPerMinute: equation * 60 / MetabolicPower.joulesPerKilocalorie)
      watts = standing
    }
    var diagnostics: [Diagnostic] = []
    if speed > 0 && !(0.7...1.6).contains(speed) {
      diagnostics.append(
        Diagnostic(
          code: "speed-outside-valid-range",
          message:
            "\(Fixed.format(speed, digits: 2)) m/s is outside the 0.7-1.6 m/s the equation was derived for"))
    }
    return MetabolicPower.output(
      wattsPerKilogram: watts / mass, input: input, diagnostics: diagnostics, treatment: treatment,
      model: info.id)
  }

  /// Santee et al. 2001 downhill correction factor, W, for a grade below 0:
  /// eta [G (W + L) V / 3.5 - (W + L) (G + 6)^2 / W + (25 - V^2)].
  public static func santeeCorrectionWatts(
    bodyMassKilograms w: Double, loadKilograms l: Double, speedMetersPerSecond v: Double,
    gradePercent g: Double,
    terrainFactor eta: Double
  ) -> Double {
    eta * (g * (w + l) * v / 3.5 - (w + l) * (g + 6) * (g + 6) / w + (25 - v * v))
  }
}

/// Conversions for models that predict metabolic power.
public enum MetabolicPower {
  /// Joules in one kilocalorie (thermochemical).
  public static let joulesPerKilocalorie = 4184.0

  /// kcal/min from W/kg and body mass; VO2 from the same power at 5 kcal per
  /// litre of oxygen (ACSM convention), so that models compare on one scale.
  /// A rate below rest is raised to rest (`floored-at-rest`).
  static func output(
    wattsPerKilogram: Double, input: ModelInput, diagnostics: [Diagnostic], treatment: DomainTreatment? = nil,
    model: String
  ) -> ModelOutput {
    let mass = input.bodyMassKilograms ?? .nan
    let perMinute = wattsPerKilogram * mass * 60 / joulesPerKilocalorie
    let vo2 = wattsPerKilogram * 60 / joulesPerKilocalorie / Oxygen.kilocaloriesPerLiter * 1000
    var output = ModelOutput(
      vo2MillilitersPerKilogramPerMinute: vo2, kilocaloriesPerMinute: perMinute,
      energyKilocalories: input.effectiveDurationSeconds.map { perMinute * $0 / 60 },
      diagnostics: diagnostics,
      treatment: treatment)
    output.floorAtRest(bodyMassKilograms: mass, durationSeconds: input.effectiveDurationSeconds, model: model)
    return output
  }
}
