import EnergyLabCore

/// Cameron walking equation: energy proportional to body weight and distance.
///
/// ```
/// C (kcal) = W (lb) x 0.53 x D (miles)
/// kcal/min = W (lb) x 0.53 x speed (mph) / 60
/// ```
/// Independent of speed per mile walked; kcal/min needs the speed. Defines
/// no VO2. As printed in the PEM thesis (L715-723), which calls it "Cameron
/// et al." and cites a web page (its reference [14]): "Cameron" is the first
/// name of the first author of the paper meant, Hall C, Figueroa A,
/// Fernhall B, Kanaley JA, "Energy expenditure of walking and running:
/// comparison with prediction equations", Med Sci Sports Exerc
/// 2004;36(12):2128-2134. The 0.53 kcal per pound per mile is the thesis's
/// figure; EnergyLab keeps the model's identifier, `cameron-walking`.
public struct CameronWalking: EnergyModel {
  public init() {}

  /// kcal per pound of body weight per mile walked.
  public static let kilocaloriesPerPoundMile = 0.53

  public let info = ModelInfo(
    id: "cameron-walking", name: "Cameron walking equation (Hall et al. 2004)",
    equation: "C = W(lb) * 0.53 * D(miles) (kcal); kcal/min = W(lb) * 0.53 * mph / 60",
    inputs: ["body mass W (lb)", "distance D (miles) or speed (mph) and duration"],
    validRange: "walking; no range is stated",
    citation:
      "Hall, Figueroa, Fernhall & Kanaley, Med Sci Sports Exerc 2004;36(12):2128-2134 (first author Cameron Hall; the PEM thesis writes \"Cameron et al.\" and cites a web page, its ref. [14]); PEM thesis L715-723",
    statesValidRange: false)

  public func evaluate(_ input: ModelInput) throws -> ModelOutput {
    let pounds = Units.pounds(
      fromKilograms: try input.required(input.bodyMassKilograms, .mass, for: info.id))
    var perMinute: Double?
    if let speed = input.speedMetersPerSecond {
      perMinute = pounds * Self.kilocaloriesPerPoundMile * Units.milesPerHour(fromMetersPerSecond: speed) / 60
    }
    var energy: Double?
    if let distance = input.distanceMeters {
      energy = pounds * Self.kilocaloriesPerPoundMile * Units.miles(fromMeters: distance)
    } else if let perMinute, let duration = input.durationSeconds {
      energy = perMinute * duration / 60
    }
    guard perMinute != nil || energy != nil else {
      throw ModelError(model: info.id, .missing([.speed, .distance]))
    }
    // Never below rest: at a slow stroll the distance rule gives less than
    // resting energy (0.61 kcal/min at 0.2 m/s for 70 kg, rest 1.23).
    var output = ModelOutput(kilocaloriesPerMinute: perMinute, energyKilocalories: energy)
    output.floorAtRest(
      bodyMassKilograms: Units.kilograms(fromPounds: pounds), durationSeconds: input.effectiveDurationSeconds,
      model: info.id)
    return output
  }
}
