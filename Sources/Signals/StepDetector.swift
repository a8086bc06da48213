import EnergyLabCore
import Foundation

/// Where the device was worn; it sets the peak threshold. Phones were
/// validated on 48 recordings in seven carrying positions, the wrist on one
/// walker, the waist on three participants' lower-back recordings (see
/// the README's Limits and BENCHMARKS.md).
public enum WearLocation: String, CaseIterable, Sendable, Hashable {
  /// A phone carried in the hand, an armband, a neck pouch, a purse or
  /// bag, or a trouser pocket.
  case phone
  /// A watch or wristband.
  case wrist
  /// A device on a belt at the hip or the lower back. The pelvis moves
  /// less than a carried phone: slow walking (below 0.7 m/s) peaks at
  /// 0.02-0.05 g there, under the phones' threshold.
  case waist

  /// The filtered peak a step must reach at this location, g: 0.05 g
  /// chosen on the phones (leave one user out), which at the wrists of one
  /// walker finds 97-99 % of the steps; 0.02 g at the waist, chosen leaving
  /// one Mobilise-D participant out in each of three folds.
  public var peakThresholdG: Double {
    switch self {
    case .phone, .wrist: 0.05
    case .waist: 0.02
    }
  }
}

/// The parameters of `StepDetector`, each named and reported.
public struct StepDetectionParameters: Sendable, Hashable {
  /// Where the device was worn (the threshold below is its default).
  public var wearLocation = WearLocation.phone
  /// High-pass corner on |a| - 1 g, removing gravity and posture, Hz.
  public var highPassHz = 0.5
  /// Low-pass corner, removing impacts and tremor above walking cadence, Hz.
  /// 2.5 Hz is the top of walking cadence (150 steps/min); it also damps
  /// the heel-and-toe second peak of slow walking (a step each 0.7 s gives
  /// a harmonic near 2.8 Hz), which a 4 Hz corner counted as steps. Running
  /// cadences lie above it but their peaks are large enough to pass.
  public var lowPassHz = 2.5
  /// A filtered peak must reach this, g.
  public var peakThresholdG = 0.05
  /// A peak below this share of the mean of the bout's last four full
  /// peaks is filter ringing or a stumble, not a step. Low enough to keep
  /// the smaller peak of the far leg when the phone is in a trouser pocket.
  public var relativePeakFraction = 0.3
  /// A peak below this share (and above `relativePeakFraction`) is a weak
  /// step: it counts only when a full step follows in the same bout, so
  /// the overshoot of the filters after the last step is not a step.
  public var weakPeakFraction = 0.5
  /// Peaks closer than this are one step (the larger is kept): 200
  /// steps/min, above walking and most running cadences.
  public var minimumStepIntervalSeconds = 0.3
  /// A longer pause ends a bout.
  public var maximumStepIntervalSeconds = 1.25
  /// Steps count only in bouts of at least this many consecutive steps.
  public var minimumBoutSteps = 4
  /// An interval between steps of a bout this many times the median of
  /// the last four intervals, or more (up to `gapFillMaximumRatio`), is a
  /// step the threshold missed when the filtered signal has a local
  /// maximum near its middle: turning, or a hand moving the phone, damps
  /// one step's peak while the walker's rhythm goes on. An interval longer
  /// than `maximumStepIntervalSeconds` ends the bout first, so the rule
  /// applies to step times up to 1.25 s / 1.7 = 0.74 s. Zero turns the
  /// rule off.
  public var gapFillMinimumRatio = 1.7
  public var gapFillMaximumRatio = 2.3
  /// How far from the middle of the interval that maximum may lie, as a
  /// share of the median interval.
  public var gapFillWindow = 0.3
  /// An interval below this many times the median of the bout's last
  /// four, or above `rhythmMaximumRatio` times it (and holding no missed
  /// step), breaks the rhythm: a new bout starts and must show its own.
  /// Walking keeps its step time to a few per cent; a phone taken out of
  /// a bag after the walk, or a split peak of slow walking, does not.
  /// Zero turns the rule off.
  public var rhythmMinimumRatio = 0.6
  public var rhythmMaximumRatio = 1.6
  /// A bout's first `minimumBoutSteps` steps count only when their longest
  /// interval is at most this many times their shortest. Zero turns the
  /// rule off.
  public var boutRegularityRatio = 2.5
  /// Consecutive samples are averaged down to about this rate before the
  /// band-pass (100 Hz in fours, 50 Hz in pairs; 30 Hz as is), Hz.
  public var detectionRateHz = 25.0
  /// Below this sample rate no steps are detected, Hz.
  public var minimumSampleRateHz = 10.0
  /// Nor above this one (the resampling grid would be needlessly fine), Hz.
  public var maximumSampleRateHz = 1000.0

