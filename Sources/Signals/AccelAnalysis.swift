import EnergyLabCore
import Foundation

/// One epoch of a recording.
public struct AccelEpoch: Sendable, Hashable {
  /// Seconds since 1970 UTC; epochs start at whole multiples of their
  /// length (whole minutes for 60 s epochs).
  public var start: Double
  public var seconds: Double
  /// Samples (or input rows) in the epoch.
  public var samples: Int
  /// Samples over those expected at the nominal rate.
  public var coverage: Double
  /// Mean ENMO, mg (raw data and ENMO epochs).
  public var enmoMilliG: Double?
  /// Mean amplitude deviation of |a|, mg (raw data).
  public var madMilliG: Double?
  public var steps: Int?
  /// Axis-1 counts of a file of counts (ActiLife's axis 1 is the vertical
  /// axis of a hip-worn device, its y; raw data gives each device axis
  /// instead, as which axis is vertical depends on the wear).
  public var countsAxis1: Double?
  /// Vector-magnitude counts: the magnitude of the epoch's summed axes.
  public var countsVectorMagnitude: Double?
  /// Counts of each device axis, from raw acceleration.
  public var countsX: Double?
  public var countsY: Double?
  public var countsZ: Double?
  public var intensity: IntensityClass?
  /// False when non-wear detection marked the epoch as not worn: it keeps
  /// its ENMO and MAD, but has no class and adds nothing to the summaries,
  /// steps or energy.
  public var worn = true
}

/// The fields of an epoch that energy estimation and the hour-of-day
/// profile read: a table kept as these (`AccelAnalyzer.slimEpochSeconds`)
/// takes 40 bytes an epoch instead of a whole `AccelEpoch`'s 184, so a week
/// of 5 s epochs is 4.8 MB instead of 22 MB.
public protocol EpochEnergyFields {
  /// Seconds since 1970 UTC.
  var start: Double { get }
  var seconds: Double { get }
  /// Samples over those expected at the nominal rate.
  var coverage: Double { get }
  var steps: Int? { get }
  var intensity: IntensityClass? { get }
  var worn: Bool { get }
}

extension AccelEpoch: EpochEnergyFields {}

/// An epoch as energy reads it (see `EpochEnergyFields`), with the same
/// values as the whole epoch it was taken from.
public struct EnergyEpoch: EpochEnergyFields, Sendable, Hashable {
  public var start: Double
  public var seconds: Double
  public var coverage: Double
  public var steps: Int?
  public var intensity: IntensityClass?
  public var worn: Bool

  public init(_ e: AccelEpoch) {
    start = e.start
    seconds = e.seconds
    coverage = e.coverage
    steps = e.steps
    intensity = e.intensity
    worn = e.worn
  }
}

/// One local calendar day.
public struct AccelDay: Sendable, Hashable {
  /// `YYYY-MM-DD` in the analysis time zone.
  public var date: String
  public var recordedHours: Double
  /// Recorded hours marked not worn (0 without non-wear detection).
  public var nonWearHours: Double = 0
  public var steps: Int?
  public var enmoMeanMilliG: Double?
  /// Minutes per intensity class, from the epochs the cut-points classify
  /// (`AccelAnalysis.intensityEpochSeconds`); empty when no epoch of the
  /// day has a class (no cut-points apply), every class present (0 when
  /// unseen) otherwise.
  public var minutes: [IntensityClass: Double]
  /// Minutes in MVPA bouts by GGIR's bout rule (`GGIRBouts`,
  /// `DayRules.boutMinutes` at `DayRules.boutShare`), a bout's breaks of a
  /// minute or less included; nil when no epoch of the day has a class.
  public var mvpaBoutMinutes: Double? = nil
  /// Minutes in sedentary bouts by the same rule
  /// (`DayRules.sedentaryBoutMinutes` at `DayRules.sedentaryBoutShare`);
  /// nil when no epoch of the day has a class.
  public var sedentaryBoutMinutes: Double? = nil
  /// Breaks in sedentary time: a sedentary epoch followed at once by a
  /// worn epoch of light or higher intensity (Healy et al. 2008); nil when
  /// no epoch of the day has a class.
  public var sedentaryBreaks: Int? = nil

  /// Recorded hours less those not worn.
  public var wearHours: Double { max(0, recordedHours - nonWearHours) }
}

/// The rules of valid days and of bouts.
///
/// A day is valid with at least `minimumWearHours` of wear (16 h by
/// default, as in GGIR's default `includedaycrit`; van Hees et al. 2013,
/// PLoS One 8:e61691). Bouts follow GGIR's bout rule (`GGIRBouts`: a bout
/// starts and ends with an epoch meeting the criterion, holds no break
/// longer than a minute, and every window of its length centred in it has
/// at least the share), over each run of consecutive worn intensity
/// epochs: MVPA bouts of 10 minutes at 80 % (GGIR's `boutcriter.mvpa` and
/// the longest of its default `boutdur.mvpa`), sedentary bouts of 30
/// minutes at 90 % (`boutcriter.in` and the longest of `boutdur.in`).
public struct DayRules: Sendable, Hashable {
  /// Wear a valid day needs, h.
  public var minimumWearHours = 16.0
  /// Length of an MVPA bout, min.
  public var boutMinutes = 10.0
  /// Share of a bout's epochs that must be moderate or vigorous.
  public var boutShare = 0.8
  /// Length of a sedentary bout, min.
  public var sedentaryBoutMinutes = 30.0
  /// Share of a sedentary bout's epochs that must be sedentary.
  public var sedentaryBoutShare = 0.9

  public init() {}

  /// The rules, checked: wear hours from 0 to 24, a bout longer than 0
  /// minutes, a bout share above 0 and at most 1. An error names the
  /// parameter (`valid_day_min_wear_h`, `mvpa_bout_min`, `mvpa_bout_share`).
  public func validated() throws -> DayRules {
    try ValueError.require(
      (0...24).contains(minimumWearHours), "valid_day_min_wear_h", minimumWearHours,
      expected: "between 0 and 24")
    try ValueError.require(boutMinutes > 0, "mvpa_bout_min", boutMinutes, expected: "positive")
    try ValueError.require(
      boutShare > 0 && boutShare <= 1, "mvpa_bout_share", boutShare, expected: "above 0 and at most 1")
    return self
  }

  public func isValid(_ day: AccelDay) -> Bool { day.wearHours >= minimumWearHours - 1e-9 }

  /// The rules as they are printed and stored with a run.
  public var named: [NamedParameter] {
    [
      NamedParameter(
        name: "valid_day_min_wear_h", value: Fixed.shortest(minimumWearHours),
        meaning: "a day is valid with at least this many hours of wear"),
      NamedParameter(
        name: "mvpa_bout",
        value: "\(Fixed.shortest(boutMinutes)) min at \(Fixed.shortest(boutShare * 100)) %",
        meaning:
          "GGIR's bout rule (g.getbout, GGIR 3): windows of this length with at least this share of MVPA epochs, starting and ending with MVPA, no break over 1 min; breaks of a bout count as bout time"
      ),
      NamedParameter(
        name: "sedentary_bout",
        value:
          "\(Fixed.shortest(sedentaryBoutMinutes)) min at \(Fixed.shortest(sedentaryBoutShare * 100)) %",
        meaning: "sedentary bouts by the same rule (GGIR's boutcriter.in and longest boutdur.in)"),
      NamedParameter(
        name: "sedentary_breaks", value: "sedentary to light or higher",
        meaning:
          "a sedentary epoch followed at once by a worn epoch of light or higher intensity (Healy et al. 2008)"
      ),
    ]
  }
}

