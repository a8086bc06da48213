import EnergyLabCore
import Foundation
import Testing
import Tracks

@testable import Pipeline

/// `power curve` against sweat 0.25.0 (`scripts/oracles/power.py`, numpy
/// 1.23, scipy 1.9) and sweat's own published test vectors for W'
/// balance (tests/pdm/test_w_prime_balance.py of GoldenCheetah/sweatpy:
/// power 0, 1, ..., 99 W, CP 25 W, W' 2000 J).
struct PowerCurveTests {
  static let ride = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("../../Datasets/power-rides/edge810-vector-ride.fit").standardized.path

  static func edge810() throws -> [Double] {
    let options = PowerCurveCommand.Options(paths: [ride])
    return try PowerCurveCommand.rides([ride], options: options).rides[0].watts
  }

  /// vmpy 0.2's `power_duration_curve` and `normalized_power` on the
  /// indoor Edge ride (`scripts/oracles/power.py`, vmpy in a venv of its
  /// own), the series filled to 1 Hz as the oracle fills it: 2,222 power
  /// records, one second missing between two of them filled (2,223
  /// samples), 41 records with neither power nor cadence left out, to
  /// 1e-9.
  @Test func meanMaximalPowerEqualsVmpy() throws {
    let indoor = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .appendingPathComponent("../IngestTests/Fixtures/fit/sample-activity-indoor-trainer.fit").standardized
      .path
    var options = PowerCurveCommand.Options(paths: [indoor])
    let watts = try PowerCurveCommand.rides([indoor], options: options).rides[0].watts
    #expect(watts.count == 2223)
    let vmpy: [Int: Double] = [
      1: 331.0, 5: 297.2, 30: 277.5, 60: 274.3333333333333, 300: 265.3, 1200: 229.4725,
    ]
    let curve = MeanMaximalPower.curve(watts, durations: vmpy.keys.sorted())
    #expect(curve.count == 6)
    for p in curve { #expect(abs(p.watts - vmpy[p.seconds]!) < 1e-9, "\(p.seconds) s") }
    options.power.windows = .partial
    let np = try #require(PowerAnalysis(parameters: options.power).normalizedPower(watts))
    #expect(abs(np.watts - 227.637352560036) < 1e-9)
  }

  /// sweat's `mean_max` of the series with one 0 W sample in front (its
  /// `energy.diff(d)` never starts a window at the first sample; the zero
  /// makes its windows every window of the ride), to 1e-9.
  @Test func meanMaximalPowerEqualsSweat() throws {
    let watts = try Self.edge810()
    #expect(watts.count == 4700)
    let sweat: [Int: Double] = [
      1: 619.0, 5: 591.2, 30: 445.1333333333333, 60: 416.56666666666666, 300: 340.5566666666667,
      1200: 312.215, 3600: 288.71194444444444,
    ]
    let curve = MeanMaximalPower.curve(watts, durations: sweat.keys.sorted())
    #expect(curve.count == 7)
    for p in curve { #expect(abs(p.watts - sweat[p.seconds]!) < 1e-9, "\(p.seconds) s") }
    // The whole ride: its mean.
    let whole = MeanMaximalPower.curve(watts, durations: [4700])
    #expect(abs(whole[0].watts - 275.48574468085104) < 1e-9)
  }

  /// The 117 points from 120 s to 1200 s: the 2-parameter fit equals the
  /// exact least squares (numpy lstsq) to 1e-9; the nonlinear fits equal
  /// scipy least_squares run to 1e-15 tolerances within 2e-7 relative,
  /// and sweat's `PowerDurationRegressor` (curve_fit, which stops at its
  /// own 1.5e-8 tolerance) within 2e-6.
  @Test func criticalPowerFitsEqualScipy() throws {
    let result = try PowerCurveCommand.compute(PowerCurveCommand.Options(paths: [Self.ride]))
    #expect(result.fits.map(\.points) == [117, 117, 117])
    let two = result.fits[0]
    #expect(abs(two.criticalPowerWatts - 308.297850940644) < 1e-9)
    #expect(abs(try #require(two.wPrimeJoules) - 8752.569714523617) < 1e-9)
    func close(_ a: Double?, _ b: Double, _ r: Double) -> Bool {
      a.map { abs($0 - b) <= r * abs(b) } ?? false
    }
    let three = result.fits[1]
    #expect(close(three.criticalPowerWatts, 289.1718762493391, 2e-7))
    #expect(close(three.wPrimeJoules, 26276.206407527105, 2e-7))
    #expect(close(three.maxPowerWatts, 416.9444400534391, 2e-7))
    #expect(close(three.wPrimeJoules, 26276.23333026348, 2e-6))
    let exponential = result.fits[2]
    #expect(close(exponential.criticalPowerWatts, 307.6979227446605, 2e-7))
    #expect(close(exponential.maxPowerWatts, 395.6493641861191, 2e-7))
    #expect(close(exponential.tauSeconds, 317.1242175193009, 2e-7))
    #expect(close(exponential.tauSeconds, 317.12411556013143, 2e-6))
    // One ride cannot support the fit: said, not hidden.
    #expect(result.diagnostics.contains { $0.code == "single-ride-fit" })
  }

  /// A ride shorter than the range: no fit, and a diagnostic.
  @Test func rangeNotCovered() throws {
    var options = PowerCurveCommand.Options(paths: [Self.ride])
    options.fitFromSeconds = 5000
    options.fitToSeconds = 6000
    let result = try PowerCurveCommand.compute(options)
    #expect(result.fits.isEmpty)
    #expect(result.balances.isEmpty)
    #expect(result.diagnostics.contains { $0.code == "fit-range-not-covered" })
    #expect(result.diagnostics.contains { $0.code == "no-critical-power" })
  }

  /// sweat's published vectors: Skiba 2012 with the ride's tau (795.44 s)
  /// 1678.243108624266 J at 50 s and 750.7741774439289 J at 75 s; with
  /// tau 500 s, 1680.1356439412966 J at 50 s; with tau 100 s,
  /// 909.6189473286977 J at 75 s; Froncioni-Skiba-Clarke 1675 J at 50 s
  /// and 725 J at 75 s.
  @Test func wPrimeBalanceEqualsSweatsVectors() {
    let power = (0..<100).map(Double.init)
    #expect(abs(WPrimeBalance.skibaTau(power, criticalPowerWatts: 25) - 795.4401052826265) < 1e-9)
    let integral = WPrimeBalance.integral(power, criticalPowerWatts: 25, wPrimeJoules: 2000)
    #expect(abs(integral[50] - 1678.243108624266) < 1e-9)
    #expect(abs(integral[75] - 750.7741774439289) < 1e-9)
    let tau500 = WPrimeBalance.integral(power, criticalPowerWatts: 25, wPrimeJoules: 2000, tauSeconds: 500)
    #expect(abs(tau500[50] - 1680.1356439412966) < 1e-9)
    let tau100 = WPrimeBalance.integral(power, criticalPowerWatts: 25, wPrimeJoules: 2000, tauSeconds: 100)
    #expect(abs(tau100[75] - 909.6189473286977) < 1e-9)
    let differential = WPrimeBalance.differential(power, criticalPowerWatts: 25, wPrimeJoules: 2000)
    #expect(abs(differential[50] - 1675) < 1e-9)
    #expect(abs(differential[75] - 725) < 1e-9)
  }

  /// On the Edge 810 ride at CP 280 W and W' 20 kJ, sweat's minima:
  /// integral -6409.17459350752 J, differential -22421.093968545454 J.
  @Test func wPrimeBalanceMinimaOnARide() throws {
    let watts = try Self.edge810()
    let integral = WPrimeBalance.integral(watts, criticalPowerWatts: 280, wPrimeJoules: 20000)
    let differential = WPrimeBalance.differential(watts, criticalPowerWatts: 280, wPrimeJoules: 20000)
    #expect(abs(integral.min()! - -6409.17459350752) < 1e-9 * 6409)
    #expect(abs(differential.min()! - -22421.093968545454) < 1e-9 * 22421)
    var options = PowerCurveCommand.Options(paths: [Self.ride])
    options.criticalPowerWatts = 280
    options.wPrimeJoules = 20000
    let result = try PowerCurveCommand.compute(options)
    #expect(result.balances.first?.source == "stated")
    let row = PowerCurveCommand.tables(result)[2].rows[0]
    #expect(row["integral_min_j"] == .number(integral.min()!, digits: 0))
  }
}

/// The bounded-memory curve against the whole-series one on the Edge 810
/// ride: equal to 1e-9 at every duration to 1 h, never above it beyond
/// (whole 60 s blocks give a lower bound), and the whole ride exact.
struct StreamingCurveTests {
  @Test func boundedMemoryCurveAgreesWhereExact() throws {
    let watts = try PowerCurveTests.edge810()
    var streaming = StreamingMeanMaximalPower()
    for w in watts { streaming.add(w) }
    let bounded = streaming.curve()
    let exact = Dictionary(
      uniqueKeysWithValues: MeanMaximalPower.curve(watts, durations: bounded.map(\.seconds)).map {
        ($0.seconds, $0.watts)
      })
    #expect(bounded.filter(\.exact).count == MeanMaximalPower.durations(upTo: 3600).count + 1)
    for p in bounded {
      let e = try #require(exact[p.seconds])
      if p.exact {
        #expect(abs(p.watts - e) < 1e-9, "\(p.seconds) s")
      } else {
        #expect(p.watts <= e + 1e-9, "\(p.seconds) s")
        #expect(p.seconds % 60 == 0)
      }
    }
    #expect(bounded.last?.seconds == 4700)
  }
}