  public init() {}

  /// The parameters, each checked against what it can be: a threshold
  /// above 0 g, a relative peak in [0, 1), a minimum interval above 0 and
  /// below the maximum that ends a bout, a low-pass corner above the
  /// high-pass and at most 10 Hz. An error names the parameter as the run
  /// reports it (`step_low_pass_hz`).
  public func validated() throws -> StepDetectionParameters {
    try ValueError.require(peakThresholdG > 0, "step_peak_threshold_g", peakThresholdG, expected: "positive")
    try ValueError.require(
      (0..<1).contains(relativePeakFraction), "step_relative_peak", relativePeakFraction,
      expected: "at least 0 and below 1")
    try ValueError.require(
      minimumStepIntervalSeconds > 0 && minimumStepIntervalSeconds < maximumStepIntervalSeconds,
      "step_min_interval_s", minimumStepIntervalSeconds,
      expected: "positive and below the \(Fixed.shortest(maximumStepIntervalSeconds)) s that ends a bout")
    try ValueError.require(
      lowPassHz > highPassHz && lowPassHz <= 10, "step_low_pass_hz", lowPassHz,
      expected: "above the \(Fixed.shortest(highPassHz)) Hz high-pass and at most 10 Hz")
    return self
  }

  public var named: [NamedParameter] {
    [
      NamedParameter(
        name: "step_wear_location", value: wearLocation.rawValue, meaning: "where the device was worn")
    ]
      + numbers
  }

  private var numbers: [NamedParameter] {
    [
      (
        "step_detection_rate_hz", detectionRateHz,
        "samples averaged down to about this rate before filtering, Hz"
      ),
      ("step_high_pass_hz", highPassHz, "high-pass corner on |a| - 1 g, Hz"),
      ("step_low_pass_hz", lowPassHz, "low-pass corner, Hz"),
      ("step_peak_threshold_g", peakThresholdG, "smallest filtered peak that is a step, g"),
      ("step_relative_peak", relativePeakFraction, "share of the bout's recent mean peak a step must reach"),
      ("step_weak_peak", weakPeakFraction, "below this share a step counts only when a full step follows"),
      ("step_min_interval_s", minimumStepIntervalSeconds, "peaks closer than this are one step, s"),
      ("step_max_interval_s", maximumStepIntervalSeconds, "a longer pause ends a bout, s"),
      ("step_min_bout", Double(minimumBoutSteps), "steps count in bouts of at least this many"),
      (
        "step_gap_fill_min", gapFillMinimumRatio,
        "an interval this many median intervals long or more holds a missed step (0: off)"
      ),
      ("step_gap_fill_max", gapFillMaximumRatio, "nor longer than this many"),
      (
        "step_gap_fill_window", gapFillWindow,
        "its local maximum within this share of an interval of the middle"
      ),
      (
        "step_rhythm_min", rhythmMinimumRatio,
        "an interval below this many median intervals starts a new bout (0: off)"
      ),
      ("step_rhythm_max", rhythmMaximumRatio, "as does one above this many"),
      (
        "step_bout_regularity", boutRegularityRatio,
        "a bout's first intervals within this factor of each other (0: off)"
      ),
    ].map { NamedParameter(name: $0.0, value: Fixed.shortest($0.1), meaning: $0.2) }
  }
}