/// The named, reported parameters of an accelerometer analysis.
public struct AccelAnalysisParameters: Sendable {
  /// Epoch lengths, s (5 s as GGIR's default, 60 s as in count studies).
  public var epochSeconds: [Double] = [5, 60]
  /// A pause longer than this many nominal sample intervals is a gap...
  public var gapIntervals = 10.0
  /// ...and never less than this, s.
  public var gapMinimumSeconds = 1.0
  /// Intensity cut-points; nil picks Hildebrand's ActiGraph thresholds
  /// for ENMO (hip ones for a device worn at the waist, wrist ones
  /// otherwise) and Freedson 1998 for counts.
  public var cutPoints: CutPoints?
  /// The epoch length the cut-points classify, s; nil takes the one they
  /// were published for (`CutPoints.publishedEpochSeconds`: 60 s for
  /// Freedson, 5 s for the ENMO sets). Another length applies them there
  /// anyway, with a warning. Only epochs of this length get classes, and
  /// the intensity minutes come from them.
  public var intensityEpochSeconds: Double?
  /// Whether the wear location was stated (it chooses the default ENMO
  /// cut-points); without it a default choice of cut-points is said in a
  /// note.
  public var wearLocationStated = false
  public var steps = StepDetectionParameters()
  /// The wear location was not stated: steps are also counted at the
  /// waist's threshold, and a warning says so when those are many more
  /// (a device at the hip or lower back peaks lower than a phone).
  public var suggestWearLocation = false
  /// The zone of daily summaries and hour-of-day profiles.
  public var timeZone = TimeZone.utc
  /// Whether the epoch tables are kept for the result; without them the
  /// analysis (summaries, days) runs in memory that does not grow with the
  /// recording.
  public var keepEpochs = true
  /// Spans not worn (from `NonWearDetector`); epochs starting in them are
  /// left out of ENMO, MAD, intensity minutes, steps and energy. Nil: no
  /// non-wear detection.
  public var nonWear: NonWearResult?
  /// Valid days and MVPA bouts.
  public var dayRules = DayRules()

  public init() {}

  /// The parameters, checked: an intensity epoch above 0 s, the day rules
  /// and the step detector's. An error names the parameter as the run
  /// reports it (`intensity_epoch_s`, `step_low_pass_hz`).
  public func validated() throws -> AccelAnalysisParameters {
    if let intensityEpochSeconds {
      try ValueError.require(
        intensityEpochSeconds > 0, "intensity_epoch_s", intensityEpochSeconds, expected: "positive")
    }
    _ = try dayRules.validated()
    _ = try steps.validated()
    return self
  }

  public func cutPoints(for kind: AccelDataKind) -> CutPoints {
    if let cutPoints { return cutPoints }
    if kind == .counts { return .freedson1998 }
    return steps.wearLocation == .waist ? .hildebrandHipActiGraph : .hildebrandWristActiGraph
  }

  /// The epoch length the cut-points classify, s: the one asked for, else
  /// the one they were published for.
  public func intensityEpochSeconds(for kind: AccelDataKind) -> Double {
    intensityEpochSeconds ?? cutPoints(for: kind).publishedEpochSeconds
  }
}

/// The result of analysing one recording.
public struct AccelAnalysis: Sendable {
  public var kind: AccelDataKind
  public var samples: Int
  public var start: Double?
  public var end: Double?
  public var sampleRateHz: Double?
  public var sampleRateDeclared: Bool
  public var gapSeconds: Double
  public var gaps: Int
  public var steps: Int?
  public var enmoMeanMilliG: Double?
  public var madMeanMilliG: Double?
  public var cutPoints: CutPoints
  /// The length of the epochs that carry intensity classes and give the
  /// intensity minutes, s; nil when no epoch of the length the cut-points
  /// classify was analysed (then nothing is classified).
  public var intensityEpochSeconds: Double?
  /// The epoch lengths used, s (a file of epochs keeps only those that fit
  /// its own).
  public var epochSeconds: [Double]
  /// Epoch tables by epoch length, in the order of the parameters (empty
  /// unless the parameters keep them).
  public var epochs: [(seconds: Double, epochs: [AccelEpoch])]
  public var days: [AccelDay]
  public var diagnostics: [Diagnostic]
  /// Recorded seconds left out as not worn (0 without non-wear detection).
  public var nonWearSeconds: Double = 0
  /// Steps detected while not worn, left out.
  public var stepsLeftOut: Int = 0

  /// From the first sample to the last; a file of epochs runs to the end
  /// of its last epoch (three 60 s epochs last 180 s, not 120 s).
  public var durationSeconds: Double? {
    guard let start, let end else { return nil }
    guard kind != .raw, let rate = sampleRateHz, rate > 0 else { return end - start }
    return end - start + 1 / rate
  }

  public func epochs(seconds: Double) -> [AccelEpoch]? { epochs.first { $0.seconds == seconds }?.epochs }

  /// Tables kept as `EnergyEpoch`s (`AccelAnalyzer.slimEpochSeconds`);
  /// a length here has no table in `epochs`.
  public var slimEpochs: [(seconds: Double, epochs: [EnergyEpoch])] = []

  public func slimEpochs(seconds: Double) -> [EnergyEpoch]? {
    slimEpochs.first { $0.seconds == seconds }?.epochs
  }

  /// The epochs that carry intensity classes (nil unless kept).
  public var intensityEpochs: [AccelEpoch]? { intensityEpochSeconds.flatMap { epochs(seconds: $0) } }
}

/// Streams a recording's rows into epochs, steps and daily summaries in
/// constant memory (apart from the epoch tables themselves).
///
/// Raw rows are x, y, z in g: ENMO = max(0, |a| - 1 g) (van Hees et al.
/// 2013, PLoS One 8:e61691) and MAD = mean | |a| - mean |a| | per epoch
/// (Vaha-Ypya et al. 2015, Clin Physiol Funct Imaging 35:64), both in mg.
/// Count rows are summed into epochs; ENMO rows are averaged.
public struct AccelAnalyzer {
  public let kind: AccelDataKind
  public let parameters: AccelAnalysisParameters
  private let declaredRateHz: Double?
  private let source: String
  private var warmupTime: [Double] = []
  private var warmupValues: [Double] = []
  /// The largest acceleration a raw row may hold on any axis, g: 1000 g,
  /// five times the widest range of a body-worn accelerometer (±200 g,
  /// Analog Devices ADXL377). A larger value (one cell of 1e308 mg in a
  /// Polar export) would make every mean infinite and empty the file's
  /// steps and ENMO; its row is left out with a warning.
  public static let maximumAccelerationG = 1000.0
  private var implausibleRows = 0
  private var firstImplausible: (time: Double, value: Double)?
  private var rate: Double?
  private var gapThreshold = 1.0
  /// Step detection and ActiGraph counts each run on a thread of their
  /// own, fed the same rows as the epochs here.
  private var stepStage: SerialStage<StepStream>?
  private var accumulators: [EpochAccumulator] = []
  /// The epoch table the cut-points classify: the one of their epoch
  /// length, when that length is analysed.
  private let intensityIndex: Int?
  private var samples = 0
  private var first: Double?
  private var last: Double?
  private var enmoSum = 0.0
  private var enmoCount = 0
  private var gaps = 0
  private var gapTotal = 0.0
  private var longestGap = 0.0
  private var longestGapAt = 0.0
  private var intervalStats = (n: 0.0, sum: 0.0, sumSquares: 0.0)
  private var nominalInterval = 0.0
  private var stepsColumnSeen = false
  /// Epochs whose steps column gives a step rate outside `HumanLimits`.
  private var recordLimits = RecordLimits(noun: "epochs")
  private var stepsFromColumn = 0.0
  private var kept: [[EpochAccumulator.Closed]] = []
  /// Epoch lengths whose tables are kept as `EnergyEpoch`s (what energy
  /// reads) rather than whole epochs, for a caller that needs no more of
  /// them (batch keeps only the minutes it stores whole); raw data only,
  /// and not when it is classified by counts, which sums counts into the
  /// epochs. Not a parameter: it changes what is kept, not any result.
  public let slimEpochSeconds: [Double]
  /// The tables kept slim, by accumulator (empty for the others).
  private var slimKept: [[EnergyEpoch]] = []
  private var isSlim: [Bool] = []
  private var stepTimes: [Double] = []
  private var stepCount = 0
  private var days: DayBuilder
  private var madSum = 0.0
  private var nonWearSeconds = 0.0
  private var madCount = 0
  private var magnitudeSum = 0.0
  private var magnitudeCount = 0
  private var countStage: SerialStage<CountStream>?
  /// Whole seconds of counts from raw data: start, x, y, z (kept only
  /// for an epoch length within 1e-9 of whole seconds but not whole).
  private var countSeconds = CountSeconds()
  /// Counts summed into the epochs of each whole-second length as they
  /// come (a week's 60 s epochs are 10,080 sums, its seconds 14.5 MB).
  private var countEpochs: [CountEpochs] = []
  private var secondsCounted = 0

