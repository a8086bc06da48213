import EnergyLabCore
import Foundation
import Testing

@testable import Tracks

/// The elevation cleaner on series whose answers are known by
/// construction.
struct ElevationCleanerTests {
  static func fixes(_ elevations: [Double], segment: Int32 = 0, start: Double = 0) -> [TrackPoint] {
    elevations.enumerated().map { k, z in
      TrackPoint(
        latitudeDegrees: 50, longitudeDegrees: 0.0001 * Double(k), elevationMeters: z,
        timeSecondsSince1970: start + Double(k), sourceLine: k + 1, segment: segment)
    }
  }

  static func clean(_ points: [TrackPoint], _ parameters: ElevationCleaning = ElevationCleaning())
    -> (points: [TrackPoint], tally: ElevationTally)
  {
    var cleaner = ElevationCleaner(parameters: parameters)
    var out: [TrackPoint] = []
    for p in points { cleaner.add(p) { out.append($0) } }
    cleaner.finish { out.append($0) }
    return (out, cleaner.tally)
  }

  /// A steady climb of 0.1 m a second for 600 s under a ±0.2 m jitter
  /// that alternates every second (an altimeter's 0.2 m steps): recorded,
  /// every second step rises 0.5 m and every other falls 0.3 m (299 rises,
  /// 149.5 m where the climb is 59.9 m); cleaned, the ramp from the
  /// first recorded fix (0.2 m) to the last (59.7 m), 59.5 m, within the
  /// 0.5 m hysteresis and the jitter left in the shortened windows at the
  /// ends.
  @Test func jitterOnASteadyClimb() {
    let z = (0..<600).map { k in 0.1 * Double(k) + (k % 2 == 0 ? 0.2 : -0.2) }
    let (points, tally) = Self.clean(Self.fixes(z))
    #expect(points.count == 600)
    #expect(abs(tally.recordedGainMeters - 299 * 0.5) < 1e-6)
    #expect(tally.reversalShare! > 0.9)
    #expect(tally.usesCleaned)
    #expect(abs(tally.gainMeters - 59.5) <= 1.0)
    #expect(tally.lossMeters == 0)
    // Away from the ends the cleaned elevation is the ramp itself.
    for k in 20..<580 {
      #expect(abs(points[k].elevationMeters! - 0.1 * Double(k)) < 0.021, "fix \(k)")
    }
  }

  /// A smooth series (no reversal) is taken as recorded under `auto`:
  /// 30 m up then 10 m down in 1 m steps.
  @Test func smoothSeriesAsRecorded() {
    let z = (0...30).map(Double.init) + (0..<10).map { 29 - Double($0) }
    let (_, tally) = Self.clean(Self.fixes(z))
    #expect(!tally.usesCleaned)
    #expect(tally.headlineGainMeters == 30)
    #expect(tally.headlineLossMeters == 10)
    #expect(tally.reversalShare! < 0.05)
  }

  /// A single spike of 80 m (an altimeter settling) is removed by the
  /// median: no gain or loss from it, where the recorded sum counts 160 m.
  @Test func spikeRemoved() {
    var z = [Double](repeating: 100, count: 60)
    z[20] = 180
    let (_, tally) = Self.clean(Self.fixes(z))
    #expect(tally.recordedGainMeters == 80)
    #expect(tally.recordedLossMeters == 80)
    var p = ElevationCleaning()
    p.method = .cleaned
    let cleaned = Self.clean(Self.fixes(z), p)
    #expect(cleaned.tally.gainMeters == 0)
    #expect(cleaned.points.allSatisfy { $0.elevationMeters == 100 })
  }

  /// Windows never cross a segment: two flat segments at 0 m and 50 m give
  /// no gain, and the order of fixes of every kind is kept.
  @Test func segmentsAndOrderKept() {
    var points = Self.fixes([Double](repeating: 0, count: 20))
    points += Self.fixes([Double](repeating: 50, count: 20), segment: 1, start: 100)
    var waypoint = TrackPoint(latitudeDegrees: 1, longitudeDegrees: 1, sourceLine: 999, kind: .waypoint)
    waypoint.elevationMeters = 7
    points.insert(waypoint, at: 10)
    var p = ElevationCleaning()
    p.method = .cleaned
    let (out, tally) = Self.clean(points, p)
    #expect(out.map(\.sourceLine) == points.map(\.sourceLine))
    #expect(tally.gainMeters == 0)
    #expect(tally.recordedGainMeters == 0)
    #expect(out[10].elevationMeters == 7)
  }

