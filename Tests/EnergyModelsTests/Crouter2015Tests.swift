import EnergyLabCore
import TestSupport
import Testing

@testable import EnergyModels

/// Crouter, Flynn & Bassett 2015 against scripts/oracles/accel-equations.py
/// (part A), written from the published equations: child-METs and kcal/min
/// at 70 kg for counts per 5 s on both sides of each sedentary cut-point.
struct Crouter2015Tests {
  @Test(arguments: [
    ("crouter-2015-wrist-va", 0.0, 1.0, 1.225), ("crouter-2015-wrist-va", 35, 1.0, 1.225),
    ("crouter-2015-wrist-va", 36, 1.7324, 2.12219), ("crouter-2015-wrist-va", 250, 2.567, 3.144575),
    ("crouter-2015-wrist-va", 600, 3.932, 4.8167), ("crouter-2015-wrist-vm", 100, 1.0, 1.225),
    ("crouter-2015-wrist-vm", 101, 1.7275, 2.116188), ("crouter-2015-wrist-vm", 600, 2.975, 3.644375),
  ])
  func agreesWithTheOracle(id: String, countsPer5Seconds: Double, met: Double, kcalPerMinute: Double) throws {
    let model = try ModelRegistry.model(id: id)
    var input = ModelInput(bodyMassKilograms: 70)
    // The model takes counts per minute, as every counts equation does.
    if id.hasSuffix("va") {
      input.verticalCountsPerMinute = countsPer5Seconds * 12
    } else {
      input.vectorMagnitudeCountsPerMinute = countsPer5Seconds * 12
    }
    let out = try model.evaluate(input)
    expectClose(out.vo2MillilitersPerKilogramPerMinute, met * 3.5, tolerance: 1e-9, "\(id) VO2")
    expectClose(out.kilocaloriesPerMinute, kcalPerMinute, tolerance: 1e-6, "\(id) kcal/min")
  }

  /// A second source for the coefficients: the intensity cut-points of
  /// Crouter et al. 2015 as the MOCAfunctions R package applies them
  /// (robmarcotte/MOCAfunctions, R/crouter2015_VA.R and crouter2015_VM.R:
  /// sedentary below 36 and 101, moderate from 361 and 610, vigorous from
  /// 1130 and 1810 counts per 5 s) are where the lines cross 3 and 6
  /// child-METs, rounded to whole counts: (3 - 1.592) / 0.0039 = 361.03,
  /// (6 - 1.592) / 0.0039 = 1130.26, (3 - 1.475) / 0.0025 = 610, (6 -
  /// 1.475) / 0.0025 = 1810; and 1 child-MET holds up to 35 and 100.
  @Test(arguments: [
    (Crouter2015.Axis.vertical, 36.0, 361.0, 1130.0), (Crouter2015.Axis.vectorMagnitude, 101, 610, 1810),
  ])
  func coefficientsMeetThePublishedCutPoints(
    axis: Crouter2015.Axis, sedentary: Double, moderate: Double, vigorous: Double
  ) throws {
    let model = Crouter2015(axis)
    #expect(model.sedentaryCountsPer5Seconds + 1 == sedentary)
    #expect(((3 - model.intercept) / model.slope).rounded() == moderate)
    #expect(((6 - model.intercept) / model.slope).rounded() == vigorous)
  }

  @Test func negativeCountsAreRefused() throws {
    var input = ModelInput(bodyMassKilograms: 70)
    input.verticalCountsPerMinute = -1
    #expect(throws: ModelError.self) { try Crouter2015(.vertical).evaluate(input) }
  }
}

/// Crouter et al. 2010's refined two-regression model against
/// scripts/oracles/crouter-2010.py, written from the published rule: the
/// MET of epochs it printed with their counts per 10 s and lowest CV.
struct Crouter2010RefinedTests {
  @Test(arguments: [
    (0.0, 110.3, 1.0), (511, 2.2342, 3.536461), (10, 130.0857, 1.850343), (1490, 1.0858, 8.102187),
    (3, 90.3327, 1.0),
  ])
  func agreesWithTheOracle(countsPer10Seconds: Double, cv: Double, met: Double) throws {
    var input = ModelInput(bodyMassKilograms: 70)
    input.verticalCountsPerMinute = countsPer10Seconds * 6
    input.countsCoefficientOfVariationPercent = cv
    let out = try Crouter2010Refined().evaluate(input)
    expectClose(
      out.vo2MillilitersPerKilogramPerMinute, met * 3.5, tolerance: 1e-5, "MET at \(countsPer10Seconds)")
  }

  @Test func aCVIsNeededAboveEightCounts() throws {
    var input = ModelInput(bodyMassKilograms: 70)
    input.verticalCountsPerMinute = 60
    #expect(throws: ModelError.self) { try Crouter2010Refined().evaluate(input) }
    input.verticalCountsPerMinute = 48
    #expect(try Crouter2010Refined().evaluate(input).vo2MillilitersPerKilogramPerMinute == 3.5)
  }
}
