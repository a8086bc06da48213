import EnergyLabCore
import EnergyModels
import Foundation
import TestSupport
import Testing

/// Keytel et al. 2005. Worked examples published with the equations
/// (kcal over the whole exercise), each recomputed by hand below.
struct KeytelTests {
  func kcal(_ model: any EnergyModel, _ input: ModelInput) throws -> Double {
    try #require(try model.evaluate(input).energyKilocalories)
  }

  /// Female, 30 y, 65 kg, 140 bpm, 30 min: (-20.4022 + 0.4472*140 - 0.1263*65
  /// + 0.074*30) x 30 / 4.184 = 259.68 kcal. Adding the weight term instead,
  /// as some tools do, gives 377.40: this test catches that slip.
  @Test func femaleWeightTermIsSubtracted() throws {
    let input = ModelInput(
      bodyMassKilograms: 65, heartRateBeatsPerMinute: 140, ageYears: 30, sex: .female, durationSeconds: 1800)
    let energy = try kcal(Keytel2005(), input)
    expectClose(energy, 259.68, tolerance: 0.01)
    #expect(abs(energy - 377.40) > 100)
  }

  /// Male, 35 y, 75 kg, 150 bpm, 30 min: (-55.0969 + 0.6309*150 + 0.1988*75
  /// + 0.2017*35) x 30 / 4.184 = 441.02 kcal.
  @Test func maleWithoutVO2max() throws {
    let input = ModelInput(
      bodyMassKilograms: 75, heartRateBeatsPerMinute: 150, ageYears: 35, sex: .male, durationSeconds: 1800)
    expectClose(try kcal(Keytel2005(), input), 441.02, tolerance: 0.01)
  }

  /// With VO2max 50 mL/kg/min, male 30 y, 70 kg, 140 bpm, 1 min:
  /// -95.7735 + 88.76 + 20.2 + 27.58 + 8.13 = 48.8965 kJ;
  /// female: -59.3954 + 63 + 19 + 7.21 + 8.22 = 38.0346 kJ.
  @Test func withVO2max() throws {
    let male = Keytel2005.kilojoulesPerMinute(
      heartRate: 140, bodyMassKilograms: 70, ageYears: 30, sex: .male, vo2Max: 50)
    let female = Keytel2005.kilojoulesPerMinute(
      heartRate: 140, bodyMassKilograms: 70, ageYears: 30, sex: .female, vo2Max: 50)
    expectClose(male, 48.8965, tolerance: 1e-9)
    expectClose(female, 38.0346, tolerance: 1e-9)
  }

  /// Pound form, published examples: female 49 y, 155 lb, 148 bpm, 60 min =
  /// 580.94 kcal; male, same inputs = 891.47 kcal; female 28 y, 146 lb,
  /// 138 bpm, 36 min = 301.16 kcal.
  @Test(arguments: [
    (Sex.female, 49.0, 155.0, 148.0, 60.0, 580.94), (.male, 49, 155, 148, 60, 891.47),
    (.female, 28, 146, 138, 36, 301.16),
  ])
  func poundForm(sex: Sex, age: Double, pounds: Double, bpm: Double, minutes: Double, published: Double)
    throws
  {
    let input = ModelInput(
      bodyMassKilograms: Units.kilograms(fromPounds: pounds), heartRateBeatsPerMinute: bpm, ageYears: age,
      sex: sex,
      durationSeconds: minutes * 60)
    expectClose(try kcal(Keytel2005Pounds(), input), published, tolerance: 0.01)
  }

  /// The PEM thesis prints the male pound form; it agrees with the kilogram
  /// form to within the 2.2 vs 2.20462 lb/kg rounding of the weight term.
  @Test func poundAndKilogramFormsAgree() throws {
    let input = ModelInput(
      bodyMassKilograms: 80, heartRateBeatsPerMinute: 130, ageYears: 40, sex: .male, durationSeconds: 600)
    let kg = try kcal(Keytel2005(), input)
    let lb = try kcal(Keytel2005Pounds(), input)
    // Weight term difference: (0.09036*176.37 - 0.1988*80) * 10 / 4.184 = 0.077 kcal.
    expectClose(kg, lb, tolerance: 0.1)
  }