/// Counts steps in raw acceleration by peak detection on the band-passed
/// vector magnitude, the approach of peak-counting pedometers (see Gu et
/// al. 2017, "Robust and accurate smartphone-based step counting for
/// indoor localization", IEEE Sensors J. 17:3453, for the same three
/// ingredients: a magnitude threshold, a period window and a continuity
/// rule):
///
/// 1. |a| - 1 g on a uniform grid at the nominal sample rate (linear
///    interpolation, so phone jitter does not bias the filters);
/// 2. averages of consecutive samples down to about `detectionRateHz`
///    (a boxcar against aliasing), then a Butterworth high-pass
///    (`highPassHz`) and low-pass (`lowPassHz`);
/// 3. a local maximum of at least `peakThresholdG` is a candidate step;
///    candidates closer than `minimumStepIntervalSeconds` merge (the
///    larger wins); a candidate below `relativePeakFraction` of the mean of
///    the bout's last four full peaks is dropped, and one below
///    `weakPeakFraction` counts only when a full step follows (the far leg
///    of a phone in a trouser pocket gives such weak peaks; the overshoot
///    of the filters after a bout stops gives one at the end);
/// 4. a bout is a run of steps no more than `maximumStepIntervalSeconds`
///    apart; steps count once a bout reaches `minimumBoutSteps`, so single
///    bumps and a couple of shuffles are not steps.
/// 5. an interval of about two steps (`gapFillMinimumRatio` to
///    `gapFillMaximumRatio` times the median of the bout's last four
///    intervals) in a counted bout holds one more step when the filtered signal has a local
///    maximum, of any height, near its middle: the walker's rhythm went
///    on while one step's peak fell below the thresholds (a turn, a hand
///    moving the phone);
/// 6. any other interval outside `rhythmMinimumRatio` to
///    `rhythmMaximumRatio` times that median ends the bout's rhythm: the
///    step starts a new bout, and a bout's first `minimumBoutSteps` steps
///    count only when their intervals agree within `boutRegularityRatio`
///    (the first is dropped until they do), so the irregular movement of
///    a phone handled after a walk is not steps.
///
/// A gap in the recording resets the filters and ends the bout.
public struct StepDetector: Sendable {
  public let parameters: StepDetectionParameters
  public let sampleRateHz: Double
  /// Grid samples averaged into one filtered sample.
  private let decimation: Int
  private let filterRateHz: Double
  /// The sample interval, the tolerance for a sample on the grid, and the
  /// offset of a bin's centre from its last sample, s.
  private let step: Double
  private let onGrid: Double
  private let binCentre: Double
  private var binSum = 0.0
  private var binCount = 0
  private var highPass: Biquad
  private var lowPass: Biquad
  private var started = false
  private var previous = 0.0
  private var beforePrevious = 0.0
  private var gridTime = 0.0
  private var lastTime = 0.0
  private var lastMagnitude = 0.0
  /// Times of the filtered signal's latest local maxima, of any height, in
  /// a ring (64 span at least 2.5 s at the detection rate).
  private var maxima = [Double](repeating: -.infinity, count: 64)
  private var maximaNext = 0
  /// Rules 3-6 at the parameters' threshold...
  private var bouts: StepBouts
  /// ...and at a second one, on the same filtered signal, counted only.
  private var comparison: StepBouts?
  private let comparisonThreshold: Double

  /// Times of the counted steps not yet drained, in order.
  public var steps: [Double] { bouts.steps }
  /// The steps counted so far at the comparison threshold (0 without one).
  public var comparisonStepCount: Int { comparison?.total ?? 0 }

  /// The steps counted since the last drain.
  public mutating func drainSteps() -> [Double] {
    comparison?.steps.removeAll(keepingCapacity: true)
    defer { bouts.steps.removeAll(keepingCapacity: true) }
    return bouts.steps
  }

  /// `comparisonThresholdG`, when given, also counts the steps the same
  /// rules find at that peak threshold (`comparisonStepCount`), at almost
  /// no cost: the filtering is shared.
  public init(
    sampleRateHz: Double, parameters: StepDetectionParameters = StepDetectionParameters(),
    comparisonThresholdG: Double? = nil
  ) {
    self.parameters = parameters
    self.sampleRateHz = sampleRateHz
    decimation = max(1, Int((sampleRateHz / parameters.detectionRateHz).rounded(.down)))
    let filterRate = sampleRateHz / Double(decimation)
    filterRateHz = filterRate
    step = 1 / sampleRateHz
    onGrid = 1e-6 * step
    binCentre = Double(decimation - 1) / 2 / sampleRateHz
    highPass = Biquad(.highPass, cutoffHz: parameters.highPassHz, sampleRateHz: filterRate)
    lowPass = Biquad(
      .lowPass, cutoffHz: min(parameters.lowPassHz, filterRate * 0.45), sampleRateHz: filterRate)
    bouts = StepBouts(parameters: parameters, threshold: parameters.peakThresholdG)
    comparison = comparisonThresholdG.map { StepBouts(parameters: parameters, threshold: $0) }
    comparisonThreshold = comparisonThresholdG ?? .infinity
  }

