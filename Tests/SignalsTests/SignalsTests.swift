import EnergyLabCore
import Foundation
import TestSupport
import Testing

@testable import Signals

/// A synthetic recording with answers known by construction: vertical
/// acceleration 1 g plus `amplitude` x sin(2 pi f t) while walking, plus
/// reproducible Gaussian noise on every axis.
/// Seconds since 1970 UTC of a day number (days since 1970-01-01) and a
/// time of day.
func utc(_ day: Double, _ hour: Double, _ minute: Double = 0, _ second: Double = 0) -> Double {
  day * 86400 + hour * 3600 + minute * 60 + second
}

struct SyntheticRecording {
  var rateHz = 100.0
  var start = 1_700_000_000.0
  var time: [Double] = []
  var values: [Double] = []
  var seed: UInt64 = 42

  mutating func noise(_ sd: Double) -> Double {
    guard sd > 0 else { return 0 }
    // Box-Muller on a 64-bit LCG (Knuth's MMIX constants).
    func uniform() -> Double {
      seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return (Double(seed >> 11) + 0.5) / 9_007_199_254_740_992
    }
    return sd * (-2 * log(uniform())).squareRoot() * cos(2 * .pi * uniform())
  }

  /// Appends `seconds` of signal at `frequencyHz` (0: still).
  mutating func add(
    seconds: Double, frequencyHz: Double = 0, amplitude: Double = 0, noise sd: Double = 0, jitter: Double = 0
  ) {
    let n = Int((seconds * rateHz).rounded())
    let t0 = time.last.map { $0 + 1 / rateHz } ?? start
    for i in 0..<n {
      let local = Double(i) / rateHz
      let j = jitter > 0 ? Double(Int(seed % 1000)) / 1000 * jitter - jitter / 2 : 0
      _ = noise(jitter > 0 ? 1 : 0)
      time.append(t0 + local + j)
      let a = frequencyHz > 0 ? amplitude * sin(2 * .pi * frequencyHz * local) : 0
      values += [noise(sd), noise(sd), 1 + a + noise(sd)]
    }
  }

  mutating func skip(seconds: Double) {
    time[time.count - 1] += 0  // keep the last sample; the next starts after the pause
    start = time.last! + seconds
    let last = time.last!
    time.append(last + seconds)
    values += [0, 0, 1]
  }

  func analyse(
    _ parameters: AccelAnalysisParameters = AccelAnalysisParameters(), declaredRateHz: Double? = nil
  )
    -> AccelAnalysis
  {
    var analyzer = AccelAnalyzer(kind: .raw, declaredRateHz: declaredRateHz, parameters: parameters)
    // In blocks, as the reader delivers them.
    var i = 0
    while i < time.count {
      let j = min(time.count, i + 4096)
      analyzer.add(time: Array(time[i..<j]), values: Array(values[(3 * i)..<(3 * j)]))
      i = j
    }
    return analyzer.finish()
  }
}

struct ENMOAndMADTests {
  /// |a| = 1 + A sin(2 pi 2 t), A = 0.3 g, sampled at 100 Hz over whole
  /// periods (50 samples each). ENMO averages max(0, A sin): per period
  /// (A/50) x sum_{k=1..24} sin(pi k / 25) = (A/50) cot(pi/50)
  /// (the sum of sines identity), 95.367 mg (the continuous value A/pi is
  /// 95.493). The mean of |a| is 1 g, so MAD is the mean of |A sin|, twice
  /// that: 190.735 mg.
  @Test func sinusoidHasTheHandCalculatedENMOAndMAD() throws {
    var r = SyntheticRecording()
    r.add(seconds: 60, frequencyHz: 2, amplitude: 0.3)
    var p = AccelAnalysisParameters()
    p.epochSeconds = [5, 60]
    r.start = 1_700_000_040  // a whole minute
    r.time = r.time.map { $0 + 40 }
    let a = r.analyse(p)
    let enmo = 0.3 / 50 / tan(Double.pi / 50) * 1000
    expectClose(enmo, 95.367, tolerance: 0.001)
    let epoch = try #require(a.epochs(seconds: 60)?.first)
    expectClose(epoch.enmoMilliG!, enmo, tolerance: 1e-6)
    expectClose(epoch.madMilliG!, 2 * enmo, tolerance: 1e-6)
    #expect(epoch.samples == 6000 && epoch.coverage == 1)
    // 95.4 mg is light on Hildebrand's wrist cut-points (44.8 <= light <
    // 100.6), which classify the 5 s epochs they were published for (each
    // of them 10 whole periods, so the same ENMO), not the minute.
    let fives = try #require(a.epochs(seconds: 5))
    #expect(fives.count == 12 && fives.allSatisfy { $0.intensity == .light })
    #expect(epoch.intensity == nil)
    #expect(a.intensityEpochSeconds == 5 && a.days.first?.minutes[.light] == 1)
  }

