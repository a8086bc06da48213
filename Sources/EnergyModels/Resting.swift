import EnergyLabCore

/// Resting energy use, for passive transport (sitting in a car, bus or
/// train): the PEM thesis counts such time at VO2rest.
///
/// ```
/// VO2 = 3.5 mL/kg/min;  kcal/min = 3.5 x BM / 1000 x 5
/// ```
/// PEM thesis L797 (VO2rest) and L872-874 (5 kcal per litre of oxygen).
public struct Resting: EnergyModel {
  public init() {}

  public let info = ModelInfo(
    id: "resting", name: "Resting (VO2rest)",
    equation: "VO2 = 3.5 mL/kg/min; kcal/min = 3.5*kg/1000*5",
    inputs: ["body mass (kg)", "duration (min)"], validRange: "seated or passive travel",
    citation: "PEM thesis L797 (VO2rest 3.5 mL/kg/min)")

  public func evaluate(_ input: ModelInput) throws -> ModelOutput {
    try ACSMCommon.output(
      vo2: Oxygen.restingMillilitersPerKilogramPerMinute, input: input, diagnostics: [], model: info.id)
  }
}

/// Energy from the Compendium of Physical Activities' MET values.
///
/// ```
/// kcal = MET x body mass (kg) x hours;   VO2 = MET x 3.5 mL/kg/min
/// ```
/// One MET is 1 kcal/kg/h (Compendium convention; Ainsworth et al. 2011).
/// The MET value comes from `--met` or from an activity of the MET table in
/// `Datasets/met/`.
public struct METModel: EnergyModel {
  public init() {}

  public let info = ModelInfo(
    id: "met", name: "MET (Compendium of Physical Activities)",
    equation: "kcal = MET * kg * hours; VO2 = MET * 3.5 mL/kg/min",
    inputs: ["MET value or activity code", "body mass (kg)", "duration (min)"],
    validRange: "activities of the Compendium; a MET value stands for an average adult",
    citation: "Ainsworth et al., Med Sci Sports Exerc 2011;43(8):1575-1581")

  public func evaluate(_ input: ModelInput) throws -> ModelOutput {
    let met = try input.required(input.metabolicEquivalent, .met, .activity, for: info.id)
    let mass = try input.required(input.bodyMassKilograms, .mass, for: info.id)
    let perMinute = met * mass / 60
    // The Compendium lists values under 1 MET (sleeping, 0.95): costed as
    // given, and said.
    let below =
      met < 1
      ? [
        Diagnostic(
          code: "met-below-rest", severity: .note,
          message:
            "MET \(Fixed.shortest(met)) is under 1 (rest); costed as given, as the Compendium lists values under 1 for sleep"
        )
      ] : []
    return ModelOutput(
      vo2MillilitersPerKilogramPerMinute: met * Oxygen.restingMillilitersPerKilogramPerMinute,
      kilocaloriesPerMinute: perMinute,
      energyKilocalories: input.effectiveDurationSeconds.map { perMinute * $0 / 60 }, diagnostics: below)
  }
}