  /// Recorded: elevations pass unchanged and gain sums every rise.
  @Test func recordedPassesThrough() {
    var p = ElevationCleaning()
    p.method = .recorded
    let z: [Double] = [0, 0.2, 0, 0.2, 0, 5]
    let (out, tally) = Self.clean(Self.fixes(z), p)
    #expect(out.map { $0.elevationMeters! } == z)
    #expect(abs(tally.headlineGainMeters - 5.4) < 1e-12)
  }

  /// A barometric altimeter settling at the start (the fenix 2 run: 55 m,
  /// then 142.4 m for three fixes 2 s later, then 56 m) jumps faster than
  /// 25 m/s: both jumps are taken out, the series continues at 55 m, and
  /// neither the cleaned nor the as-recorded headline counts them; the
  /// shortened median windows at the start of a segment kept it before.
  /// Recorded keeps it: 87.4 m up, 86.4 m down.
  @Test func startupJumpTakenOut() {
    var points = Self.fixes([55, 142.4, 142.4, 142.4] + [Double](repeating: 56, count: 40))
    points[1].timeSecondsSince1970 = 2  // 87.4 m in 2 s: 43.7 m/s
    for method in [ElevationCleaning.Method.cleaned, .auto] {
      var p = ElevationCleaning()
      p.method = method
      let (out, tally) = Self.clean(points, p)
      #expect(tally.jumps == 2)
      #expect(abs(tally.headlineGainMeters) < 1e-9, "\(method)")
      #expect(abs(tally.headlineLossMeters) < 1e-9, "\(method)")
      #expect(out.allSatisfy { abs($0.elevationMeters! - 55) < 1e-9 })
    }
    var p = ElevationCleaning()
    p.method = .recorded
    let (_, tally) = Self.clean(points, p)
    #expect(abs(tally.headlineGainMeters - 87.4) < 1e-9)
    #expect(abs(tally.headlineLossMeters - 86.4) < 1e-9)
  }

  /// A fast real descent, 20 m/s for 10 s (under the 25 m/s limit), counts
  /// in full as recorded: 200 m.
  @Test func fastDescentIsNoJump() {
    let z = (0...10).map { 300 - 20 * Double($0) } + [Double](repeating: 100, count: 10)
    let (_, tally) = Self.clean(Self.fixes(z))
    #expect(tally.jumps == 0)
    #expect(tally.headlineLossMeters == 200)
  }

  /// Records without a position (a barometric unit before its GPS has a
  /// fix: the first 129 records of the Edge 500's sample ride) carry the
  /// elevation of the track: a descent of 30 m over them and 10 m more
  /// over track fixes is 40 m of loss, in file order.
  @Test func timeOnlyFixesCount() {
    var points = Self.fixes((0...30).map { 130 - Double($0) })
    for k in points.indices {
      points[k] = TrackPoint(
        latitudeDegrees: .nan, longitudeDegrees: .nan, elevationMeters: points[k].elevationMeters,
        timeSecondsSince1970: points[k].timeSecondsSince1970, sourceLine: k + 1, kind: .timeOnly)
    }
    points += Self.fixes((1...10).map { 100 - Double($0) }, start: 31).map { p in
      var q = TrackPoint(
        latitudeDegrees: p.latitudeDegrees, longitudeDegrees: p.longitudeDegrees,
        elevationMeters: p.elevationMeters,
        timeSecondsSince1970: p.timeSecondsSince1970, sourceLine: p.sourceLine + 31)
      q.segment = 0
      return q
    }
    let (out, tally) = Self.clean(points)
    #expect(out.map(\.sourceLine) == points.map(\.sourceLine))
    #expect(tally.seriesLossMeters == 40)
    // The recorded sum, as gpxpy takes it, has the fixes with a position:
    // 99 m down to 90 m.
    #expect(tally.recordedLossMeters == 9)
    #expect(tally.headlineLossMeters == 40)
  }
}