  /// Two samples by hand: (0, 0, 1) has |a| = 1, ENMO 0; (0, 0.9, 1.2) has
  /// |a| = 1.5, ENMO 500 mg; mean 250 mg; MAD = mean |1 - 1.25|, |1.5 -
  /// 1.25| = 250 mg.
  @Test func twoSamplesByHand() throws {
    var analyzer = AccelAnalyzer(kind: .raw, declaredRateHz: 1, parameters: AccelAnalysisParameters())
    analyzer.add(time: [1_700_000_000, 1_700_000_001], values: [0, 0, 1, 0, 0.9, 1.2])
    let a = analyzer.finish()
    let epoch = try #require(a.epochs(seconds: 5)?.first)
    expectClose(epoch.enmoMilliG!, 250, tolerance: 1e-9)
    expectClose(epoch.madMilliG!, 250, tolerance: 1e-9)
    expectClose(a.enmoMeanMilliG!, 250, tolerance: 1e-9)
  }

  /// Gravity-free exports (phone "linear acceleration") have |a| near 0.
  @Test func missingGravityIsReported() {
    var analyzer = AccelAnalyzer(kind: .raw, declaredRateHz: 1, parameters: AccelAnalysisParameters())
    analyzer.add(time: [0, 1, 2], values: [0.01, 0, 0, 0, 0.02, 0, 0, 0, 0.01])
    #expect(analyzer.finish().diagnostics.contains { $0.code == "gravity-missing" })
  }

  /// A minute of walking at 2 steps/s (120 steps by construction): with
  /// gravity the steps, ENMO and intensity are there; the same signal
  /// without gravity gives none of them (|a| - 1 g would be read as
  /// nonsense: no steps, ENMO 0, every minute sedentary), only a warning.
  @Test func withoutGravityNoStepsENMOOrIntensityAreReported() throws {
    var walk = SyntheticRecording()
    walk.rateHz = 50
    walk.add(seconds: 60, frequencyHz: 2, amplitude: 0.3, noise: 0.01)
    var p = AccelAnalysisParameters()
    p.epochSeconds = [5, 60]
    let with = walk.analyse(p)
    #expect(abs((with.steps ?? 0) - 120) <= 2)
    #expect(with.enmoMeanMilliG != nil && with.days.first?.minutes.isEmpty == false)
    var linear = walk
    for i in stride(from: 2, to: linear.values.count, by: 3) { linear.values[i] -= 1 }
    let without = linear.analyse(p)
    #expect(without.steps == nil && without.enmoMeanMilliG == nil && without.madMeanMilliG == nil)
    let epoch = try #require(without.epochs(seconds: 60)?.first)
    #expect(epoch.enmoMilliG == nil && epoch.madMilliG == nil && epoch.intensity == nil && epoch.steps == nil)
    #expect(without.days.allSatisfy { $0.minutes.isEmpty && $0.steps == nil && $0.enmoMeanMilliG == nil })
    let warning = try #require(without.diagnostics.first { $0.code == "gravity-missing" })
    #expect(warning.severity == .warning && warning.message.contains("steps, ENMO and MAD need gravity"))
  }
}

struct StepDetectionTests {
  /// 60 s at a cadence of 2 steps/s: 120 steps by construction (one
  /// vertical peak per step), with 0.02 g of noise on every axis.
  @Test func walkingAtTwoHertzGivesItsSteps() {
    var r = SyntheticRecording()
    r.add(seconds: 10, noise: 0.02)
    r.add(seconds: 60, frequencyHz: 2, amplitude: 0.3, noise: 0.02)
    r.add(seconds: 10, noise: 0.02)
    let steps = r.analyse().steps!
    #expect(abs(steps - 120) <= 1, "counted \(steps)")
  }

