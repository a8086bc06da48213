import EnergyLabCore
import EnergyModels
import TestSupport
import Testing

/// Power as measured work and as the Martin et al. 1998 model predicts it.
struct PowerModelTests {
  /// Martin et al. 1998 at 8 m/s up 3 %, 70 kg rider + 8 kg bike, CdA 0.32,
  /// Crr 0.0032, rho 1.225, steady speed; by hand (Python, math module):
  /// air 0.5 x 1.225 x (0.32 + 0.0044) x 8^3 = 101.73184 W;
  /// rolling 8 x cos(atan 0.03) x 0.0032 x 78 x 9.80665 = 19.57311 W;
  /// bearings 8 x (91 + 8.7 x 8) / 1000 = 1.2848 W;
  /// potential 8 x 78 x 9.80665 x sin(atan 0.03) = 183.49793 W;
  /// total / 0.977 = 313.29343 W. Accelerating from 7 m/s over 2 s adds
  /// 0.5 x (78 + 0.14 / 0.311^2) x (64 - 49) / 2 = 297.92798 W before the
  /// chain: 618.23508 W.
  @Test func martinPowerByHand() throws {
    let steady = try Martin1998Cycling().evaluate(
      ModelInput(speedMetersPerSecond: 8, gradeFraction: 0.03, bodyMassKilograms: 70, durationSeconds: 2))
    expectClose(steady.powerWatts, 313.29343, tolerance: 1e-4)
    // Metabolic, on the ACSM leg-ergometry line for the 70 kg rider:
    // 1.8 x 6.12 x 313.29343 x 5 / 1000 + 7 x 70 x 5 / 1000 = 19.7062 kcal/min.
    expectClose(steady.kilocaloriesPerMinute, 0.05508 * 313.29343 + 2.45, tolerance: 1e-4)
    var accelerating = ModelInput(
      speedMetersPerSecond: 8, gradeFraction: 0.03, bodyMassKilograms: 70, durationSeconds: 2)
    accelerating.previousSpeedMetersPerSecond = 7
    expectClose(
      try Martin1998Cycling().evaluate(accelerating).powerWatts, 618.23508, tolerance: 1e-4)
  }

  /// Down 6 % at 10 m/s the model needs negative power: the rider coasts,
  /// 0 W, and the metabolic rate is never below rest.
  @Test func aDescentIsCoastingNeverNegative() throws {
    let output = try Martin1998Cycling().evaluate(
      ModelInput(speedMetersPerSecond: 10, gradeFraction: -0.06, bodyMassKilograms: 70, durationSeconds: 1))
    #expect(output.powerWatts == 0)
    #expect(try #require(output.kilocaloriesPerMinute) >= 1.225)
    #expect(try #require(output.treatment?.equationKilocaloriesPerMinute) < 0)
  }

  /// 150 W from a power meter over a given constant gross efficiency 0.198:
  /// 150 x 60 / 4184 / 0.198 = 10.8639 kcal/min; without power, an error.
  @Test func measuredPowerOverAGivenGrossEfficiency() throws {
    var input = ModelInput(bodyMassKilograms: 70, powerWatts: 150)
    input.mechanicalEfficiency = 0.198
    expectClose(try PowerMeterEnergy().evaluate(input).kilocaloriesPerMinute, 10.863897, tolerance: 1e-6)
    #expect(throws: ModelError.self) { try PowerMeterEnergy().evaluate(ModelInput(bodyMassKilograms: 70)) }
  }
}