  /// Raw data classified by count cut-points: intensity waits for the
  /// counts, so the epochs are kept until the end.
  private var countsIntensity: Bool {
    kind == .raw && parameters.cutPoints(for: .raw).metric == .countsPerMinute
  }
  private var keepsEpochs: Bool { parameters.keepEpochs || countsIntensity }

  public init(
    kind: AccelDataKind, declaredRateHz: Double?,
    parameters: AccelAnalysisParameters = AccelAnalysisParameters(),
    source: String = "", slimEpochSeconds: [Double] = []
  ) {
    self.slimEpochSeconds = slimEpochSeconds
    self.kind = kind
    self.parameters = parameters
    self.declaredRateHz = declaredRateHz
    self.source = source
    let intensitySeconds = parameters.intensityEpochSeconds(for: kind)
    intensityIndex = parameters.epochSeconds.firstIndex { abs($0 - intensitySeconds) < 1e-9 }
    days = DayBuilder(timeZone: parameters.timeZone)
  }

  /// Adds a block of rows (times strictly increasing across blocks).
  /// Adds a block of rows (times strictly increasing across blocks) with
  /// `kind.width` values per row.
  public mutating func add(time: [Double], values: [Double]) {
    if kind == .raw, !time.isEmpty, values.contains(where: { !(abs($0) <= Self.maximumAccelerationG) }) {
      // Rows beyond any accelerometer's range are left out, and said.
      let width = values.count / time.count
      var keptTime: [Double] = []
      var keptValues: [Double] = []
      for (i, t) in time.enumerated() {
        let row = values[(i * width)..<((i + 1) * width)]
        if let bad = row.first(where: { !(abs($0) <= Self.maximumAccelerationG) }) {
          implausibleRows += 1
          if firstImplausible == nil { firstImplausible = (t, bad) }
          continue
        }
        keptTime.append(t)
        keptValues += row
      }
      guard !keptTime.isEmpty else { return }
      add(time: keptTime, values: keptValues)
      return
    }
    if rate == nil {
      warmupTime += time
      warmupValues += values
      guard warmupTime.count > 1000 else { return }
      start()
      return
    }
    process(time, values)
    drain()
  }

  /// Moves closed epochs and counted steps into the days (and, when kept,
  /// the epoch tables), so that nothing else accumulates: recorded time,
  /// steps and ENMO from the shortest epochs, intensity minutes from those
  /// the cut-points classify.
  private mutating func drain() {
    for a in accumulators.indices {
      var closed = accumulators[a].drain()
      if let nonWear = parameters.nonWear {
        for c in closed.indices where nonWear.isNotWorn(closed[c].epoch.start) {
          closed[c].epoch.worn = false
          closed[c].epoch.intensity = nil
        }
      }
      if a == intensityIndex { for c in closed { days.addIntensity(c.epoch) } }
      if a == 0 {
        for c in closed {
          days.add(c.epoch)
          guard c.epoch.worn else {
            // Left out of the recording's ENMO (a sum over samples).
            enmoSum -= (c.epoch.enmoMilliG ?? 0) * Double(c.epoch.samples)
            enmoCount -= c.epoch.samples
            nonWearSeconds += c.epoch.seconds * min(1, c.epoch.coverage)
            magnitudeSum += c.meanMagnitude
            magnitudeCount += 1
            continue
          }
          if let m = c.epoch.madMilliG {
            madSum += m
            madCount += 1
          }
          magnitudeSum += c.meanMagnitude
          magnitudeCount += 1
        }
      }
      if keepsEpochs {
        if isSlim[a] {
          slimKept[a] += closed.lazy.map { EnergyEpoch($0.epoch) }
        } else {
          kept[a] += closed
        }
      }
    }
  }

  private mutating func start() {
    let t = warmupTime
    var intervals: [Double] = []
    for i in 1..<min(t.count, 1001) { intervals.append(t[i] - t[i - 1]) }
    intervals.sort()
    // To the microsecond: times of 1.7e9 s carry about 0.2 us of rounding.
    let median = ((intervals.isEmpty ? 1 : intervals[intervals.count / 2]) * 1e6).rounded() / 1e6
    let r = declaredRateHz ?? (median > 0 ? 1 / median : 1)
    rate = r
    nominalInterval = 1 / r
    gapThreshold = max(parameters.gapMinimumSeconds, parameters.gapIntervals / r)
    if kind != .raw { gapThreshold = 1.5 / r }
    let cut = parameters.cutPoints(for: kind)
    accumulators = parameters.epochSeconds.indices.map { k in
      EpochAccumulator(
        seconds: parameters.epochSeconds[k], rate: r, kind: kind, cutPoints: k == intensityIndex ? cut : nil)
    }
    if kind == .raw && r >= parameters.steps.minimumSampleRateHz && r <= parameters.steps.maximumSampleRateHz
    {
      stepStage = SerialStage(
        StepStream(
          detector: StepDetector(
            sampleRateHz: r, parameters: parameters.steps, comparisonThresholdG: waistComparisonThreshold)),
        label: "energylab.accel.steps")
    }
    isSlim = accumulators.map { a in
      kind == .raw && !countsIntensity && slimEpochSeconds.contains { abs($0 - a.seconds) < 1e-9 }
    }
    if kind == .raw && (parameters.keepEpochs || countsIntensity),
      let counter = ActiGraphCounts(sampleRateHz: r)
    {
      // The whole tables of whole seconds get counts (see `finish`).
      let lengths = accumulators.indices.filter { !isSlim[$0] }.map { accumulators[$0].seconds }
        .filter(Self.holdsWholeSeconds)
      countStage = SerialStage(
        CountStream(
          counter: counter, rate: r, origin: t[0], keep: keepsEpochs,
          epochSeconds: lengths.filter(CountEpochs.fits),
          keepSeconds: lengths.contains { !CountEpochs.fits($0) }),
        label: "energylab.accel.counts")
    }
    kept = accumulators.map { _ in [] }
    slimKept = kept.map { _ in [] }
    days.stepsKnown = stepStage != nil
    let values = warmupValues
    warmupTime = []
    warmupValues = []
    process(t, values)
    drain()
  }

  private mutating func process(_ time: [Double], _ values: [Double]) {
    let n = time.count
    guard n > 0 else { return }
    if first == nil { first = time[0] }
    samples += n
    if kind == .raw {
      processRaw(time, values)
      return
    }
    var previous = last ?? time[0]
    for i in 0..<n {
      let t = time[i]
      _ = isGap(t - previous, after: previous)
      previous = t
      switch kind {
      case .raw: break  // processRaw
      case .counts:
        var steps = values[5 * i + 3]
        // A step rate no person reaches (a damaged cell, another column)
        // is left out of the epoch's steps: unknown, never summed.
        if !steps.isNaN, nominalInterval > 0,
          recordLimits.keep(steps * 60 / nominalInterval, .stepRate, at: Self.place(t)) == nil
        {
          steps = .nan
        }
        if !steps.isNaN {
          stepsColumnSeen = true
          stepsFromColumn += steps
        }
        for a in accumulators.indices {
          accumulators[a].addCounts(
            t, axes: SIMD3(values[5 * i], values[5 * i + 1], values[5 * i + 2]), steps: steps,
            vm: vectorMagnitude(values, i))
        }
      case .enmo:
        enmoSum += values[i]
        enmoCount += 1
        for a in accumulators.indices { accumulators[a].addENMO(t, values[i]) }
      }
    }
    last = previous
  }

  /// Counts a gap (true) or adds the interval to the sampling statistics.
  private mutating func isGap(_ dt: Double, after previous: Double) -> Bool {
    if dt > gapThreshold {
      gaps += 1
      gapTotal += dt
      if dt > longestGap {
        longestGap = dt
        longestGapAt = previous
      }
      return true
    }
    if dt > 0 {
      // Sums of the deviation from the nominal interval (small numbers, so
      // the one-pass variance is exact enough).
      let d = dt - nominalInterval
      intervalStats.n += 1
      intervalStats.sum += d
      intervalStats.sumSquares += d * d
    }
    return false
  }