  /// Running: 2.8 steps/s for 60 s with a 0.8 g impact, 168 steps.
  @Test func runningGivesItsSteps() {
    var r = SyntheticRecording()
    r.add(seconds: 60, frequencyHz: 2.8, amplitude: 0.8, noise: 0.05)
    let steps = r.analyse().steps!
    #expect(abs(steps - 168) <= 1, "counted \(steps)")
  }

  @Test func stillnessAndNoiseAreNoSteps() {
    var r = SyntheticRecording()
    r.add(seconds: 120, noise: 0.02)
    #expect(r.analyse().steps == 0)
  }

  /// Three steps are below the four-step bout: no steps.
  @Test func shortBurstsAreNotABout() {
    var r = SyntheticRecording()
    r.add(seconds: 10, noise: 0.01)
    r.add(seconds: 1.5, frequencyHz: 2, amplitude: 0.3, noise: 0.01)
    r.add(seconds: 10, noise: 0.01)
    r.add(seconds: 1.5, frequencyHz: 2, amplitude: 0.3, noise: 0.01)
    r.add(seconds: 10, noise: 0.01)
    #expect(r.analyse().steps == 0)
  }

  /// Phone sampling jitters by up to +-4 ms around 10 ms: the signal is
  /// resampled before filtering, the count holds, and the report says so.
  @Test func jitteredSamplingIsResampled() {
    var r = SyntheticRecording()
    r.add(seconds: 60, frequencyHz: 2, amplitude: 0.3, noise: 0.02, jitter: 0.008)
    let a = r.analyse()
    #expect(abs(a.steps! - 120) <= 1, "counted \(a.steps!)")
    #expect(a.diagnostics.contains { $0.code == "irregular-sampling" })
  }

  /// 30 s of walking, a 20 s pause in the recording, 30 s more: 120 steps
  /// and one gap reported.
  @Test func aGapEndsTheBoutAndIsReported() {
    var r = SyntheticRecording()
    r.add(seconds: 30, frequencyHz: 2, amplitude: 0.3, noise: 0.02)
    r.skip(seconds: 20)
    r.add(seconds: 30, frequencyHz: 2, amplitude: 0.3, noise: 0.02)
    let a = r.analyse()
    #expect(a.gaps == 1)
    #expect(abs(a.steps! - 120) <= 2, "counted \(a.steps!)")
    #expect(a.diagnostics.first { $0.code == "gaps" }?.message.contains("20.0 s") == true)
  }

  /// A gap ends the count stream, which starts again at the first sample
  /// after it: the counts of a recording with a pause are those of its two
  /// halves counted apart, not of the whole counted straight through.
  @Test func aGapRestartsTheCounts() throws {
    var r = SyntheticRecording()
    r.add(seconds: 30, frequencyHz: 2, amplitude: 0.3, noise: 0.02)
    let half = r.time.count
    r.skip(seconds: 20)
    r.add(seconds: 30, frequencyHz: 1.8, amplitude: 0.5, noise: 0.02)
    func counts(_ rows: Range<Int>) throws -> SIMD3<Double> {
      var counter = try #require(ActiGraphCounts(sampleRateHz: 100))
      for i in rows { counter.add(x: r.values[3 * i], y: r.values[3 * i + 1], z: r.values[3 * i + 2]) }
      return counter.drainSeconds().reduce(SIMD3<Double>()) {
        $0 + SIMD3(Double($1.x), Double($1.y), Double($1.z))
      }
    }
    let apart = try counts(0..<half) + counts(half..<r.time.count)
    let straight = try counts(0..<r.time.count)
    var p = AccelAnalysisParameters()
    p.keepEpochs = true
    p.epochSeconds = [60]
    let epochs = try #require(r.analyse(p).epochs(seconds: 60))
    let total = epochs.reduce(SIMD3<Double>()) {
      $0 + SIMD3($1.countsX ?? 0, $1.countsY ?? 0, $1.countsZ ?? 0)
    }
    #expect(apart.z > 1000)
    #expect(total == apart)
    #expect(total != straight)
  }