  /// 57-90 % of HRmax = 208 - 0.7 x 30 = 187 bpm: 106.6-168.3 bpm.
  @Test func heartRateBandFromAge() throws {
    let low = try Keytel2005().evaluate(
      ModelInput(bodyMassKilograms: 70, heartRateBeatsPerMinute: 100, ageYears: 30, sex: .male))
    let mid = try Keytel2005().evaluate(
      ModelInput(bodyMassKilograms: 70, heartRateBeatsPerMinute: 140, ageYears: 30, sex: .male))
    #expect(low.diagnostics.map(\.code) == ["heart-rate-outside-valid-range"])
    #expect(mid.diagnostics.isEmpty)
    #expect(low.vo2MillilitersPerKilogramPerMinute == nil)
  }
}

/// ACSM ergometry and stepping, with textbook worked examples.
struct ACSMErgometryTests {
  /// 62 kg woman at 450 kg*m/min: 1.8 x 450 / 62 + 7 = 20.06 mL/kg/min
  /// (ACSM metabolic equation slides: "about 20").
  @Test func legCycling() throws {
    let output = try ACSMLegCycling().evaluate(ModelInput(bodyMassKilograms: 62, powerWatts: 450 / 6.12))
    expectClose(output.vo2MillilitersPerKilogramPerMinute, (810.0 / 62 + 7), tolerance: 1e-9)
    #expect(output.diagnostics.isEmpty)
  }

  /// 75 kg at 450 kg*m/min on an arm ergometer: 3 x 450 / 75 + 3.5 = 21.5.
  @Test func armErgometry() throws {
    let output = try ACSMArmErgometry().evaluate(ModelInput(bodyMassKilograms: 75, powerWatts: 450 / 6.12))
    expectClose(output.vo2MillilitersPerKilogramPerMinute, 21.5, tolerance: 1e-9)
  }

  /// 30 steps/min on a 12-inch (0.3048 m) bench: 6.0 + 21.9 + 3.5 = 31.4
  /// (0.2 x 30 + 1.33 x 1.8 x 0.3048 x 30 + 3.5 = 31.39).
  @Test func stepping() throws {
    let output = try ACSMStepping().evaluate(
      ModelInput(bodyMassKilograms: 70, stepRatePerMinute: 30, stepHeightMeters: 0.3048))
    let vo2 = try #require(output.vo2MillilitersPerKilogramPerMinute)
    expectClose(vo2, 31.3905, tolerance: 1e-3)
    #expect((vo2 * 10).rounded() / 10 == 31.4)
  }

  /// 3.5 mph (93.8 m/min) at 10 %: 9.38 + 16.88 + 3.5 = 29.76.
  @Test func walkingUphillTextbookExample() throws {
    let output = try ACSMWalking().evaluate(
      ModelInput(speedMetersPerSecond: 93.8 / 60, gradeFraction: 0.10, bodyMassKilograms: 70))
    expectClose(output.vo2MillilitersPerKilogramPerMinute, 29.764, tolerance: 1e-9)
  }

  @Test func gaitPolicy() throws {
    let walk = try ACSMByGait().evaluate(ModelInput(speedMetersPerSecond: 1.3, bodyMassKilograms: 70))
    let gap = try ACSMByGait().evaluate(ModelInput(speedMetersPerSecond: 1.9, bodyMassKilograms: 70))
    let run = try ACSMByGait().evaluate(ModelInput(speedMetersPerSecond: 3.0, bodyMassKilograms: 70))
    // Walking: 0.1 x 78 + 3.5 = 11.3; running: 0.2 x 180 + 3.5 = 39.5.
    expectClose(walk.vo2MillilitersPerKilogramPerMinute, 11.3, tolerance: 1e-9)
    expectClose(run.vo2MillilitersPerKilogramPerMinute, 39.5, tolerance: 1e-9)
    #expect(gap.diagnostics.map(\.code) == ["speed-between-acsm-ranges"])
    #expect(walk.diagnostics.isEmpty && run.diagnostics.isEmpty)
  }
}

