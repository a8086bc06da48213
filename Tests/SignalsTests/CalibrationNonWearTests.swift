import EnergyLabCore
import Foundation
import Testing

@testable import Signals

/// Reproducible uniform noise in [-amplitude, amplitude] (a linear
/// congruential generator, Knuth's MMIX constants).
struct UniformNoise {
  var state: UInt64
  mutating func next(_ amplitude: Double) -> Double {
    state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
    return (Double(state >> 11) / Double(1 << 53) * 2 - 1) * amplitude
  }
}

/// 3 hours of a still device, 30 minutes in each of six orientations, at
/// 10 Hz, with x' = 1.05 x + 0.03, y' = 0.98 y - 0.02, z' = z + 0.01 (g) and
/// ±2 mg of uniform noise.
func sixOrientations(gain: SIMD3<Double>, offset: SIMD3<Double>) -> (time: [Double], values: [Double]) {
  let orientations: [SIMD3<Double>] = [
    SIMD3(1, 0, 0), SIMD3(-1, 0, 0), SIMD3(0, 1, 0), SIMD3(0, -1, 0), SIMD3(0, 0, 1), SIMD3(0, 0, -1),
  ]
  var noise = UniformNoise(state: 7)
  var time: [Double] = []
  var values: [Double] = []
  for (k, o) in orientations.enumerated() {
    for i in 0..<18_000 {
      time.append(1_700_000_000 + Double(k * 18_000 + i) / 10)
      let a = gain * o + offset
      values += [a.x + noise.next(0.002), a.y + noise.next(0.002), a.z + noise.next(0.002)]
    }
  }
  return (time, values)
}

@Suite struct AutoCalibrationTests {
  @Test func recoversAKnownGainAndOffsetError() {
    let gain = SIMD3(1.05, 0.98, 1.0)
    let offset = SIMD3(0.03, -0.02, 0.01)
    let r = sixOrientations(gain: gain, offset: offset)
    var collector = StillPointCollector()
    collector.add(time: r.time, values: r.values, temperature: [])
    collector.finish()
    // 6 x 1800 s in 10 s windows.
    #expect(collector.windows == 1080)
    #expect(collector.points.count == 1080)
    let fit = AutoCalibration.fit(collector.points, windows: collector.windows)
    #expect(fit.applied)
    // a = s (a' + o): s = 1 / gain, o = -offset by construction.
    for k in 0..<3 {
      #expect(abs(fit.scale[k] - 1 / gain[k]) < 1e-4)
      #expect(abs(fit.offsetG[k] + offset[k]) < 1e-4)
    }
    // Before: the norms of (1.08, -0.02, 0.01), (-1.02, -0.02, 0.01),
    // (0.03, 0.96, 0.01), (0.03, -1.00, 0.01), (0.03, -0.02, 1.01),
    // (0.03, -0.02, -0.99) less 1 g: 80.231, 20.245, 39.479, 0.500,
    // 10.643 and 9.344 mg, mean 26.740 mg (by hand).
    #expect(abs((fit.errorBeforeMilliG ?? 0) - 26.740) < 0.05)
    #expect((fit.errorAfterMilliG ?? 99) < 0.1)
    #expect(fit.stillPoints == 1080)
  }

  @Test func oneOrientationIsTooFewAndChangesNothing() {
    var noise = UniformNoise(state: 3)
    var collector = StillPointCollector()
    let n = 36_000
    let time = (0..<n).map { Double($0) / 10 }
    var values: [Double] = []
    for _ in 0..<n { values += [0.03 + noise.next(0.002), noise.next(0.002), 1.01 + noise.next(0.002)] }
    collector.add(time: time, values: values, temperature: [])
    collector.finish()
    let fit = AutoCalibration.fit(collector.points, windows: collector.windows)
    #expect(!fit.applied)
    #expect(fit.scale == SIMD3(repeating: 1))
    #expect(fit.offsetG == SIMD3())
    #expect(fit.diagnostics.map(\.code) == ["calibration-too-few-still-points"])
    var copy = values
    fit.apply(to: &copy, temperature: [])
    #expect(copy == values)
  }