  /// Counts come a second at a time. 2 s epochs sum two seconds each (the
  /// counter's own seconds, independently added); 0.5 s and 1.5 s epochs
  /// get none, and a note says why, rather than one epoch holding a whole
  /// second's counts (or two) and the next none.
  @Test func countsFillOnlyEpochsOfWholeSeconds() throws {
    var r = SyntheticRecording()
    r.add(seconds: 12, frequencyHz: 2, amplitude: 0.3, noise: 0.02)
    var counter = try #require(ActiGraphCounts(sampleRateHz: 100))
    for i in 0..<r.time.count {
      counter.add(x: r.values[3 * i], y: r.values[3 * i + 1], z: r.values[3 * i + 2])
    }
    let seconds = counter.drainSeconds().map { Double($0.z) }
    var p = AccelAnalysisParameters()
    p.keepEpochs = true
    p.epochSeconds = [2, 0.5, 1.5]
    let a = r.analyse(p)
    let two = try #require(a.epochs(seconds: 2))
    #expect(two.count == 6)
    for (k, e) in two.enumerated() { #expect(e.countsZ == seconds[2 * k] + seconds[2 * k + 1]) }
    #expect(seconds.reduce(0, +) > 100)
    for length in [0.5, 1.5] {
      let epochs = try #require(a.epochs(seconds: length))
      #expect(!epochs.isEmpty && epochs.allSatisfy { $0.countsZ == nil && $0.countsVectorMagnitude == nil })
    }
    let note = try #require(a.diagnostics.first { $0.code == "counts-epoch" })
    #expect(note.message.hasPrefix("no ActiGraph counts in epochs of 0.5 s, 1.5 s: counts are whole seconds"))
  }

  /// Steps with one impact each (a 0.1 s raised-cosine pulse of 0.3 g on
  /// 1 g at 100 Hz) at `impacts` (s), where the impacts at `weak` have a
  /// tenth of that: their filtered peaks fall below the 0.05 g threshold,
  /// as a turning step's do on a phone in the hand.
  static func stepTimes(
    impacts: [Double], weak: Set<Int> = [], change: (inout StepDetectionParameters) -> Void = { _ in }
  ) -> [Double] {
    let rate = 100.0
    var p = StepDetectionParameters()
    change(&p)
    var detector = StepDetector(sampleRateHz: rate, parameters: p)
    for i in 0..<Int(((impacts.last ?? 0) + 4) * rate) {
      let t = Double(i) / rate
      var a = 1.0
      for (k, s) in impacts.enumerated() where abs(t - s) < 0.05 {
        a += (weak.contains(k) ? 0.03 : 0.3) * (1 + cos(.pi * (t - s) / 0.05)) / 2
      }
      detector.add(time: t, magnitude: a)
    }
    detector.finish()
    return detector.drainSteps()
  }

  /// Steps at 2/s from 2 s on.
  static func stepTimes(count: Int, weak: Set<Int>, gapFill: Bool) -> [Double] {
    stepTimes(impacts: (0..<count).map { 2 + 0.5 * Double($0) }, weak: weak) {
      if !gapFill { $0.gapFillMinimumRatio = 0 }
    }
  }

  /// One weak step inside a steady walk leaves an interval of two steps
  /// (1.0 s against a median of 0.5 s) with a local maximum at its middle:
  /// the gap-fill rule counts it there, all 40 steps; without the rule 39.
  @Test func aWeakStepInTheRhythmIsCounted() throws {
    let without = Self.stepTimes(count: 40, weak: [20], gapFill: false)
    let with = Self.stepTimes(count: 40, weak: [20], gapFill: true)
    #expect(without.count == 39)
    #expect(with.count == 40)
    // The filled step lies midway between its neighbours, half a period
    // from each (the filters delay every step alike).
    let filled = try #require(with.first { t in !without.contains(t) })
    let before = try #require(without.last { $0 < filled })
    let after = try #require(without.first { $0 > filled })
    #expect(abs(filled - before - 0.5) <= 0.1 && abs(after - filled - 0.5) <= 0.1)
    // A regular walk gains nothing from the rule.
    #expect(Self.stepTimes(count: 40, weak: [], gapFill: true).count == 40)
  }

  /// A weak step whose next full step comes late: the interval from the
  /// last full step is 1.2 s, 2.4 times the walk's 0.5 s, above the 2.3
  /// that holds one missed step. Nothing is filled; the rhythm breaks and
  /// a new bout starts at the late step, whose steps all count: 39 of 40.
  /// With the bound at 2.5 the weak step is counted: 40.
  @Test func anIntervalLongerThanTwoStepsIsNotFilled() {
    var impacts = (0..<21).map { 2 + 0.5 * Double($0) }
    impacts.append(impacts.last! + 0.5)  // weak
    impacts.append(impacts.last! + 0.7)
    for _ in 0..<17 { impacts.append(impacts.last! + 0.5) }
    #expect(impacts.count == 40)
    #expect(Self.stepTimes(impacts: impacts, weak: [21]).count == 39)
    #expect(Self.stepTimes(impacts: impacts, weak: [21]) { $0.gapFillMaximumRatio = 2.5 }.count == 40)
  }

  /// Two weak steps in a row leave three periods (1.5 s), longer than the
  /// 1.25 s that ends a bout: the walk goes on as a new bout and loses
  /// just the two weak steps.
  @Test func aLongerBreakInTheRhythmIsNotFilled() {
    #expect(Self.stepTimes(count: 40, weak: [20, 21], gapFill: true).count == 38)
  }

  /// 40 steps at 2/s, then 8 impacts as strong as steps but without a
  /// rhythm (intervals alternating about 1.1 s and 0.4 s, all short
  /// enough to continue the bout), as when a phone is taken out of a bag
  /// after the walk. The first interval (1.2 s, 2.4 times the walk's
  /// 0.5 s) breaks the rhythm, and no four of the impacts keep one (each
  /// three intervals span a factor of 2.75 or more, above 2.5): 40 steps.
  /// Without the rule the bout goes on through them: 48.
  @Test func impactsWithoutARhythmAfterAWalkAreNotSteps() {
    let walk = (0..<40).map { 2 + 0.5 * Double($0) }
    var handling = [walk.last! + 1.2]
    for interval in [0.4, 1.1, 0.35, 1.2, 0.4, 1.0, 0.35] { handling.append(handling.last! + interval) }
    #expect(Self.stepTimes(impacts: walk + handling).count == 40)
    let without = Self.stepTimes(impacts: walk + handling) {
      $0.rhythmMinimumRatio = 0
      $0.boutRegularityRatio = 0
    }
    #expect(without.count == 48)
    // A walk that slows from 0.5 s to 0.7 s a step over ten steps keeps
    // its rhythm: every step counts.
    var slowing = walk
    for k in 1...10 { slowing.append(slowing.last! + 0.5 + 0.02 * Double(k)) }
    #expect(Self.stepTimes(impacts: slowing).count == 50)
  }

  /// Below 10 Hz the band-pass cannot work: no steps, and a warning.
  @Test func lowRatesDetectNoSteps() {
    var r = SyntheticRecording()
    r.rateHz = 5
    r.add(seconds: 60, frequencyHz: 2, amplitude: 0.3)
    let a = r.analyse()
    #expect(a.steps == nil)
    #expect(a.diagnostics.contains { $0.code == "rate-too-low-for-steps" })
  }
}

struct EpochAndDayTests {
  /// 60 s epochs start on whole minutes: a recording from 08:00:30 fills
  /// half of its first minute.
  @Test func epochsAlignToWholeMultiples() throws {
    var r = SyntheticRecording()
    r.start = 1_700_000_010  // 22:13:30Z
    r.add(seconds: 90)
    var p = AccelAnalysisParameters()
    p.epochSeconds = [60]
    let epochs = try #require(r.analyse(p).epochs(seconds: 60))
    #expect(epochs.count == 2)
    #expect(epochs[0].start == 1_699_999_980)
    #expect(epochs[0].coverage == 0.5)
    #expect(epochs[1].coverage == 1)
  }