/// Beyond the theses: Pandolf, Minetti, LCDA.
struct LoadAndGradientModelTests {
  /// 180 lb walker with a 30 lb pack at 3.5 mph on level blacktop: about
  /// 478 W, about 410 kcal/h (published rucking example).
  /// By hand: W = 81.647 kg, L = 13.608 kg, V = 1.56464 m/s:
  /// 1.5W = 122.47; 2(W+L)(L/W)^2 = 5.291; (W+L)(1.5V^2) = 349.79; sum 477.55 W.
  @Test func pandolfRuckingExample() throws {
    let input = ModelInput(
      speedMetersPerSecond: Units.metersPerSecond(fromMilesPerHour: 3.5), gradeFraction: 0,
      bodyMassKilograms: Units.kilograms(fromPounds: 180), durationSeconds: 3600,
      loadKilograms: Units.kilograms(fromPounds: 30), terrainFactor: 1)
    let output = try Pandolf1977().evaluate(input)
    let watts = try #require(output.kilocaloriesPerMinute) * 4184 / 60
    expectClose(watts, 477.55, tolerance: 0.05)
    // 477.55 W x 3600 s / 4184 J/kcal = 410.9 kcal/h (the example uses 0.86 kcal/h per W: 410.7).
    expectClose(output.energyKilocalories, 410.9, tolerance: 0.1)
  }

  /// Minetti 2002 fitted costs, J/kg/m: Cw(0) = 2.5, Cr(0) = 3.6; at +0.10:
  /// Cw = 280.5e-5 - 58.7e-4 - 76.8e-3 + 51.9e-2 + 1.96 + 2.5 = 4.899.
  @Test(arguments: [
    (0.0, 2.5, 3.6), (0.10, 4.899, 5.968), (-0.10, 1.127, 2.152), (0.45, 17.600, 19.426),
    (-0.45, 3.605, 4.032),
  ])
  func minettiPolynomials(gradient: Double, walking: Double, running: Double) {
    expectClose(Minetti2002.cost(gradientFraction: gradient, gait: .walking), walking, tolerance: 0.001)
    expectClose(Minetti2002.cost(gradientFraction: gradient, gait: .running), running, tolerance: 0.001)
  }

  /// LCDA (Looney et al. 2019), W/kg: standing 1.44; 1.34 m/s level 4.414;
  /// 1.34 m/s at +5 % 6.237; at -10 % 3.074 (recomputed from the equation).
  @Test(arguments: [(0.0, 0.0, 1.44), (1.34, 0, 4.414), (1.34, 5, 6.237), (1.34, -10, 3.074)])
  func lcda(speed: Double, grade: Double, watts: Double) {
    #expect(
      abs(Looney2019.wattsPerKilogram(speedMetersPerSecond: speed, gradePercent: grade) - watts) < 0.001)
  }
}