  /// Raw rows: |a| and ENMO in one pass, then the epochs here and the
  /// steps and counts on their threads, each told where the gaps fall.
  private mutating func processRaw(_ time: [Double], _ values: [Double]) {
    let n = time.count
    var magnitudes: [Double] = []
    var enmo: [Double] = []
    magnitudes.reserveCapacity(n)
    enmo.reserveCapacity(n)
    values.withUnsafeBufferPointer { v in
      for i in 0..<n {
        let x = v[3 * i]
        let y = v[3 * i + 1]
        let z = v[3 * i + 2]
        let r = (x * x + y * y + z * z).squareRoot()
        magnitudes.append(r)
        enmo.append(max(0, r - 1) * 1000)
      }
    }
    var runs: [RawRun] = []
    var run = 0
    var afterGap = false
    var previous = last ?? time[0]
    for i in 0..<n {
      let t = time[i]
      if isGap(t - previous, after: previous) {
        if i > run { runs.append(RawRun(rows: run..<i, afterGap: afterGap)) }
        run = i
        afterGap = true
      }
      previous = t
    }
    runs.append(RawRun(rows: run..<n, afterGap: afterGap))
    last = previous
    for value in enmo { enmoSum += value }
    enmoCount += n
    time.withUnsafeBufferPointer { t in
      magnitudes.withUnsafeBufferPointer { m in
        enmo.withUnsafeBufferPointer { e in
          for a in accumulators.indices { accumulators[a].addRaw(times: t, magnitudes: m, enmo: e) }
        }
      }
    }
    let blockRuns = runs
    let blockMagnitudes = magnitudes
    stepStage?.submit { $0.add(time, blockMagnitudes, blockRuns) }
    countStage?.submit { $0.add(time, values, blockRuns) }
  }

  /// A row's time for a message: a date-time, or seconds from the start.
  static func place(_ t: Double) -> String {
    t > 1e9 ? ISO8601.formatUTC(t, fractionDigits: 3) : "\(Fixed.shortest(t)) s"
  }

  /// The file's vector magnitude, else sqrt(axis1^2 + axis2^2 + axis3^2).
  private func vectorMagnitude(_ values: [Double], _ i: Int) -> Double {
    if !values[5 * i + 4].isNaN { return values[5 * i + 4] }
    let a = values[(5 * i)..<(5 * i + 3)].filter { !$0.isNaN }
    return a.reduce(0) { $0 + $1 * $1 }.squareRoot()
  }