  /// Days are local: 22:59Z and 23:00Z on 2024-07-01 are 23:59 on July 1
  /// and 00:00 on July 2 in London (BST). (Hildebrand's thresholds are
  /// for 5 s epochs; on these 60 s ones they apply only when asked.)
  @Test func daysFollowTheTimeZone() {
    var analyzer = AccelAnalyzer(
      kind: .enmo, declaredRateHz: 1.0 / 60,
      parameters: {
        var p = AccelAnalysisParameters()
        p.epochSeconds = [60]
        p.intensityEpochSeconds = 60
        p.timeZone = TimeZone(identifier: "Europe/London")!
        return p
      }())
    // 2024-07-01 is day 19905.
    let t = utc(19905, 22, 59)
    analyzer.add(time: [t, t + 60], values: [50, 150])
    let days = analyzer.finish().days
    #expect(days.map(\.date) == ["2024-07-01", "2024-07-02"])
    #expect(days[0].minutes[.light] == 1)
    #expect(days[1].minutes[.moderate] == 1)
  }

  /// Without the epoch tables the summary is the same: days, steps, ENMO
  /// and MAD come out of the stream as the epochs close. The recording
  /// crosses midnight (UTC) with walking on both sides.
  @Test func streamingSummaryEqualsTheKeptTables() {
    var r = SyntheticRecording()
    r.start = utc(19905, 23, 58)
    r.time = []
    r.add(seconds: 60, noise: 0.02)
    r.add(seconds: 120, frequencyHz: 2, amplitude: 0.3, noise: 0.02)
    r.add(seconds: 60, noise: 0.02)
    var kept = AccelAnalysisParameters()
    kept.keepEpochs = true
    var streamed = kept
    streamed.keepEpochs = false
    let a = r.analyse(kept)
    let b = r.analyse(streamed)
    #expect(b.epochs.isEmpty && !a.epochs.isEmpty)
    #expect(a.days == b.days)
    #expect(a.days.map(\.date) == ["2024-07-01", "2024-07-02"])
    #expect(a.steps == b.steps && a.enmoMeanMilliG == b.enmoMeanMilliG && a.madMeanMilliG == b.madMeanMilliG)
    // Steps by day add up to the whole: 240 by construction, one day's
    // minute of walking before midnight (120) and one after (120).
    #expect(a.days.compactMap(\.steps).reduce(0, +) == a.steps)
    #expect(abs(a.steps! - 240) <= 1)
  }