  @Test func movingWindowsAreNotStill() {
    // SD of a uniform ±0.03 g is 17.3 mg, above 13 mg.
    var noise = UniformNoise(state: 5)
    var collector = StillPointCollector()
    let time = (0..<1000).map { Double($0) / 10 }
    var values: [Double] = []
    for _ in 0..<1000 { values += [noise.next(0.03), noise.next(0.03), 1 + noise.next(0.03)] }
    collector.add(time: time, values: values, temperature: [])
    collector.finish()
    #expect(collector.windows == 10)
    #expect(collector.points.isEmpty)
  }
}

/// A day at 1 Hz from midnight UTC: moving (±0.05 g uniform on each axis)
/// except where `still` says (then ±1 mg).
func dayWithStillGap(_ still: Range<Double>, hours: Double = 24) -> (time: [Double], values: [Double]) {
  var noise = UniformNoise(state: 11)
  var time: [Double] = []
  var values: [Double] = []
  let day0 = 20_000.0 * 86400
  for i in 0..<Int(hours * 3600) {
    let t = day0 + Double(i)
    let a = still.contains(Double(i)) ? 0.001 : 0.05
    time.append(t)
    values += [noise.next(a), noise.next(a), 1 + noise.next(a)]
  }
  return (time, values)
}

@Suite struct NonWearTests {
  let day0 = 20_000.0 * 86400

  @Test func aTwoHourStillGapOnTheClockIsFoundExactly() {
    let r = dayWithStillGap(36_000..<43_200)  // 10:00 to 12:00
    var detector = NonWearDetector()
    detector.add(time: r.time, values: r.values)
    let result = detector.finish()
    #expect(result.intervals == [(day0 + 36_000)..<(day0 + 43_200)])
    #expect(result.seconds == 7200)
    // 96 steps of 15 min; windows of 4 steps start at 93 of them; 5 of
    // them (10:00, 10:15, ..., 11:00) lie wholly in the gap.
    #expect(result.windows == 93)
    #expect(result.nonWearWindows == 5)
  }

  @Test func aGapOffTheClockLosesItsPartialSteps() {
    // 10:05 to 12:05: windows from 10:15 to 11:00 are wholly still, so
    // 10:15 to 12:00 (1.75 h) is not worn.
    let r = dayWithStillGap(36_300..<43_500)
    var detector = NonWearDetector()
    detector.add(time: r.time, values: r.values)
    let result = detector.finish()
    #expect(result.intervals == [(day0 + 36_900)..<(day0 + 43_200)])
    #expect(result.isNotWorn(day0 + 36_900))
    #expect(!result.isNotWorn(day0 + 43_200))
  }

  @Test func thresholdsAreParameters() {
    // With the range at 1 mg nothing is still (±1 mg uniform has a range
    // near 2 mg).
    let r = dayWithStillGap(36_000..<43_200, hours: 13)
    var parameters = NonWearParameters()
    parameters.rangeMilliG = 1
    var detector = NonWearDetector(parameters: parameters)
    detector.add(time: r.time, values: r.values)
    #expect(detector.finish().intervals.isEmpty)
  }
}

