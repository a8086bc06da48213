import EnergyLabCore
import EnergyModels
import TestSupport
import Testing

/// Models outside their equations' domains: descents, low heart rates and
/// gradients past a fit never cost less than rest, and every treatment
/// keeps the equation's own value.
struct DomainTreatmentTests {
  /// ACSM walking down a 19 % grade at 80 m/min, 70 kg. By hand:
  /// equation VO2 = 0.1 x 80 + 1.8 x 80 x (-0.19) + 3.5 = 8 - 27.36 + 3.5
  /// = -15.86 mL/kg/min, x 70 / 1000 x 5 = -5.551 kcal/min (below zero);
  /// level ground: 8 + 3.5 = 11.5 mL/kg/min = 4.025 kcal/min.
  @Test func acsmWalkingCostsADescentAsLevelGround() throws {
    let output = try ACSMWalking().evaluate(
      ModelInput(
        speedMetersPerSecond: 80.0 / 60, gradeFraction: -0.19, bodyMassKilograms: 70, durationSeconds: 60))
    expectClose(output.vo2MillilitersPerKilogramPerMinute, 11.5, tolerance: 1e-9)
    expectClose(output.kilocaloriesPerMinute, 4.025, tolerance: 1e-9)
    expectClose(output.energyKilocalories, 4.025, tolerance: 1e-9)
    let treatment = try #require(output.treatment)
    #expect(treatment.code == "downhill-as-level")
    expectClose(treatment.equationKilocaloriesPerMinute, -5.551, tolerance: 1e-9)
  }

  /// ACSM running at 200 m/min down 10 %: equation 40 - 18 + 3.5 = 25.5
  /// mL/kg/min; as level ground 40 + 3.5 = 43.5.
  @Test func acsmRunningCostsADescentAsLevelGround() throws {
    let output = try ACSMRunning().evaluate(
      ModelInput(speedMetersPerSecond: 200.0 / 60, gradeFraction: -0.10, bodyMassKilograms: 60))
    expectClose(output.vo2MillilitersPerKilogramPerMinute, 43.5, tolerance: 1e-9)
    let treatment = try #require(output.treatment)
    // 25.5 x 60 / 1000 x 5 = 7.65 kcal/min.
    expectClose(treatment.equationKilocaloriesPerMinute, 7.65, tolerance: 1e-9)
  }

  @Test func levelAndUphillWalkingIsUntreated() throws {
    for grade in [0.0, 0.05] {
      let output = try ACSMWalking().evaluate(
        ModelInput(speedMetersPerSecond: 1.3, gradeFraction: grade, bodyMassKilograms: 70))
      #expect(output.treatment == nil)
    }
  }

  /// Pandolf with the Santee et al. 2001 downhill correction, W = 70 kg,
  /// L = 0, V = 1.3 m/s, G = -10 %, eta = 1. By hand:
  /// Pandolf M = 1.5 x 70 + 0 + 70 x (1.5 x 1.69 + 0.35 x 1.3 x (-10))
  ///           = 105 + 70 x (2.535 - 4.55) = -36.05 W;
  /// CF = (-10 x 70 x 1.3) / 3.5 - 70 x (-10 + 6)^2 / 70 + (25 - 1.69)
  ///    = -260 - 16 + 23.31 = -252.69 W;
  /// M - CF = 216.64 W = 216.64 x 60 / 4184 = 3.10669 kcal/min.
  /// Cross-check with an independent equation fitted to downhill data
  /// (Looney et al. 2019, same speed and grade): 1.44 + 1.94 x 1.3^0.43 +
  /// 0.24 x 1.3^4 + 0.34 x 1.3 x (-10) x (1 - 1.05^(1 - 1.1^22)) = 3.00
  /// W/kg, 210 W: within 4 %.
  @Test func pandolfDownhillUsesTheSanteeCorrection() throws {
    let output = try Pandolf1977().evaluate(
      ModelInput(speedMetersPerSecond: 1.3, gradeFraction: -0.10, bodyMassKilograms: 70))
    expectClose(output.kilocaloriesPerMinute, 216.64 * 60 / 4184, tolerance: 1e-9)
    let treatment = try #require(output.treatment)
    #expect(treatment.code == "santee-2001-downhill")
    expectClose(treatment.equationKilocaloriesPerMinute, -36.05 * 60 / 4184, tolerance: 1e-9)
    expectClose(
      Pandolf1977.santeeCorrectionWatts(
        bodyMassKilograms: 70, loadKilograms: 0, speedMetersPerSecond: 1.3, gradePercent: -10,
        terrainFactor: 1),
      -252.69, tolerance: 1e-9)
    let looney = Looney2019.wattsPerKilogram(speedMetersPerSecond: 1.3, gradePercent: -10) * 70
    #expect(abs(216.64 - looney) / looney < 0.04)
  }