  /// Count epochs sum into longer epochs; Freedson's bounds are at 100,
  /// 1952 and 5725 counts/min. The second minute holds one 15 s row: its
  /// 99 counts are not a minute's, so it is left out, not sedentary.
  @Test func countEpochsSumAndClassify() throws {
    var p = AccelAnalysisParameters()
    p.epochSeconds = [60]
    var analyzer = AccelAnalyzer(kind: .counts, declaredRateHz: 1.0 / 15, parameters: p)
    let nan = Double.nan
    analyzer.add(
      time: [0, 15, 30, 45, 60],
      values: [
        500, 0, 0, 10, nan, 500, 0, 0, 10, nan, 500, 0, 0, 10, nan, 452, 0, 0, 10, nan, 99, 0, 0, 0, nan,
      ])
    let a = analyzer.finish()
    let epochs = try #require(a.epochs(seconds: 60))
    #expect(epochs[0].countsAxis1 == 1952 && epochs[0].intensity == .moderate && epochs[0].steps == 40)
    #expect(epochs[1].countsAxis1 == 99 && epochs[1].intensity == nil)
    #expect(a.days.first?.minutes == [.sedentary: 0, .light: 0, .moderate: 1, .vigorous: 0])
    let note = try #require(a.diagnostics.first { $0.code == "partial-epochs" })
    #expect(note.message.hasPrefix("1 epoch(s) with fewer than 60 s of counts left out"), "\(note.message)")
    #expect(note.message.contains("(15 s at the end)"), "\(note.message)")
    #expect(a.steps == 40)
    let f = CutPoints.freedson1998
    #expect(f.classify(99) == .sedentary && f.classify(100) == .light && f.classify(1951) == .light)
    #expect(f.classify(5724) == .moderate && f.classify(5725) == .vigorous)
  }
}

/// Count cut-points classify the epochs they were published for: Freedson
/// 1998 sums axis-1 counts over whole 60 s epochs (aligned to the clock
/// minute), never 5 s blocks scaled to a minute.
struct IntensityEpochTests {
  /// 12:00:00 UTC on 2023-11-14, a whole minute (1,700,000,040 / 60 =
  /// 28,333,334).
  static let minute0 = 1_700_000_040.0

  /// Rows of a 1 s counts file from `start`: axis 1 as given, the other
  /// axes, steps and vector magnitude missing.
  static func analyse(
    _ axis1: [Double], start: Double = minute0,
    _ configure: (inout AccelAnalysisParameters) -> Void = { _ in }
  )
    -> AccelAnalysis
  {
    var p = AccelAnalysisParameters()
    configure(&p)
    var analyzer = AccelAnalyzer(kind: .counts, declaredRateHz: 1, parameters: p)
    let nan = Double.nan
    analyzer.add(
      time: axis1.indices.map { start + Double($0) },
      values: axis1.flatMap { [$0, nan, nan, nan, nan] })
    return analyzer.finish()
  }