  /// Adds one sample: time (s) and vector magnitude (g).
  /// Adds a run of samples (no gap among them).
  public mutating func add(times: UnsafeBufferPointer<Double>, magnitudes: UnsafeBufferPointer<Double>) {
    for i in times.indices { add(time: times[i], magnitude: magnitudes[i]) }
  }

  @inline(__always)
  public mutating func add(time t: Double, magnitude: Double) {
    guard started else {
      started = true
      gridTime = t
      lastTime = t
      lastMagnitude = magnitude
      filter(t, magnitude)
      return
    }
    // Interpolate onto the grid up to t; a sample on the grid (regular
    // sampling) goes straight in.
    let span = t - lastTime
    var g = gridTime + step
    if abs(t - g) < onGrid {
      filter(g, magnitude)
      gridTime = g
      lastTime = t
      lastMagnitude = magnitude
      return
    }
    while g <= t {
      let f = span > 0 ? (g - lastTime) / span : 1
      filter(g, lastMagnitude + f * (magnitude - lastMagnitude))
      gridTime = g
      g += step
    }
    lastTime = t
    lastMagnitude = magnitude
  }

  /// Ends the signal at a gap: filters restart and the bout ends.
  public mutating func gap() {
    bouts.end(maxima)
    comparison?.end(maxima)
    highPass.reset()
    lowPass.reset()
    started = false
    previous = 0
    beforePrevious = 0
    binSum = 0
    binCount = 0
  }

  public mutating func finish() {
    bouts.end(maxima)
    comparison?.end(maxima)
  }

  /// Averages `decimation` grid samples (a boxcar that also keeps noise
  /// above the detection rate from aliasing) and filters the average.
  private mutating func filter(_ t: Double, _ magnitude: Double) {
    binSum += magnitude
    binCount += 1
    guard binCount == decimation else { return }
    let value = binSum / Double(decimation)
    binSum = 0
    binCount = 0
    filterAverage(t - binCentre, value)
  }

  private mutating func filterAverage(_ t: Double, _ magnitude: Double) {
    let y = lowPass(highPass(magnitude - 1))
    // previous is a local maximum when beforePrevious < previous >= y.
    if previous > beforePrevious && previous >= y {
      let at = t - 1 / filterRateHz
      maxima[maximaNext] = at
      maximaNext = (maximaNext + 1) % maxima.count
      if previous >= bouts.threshold { bouts.peak(at, previous, maxima) }
      if previous >= comparisonThreshold { comparison?.peak(at, previous, maxima) }
    }
    beforePrevious = previous
    previous = y
  }
}

/// Rules 3-6 of `StepDetector` at one peak threshold: candidate peaks,
/// bouts and their rhythm, over the filtered signal's local maxima.
struct StepBouts: Sendable {
  let parameters: StepDetectionParameters
  let threshold: Double
  // Candidate peak waiting for the refractory window to pass.
  private var candidateTime = -Double.infinity
  private var candidateValue = 0.0
  // Bout state.
  private var boutLastStep = -Double.infinity
  private var pending: [Double] = []
  private var inBout = false
  private var recentPeaks: [Double] = []
  /// Weak steps of the bout waiting for a full step to confirm them.
  private var weak: [Double] = []
  /// The bout's last counted step and its last four intervals, s.
  private var lastStep = -Double.infinity
  private var intervals: [Double] = []
  /// Times of the counted steps not yet drained, in order.
  var steps: [Double] = []
  /// All steps counted.
  private(set) var total = 0

  init(parameters: StepDetectionParameters, threshold: Double) {
    self.parameters = parameters
    self.threshold = threshold
  }

  /// The last candidate decided and the bout ended (a gap, the end).
  mutating func end(_ maxima: [Double]) {
    flushCandidate(maxima)
    endBout()
  }