struct StepAndMETTests {
  /// StepMyHealth: 0.4 kcal per step, so 10,000 steps are 4,000 kcal; the
  /// measured 507 kcal per 10,000 steps (Birdsley 2005) is 7.9 times less.
  @Test func perStepRules() throws {
    let thesis = try PerStep.stepMyHealth.evaluate(ModelInput(steps: 10_000))
    let measured = try PerStep.birdsley2005.evaluate(ModelInput(steps: 10_000))
    #expect(thesis.energyKilocalories == 4000)
    expectClose(measured.energyKilocalories, 507, tolerance: 1e-9)
    let fixed = try PerStep.configurable.evaluate(ModelInput(steps: 1000, kilocaloriesPerStep: 0.04))
    expectClose(fixed.energyKilocalories, 40, tolerance: 1e-9)
    #expect(throws: ModelError(model: "steps-fixed", .missing([.kilocaloriesPerStep]))) {
      try PerStep.configurable.evaluate(ModelInput(steps: 1000))
    }
  }

  /// 1200 steps of 0.75 m in 10 min = 900 m at 90 m/min: ACSM walking
  /// 0.1 x 90 + 3.5 = 12.5 mL/kg/min.
  @Test func strideToWalking() throws {
    let output = try StrideWalking().evaluate(
      ModelInput(bodyMassKilograms: 70, steps: 1200, durationSeconds: 600, strideMeters: 0.75))
    expectClose(output.vo2MillilitersPerKilogramPerMinute, 12.5, tolerance: 1e-9)
  }

  /// Compendium convention: kcal = MET x kg x h. Walking 2.8-3.2 mph (17190,
  /// 3.5 MET), 70 kg, 30 min: 3.5 x 70 x 0.5 = 122.5 kcal.
  @Test func metEnergy() throws {
    let output = try METModel().evaluate(
      ModelInput(bodyMassKilograms: 70, durationSeconds: 1800, metabolicEquivalent: 3.5))
    expectClose(output.energyKilocalories, 122.5, tolerance: 1e-9)
    #expect(output.vo2MillilitersPerKilogramPerMinute == 12.25)
  }

  /// Passive travel at VO2rest: 3.5 x 70 / 1000 x 5 = 1.225 kcal/min.
  @Test func resting() throws {
    let output = try Resting().evaluate(ModelInput(bodyMassKilograms: 70))
    expectClose(output.kilocaloriesPerMinute, 1.225, tolerance: 1e-12)
  }

  /// Kinetic energy: 70 kg from rest to 1.5 m/s is 1/2 x 70 x 2.25 =
  /// 78.75 J = 0.018822 kcal; slowing down costs nothing.
  @Test func kinetic() throws {
    let up = try KineticEnergy().evaluate(ModelInput(speedMetersPerSecond: 1.5, bodyMassKilograms: 70))
    expectClose(up.energyKilocalories, 78.75 / 4184, tolerance: 1e-12)
    var slowing = ModelInput(speedMetersPerSecond: 1.0, bodyMassKilograms: 70)
    slowing.previousSpeedMetersPerSecond = 1.5
    #expect(try KineticEnergy().evaluate(slowing).energyKilocalories == 0)
    var efficient = ModelInput(speedMetersPerSecond: 1.5, bodyMassKilograms: 70)
    efficient.mechanicalEfficiency = 0.25
    let quarter = try #require(try KineticEnergy().evaluate(efficient).energyKilocalories)
    expectClose(quarter, 4 * 78.75 / 4184, tolerance: 1e-12)
    efficient.mechanicalEfficiency = 0
    #expect(throws: ModelError(model: "kinetic-hay", .invalid(.efficiency, value: 0, expected: "in (0, 1]")))
    {
      try KineticEnergy().evaluate(efficient)
    }
  }

  /// W = F x D: 70 kg from 1.0 to 1.5 m/s in 2 s is a = 0.25 m/s^2, F = 17.5 N,
  /// over the 2.5 m covered at the mean speed: 43.75 J, the same as
  /// 1/2 x 70 x (1.5^2 - 1.0^2) = 43.75 J.
  @Test func workEqualsKineticEnergyAtConstantAcceleration() throws {
    var input = ModelInput(speedMetersPerSecond: 1.5, bodyMassKilograms: 70, durationSeconds: 2)
    input.previousSpeedMetersPerSecond = 1.0
    let work = try #require(try KineticEnergy(method: .forceTimesDistance).evaluate(input).energyKilocalories)
    let kinetic = try #require(try KineticEnergy().evaluate(input).energyKilocalories)
    expectClose(work, 43.75 / 4184, tolerance: 1e-12)
    expectClose(kinetic, 43.75 / 4184, tolerance: 1e-12)
  }
}