  public mutating func finish() -> AccelAnalysis {
    if rate == nil && !warmupTime.isEmpty { start() }
    var diagnostics: [Diagnostic] = []
    let where_ = source.isEmpty ? nil : source
    diagnostics += recordLimits.diagnostics(location: where_)
    if let (t, value) = firstImplausible {
      let when = t > 1e9 ? ISO8601.formatUTC(t, fractionDigits: 3) : "\(Fixed.shortest(t)) s"
      diagnostics.append(
        Diagnostic(
          code: "implausible-acceleration",
          message:
            "\(implausibleRows) row(s) with an acceleration beyond ±\(Fixed.shortest(Self.maximumAccelerationG)) g, no accelerometer's range, left out (a damaged or misread cell), the first \(value.isFinite && abs(value) < 1e9 ? Fixed.shortest(value) : "\(value)") g at \(when)",
          location: where_))
    }
    for a in accumulators.indices { accumulators[a].finish() }
    drain()
    stepStage?.submit { $0.finish() }
    // Steps and ENMO read |a| - 1 g: without gravity in the signal (a
    // phone's linear acceleration) or in the wrong unit, neither means
    // anything, and a step count would be silently wrong.
    let meanMagnitude = magnitudeCount > 0 ? magnitudeSum / Double(magnitudeCount) : 1
    let gravityMissing = kind == .raw && enmoCount > 0 && (meanMagnitude < 0.5 || meanMagnitude > 1.5)
    var stepsLeftOut = 0
    if let steps = stepStage?.finish(), !gravityMissing {
      stepTimes = steps.times
      if let nonWear = parameters.nonWear {
        stepTimes = steps.times.filter { !nonWear.isNotWorn($0) }
        stepsLeftOut = steps.times.count - stepTimes.count
      }
      stepCount = stepTimes.count
      if let waist = waistComparisonThreshold,
        let d = Self.waistDiagnostic(steps.times.count, steps.detector.comparisonStepCount, waist, where_)
      {
        diagnostics.append(d)
      }
      for t in stepTimes { days.addStep(t) }
    }
    if gravityMissing { days.forgetSteps() }
    if let counts = countStage?.finish() {
      countSeconds = counts.seconds
      countEpochs = counts.epochs
      secondsCounted = counts.counted
    }
    // The count thread lets go of its counts: only the copy here is left.
    countStage?.submit {
      $0.seconds = CountSeconds()
      $0.epochs = []
    }
    _ = countStage?.finish()
    // The kept epochs move into the tables (never copied: they are the
    // largest thing a recording's analysis holds).
    var tables = zip(accumulators, kept).map { (seconds: $0.seconds, epochs: $1) }
    kept = []
    if stepStage != nil && keepsEpochs && !gravityMissing {
      for k in tables.indices { Self.assign(stepTimes, to: &tables[k].epochs) }
      for k in slimKept.indices where isSlim[k] { Self.assign(stepTimes, to: &slimKept[k]) }
    }
    if countStage != nil, secondsCounted > 0 {
      // Counts come a whole second at a time: an epoch of 0.5 or 1.5 s
      // would hold one second's counts or two, never its own.
      let whole = Self.holdsWholeSeconds
      for k in tables.indices where whole(tables[k].seconds) {
        if let sums = countEpochs.first(where: { $0.seconds == tables[k].seconds }) {
          Self.assign(sums, to: &tables[k].epochs)
        } else {
          Self.assign(countSeconds, to: &tables[k].epochs)
        }
      }
      countSeconds = CountSeconds()
      countEpochs = []
      let partial = tables.map(\.seconds).filter { !whole($0) }
      if !partial.isEmpty {
        diagnostics.append(
          Diagnostic(
            code: "counts-epoch", severity: .note,
            message:
              "no ActiGraph counts in epochs of \(partial.map { Fixed.shortest($0) + " s" }.joined(separator: ", ")): counts are whole seconds, so an epoch must be a whole number of them",
            location: where_))
      }
    }
    var partial =
      intensityIndex.flatMap { accumulators.indices.contains($0) ? accumulators[$0].partial : nil }
      ?? PartialEpochs()
    if countsIntensity {
      // Axis 1 is the device's y, the vertical axis of a hip-worn ActiGraph.
      let cut = parameters.cutPoints(for: kind)
      for k in tables.indices {
        for e in tables[k].epochs.indices {
          guard let y = tables[k].epochs[e].epoch.countsY else { continue }
          tables[k].epochs[e].epoch.countsAxis1 = y
        }
      }
      if let k = intensityIndex, countStage != nil, tables.indices.contains(k) {
        // Counts are summed: an epoch with fewer seconds of counts than its
        // length holds less than its counts, so only whole ones are classed.
        partial = PartialEpochs()
        for e in tables[k].epochs.indices {
          var epoch = tables[k].epochs[e].epoch
          if !epoch.worn {
            partial.close(leftOutSeconds: nil)
          } else if let y = epoch.countsY,
            Double(tables[k].epochs[e].countSeconds) >= epoch.seconds - 1e-9
          {
            epoch.intensity = cut.classify(counts: y, epochSeconds: epoch.seconds)
            partial.close(leftOutSeconds: nil)
          } else {
            partial.close(leftOutSeconds: epoch.seconds * min(1, epoch.coverage))
          }
          tables[k].epochs[e].epoch = epoch
          days.addIntensity(epoch)
        }
      }
      diagnostics.append(
        Diagnostic(
          code: "counts-axis1", severity: .note,
          message:
            countStage == nil
            ? "\(cut.id) cut-points need ActiGraph counts, which raw data gives at 30-100 Hz only; no intensity classes"
            : "\(cut.id) cut-points applied to counts of the device's y axis (ActiLife's axis 1, vertical on the hip)",
          location: where_))
    }
    if gaps > 0 {
      diagnostics.append(
        Diagnostic(
          code: "gaps",
          message:
            "\(gaps) gap(s) longer than \(Fixed.shortest(gapThreshold)) s, \(Fixed.format(gapTotal, digits: 1)) s in all; the longest \(Fixed.format(longestGap, digits: 1)) s from \(ISO8601.formatUTC(longestGapAt))",
          location: where_))
    }
    if kind == .raw, let rate, intervalStats.n > 10 {
      let s = intervalStats
      let sd = (max(0, s.sumSquares - s.sum * s.sum / s.n) / (s.n - 1)).squareRoot()
      if sd > 0.05 / rate {
        diagnostics.append(
          Diagnostic(
            code: "irregular-sampling", severity: .note,
            message:
              "sample intervals vary (sd \(Fixed.format(sd * 1000, digits: 1)) ms at a nominal \(Fixed.format(1000 / rate, digits: 1)) ms); steps are detected on a uniform \(Fixed.shortest((rate * 100).rounded() / 100)) Hz resampling",
            location: where_))
      }
    }
    if kind == .raw, let rate, rate < parameters.steps.minimumSampleRateHz {
      diagnostics.append(
        Diagnostic(
          code: "rate-too-low-for-steps",
          message:
            "sample rate \(Fixed.shortest(rate)) Hz is below \(Fixed.shortest(parameters.steps.minimumSampleRateHz)) Hz; no steps detected",
          location: where_))
    }
    if kind == .raw, let rate, rate > parameters.steps.maximumSampleRateHz {
      diagnostics.append(
        Diagnostic(
          code: "rate-too-high-for-steps",
          message:
            "sample rate \(Fixed.shortest(rate)) Hz is above \(Fixed.shortest(parameters.steps.maximumSampleRateHz)) Hz; no steps detected",
          location: where_))
    }
    if kind != .raw && parameters.steps != StepDetectionParameters() {
      // The wear location also chooses ENMO's default cut-points.
      let locationNote =
        kind == .enmo && parameters.cutPoints == nil && parameters.steps.wearLocation == .waist
        ? "; the wear location still chose the intensity cut-points (\(parameters.cutPoints(for: kind).id))"
        : ""
      diagnostics.append(
        Diagnostic(
          code: "step-options-unused",
          message:
            "step detection settings were given but the file holds epochs, not raw acceleration: \(stepsColumnSeen ? "its steps are its own steps column" : "it has no steps column, so no steps are reported")\(locationNote)",
          location: where_))
    }
    if kind == .raw && parameters.keepEpochs && !countsIntensity && countStage == nil, let rate {
      diagnostics.append(
        Diagnostic(
          code: "no-counts", severity: .note,
          message:
            "no ActiGraph counts: the count filter is defined for 30, 40, ..., 100 Hz and the sample rate is \(Fixed.shortest((rate * 100).rounded() / 100)) Hz",
          location: where_))
    }
    if gravityMissing {
      for k in tables.indices {
        for e in tables[k].epochs.indices {
          tables[k].epochs[e].epoch.enmoMilliG = nil
          tables[k].epochs[e].epoch.madMilliG = nil
          if !countsIntensity { tables[k].epochs[e].epoch.intensity = nil }
        }
      }
      // Slim tables exist only when counts do not classify.
      for k in slimKept.indices {
        for e in slimKept[k].indices { slimKept[k][e].intensity = nil }
      }
      days.forgetMagnitude(keepingIntensity: countsIntensity)
      diagnostics.append(
        Diagnostic(
          code: "gravity-missing",
          message:
            "mean |a| is \(Fixed.format(meanMagnitude, digits: 2)) g, not about 1 g: the export seems to exclude gravity (a phone's linear acceleration; Sensor Logger's TotalAcceleration and Android's TYPE_ACCELEROMETER include it) or the unit is wrong (\(Remedy.slot)); steps, ENMO and MAD need gravity-including acceleration, so none of them is reported, nor intensity classes from them",
          location: where_, remedy: Remedy(.accelerationUnit)))
    }
    let steps: Int? =
      stepStage != nil && !gravityMissing
      ? stepCount : (stepsColumnSeen ? Int(stepsFromColumn.rounded()) : nil)
    let cut = parameters.cutPoints(for: kind)
    diagnostics += intensityDiagnostics(cut, partial: partial, where_)
    if let nonWear = parameters.nonWear {
      let recorded = days.days.reduce(0) { $0 + $1.recordedHours }
      diagnostics.append(
        Diagnostic(
          code: "non-wear", severity: .note,
          message:
            "\(Fixed.format(nonWearSeconds / 3600, digits: 2)) h of \(Fixed.format(recorded, digits: 2)) h recorded not worn (\(nonWear.nonWearWindows) of \(nonWear.windows) windows); left out of ENMO, MAD, intensity minutes, steps (\(stepsLeftOut) left out) and energy",
          location: where_))
    }
    days.finishBouts(rules: parameters.dayRules)
    // Each table's epochs without their accumulator's extras, one table at
    // a time, so no more than one table is ever held twice.
    var epochTables: [(seconds: Double, epochs: [AccelEpoch])] = []
    if parameters.keepEpochs {
      for k in tables.indices where !isSlim[k] {
        epochTables.append((tables[k].seconds, tables[k].epochs.map(\.epoch)))
        tables[k].epochs = []
      }
    }
    var slimTables: [(seconds: Double, epochs: [EnergyEpoch])] = []
    for k in slimKept.indices where isSlim[k] {
      slimTables.append((accumulators[k].seconds, slimKept[k]))
      slimKept[k] = []
    }
    return AccelAnalysis(
      kind: kind, samples: samples, start: first, end: last, sampleRateHz: rate,
      sampleRateDeclared: declaredRateHz != nil, gapSeconds: gapThreshold, gaps: gaps, steps: steps,
      enmoMeanMilliG: enmoCount > 0 && !gravityMissing ? enmoSum / Double(enmoCount) : nil,
      madMeanMilliG: madCount > 0 && !gravityMissing ? madSum / Double(madCount) : nil,
      cutPoints: cut, intensityEpochSeconds: intensityIndex.map { parameters.epochSeconds[$0] },
      epochSeconds: accumulators.map(\.seconds),
      epochs: epochTables,
      days: days.days,
      diagnostics: diagnostics, nonWearSeconds: nonWearSeconds, stepsLeftOut: stepsLeftOut,
      slimEpochs: slimTables)
  }

  /// What the intensity classes rest on, where it is not what was asked or
  /// published: a default choice of cut-points, cut-points applied to
  /// another epoch than their own, no epochs of their length, and count
  /// epochs left out for holding fewer seconds than their length.
  private func intensityDiagnostics(_ cut: CutPoints, partial: PartialEpochs, _ source: String?)
    -> [Diagnostic]
  {
    var out: [Diagnostic] = []
    let published = Fixed.shortest(cut.publishedEpochSeconds)
    if parameters.cutPoints == nil && !parameters.wearLocationStated {
      out.append(
        kind == .counts
          ? Diagnostic(
            code: "cut-points-default", severity: .note,
            message:
              "no cut-points given: \(cut.id) (\(cut.metric.rawValue) on \(published) s epochs), the default for counts whatever the wear location",
            location: source)
          : Diagnostic(
            code: "cut-points-default", severity: .note,
            message:
              "no cut-points or wear location given: \(cut.id) (\(cut.metric.rawValue) on \(published) s epochs), the default for a phone or a wrist; a device at the waist takes \(CutPoints.hildebrandHipActiGraph.id) (\(Remedy.slot))",
            location: source, remedy: Remedy(.wearLocation, value: "waist")))
    }
    let intensitySeconds = parameters.intensityEpochSeconds(for: kind)
    let asked = Fixed.shortest(intensitySeconds)
    if let k = intensityIndex {
      if !cut.isPublishedEpoch(parameters.epochSeconds[k]) {
        let scale =
          cut.metric == .countsPerMinute
          ? ": counts per minute are each epoch's counts x \(Fixed.shortest(60 / intensitySeconds))" : ""
        out.append(
          Diagnostic(
            code: "cut-points-epoch",
            message:
              "\(cut.id) cut-points were published for \(published) s epochs and are applied to \(asked) s epochs, as asked\(scale); the classes and minutes are not those of the published method",
            location: source))
      }
    } else if !parameters.epochSeconds.isEmpty {
      let analysed = parameters.epochSeconds.map { Fixed.shortest($0) + " s" }.joined(separator: ", ")
      let first = parameters.epochSeconds.first.map(Fixed.shortest) ?? published
      out.append(
        Diagnostic(
          code: "intensity-epoch", severity: .note,
          message: parameters.intensityEpochSeconds == nil
            ? "no intensity classes: \(cut.id) cut-points were published for \(published) s epochs and the epochs analysed are \(analysed); \(Remedy.slot) applies them to \(first) s epochs anyway"
            : "no intensity classes: the cut-points were asked to classify \(asked) s epochs and the epochs analysed are \(analysed)",
          location: source,
          remedy: parameters.intensityEpochSeconds == nil ? Remedy(.intensityEpoch, value: first + "s") : nil)
      )
    }
    if partial.epochs > 0 {
      var parts: [String] = []
      if partial.leadingSeconds > 0 {
        parts.append("\(Fixed.shortest(partial.leadingSeconds)) s at the start")
      }
      if partial.trailingSeconds > 0 {
        parts.append("\(Fixed.shortest(partial.trailingSeconds)) s at the end")
      }
      let inner = partial.seconds - partial.leadingSeconds - partial.trailingSeconds
      if inner > 1e-9 { parts.append("\(Fixed.shortest(inner)) s in epochs cut by gaps") }
      let length = Fixed.shortest(intensitySeconds)
      out.append(
        Diagnostic(
          code: "partial-epochs", severity: .note,
          message:
            "\(partial.epochs) epoch(s) with fewer than \(length) s of counts left out of the intensity classes and minutes\(parts.isEmpty ? "" : " (" + parts.joined(separator: ", ") + ")"): \(cut.id) classifies counts summed over whole \(length) s epochs, aligned to the clock",
          location: source))
    }
    return out
  }