  mutating func peak(_ t: Double, _ value: Double, _ maxima: [Double]) {
    if t - candidateTime < parameters.minimumStepIntervalSeconds {
      if value > candidateValue {
        candidateTime = t
        candidateValue = value
      }
      return
    }
    flushCandidate(maxima)
    candidateTime = t
    candidateValue = value
  }

  private mutating func flushCandidate(_ maxima: [Double]) {
    guard candidateTime.isFinite else { return }
    let t = candidateTime
    candidateTime = -.infinity
    if t - boutLastStep > parameters.maximumStepIntervalSeconds { endBout() }
    if !recentPeaks.isEmpty {
      let reference = recentPeaks.reduce(0, +) / Double(recentPeaks.count)
      guard candidateValue >= parameters.relativePeakFraction * reference else { return }
      if candidateValue < parameters.weakPeakFraction * reference {
        weak.append(t)
        boutLastStep = t
        return
      }
    }
    recentPeaks.append(candidateValue)
    if recentPeaks.count > 4 { recentPeaks.removeFirst() }
    boutLastStep = t
    for w in weak { accept(w, maxima) }
    weak.removeAll()
    accept(t, maxima)
  }

  /// A step of the current bout, preceded by the step its interval shows
  /// was missed (rule 5).
  private mutating func accept(_ t: Double, _ maxima: [Double]) {
    let p = parameters
    var filled = false
    if p.gapFillMinimumRatio > 0, inBout, intervals.count >= 3 {
      let interval = t - lastStep
      let period = medianInterval()
      if interval >= p.gapFillMinimumRatio * period, interval <= p.gapFillMaximumRatio * period,
        let missed = Self.maximum(in: maxima, near: lastStep + interval / 2, within: p.gapFillWindow * period)
      {
        count(missed)
        filled = true
      }
    }
    if p.rhythmMinimumRatio > 0, inBout, !filled, intervals.count >= 3 {
      let interval = t - lastStep
      let period = medianInterval()
      if interval < p.rhythmMinimumRatio * period || interval > p.rhythmMaximumRatio * period {
        inBout = false
        pending.removeAll()
        intervals.removeAll()
        lastStep = -.infinity
      }
    }
    count(t)
  }

  /// The median of the bout's last intervals (three or four).
  private func medianInterval() -> Double {
    let sorted = intervals.sorted()
    let n = sorted.count
    return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2
  }

  /// The recent local maximum closest to `time`, if one lies within `tolerance`.
  private static func maximum(in maxima: [Double], near time: Double, within tolerance: Double) -> Double? {
    var best: Double?
    for m in maxima where abs(m - time) <= tolerance {
      if let b = best, abs(b - time) <= abs(m - time) { continue }
      best = m
    }
    return best
  }

  /// Counts a step: at once inside a bout, else held until the bout is
  /// long enough.
  private mutating func count(_ t: Double) {
    if lastStep.isFinite {
      intervals.append(t - lastStep)
      if intervals.count > 4 { intervals.removeFirst() }
    }
    lastStep = t
    if inBout {
      steps.append(t)
      total += 1
    } else {
      pending.append(t)
      let first = parameters.minimumBoutSteps
      if parameters.boutRegularityRatio > 0 {
        while pending.count >= first && !regular(pending.prefix(first)) {
          // The bout starts later: its rhythm is its remaining steps'.
          pending.removeFirst()
          intervals = Array(zip(pending, pending.dropFirst()).map { $1 - $0 }.suffix(4))
        }
      }
      if pending.count >= first {
        steps += pending
        total += pending.count
        pending.removeAll()
        inBout = true
      }
    }
  }

  /// Whether consecutive steps' intervals agree within `boutRegularityRatio`.
  private func regular(_ times: ArraySlice<Double>) -> Bool {
    var shortest = Double.infinity
    var longest = 0.0
    for (a, b) in zip(times, times.dropFirst()) {
      shortest = min(shortest, b - a)
      longest = max(longest, b - a)
    }
    return longest <= parameters.boutRegularityRatio * shortest || times.count < 2
  }

  private mutating func endBout() {
    weak.removeAll()
    pending.removeAll()
    recentPeaks.removeAll()
    intervals.removeAll()
    lastStep = -.infinity
    inBout = false
    boutLastStep = -.infinity
  }
}