  /// Minetti's quintic turns below zero past its fitted range (at i = -0.6:
  /// 280.5 x (-0.07776) - 58.7 x 0.1296 - 76.8 x (-0.216) + 51.9 x 0.36 +
  /// 19.6 x (-0.6) + 2.5 = -3.4064 J/kg/m). Beyond +-0.45 the vertical
  /// efficiency g i / C(i) of the nearest end is kept (Minetti et al. 2002,
  /// abstract: beyond +-0.15 it is that of concentric and eccentric muscle).
  /// By hand from the published polynomials: Cw(+0.45) = 17.600297, so the
  /// efficiency is 9.80665 x 0.45 / 17.600297 = 0.250734 (Margaria's
  /// concentric 0.25), Cw(-0.45) = 3.605069, -1.224108 (eccentric -1.20);
  /// Cr(+0.45) = 19.426015, 0.227169. At +0.60: Cw = 17.600297 x 0.60 /
  /// 0.45 = 23.467063 J/kg/m; at -0.60: 3.605069 x 0.60 / 0.45 = 4.806759.
  /// At 1 m/s for 70 kg, +0.60 walking costs (23.467063 + rest 1.220333
  /// W/kg) x 70 x 60 / 4184 = 24.7818 kcal/min, where the held cost gave
  /// 18.8926 (24 % low).
  @Test func minettiKeepsTheVerticalEfficiencyBeyondItsFit() throws {
    expectClose(Minetti2002.cost(gradientFraction: -0.6, gait: .walking), -3.4064, tolerance: 1e-4)
    expectClose(Minetti2002.cost(gradientFraction: -0.45, gait: .walking), 3.60507, tolerance: 1e-4)
    expectClose(
      Minetti2002.verticalEfficiency(gradientFraction: 0.45, gait: .walking), 0.250734, tolerance: 1e-6)
    expectClose(
      Minetti2002.verticalEfficiency(gradientFraction: -0.45, gait: .walking), -1.224108, tolerance: 1e-6)
    expectClose(
      Minetti2002.verticalEfficiency(gradientFraction: 0.45, gait: .running), 0.227169, tolerance: 1e-6)
    expectClose(Minetti2002.extendedCost(gradientFraction: 0.6, gait: .walking), 23.467063, tolerance: 1e-5)
    expectClose(Minetti2002.extendedCost(gradientFraction: -0.6, gait: .walking), 4.806759, tolerance: 1e-5)
    expectClose(Minetti2002.extendedCost(gradientFraction: 0.6, gait: .running), 25.901353, tolerance: 1e-5)
    // Inside the fit the extension is the polynomial itself.
    #expect(
      Minetti2002.extendedCost(gradientFraction: 0.3, gait: .running)
        == Minetti2002.cost(gradientFraction: 0.3, gait: .running))
    let steep = try Minetti2002(gait: .walking).evaluate(
      ModelInput(speedMetersPerSecond: 1, gradeFraction: 0.6, bodyMassKilograms: 70))
    let edge = try Minetti2002(gait: .walking).evaluate(
      ModelInput(speedMetersPerSecond: 1, gradeFraction: 0.45, bodyMassKilograms: 70))
    expectClose(steep.kilocaloriesPerMinute, 24.7818, tolerance: 1e-4)
    #expect(steep.treatment?.code == "vertical-efficiency-extension")
    #expect(edge.treatment == nil)
    let down = try Minetti2002(gait: .walking).evaluate(
      ModelInput(speedMetersPerSecond: 1, gradeFraction: -0.6, bodyMassKilograms: 70))
    #expect(try #require(down.treatment?.equationKilocaloriesPerMinute) < 0)
    expectClose(down.kilocaloriesPerMinute, (4.806759 + 1.220333) * 70 * 60 / 4184, tolerance: 1e-5)
  }

  /// Keytel (male, 70 kg, 30 y) at 50 bpm: -55.0969 + 0.6309 x 50 + 0.1988
  /// x 70 + 0.2017 x 30 = -3.5849 kJ/min = -0.8568 kcal/min, below zero;
  /// rest is 3.5 x 70 / 1000 x 5 = 1.225 kcal/min. 50 bpm is also under
  /// 57 % of the age-predicted maximum (187 bpm), so the treatment is the
  /// FLEX-HR one.
  @Test func keytelBelowRestIsFlooredAtRest() throws {
    let output = try Keytel2005().evaluate(
      ModelInput(
        bodyMassKilograms: 70, heartRateBeatsPerMinute: 50, ageYears: 30, sex: .male, durationSeconds: 120))
    expectClose(output.kilocaloriesPerMinute, 1.225, tolerance: 1e-9)
    expectClose(output.energyKilocalories, 2.45, tolerance: 1e-9)
    #expect(output.treatment?.code == "flex-hr-rest")
    expectClose(
      try #require(output.treatment?.equationKilocaloriesPerMinute), -3.5849 / 4.184, tolerance: 1e-4)
  }

  /// With the subject's resting heart rate, time below 57 % of the maximum
  /// is costed on the line from rest at the resting rate to Keytel at the
  /// floor (Hexoskin's documented blend, with Keytel's 57 %). By hand, male,
  /// 70 kg, 30 y, resting 60 bpm, at 90 bpm: HRmax = 208 - 0.7 x 30 = 187,
  /// floor 0.57 x 187 = 106.59 bpm; Keytel there (-55.0969 + 0.6309 x
  /// 106.59 + 0.1988 x 70 + 0.2017 x 30) / 4.184 = 7.67632 kcal/min; rest
  /// 1.225; 1.225 + (7.67632 - 1.225) x 30 / 46.59 = 5.37910 kcal/min. At or
  /// below the resting rate: rest. A resting rate above the floor leaves
  /// the FLEX-HR treatment.
  @Test func keytelBelowItsDomainBlendsFromTheRestingHeartRate() throws {
    func keytel(_ hr: Double, resting: Double?) throws -> ModelOutput {
      var input = ModelInput(
        bodyMassKilograms: 70, heartRateBeatsPerMinute: hr, ageYears: 30, sex: .male, durationSeconds: 60)
      input.restingHeartRateBeatsPerMinute = resting
      return try Keytel2005().evaluate(input)
    }
    let blended = try keytel(90, resting: 60)
    #expect(blended.treatment?.code == "resting-hr-blend")
    expectClose(blended.kilocaloriesPerMinute, 5.37910298823347, tolerance: 1e-9)
    expectClose(blended.energyKilocalories, 5.37910298823347, tolerance: 1e-9)
    let atRest = try keytel(55, resting: 60)
    expectClose(atRest.kilocaloriesPerMinute, 1.225, tolerance: 1e-12)
    #expect(try keytel(90, resting: 110).treatment?.code == "flex-hr-rest")
    #expect(try keytel(120, resting: 60).treatment == nil)
  }

  /// No model in the registry gives a rate below zero over descents from
  /// level to -50 % at walking and running speeds.
  @Test(arguments: [0.0, -0.05, -0.1, -0.2, -0.3, -0.45, -0.5])
  func noModelCostsADescentBelowZero(grade: Double) throws {
    for model in ModelRegistry.all {
      for speed in [0.8, 1.4, 3.0, 4.4] {
        let input = ModelInput(
          speedMetersPerSecond: speed, gradeFraction: grade, bodyMassKilograms: 70,
          heartRateBeatsPerMinute: 120,
          ageYears: 30, sex: .female, durationSeconds: 60, powerWatts: 100, stepRatePerMinute: 20,
          stepHeightMeters: 0.2, kilocaloriesPerStep: 0.04, strideMeters: 0.7, metabolicEquivalent: 3)
        guard let output = try? model.evaluate(input) else { continue }
        if let rate = output.kilocaloriesPerMinute { #expect(rate >= 0, "\(model.info.id) at \(grade)") }
        if let energy = output.energyKilocalories { #expect(energy >= 0, "\(model.info.id) at \(grade)") }
      }
    }
  }
}

/// No model below rest unless its publication says so, and each treatment
/// named: Cameron's distance rule at a stroll, Keytel under its heart-rate
/// domain, MET values under 1.
struct RestFloorTests {
  /// 0.2 m/s for 70 kg: 154.32 lb x 0.53 x 0.4474 mph / 60 = 0.610 kcal/min,
  /// under rest, 3.5 x 70 / 1000 x 5 = 1.225 kcal/min.
  @Test func cameronAtAStrollIsCostedAtRest() throws {
    let out = try CameronWalking().evaluate(ModelInput(speedMetersPerSecond: 0.2, bodyMassKilograms: 70))
    expectClose(out.kilocaloriesPerMinute, 1.225, tolerance: 1e-12)
    #expect(out.treatment?.code == "floored-at-rest")
    let pounds: Double = 70 / 0.45359237
    let equation: Double = pounds * 0.53 * (0.2 / 0.44704) / 60
    expectClose(out.treatment?.equationKilocaloriesPerMinute, equation, tolerance: 1e-12)
  }

  /// Keytel at 80 bpm for a man of 30 (HRmax 208 - 21 = 187; 43 %): under
  /// 57 %, costed at rest for 70 kg (1.225 kcal/min), the equation's own
  /// value kept: (-55.0969 + 0.6309 x 80 + 0.1988 x 70 + 0.2017 x 30) /
  /// 4.184 = 3.6066 kcal/min.
  @Test func keytelUnderItsDomainIsCostedAtRest() throws {
    let out = try Keytel2005().evaluate(
      ModelInput(bodyMassKilograms: 70, heartRateBeatsPerMinute: 80, ageYears: 30, sex: .male))
    expectClose(out.kilocaloriesPerMinute, 1.225, tolerance: 1e-12)
    #expect(out.treatment?.code == "flex-hr-rest")
    let kilojoules: Double = -55.0969 + 0.6309 * 80 + 0.1988 * 70 + 0.2017 * 30
    expectClose(out.treatment?.equationKilocaloriesPerMinute, kilojoules / 4.184, tolerance: 1e-9)
    // At 130 bpm (70 %) the equation holds.
    let inside = try Keytel2005().evaluate(
      ModelInput(bodyMassKilograms: 70, heartRateBeatsPerMinute: 130, ageYears: 30, sex: .male))
    #expect(inside.treatment == nil)
  }

  /// 0.95 MET (sleeping, Compendium 2011 code 07030) is costed as given,
  /// with a note.
  @Test func metUnderOneIsSaid() throws {
    let out = try METModel().evaluate(ModelInput(bodyMassKilograms: 70, metabolicEquivalent: 0.95))
    expectClose(out.kilocaloriesPerMinute, 0.95 * 70 / 60, tolerance: 1e-12)
    #expect(out.diagnostics.map(\.code) == ["met-below-rest"])
  }
}

/// Every registered model over a grid of inputs (speeds 0-8 m/s, grades
/// -0.7 to +0.7, heart rates 30-200 bpm, power 0-400 W, low and high
/// accelerometer values, MET 0.9-12): a rate under rest (3.5 mL/kg/min,
/// 1.225 kcal/min for 70 kg) comes only with a named treatment or
/// diagnostic, and never below zero. Per-step models cost steps, not time,
/// and are left out. Below rest by their publication's own definition:
/// `kinetic-hay` and `work-force-distance` count only the work of speed
/// changes (0 at constant speed; PEM thesis L745-762), and `met` at 1 MET
/// is the Compendium's rest, 1 kcal/kg/h (1.1667 kcal/min for 70 kg, under
/// ACSM's 3.5 mL/kg/min at 5 kcal/L).
struct NoModelBelowRestTests {
  static let belowRestByDefinition: Set<String> = ["kinetic-hay", "work-force-distance"]

  @Test func noRegisteredModelGoesBelowRestUnnamed() throws {
    let rest = 1.225
    var base = ModelInput(bodyMassKilograms: 70, ageYears: 30, sex: .male, durationSeconds: 60)
    base.restingHeartRateBeatsPerMinute = 60
    base.vo2MaxMillilitersPerKilogramPerMinute = 45
    base.heightMeters = 1.75
    var inputs: [ModelInput] = []
    for speed in [0.0, 0.2, 1.0, 2.5, 5.0, 8.0] {
      for grade in [-0.7, -0.45, -0.2, 0, 0.2, 0.45, 0.7] {
        for previous in [0.0, speed, 8.0] {
          var input = base
          input.speedMetersPerSecond = speed
          input.gradeFraction = grade
          input.previousSpeedMetersPerSecond = previous
          inputs.append(input)
        }
      }
    }
    for hr in [30.0, 55, 80, 120, 160, 200] {
      var input = base
      input.heartRateBeatsPerMinute = hr
      inputs.append(input)
    }
    for watts in [0.0, 10, 40, 150, 400] {
      var input = base
      input.powerWatts = watts
      input.stepRatePerMinute = 20
      input.stepHeightMeters = 0.2
      inputs.append(input)
    }
    for (enmo, counts) in [(0.0, 0.0), (1.0, 10.0), (30.0, 1500.0), (400.0, 9000.0)] {
      var input = base
      input.enmoMilligravity = enmo
      input.madMilligravity = enmo
      input.verticalCountsPerMinute = counts
      input.vectorMagnitudeCountsPerMinute = counts
      inputs.append(input)
    }
    for met in [1.0, 3.0, 12.0] {
      var input = base
      input.metabolicEquivalent = met
      inputs.append(input)
    }
    var checked = Set<String>()
    for model in ModelRegistry.all where !model.info.id.hasPrefix("steps-") && model.info.id != "per-step" {
      for input in inputs {
        guard let output = try? model.evaluate(input), let rate = output.kilocaloriesPerMinute else {
          continue
        }
        checked.insert(model.info.id)
        #expect(rate >= 0, "\(model.info.id) \(rate) kcal/min")
        if rate < rest - 1e-9, !Self.belowRestByDefinition.contains(model.info.id),
          !(model.info.id == "met" && rate >= (input.metabolicEquivalent ?? 0) * 70 / 60 - 1e-9
            && (input.metabolicEquivalent ?? 0) >= 1)
        {
          #expect(
            output.treatment != nil || !output.diagnostics.isEmpty,
            "\(model.info.id) gives \(rate) kcal/min, under rest, unnamed, at \(input)")
        }
      }
    }
    #expect(checked.contains("osgnach-2010-metabolic-power") && checked.contains("swain-1997-hrr"))
    #expect(checked.count >= 30, "\(checked.sorted())")
  }
}