  /// Three minutes of 1 s counts summing to 50, 3000 and 6000 counts per
  /// minute: 50 in one second; 300 in each of the first ten seconds; 100
  /// in every second.
  static let threeMinutes: [Double] =
    [50] + Array(repeating: 0, count: 59)
    + Array(repeating: 300, count: 10) + Array(repeating: 0, count: 50)
    + Array(repeating: 100, count: 60)

  /// By hand on Freedson's bounds (light 100, moderate 1952, vigorous 5725
  /// counts/min): 50 is sedentary, 3000 moderate, 6000 vigorous; one
  /// minute each, none light.
  @Test func minutesComeFromWholeMinutesOfCounts() throws {
    let a = Self.analyse(Self.threeMinutes)
    #expect(a.intensityEpochSeconds == 60)
    let minutes = try #require(a.epochs(seconds: 60))
    #expect(minutes.map(\.countsAxis1) == [50, 3000, 6000])
    #expect(minutes.map(\.intensity) == [.sedentary, .moderate, .vigorous])
    #expect(a.days.first?.minutes == [.sedentary: 1, .light: 0, .moderate: 1, .vigorous: 1])
    // The 5 s epochs keep their counts but no class.
    let fives = try #require(a.epochs(seconds: 5))
    #expect(fives.count == 36 && fives.allSatisfy { $0.intensity == nil })
    #expect(
      !a.diagnostics.contains { ["partial-epochs", "cut-points-epoch", "intensity-epoch"].contains($0.code) })
  }

