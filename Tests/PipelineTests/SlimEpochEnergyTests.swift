import EnergyLabCore
import Estimation
import Foundation
import Signals
import TestSupport
import Testing

/// Energy over 5 s epochs kept slim (as `batch` keeps them) is the energy
/// over the whole epochs, model by model, day by day and hour by hour.
struct SlimEpochEnergyTests {
  /// Three minutes of walking at 2 Hz then two still, from 23:58 UTC, so
  /// the epochs fall on two dates and three hours.
  static func analyse(slim: [Double]) -> AccelAnalysis {
    var spec = SyntheticRecordingSpec()
    spec.startSecondsSince1970 = 1_772_495_880  // 2026-03-02T23:58:00Z
    spec.legs = [(.walk, 180), (.still, 120)]
    var analyzer = AccelAnalyzer(
      kind: .raw, declaredRateHz: spec.rateHz, parameters: AccelAnalysisParameters(), slimEpochSeconds: slim)
    var time: [Double] = []
    var values: [Double] = []
    AccelSynthesizer.generate(spec) { i, x, y, z in
      time.append(spec.startSecondsSince1970 + Double(i) / spec.rateHz)
      values += [x, y, z]
      if time.count == 4096 {
        analyzer.add(time: time, values: values)
        time = []
        values = []
      }
    }
    analyzer.add(time: time, values: values)
    return analyzer.finish()
  }

  @Test func energyOverSlimEpochsIsEnergyOverWholeOnes() throws {
    let whole = Self.analyse(slim: [])
    let slim = Self.analyse(slim: [5])
    #expect(slim.epochs(seconds: 5) == nil && slim.slimEpochs(seconds: 5)?.count == 60)
    var options = AccelEnergyOptions()
    options.strideMeters = 0.7
    let totals = try AccelEnergy.totals(slim, options: options)
    #expect(totals == (try AccelEnergy.totals(whole, options: options)))
    #expect(totals.map(\.model).contains("met-intensity") && totals.map(\.model).contains("kinetic-hay"))
    // By hand: Birdsley's 0.0507 kcal a step over every step detected
    // (all worn).
    let steps = try #require(slim.steps)
    #expect(steps > 300)
    let birdsley = try #require(totals.first { $0.model == "steps-birdsley-2005" })
    expectClose(birdsley.kcal, 0.0507 * Double(steps), tolerance: 1e-9)
    let utc = TimeZone(identifier: "UTC")!
    let days = try AccelEnergy.byDay(slim, options: options, timeZone: utc)
    let wholeDays = try AccelEnergy.byDay(whole, options: options, timeZone: utc)
    #expect(days.keys.sorted() == ["2026-03-02", "2026-03-03"])
    #expect(days.keys.sorted() == wholeDays.keys.sorted())
    for (date, sums) in days {
      #expect(sums.map(\.0) == wholeDays[date]?.map(\.0) && sums.map(\.1) == wholeDays[date]?.map(\.1))
    }
    let hours = try AccelEnergy.hourly(slim, options: options, timeZone: utc)
    let wholeHours = try AccelEnergy.hourly(whole, options: options, timeZone: utc)
    #expect(hours.map(\.steps) == wholeHours.map(\.steps))
    #expect(hours.reduce(0) { $0 + $1.steps } == steps)
    #expect(
      hours.map(\.wornHours) == wholeHours.map(\.wornHours) && hours.map(\.days) == wholeHours.map(\.days))
    #expect(hours.map { $0.kilocalories.map(\.1) } == wholeHours.map { $0.kilocalories.map(\.1) })
  }
}