  /// The waist's threshold, when steps are also counted at it: the wear
  /// location was not stated and the threshold in use is higher.
  private var waistComparisonThreshold: Double? {
    let waist = WearLocation.waist.peakThresholdG
    return parameters.suggestWearLocation && parameters.steps.peakThresholdG > waist ? waist : nil
  }

  /// Steps at the waist's threshold this much above those counted (both in
  /// steps and as a share) suggest a device at the waist. On the 48 phone
  /// recordings of BENCHMARKS.md the waist's threshold finds at most 15
  /// more (7.4 %, a carpet walk in the hand); on the lower-back recordings
  /// with slow walking, 24 to 51 more (37 % to 76 %).
  static let waistSuggestionSteps = 10
  static let waistSuggestionShare = 0.2

  private static func waistDiagnostic(_ counted: Int, _ atWaist: Int, _ waist: Double, _ source: String?)
    -> Diagnostic?
  {
    let more = atWaist - counted
    guard more >= waistSuggestionSteps, Double(more) >= waistSuggestionShare * Double(counted) else {
      return nil
    }
    let share = counted > 0 ? " (+\(Fixed.format(Double(more) / Double(counted) * 100, digits: 0)) %)" : ""
    return Diagnostic(
      code: "steps-below-threshold",
      message:
        "\(counted) steps counted; the waist's lower threshold (\(Fixed.shortest(waist)) g) finds \(atWaist)\(share): a device at the hip or lower back peaks lower than a carried phone, so if it was worn there, say so (\(Remedy(.wearLocation, value: "waist").text); stating any location silences this)",
      location: source)
  }

  /// Sums seconds of counts into the epochs holding their starts (both in
  /// time order); the vector magnitude is that of the summed axes.
  private static func assign(_ seconds: CountSeconds, to epochs: inout [EpochAccumulator.Closed]) {
    var next = seconds.chunks.lazy.joined().makeIterator()
    var second = next.next()
    for e in epochs.indices {
      let start = epochs[e].epoch.start
      let end = start + epochs[e].epoch.seconds
      while let s = second, s.start < start { second = next.next() }
      var sum = SIMD3<Double>()
      var any = 0
      while let s = second, s.start < end {
        sum += SIMD3(Double(s.x), Double(s.y), Double(s.z))
        any += 1
        second = next.next()
      }
      epochs[e].countSeconds = any
      guard any > 0 else { continue }
      epochs[e].epoch.countsX = sum.x
      epochs[e].epoch.countsY = sum.y
      epochs[e].epoch.countsZ = sum.z
      epochs[e].epoch.countsVectorMagnitude = (sum * sum).sum().squareRoot()
    }
  }

  /// Whether epochs of `seconds` hold whole seconds of counts.
  static func holdsWholeSeconds(_ seconds: Double) -> Bool {
    seconds >= 1 && abs(seconds - seconds.rounded()) < 1e-9
  }

  /// Gives each epoch the counts summed for its start (both in time
  /// order): the same sums as `assign(_ seconds:to:)`, whose seconds fall
  /// in the same whole-second bounds.
  private static func assign(_ sums: CountEpochs, to epochs: inout [EpochAccumulator.Closed]) {
    var i = 0
    for e in epochs.indices {
      let start = epochs[e].epoch.start
      while i < sums.sums.count && sums.sums[i].start < start { i += 1 }
      guard i < sums.sums.count, sums.sums[i].start == start else {
        epochs[e].countSeconds = 0
        continue
      }
      let sum = sums.sums[i].axes
      epochs[e].countSeconds = sums.sums[i].seconds
      epochs[e].epoch.countsX = sum.x
      epochs[e].epoch.countsY = sum.y
      epochs[e].epoch.countsZ = sum.z
      epochs[e].epoch.countsVectorMagnitude = (sum * sum).sum().squareRoot()
      i += 1
    }
  }

  /// Counts step times into epochs (both in time order).
  private static func assign(_ steps: [Double], to epochs: inout [EpochAccumulator.Closed]) {
    var s = 0
    for e in epochs.indices {
      epochs[e].epoch.steps = count(
        steps, from: &s, start: epochs[e].epoch.start, seconds: epochs[e].epoch.seconds)
    }
  }

  private static func assign(_ steps: [Double], to epochs: inout [EnergyEpoch]) {
    var s = 0
    for e in epochs.indices {
      epochs[e].steps = count(steps, from: &s, start: epochs[e].start, seconds: epochs[e].seconds)
    }
  }

  /// The steps in [start, start + seconds), moving `s` past them.
  private static func count(_ steps: [Double], from s: inout Int, start: Double, seconds: Double) -> Int {
    let end = start + seconds
    while s < steps.count && steps[s] < start { s += 1 }
    var count = 0
    while s < steps.count && steps[s] < end {
      count += 1
      s += 1
    }
    return count
  }
}

/// A run of raw rows of a block with no gap inside, and whether a gap
/// comes just before it.
struct RawRun: Sendable {
  var rows: Range<Int>
  var afterGap: Bool
}

/// The step detector over the runs of raw rows, keeping every step.
struct StepStream: Sendable {
  var detector: StepDetector
  var times: [Double] = []

  mutating func add(_ time: [Double], _ magnitudes: [Double], _ runs: [RawRun]) {
    time.withUnsafeBufferPointer { t in
      magnitudes.withUnsafeBufferPointer { m in
        for run in runs {
          if run.afterGap { detector.gap() }
          detector.add(
            times: UnsafeBufferPointer(rebasing: t[run.rows]),
            magnitudes: UnsafeBufferPointer(rebasing: m[run.rows]))
        }
      }
    }
    times += detector.drainSteps()
  }

  /// Ends the last bout.
  mutating func finish() {
    detector.finish()
    times += detector.drainSteps()
  }
}

/// ActiGraph counts over the runs of raw rows: a gap ends a count stream
/// and the next sample starts a new one.
struct CountStream: Sendable {
  var counter: ActiGraphCounts
  let rate: Double
  /// Start of the current stream: the first sample, or the first after a
  /// gap.
  var origin: Double
  var done = 0
  /// Whether counts are kept (for the epoch tables).
  let keep: Bool
  /// Whether each second is kept, for an epoch length `CountEpochs` does
  /// not sum.
  let keepSeconds: Bool
  var seconds = CountSeconds()
  /// Sums per epoch, one list per whole-second epoch length.
  var epochs: [CountEpochs]
  /// Seconds of counts completed (kept or not).
  var counted = 0