  /// The same counts classified in 5 s blocks, as counts x 12 per minute,
  /// only when asked: minute 1 has one block of 50 (600/min, light) and
  /// eleven of 0; minute 2 two blocks of 1500 (18,000/min, vigorous) and
  /// ten of 0; minute 3 twelve of 500 (6000/min, vigorous). So 21 blocks
  /// sedentary (1.75 min), 1 light (5 s), none moderate, 14 vigorous
  /// (70 s): other numbers than the minutes', and a warning says why.
  @Test func fiveSecondBlocksOnlyWhenAsked() throws {
    let a = Self.analyse(Self.threeMinutes) { $0.intensityEpochSeconds = 5 }
    #expect(a.intensityEpochSeconds == 5)
    let day = try #require(a.days.first?.minutes)
    expectClose(day[.sedentary]!, 21.0 * 5 / 60, tolerance: 1e-9)
    expectClose(day[.light]!, 5.0 / 60, tolerance: 1e-9)
    #expect(day[.moderate] == 0)
    expectClose(day[.vigorous]!, 14.0 * 5 / 60, tolerance: 1e-9)
    let warning = try #require(a.diagnostics.first { $0.code == "cut-points-epoch" })
    #expect(warning.severity == .warning)
    #expect(
      warning.message.hasPrefix(
        "freedson-1998 cut-points were published for 60 s epochs and are applied to 5 s epochs, as asked: counts per minute are each epoch's counts x 12"
      ), "\(warning.message)")
  }

  /// 150 s of counts from a whole minute: two whole minutes (6000 and 0
  /// counts: vigorous and sedentary) and 30 s left over (30 x 100 = 3000
  /// counts, which would read as moderate if taken for a minute), left out
  /// and said.
  @Test func aTrailingPartMinuteIsLeftOutAndSaid() throws {
    let counts =
      Array(repeating: 100.0, count: 60) + Array(repeating: 0, count: 60)
      + Array(repeating: 100, count: 30)
    let a = Self.analyse(counts)
    let minutes = try #require(a.epochs(seconds: 60))
    #expect(minutes.count == 3)
    #expect(minutes.map(\.intensity) == [.vigorous, .sedentary, nil])
    #expect(minutes[2].countsAxis1 == 3000 && minutes[2].coverage == 0.5)
    #expect(a.days.first?.minutes == [.sedentary: 1, .light: 0, .moderate: 0, .vigorous: 1])
    let note = try #require(a.diagnostics.first { $0.code == "partial-epochs" })
    #expect(note.severity == .note)
    #expect(
      note.message
        == "1 epoch(s) with fewer than 60 s of counts left out of the intensity classes and minutes (30 s at the end): freedson-1998 classifies counts summed over whole 60 s epochs, aligned to the clock"
    )
  }

  /// Epochs are clock minutes: 150 s of counts from 12:00:40 end at
  /// 12:03:10, so the first minute holds 20 s and the last 10 s, with two
  /// whole minutes (6000 counts each, vigorous) between.
  @Test func partMinutesAtBothEndsAreSaid() throws {
    let a = Self.analyse(Array(repeating: 100, count: 150), start: Self.minute0 + 40)
    #expect(a.epochs(seconds: 60)?.map(\.intensity) == [nil, .vigorous, .vigorous, nil])
    #expect(a.days.first?.minutes[.vigorous] == 2)
    let note = try #require(a.diagnostics.first { $0.code == "partial-epochs" })
    #expect(note.message.hasPrefix("2 epoch(s) with fewer than 60 s of counts left out"))
    #expect(note.message.contains("(20 s at the start, 10 s at the end)"), "\(note.message)")
  }

  /// ENMO cut-points were published for 5 s epochs: on 60 s epochs alone
  /// nothing is classified, and a note says so and how to ask.
  @Test func enmoCutPointsNeedTheirEpoch() throws {
    var analyzer = AccelAnalyzer(
      kind: .enmo, declaredRateHz: 1.0 / 60,
      parameters: {
        var p = AccelAnalysisParameters()
        p.epochSeconds = [60]
        return p
      }())
    analyzer.add(time: [Self.minute0, Self.minute0 + 60], values: [50, 150])
    let a = analyzer.finish()
    #expect(a.intensityEpochSeconds == nil)
    #expect(a.epochs(seconds: 60)?.allSatisfy { $0.intensity == nil } == true)
    #expect(a.days.allSatisfy { $0.minutes.isEmpty })
    let note = try #require(a.diagnostics.first { $0.code == "intensity-epoch" })
    #expect(
      note.message.hasPrefix(
        "no intensity classes: hildebrand-wrist-actigraph cut-points were published for 5 s epochs and the epochs analysed are 60 s"
      ), "\(note.message)")
    #expect(note.remedy == Remedy(.intensityEpoch, value: "60s"))
  }

  /// Each set keeps the epoch it was published for.
  @Test func publishedEpochs() {
    #expect(CutPoints.freedson1998.publishedEpochSeconds == 60)
    for cut in CutPoints.all where cut.metric == .enmoMilliG { #expect(cut.publishedEpochSeconds == 5) }
  }

  /// A default choice is said: counts take Freedson whatever the location;
  /// raw data without a location takes the wrist's thresholds.
  @Test func aDefaultChoiceOfCutPointsIsSaid() throws {
    let counts = Self.analyse(Self.threeMinutes)
    let note = try #require(counts.diagnostics.first { $0.code == "cut-points-default" })
    #expect(
      note.message
        == "no cut-points given: freedson-1998 (axis-1 counts/min on 60 s epochs), the default for counts whatever the wear location"
    )
    let stated = Self.analyse(Self.threeMinutes) { $0.wearLocationStated = true }
    #expect(!stated.diagnostics.contains { $0.code == "cut-points-default" })
    let chosen = Self.analyse(Self.threeMinutes) { $0.cutPoints = .freedson1998 }
    #expect(!chosen.diagnostics.contains { $0.code == "cut-points-default" })
  }
}

/// A steps column whose epoch gives a step rate no person reaches (more
/// than 300 steps a minute) is left out of the steps, with a warning; the
/// rest are summed. 15 s rows: 20, 100 (400 steps/min), 25, 10 steps.
struct StepRateLimitTests {
  @Test func anImpossibleStepRateIsLeftOut() throws {
    var p = AccelAnalysisParameters()
    p.epochSeconds = [60]
    var analyzer = AccelAnalyzer(kind: .counts, declaredRateHz: 1.0 / 15, parameters: p, source: "c.csv")
    let nan = Double.nan
    analyzer.add(
      time: [0, 15, 30, 45],
      values: [500, 0, 0, 20, nan, 500, 0, 0, 100, nan, 500, 0, 0, 25, nan, 452, 0, 0, 10, nan])
    let a = analyzer.finish()
    #expect(a.steps == 20 + 25 + 10)
    let warning = try #require(a.diagnostics.first { $0.code == "implausible-step-rate" })
    #expect(
      warning.message.hasPrefix(
        "1 epochs with a step rate outside the human and device limits of 0-300 steps/min"))
    #expect(warning.message.hasSuffix("the first 400 steps/min at 15 s"))
  }
}