@Suite struct ValidDayTests {
  /// Two days at 10 Hz from midnight UTC: day 1 is 24 h worn at rest
  /// (z = 1 g, ±0.05 g uniform) with a still gap 02:00-04:00 and three
  /// stretches at z = 1.25 g (ENMO about 250 mg, moderate for
  /// hildebrand-wrist-actigraph): 12 min from 09:00 (a bout), 7 min from
  /// 13:00 (no 10 min at 80 %), and 8 min + 1 min rest + 2 min from 16:00
  /// (a bout of 11 minutes, its 1-minute break included, by GGIR's
  /// `g.getbout` run on the same 5 s pattern by
  /// scripts/oracles/ggir-bouts.R: 0x200,1x96,0x12,1x24,0x200 gives 132
  /// epochs; 1x144 gives 144 and 1x84 none); day 2 is 10 h worn at rest.
  func analysis() -> AccelAnalysis {
    let day0 = 20_000.0 * 86400
    let rate = 10.0
    func active(_ s: Double) -> Bool {
      let m = s / 60
      return (540..<552).contains(m) || (780..<787).contains(m) || (960..<968).contains(m)
        || (969..<971).contains(m)
    }
    let gap = 7200.0..<14_400.0
    var noise = UniformNoise(state: 13)
    var detector = NonWearDetector()
    var blocks: [(time: [Double], values: [Double])] = []
    let total = Int((24 + 10) * 3600 * rate)
    var time: [Double] = []
    var values: [Double] = []
    for i in 0..<total {
      let s = Double(i) / rate
      let amplitude = gap.contains(s) ? 0.001 : 0.05
      time.append(day0 + s)
      values += [
        noise.next(amplitude), noise.next(amplitude), (active(s) ? 1.25 : 1) + noise.next(amplitude),
      ]
      if time.count == 36_000 || i == total - 1 {
        blocks.append((time, values))
        detector.add(time: time, values: values)
        time = []
        values = []
      }
    }
    var parameters = AccelAnalysisParameters()
    parameters.nonWear = detector.finish()
    parameters.wearLocationStated = true
    parameters.steps.wearLocation = .wrist
    var analyzer = AccelAnalyzer(kind: .raw, declaredRateHz: rate, parameters: parameters)
    for b in blocks { analyzer.add(time: b.time, values: b.values) }
    return analyzer.finish()
  }

  @Test func daysHaveWearValidityAndBouts() throws {
    let a = analysis()
    #expect(a.days.count == 2)
    let d1 = a.days[0]
    let d2 = a.days[1]
    #expect(abs(d1.recordedHours - 24) < 1e-6)
    #expect(abs(d1.nonWearHours - 2) < 1e-6)
    #expect(abs(d1.wearHours - 22) < 1e-6)
    #expect(abs(d2.wearHours - 10) < 1e-6)
    let rules = DayRules()
    #expect(rules.isValid(d1))
    #expect(!rules.isValid(d2))
    // 12 + 7 + 10 moderate minutes; bouts of 12 and 11 minutes.
    #expect(abs((d1.minutes[.moderate] ?? 0) - 29) < 1e-6)
    #expect(abs((d1.mvpaBoutMinutes ?? 0) - 23) < 1e-6)
    // Sedentary time: 22 h 31 min in runs from midnight to the gap, from
    // the gap to 09:00 and so on, all of it in 30-minute bouts; four
    // breaks (into each active stretch and the second part of the third).
    // Every sedentary minute but the lone one between 16:08 and 16:09.
    #expect(abs((d1.sedentaryBoutMinutes ?? 0) - (22 * 60 - 29 - 1)) < 1e-6)
    #expect(d1.sedentaryBreaks == 4)
    #expect(d2.mvpaBoutMinutes == 0)
    // Sedentary: 22 h worn less the 29 active minutes, by construction.
    #expect(abs((d1.minutes[.sedentary] ?? 0) - (22 * 60 - 29)) < 1e-6)
    #expect(abs(a.nonWearSeconds - 7200) < 1e-6)
    // Non-wear epochs are kept in the table, marked.
    let epochs = try #require(a.epochs(seconds: 60))
    #expect(epochs.filter { !$0.worn }.count == 120)
    #expect(a.diagnostics.contains { $0.code == "non-wear" })
  }

  @Test func theWearRuleIsAParameter() {
    var rules = DayRules()
    rules.minimumWearHours = 10
    #expect(rules.isValid(AccelDay(date: "2024-10-04", recordedHours: 10, minutes: [:])))
    #expect(!rules.isValid(AccelDay(date: "2024-10-04", recordedHours: 12, nonWearHours: 2.5, minutes: [:])))
  }
}
