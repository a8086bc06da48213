import Testing

@testable import Tracks

/// Smart recording (records more than 1 s apart) filled to 1 Hz before
/// any power figure, by hand.
struct OneHertzFillTests {
  static func sample(_ t: Double, _ w: Double?, cadence: Bool = true) -> PowerSample {
    PowerSample(timeSecondsSince1970: t, powerWatts: w, hasCadence: cadence)
  }

  /// 100 W at 0 s and 200 W at 4 s: the three seconds between are 125,
  /// 150 and 175 W (linear); 30 s later is a pause, nothing filled; a
  /// record with neither power nor cadence (a dropout) is left out and
  /// nothing is filled across it, even 3 s on.
  @Test func seriesFilledLinearlyWithinTenSeconds() {
    let samples = [
      Self.sample(0, 100), Self.sample(4, 200), Self.sample(34, 300),
      Self.sample(35, nil, cadence: false), Self.sample(38, 50), Self.sample(40, nil),
    ]
    let watts = PowerAnalysis().series(samples)
    // 100, fill 125 150 175, 200, 300 (pause), dropout, 50, fill 25, 0 (cadence).
    #expect(watts == [100, 125, 150, 175, 200, 300, 50, 25, 0])
  }

  /// Work and mean over the filled series: 100 W at 0 s and 200 W at 4 s
  /// are 5 s of 100, 125, 150, 175, 200 W: 750 J, 150 W mean; with FTP
  /// 200 W and 30 s windows there is no full window, so NP is unknown,
  /// never 0.
  @Test func summaryCountsTheFilledSeconds() {
    let s = PowerAnalysis().summary([Self.sample(0, 100), Self.sample(4, 200)], ftpWatts: 200)
    #expect(s.samples == 5)
    #expect(s.workJoules == 750)
    #expect(s.meanPowerWatts == 150)
    #expect(s.normalizedPowerWatts == nil)
  }
}
