import EnergyLabCore
import EnergyModels
import Estimation
import Foundation
import TestSupport
import Testing
import Tracks

@testable import Pipeline

/// Power wins where it is measured; accelerated running over a track; a
/// heart rate of 0 in a table is a dropout.
struct MeasuredPowerAndReserveTests {
  /// The Edge 810 ride with Vector pedals under `--by-mode`, 70 kg: every
  /// one of its 4,699 steps carries power, so the declared ride is costed
  /// from its work on the ACSM leg-ergometry line. Oracle
  /// (`energy_models.py power-fit FILE --mass 70`, fitdecode): 4,699 steps,
  /// 1,374.75 kcal (1,568.96 at a constant 0.198). Naming the cycling model
  /// keeps it: `met` at 7.5 MET is 8.75 kcal/min x 4,699 s / 60 = 685.27
  /// kcal (by hand).
  @Test func aRideWithPowerIsCostedFromItsWork() throws {
    let path = "\(EnergyOnFITTests.folder)/Edge810-Vector-2013-08-16-15-35-10.fit"
    var options = EnergyCommand.Options(
      files: [path], modelID: "acsm-walking", subject: ModelInput(bodyMassKilograms: 70))
    options.byMode = true
    let energy = try EnergyCommand.energy(options)
    #expect(energy.parts.count == 1)
    let part = try #require(energy.parts.first)
    #expect(part.energy.modelID == "power-meter")
    expectClose(part.energy.energyKilocalories, 1374.75, tolerance: 0.005)
    #expect(
      energy.diagnostics.contains { $0.code == "measured-power-used" && $0.message.contains("4699 of 4699") })
    options.modelForMode = [.cycle: "met"]
    let named = try EnergyCommand.energy(options)
    #expect(named.parts.first?.energy.modelID == "met")
    expectClose(named.parts.first?.energy.energyKilocalories, 8.75 * 4699 / 60, tolerance: 0.005)
  }

  /// A ride whose power drops out for some steps: those steps take the
  /// cycling model (`met` 7.5 MET, 8.75 kcal/min for 70 kg), named as a
  /// treatment; the others the line. 10 steps of 60 s: 6 at 200 W (0.05508
  /// x 200 + 2.45 = 13.466 kcal/min), 4 without power: 6 x 13.466 + 4 x
  /// 8.75 = 115.796 kcal (by hand). A ride without any power stays `met`.
  @Test func stepsWithoutPowerTakeTheCyclingModel() throws {
    var steps: [TrackStep] = []
    for k in 0..<10 {
      var step = TrackStep(
        startSecondsSince1970: Double(60 * k), durationSeconds: 60, distance2DMeters: 360,
        distance3DMeters: 360, elevationChangeMeters: 0, speedMetersPerSecond: 6, gradeFraction: 0,
        heartRateBeatsPerMinute: nil)
      if k % 5 < 3 { step.powerWatts = 200 }
      steps.append(step)
    }
    let estimator = try ModeEnergyEstimator(givenMode: .cycle)
    let result = try estimator.estimate(
      steps: steps, declaredSportBySegment: [:], source: "ride", subject: ModelInput(bodyMassKilograms: 70))
    let energy = try #require(result.parts.first?.energy)
    #expect(energy.modelID == "power-meter")
    expectClose(energy.energyKilocalories, 6 * 13.466 + 4 * 8.75, tolerance: 1e-9)
    #expect(energy.diagnostics.contains { $0.code == "no-power-met" && $0.message.hasPrefix("4 of 10") })
    let unpowered = steps.map { step -> TrackStep in
      var s = step
      s.powerWatts = nil
      return s
    }
    let plain = try estimator.estimate(
      steps: unpowered, declaredSportBySegment: [:], source: "ride",
      subject: ModelInput(bodyMassKilograms: 70))
    #expect(plain.parts.first?.energy.modelID == "met")
  }

  /// A made-up 1 Hz shuttle (speeds in scripts/oracles/energy_models.py)
  /// through the track loop under the metabolic-power model, 70 kg: the
  /// first step starts from standing. Oracle (`energy_models.py shuttle`):
  /// 5.256010 kcal.
  @Test func shuttleRunUnderMetabolicPower() throws {
    let speeds = [0.0, 1.5, 3.0, 4.2, 5.0, 5.0, 3.5, 1.5, 0.5, 1.8, 3.4, 4.6, 5.2, 4.0, 2.0, 0.6, 0.0, 0.0]
    let steps = speeds.enumerated().map { k, v in
      TrackStep(
        startSecondsSince1970: Double(k), durationSeconds: 1, distance2DMeters: v, distance3DMeters: v,
        elevationChangeMeters: 0, speedMetersPerSecond: v, gradeFraction: 0, heartRateBeatsPerMinute: nil)
    }
    let energy = try TrackEnergy(
      source: "shuttle", steps: steps[...], model: MetabolicPowerRunning(),
      subject: ModelInput(bodyMassKilograms: 70))
    expectClose(energy.energyKilocalories, 5.256010, tolerance: 1e-6)
  }

  /// A table whose heart-rate column holds 0 (no contact): that row has no
  /// heart rate, so no prediction, and a diagnostic counts it; the other
  /// rows are predicted (Swain identity by the oracle: HR 140 -> 32.791339
  /// mL/kg/min, HR 150 with rest 55 and HRmax 187 -> 3.5 + 95/132 x 46.5 =
  /// 36.965909).
  @Test func aHeartRateOfZeroInATableIsADropout() throws {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent(
      "hr-zero-\(UUID().uuidString).csv"
    ).path
    try """
    ID,VO2,HR,HRrest,VO2max,age,mass
    P1,30,140,60,50,30,70
    P1,31,0,60,50,30,70
    P2,35,150,55,50,30,80
    """.write(toFile: path, atomically: true, encoding: .utf8)
    defer { try? FileManager.default.removeItem(atPath: path) }
    let e = try MeasuredEvaluationCommand.evaluate(
      .init(
        path: path, idColumn: "ID", measuredColumn: "VO2", measuredUnit: .millilitersPerKilogramPerMinute,
        inputs: [
          try .init(parsing: "heart-rate=HR:bpm"), try .init(parsing: "resting-hr=HRrest:bpm"),
          try .init(parsing: "vo2max=VO2max:mL/kg/min"), try .init(parsing: "age=age:years"),
          try .init(parsing: "mass=mass:kg"),
        ],
        modelIDs: ["swain-1997-hrr"]))
    #expect(e.diagnostics.contains { $0.code == "heart-rate-zero" && $0.message.hasPrefix("1 row(s)") })
    #expect(e.diagnostics.contains { $0.code == "rows-without-prediction" })
    let all = try #require(e.groups.first { $0.by == "all" }?.agreement.statistics)
    #expect(all.count == 2)
    // Bias: mean of (32.791339 - 30) and (36.965909 - 35).
    expectClose(all.bias, ((32.791339 - 30) + (36.965909 - 35)) / 2, tolerance: 1e-6)
  }
}