  init(
    counter: ActiGraphCounts, rate: Double, origin: Double, keep: Bool, epochSeconds: [Double],
    keepSeconds: Bool
  ) {
    self.counter = counter
    self.rate = rate
    self.origin = origin
    self.keep = keep
    self.keepSeconds = keepSeconds
    epochs = epochSeconds.map(CountEpochs.init)
  }

  mutating func add(_ time: [Double], _ values: [Double], _ runs: [RawRun]) {
    values.withUnsafeBufferPointer { v in
      for run in runs {
        if run.afterGap, let fresh = ActiGraphCounts(sampleRateHz: rate) {
          drain()
          counter = fresh
          origin = time[run.rows.lowerBound]
          done = 0
        }
        counter.add(
          xyz: UnsafeBufferPointer(rebasing: v[(3 * run.rows.lowerBound)..<(3 * run.rows.upperBound)]))
      }
    }
    drain()
  }

  /// Keeps the seconds of counts completed.
  private mutating func drain() {
    let new = counter.drainSeconds()
    guard keep else { return }
    for s in new {
      let second: CountSeconds.Second = (
        origin + Double(done), Int32(clamping: s.x), Int32(clamping: s.y), Int32(clamping: s.z)
      )
      if keepSeconds { seconds.append(second) }
      for k in epochs.indices { epochs[k].add(second) }
      counted += 1
      done += 1
    }
  }
}

/// Whole seconds of counts summed per epoch of one whole-second length as
/// they come (in time order): a second belongs to the epoch k with
/// k x length <= start < k x length + length, bounds that are exact in
/// doubles for whole lengths, and is summed in time order, as the seconds
/// are by `assign`.
struct CountEpochs: Sendable {
  struct Sum: Sendable {
    var start: Double
    var axes: SIMD3<Double>
    var seconds: Int
  }

  let seconds: Double
  private(set) var sums: [Sum] = []

  /// Lengths whose epoch bounds are exact: whole seconds.
  static func fits(_ seconds: Double) -> Bool {
    seconds >= 1 && seconds == seconds.rounded() && seconds < 1e9
  }

  init(seconds: Double) { self.seconds = seconds }

  mutating func add(_ s: CountSeconds.Second) {
    guard s.start.isFinite, abs(s.start) < 1e15 else { return }
    var k = (s.start / seconds).rounded(.down)
    while k * seconds > s.start { k -= 1 }
    while k * seconds + seconds <= s.start { k += 1 }
    let start = k * seconds
    let axes = SIMD3(Double(s.x), Double(s.y), Double(s.z))
    if let last = sums.indices.last, sums[last].start == start {
      sums[last].axes += axes
      sums[last].seconds += 1
    } else {
      sums.append(Sum(start: start, axes: SIMD3<Double>() + axes, seconds: 1))
    }
  }
}

/// Whole seconds of ActiGraph counts (start, x, y, z), in time order, kept
/// in chunks of 65,536: a week is 604,800 of them, 14.5 MB, and one array
/// grown by doubling would hold up to 2.5 times that while it grows.
struct CountSeconds: Sendable {
  typealias Second = (start: Double, x: Int32, y: Int32, z: Int32)
  static let chunkLength = 1 << 16
  private(set) var chunks: [[Second]] = []

  var isEmpty: Bool { chunks.isEmpty }

  mutating func append(_ second: Second) {
    if chunks.isEmpty || chunks[chunks.count - 1].count == Self.chunkLength {
      var chunk: [Second] = []
      chunk.reserveCapacity(Self.chunkLength)
      chunks.append(chunk)
    }
    chunks[chunks.count - 1].append(second)
  }
}

/// Daily summaries in a time zone, built as epochs close (in time order);
/// steps are added once the step detector has finished.
struct DayBuilder {
  let timeZone: TimeZone
  /// Whether steps are counted (a detector runs), so that days start at 0.
  var stepsKnown = false
  private(set) var days: [AccelDay] = []
  private var enmoSums: [Double] = []
  private var enmoCounts: [Int] = []
  // The local day of the last lookup and its span in UTC.
  private var cachedIndex = -1
  private var cachedFrom = 0.0
  private var cachedTo = 0.0

  init(timeZone: TimeZone) { self.timeZone = timeZone }

  /// The index of the day holding instant `t`, added when new.
  private mutating func day(_ t: Double) -> Int {
    if cachedIndex >= 0 && t >= cachedFrom && t < cachedTo { return cachedIndex }
    let offset = Double(timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: t)))
    let localDay = ((t + offset) / 86400).rounded(.down)
    let date = String(ISO8601.formatUTC(localDay * 86400).prefix(10))
    if days.last(where: { $0.date == date }) == nil {
      days.append(
        AccelDay(
          date: date, recordedHours: 0, steps: stepsKnown ? 0 : nil, enmoMeanMilliG: nil, minutes: [:]))
      enmoSums.append(0)
      enmoCounts.append(0)
    }
    // The span of the day at this offset; after a change of offset the next
    // lookup works the day out again.
    cachedIndex = days.lastIndex { $0.date == date }!
    cachedFrom = localDay * 86400 - offset
    cachedTo = cachedFrom + 86400
    return cachedIndex
  }

  /// An epoch's recorded time, steps and ENMO (not its minutes of
  /// intensity, which come from the epochs the cut-points classify).
  mutating func add(_ e: AccelEpoch) {
    let d = day(e.start)
    let recorded = e.seconds * min(1, e.coverage)
    days[d].recordedHours += recorded / 3600
    guard e.worn else {
      days[d].nonWearHours += recorded / 3600
      return
    }
    if let s = e.steps { days[d].steps = (days[d].steps ?? 0) + s }
    if let m = e.enmoMilliG {
      enmoSums[d] += m * Double(e.samples)
      enmoCounts[d] += e.samples
      days[d].enmoMeanMilliG = enmoSums[d] / Double(enmoCounts[d])
    }
  }

  /// The minutes of a classified epoch (the recorded part of it).
  mutating func addIntensity(_ e: AccelEpoch) {
    guard let c = e.intensity, e.worn else { return }
    let d = day(e.start)
    addMinutes(e.seconds * min(1, e.coverage) / 60, of: c, to: d)
    classified.append(
      ClassifiedEpoch(
        start: e.start, seconds: e.seconds, recordedSeconds: e.seconds * min(1, e.coverage), day: d,
        mvpa: c == .moderate || c == .vigorous, sedentary: c == .sedentary))
  }

  /// An epoch with a class, for the MVPA bouts.
  struct ClassifiedEpoch {
    var start: Double
    var seconds: Double
    var recordedSeconds: Double
    var day: Int
    var mvpa: Bool
    var sedentary: Bool
  }
  private var classified: [ClassifiedEpoch] = []

  /// Minutes in MVPA and sedentary bouts and breaks in sedentary time
  /// per day (`DayRules`, `GGIRBouts`), over each run of consecutive
  /// classified epochs (each starting where the one before ended): a gap
  /// or non-wear ends a run as the end of a recording would.
  mutating func finishBouts(rules: DayRules) {
    for d in days.indices where !days[d].minutes.isEmpty {
      days[d].mvpaBoutMinutes = 0
      days[d].sedentaryBoutMinutes = 0
      days[d].sedentaryBreaks = 0
    }
    guard let first = classified.first else { return }
    let perMinute = max(1, Int((60 / first.seconds).rounded()))
    let mvpaLength = max(1, Int((rules.boutMinutes * 60 / first.seconds).rounded()))
    let sedentaryLength = max(1, Int((rules.sedentaryBoutMinutes * 60 / first.seconds).rounded()))
    var runStart = 0
    for i in 0...classified.count {
      let breaks =
        i == classified.count
        || (i > runStart
          && abs(classified[i].start - (classified[i - 1].start + classified[i - 1].seconds)) > 1e-6)
      guard breaks else { continue }
      let run = Array(classified[runStart..<i])
      let mvpa = GGIRBouts.mark(
        run.map(\.mvpa), epochsPerMinute: perMinute, boutEpochs: mvpaLength, share: rules.boutShare)
      let sedentary = GGIRBouts.mark(
        run.map(\.sedentary), epochsPerMinute: perMinute, boutEpochs: sedentaryLength,
        share: rules.sedentaryBoutShare)
      for (k, e) in run.enumerated() {
        if mvpa[k] {
          days[e.day].mvpaBoutMinutes = (days[e.day].mvpaBoutMinutes ?? 0) + e.recordedSeconds / 60
        }
        if sedentary[k] {
          days[e.day].sedentaryBoutMinutes = (days[e.day].sedentaryBoutMinutes ?? 0) + e.recordedSeconds / 60
        }
        if k > 0, run[k - 1].sedentary, !e.sedentary {
          days[run[k - 1].day].sedentaryBreaks = (days[run[k - 1].day].sedentaryBreaks ?? 0) + 1
        }
      }
      runStart = i
    }
  }

  /// Minutes of a class; the day's first classified minutes give every
  /// class its 0.
  private mutating func addMinutes(_ minutes: Double, of c: IntensityClass, to d: Int) {
    if days[d].minutes.isEmpty {
      days[d].minutes = Dictionary(uniqueKeysWithValues: IntensityClass.allCases.map { ($0, 0) })
    }
    days[d].minutes[c, default: 0] += minutes
  }

  /// No steps are known (each day's count back to nil).
  mutating func forgetSteps() {
    stepsKnown = false
    for d in days.indices { days[d].steps = nil }
  }

  /// Forgets what came from the magnitude of the acceleration (ENMO and,
  /// unless counts gave them, the intensity minutes).
  mutating func forgetMagnitude(keepingIntensity: Bool) {
    for d in days.indices {
      days[d].enmoMeanMilliG = nil
      if !keepingIntensity { days[d].minutes = [:] }
    }
  }

  mutating func addStep(_ t: Double) {
    let d = day(t)
    days[d].steps = (days[d].steps ?? 0) + 1
  }
}

