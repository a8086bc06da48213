import EnergyLabCore
import Foundation
import TestSupport
import Testing

@testable import Signals

/// Epoch tables kept slim (what energy reads) and counts summed into the
/// epochs as they come: the same values as the whole tables and the
/// seconds summed afterwards.
struct SlimEpochTests {
  /// Two minutes of walking at 2 Hz, then one still, from a whole minute.
  static func recording() -> SyntheticRecording {
    var r = SyntheticRecording()
    r.start = 1_700_000_040  // 28,333,334 minutes since 1970
    r.add(seconds: 120, frequencyHz: 2, amplitude: 0.3, noise: 0.01)
    r.add(seconds: 60, noise: 0.01)
    return r
  }

  static func analyse(_ r: SyntheticRecording, slim: [Double]) -> AccelAnalysis {
    var analyzer = AccelAnalyzer(
      kind: .raw, declaredRateHz: 100, parameters: AccelAnalysisParameters(), slimEpochSeconds: slim)
    var i = 0
    while i < r.time.count {
      let j = min(r.time.count, i + 4096)
      analyzer.add(time: Array(r.time[i..<j]), values: Array(r.values[(3 * i)..<(3 * j)]))
      i = j
    }
    return analyzer.finish()
  }

  @Test func slimFiveSecondEpochsHoldWhatTheWholeOnesDo() throws {
    let r = Self.recording()
    let whole = Self.analyse(r, slim: [])
    let slim = Self.analyse(r, slim: [5])
    // 180 s from a whole minute: 36 epochs of 5 s, each of 500 samples.
    let fives = try #require(slim.slimEpochs(seconds: 5))
    #expect(fives.count == 36)
    #expect(fives.allSatisfy { $0.coverage == 1 && $0.seconds == 5 && $0.worn })
    #expect(slim.epochs(seconds: 5) == nil)
    #expect(fives == whole.epochs(seconds: 5)?.map(EnergyEpoch.init))
    // Every step detected is in one epoch; the still minute has none.
    let steps = try #require(slim.steps)
    #expect(steps > 200)
    #expect(fives.reduce(0) { $0 + ($1.steps ?? 0) } == steps)
    #expect(fives.suffix(12).allSatisfy { $0.steps == 0 })
    // The minutes, days and summaries do not change.
    #expect(slim.epochs(seconds: 60) == whole.epochs(seconds: 60))
    #expect(slim.days == whole.days)
    #expect(slim.enmoMeanMilliG == whole.enmoMeanMilliG && slim.steps == whole.steps)
  }

  /// Counts of each minute are its seconds of counts summed: the seconds
  /// counted here by ActiGraphCounts alone, the i-th starting at the first
  /// sample plus i s, summed by hand into the minutes holding their starts.
  @Test func countsOfEachMinuteAreItsSecondsSummed() throws {
    var r = SyntheticRecording()
    r.start = 1_700_000_040.37  // seconds straddle the minute boundaries
    r.add(seconds: 150, frequencyHz: 2, amplitude: 0.3, noise: 0.01)
    let a = Self.analyse(r, slim: [5])
    var counter = try #require(ActiGraphCounts(sampleRateHz: 100))
    r.values.withUnsafeBufferPointer { counter.add(xyz: $0) }
    let seconds = counter.drainSeconds()
    #expect(seconds.count >= 149)
    var byMinute: [Double: SIMD3<Double>] = [:]
    for (i, s) in seconds.enumerated() {
      let minute = ((r.start + Double(i)) / 60).rounded(.down) * 60
      byMinute[minute, default: SIMD3()] += SIMD3(Double(s.x), Double(s.y), Double(s.z))
    }
    let minutes = try #require(a.epochs(seconds: 60))
    #expect(minutes.count == 3)
    for m in minutes {
      let sum = try #require(byMinute[m.start])
      #expect(m.countsX == sum.x && m.countsY == sum.y && m.countsZ == sum.z, "\(m.start)")
      expectClose(m.countsVectorMagnitude, (sum * sum).sum().squareRoot(), tolerance: 1e-9)
    }
    #expect(minutes.reduce(0) { $0 + ($1.countsY ?? 0) } == byMinute.values.reduce(0) { $0 + $1.y })
  }

  /// Seconds by hand: the i-th starts at 1,700,000,000.25 + i s and counts
  /// (i, 2i, 3i). Epochs of 5 s from 1,700,000,000: seconds 0-4 (sum of i
  /// 10), 5-9 (35) and 10-11 (21).
  @Test func countEpochsSumTheSecondsStartingInThem() {
    var sums = CountEpochs(seconds: 5)
    for i in 0..<12 {
      sums.add((1_700_000_000.25 + Double(i), Int32(i), Int32(2 * i), Int32(3 * i)))
    }
    #expect(sums.sums.map(\.start) == [1_700_000_000, 1_700_000_005, 1_700_000_010])
    #expect(sums.sums.map(\.seconds) == [5, 5, 2])
    #expect(sums.sums.map(\.axes) == [SIMD3(10, 20, 30), SIMD3(35, 70, 105), SIMD3(21, 42, 63)])
    // A second starting on a boundary belongs to the epoch it starts.
    var edge = CountEpochs(seconds: 60)
    edge.add((1_700_000_040, 1, 1, 1))
    edge.add((1_700_000_039.999_999, 2, 2, 2))
    #expect(edge.sums.map(\.start) == [1_700_000_040, 1_699_999_980])
    #expect(!CountEpochs.fits(0.5) && !CountEpochs.fits(5.000_000_000_1) && CountEpochs.fits(60))
  }
}