/// Accumulates rows into epochs of one length.
struct EpochAccumulator {
  struct Closed {
    var epoch: AccelEpoch
    var meanMagnitude: Double
    /// Whole seconds of ActiGraph counts from raw data summed into it.
    var countSeconds = 0
  }

  let seconds: Double
  let rate: Double
  let kind: AccelDataKind
  /// The cut-points, for the table they classify (nil for the others).
  let cutPoints: CutPoints?
  /// Epochs of counts left out of the classes for holding fewer rows than
  /// their length.
  private(set) var partial = PartialEpochs()
  private(set) var epochs: [Closed] = []
  private var index = Int.min
  private var n = 0
  private var enmoSum = 0.0
  private var magnitudes: [Double] = []
  private var axis1 = 0.0
  private var vm = 0.0
  /// Sums of the three axes while every row has all three.
  private var axisSums = SIMD3<Double>()
  private var threeAxes = true
  private var steps = 0.0
  private var sawSteps = false

  init(seconds: Double, rate: Double, kind: AccelDataKind, cutPoints: CutPoints?) {
    self.seconds = seconds
    self.rate = rate
    self.kind = kind
    self.cutPoints = cutPoints
  }

  /// Times in `inside` surely fall in epoch `index`: the epoch's bounds
  /// less a margin far above the rounding of t / seconds, so the division
  /// runs only near a boundary and gives the same epochs as running it for
  /// every sample.
  private var inside = 0.0..<0.0

  private mutating func roll(_ t: Double) {
    if inside.contains(t) { return }
    let k = Int((t / seconds).rounded(.down))
    if k != index {
      if n > 0 { close() }
      index = k
    }
    let low = Double(k) * seconds
    let high = Double(k + 1) * seconds
    let margin = 1e-12 * max(abs(low), abs(high)) + 1e-9
    inside = low + margin < high - margin ? (low + margin)..<(high - margin) : 0.0..<0.0
  }

  /// Raw rows in time order: each run of rows in one epoch is added at
  /// once.
  mutating func addRaw(
    times: UnsafeBufferPointer<Double>, magnitudes m: UnsafeBufferPointer<Double>,
    enmo: UnsafeBufferPointer<Double>
  ) {
    var i = 0
    let count = times.count
    while i < count {
      roll(times[i])
      var j = i + 1
      while j < count && inside.contains(times[j]) { j += 1 }
      n += j - i
      for k in i..<j { enmoSum += enmo[k] }
      magnitudes.append(contentsOf: UnsafeBufferPointer(rebasing: m[i..<j]))
      i = j
    }
  }

  mutating func addCounts(_ t: Double, axes: SIMD3<Double>, steps s: Double, vm v: Double) {
    roll(t)
    n += 1
    axis1 += axes.x
    vm += v
    if axes.y.isNaN || axes.z.isNaN {
      threeAxes = false
    } else {
      axisSums += axes
    }
    if !s.isNaN {
      steps += s
      sawSteps = true
    }
  }

  mutating func addENMO(_ t: Double, _ value: Double) {
    roll(t)
    n += 1
    enmoSum += value
  }

  mutating func finish() { if n > 0 { close() } }

  /// The epochs closed since the last drain.
  mutating func drain() -> [Closed] {
    defer { epochs.removeAll(keepingCapacity: true) }
    return epochs
  }

  private mutating func close() {
    var epoch = AccelEpoch(
      start: Double(index) * seconds, seconds: seconds, samples: n, coverage: Double(n) / (seconds * rate))
    var meanMagnitude = 1.0
    switch kind {
    case .raw:
      let enmo = enmoSum / Double(n)
      meanMagnitude = magnitudes.reduce(0, +) / Double(n)
      var deviation = 0.0
      for m in magnitudes { deviation += abs(m - meanMagnitude) }
      epoch.enmoMilliG = enmo
      epoch.madMilliG = deviation / Double(n) * 1000
      if let cutPoints, cutPoints.metric == .enmoMilliG { epoch.intensity = cutPoints.classify(enmo) }
    case .enmo:
      let enmo = enmoSum / Double(n)
      epoch.enmoMilliG = enmo
      if let cutPoints, cutPoints.metric == .enmoMilliG { epoch.intensity = cutPoints.classify(enmo) }
    case .counts:
      epoch.countsAxis1 = axis1
      // ActiLife re-integrates epochs by summing the axes and taking the
      // magnitude of the sums; with one axis only, the file's magnitudes
      // are summed.
      epoch.countsVectorMagnitude = threeAxes ? (axisSums * axisSums).sum().squareRoot() : vm
      epoch.steps = sawSteps ? Int(steps.rounded()) : nil
      if let cutPoints, cutPoints.metric == .countsPerMinute {
        // Counts are summed: an epoch short of rows (the recording's first
        // or last, or one cut by a gap) holds less than its counts.
        if epoch.coverage >= 1 - 1e-9 {
          epoch.intensity = cutPoints.classify(counts: axis1, epochSeconds: seconds)
          partial.close(leftOutSeconds: nil)
        } else {
          partial.close(leftOutSeconds: seconds * epoch.coverage)
        }
      }
    }
    epochs.append(Closed(epoch: epoch, meanMagnitude: meanMagnitude))
    n = 0
    enmoSum = 0
    magnitudes.removeAll(keepingCapacity: true)
    axis1 = 0
    vm = 0
    axisSums = SIMD3()
    threeAxes = true
    steps = 0
    sawSteps = false
  }
}

/// Epochs of counts left out of the intensity classes for holding fewer
/// seconds of counts than their length, tallied as they close (in time
/// order): those at the start and end of the recording (epochs aligned to
/// the clock cut the first and last minute), and those cut by gaps.
struct PartialEpochs: Sendable {
  /// Epochs left out.
  private(set) var epochs = 0
  /// Seconds of counts in them, s.
  private(set) var seconds = 0.0
  /// Seconds of counts in the first epoch, when it was left out, s.
  private(set) var leadingSeconds = 0.0
  private var closed = 0
  private var lastLeftOut: Double?

  /// Seconds of counts in the last epoch, when it was left out (and is
  /// not also the first), s.
  var trailingSeconds: Double { closed > 1 ? lastLeftOut ?? 0 : 0 }

  /// One more epoch closed: `leftOutSeconds` nil when it was classified,
  /// else the seconds of counts it held.
  mutating func close(leftOutSeconds: Double?) {
    defer { closed += 1 }
    lastLeftOut = leftOutSeconds
    guard let leftOutSeconds else { return }
    epochs += 1
    seconds += leftOutSeconds
    if closed == 0 { leadingSeconds = leftOutSeconds }
  }
}
