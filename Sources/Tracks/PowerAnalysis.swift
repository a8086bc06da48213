import EnergyLabCore

/// How Normalized Power's 30 s rolling average treats the start of a ride.
public enum NormalizedPowerWindows: String, Sendable, Hashable, CaseIterable {
  /// Only full windows: the first rolling average is that of samples 1-30,
  /// so a ride of n samples gives n - 29 averages. Bike computers compute
  /// it so (Garmin Edge 810, indoor Edge, Wahoo ELEMNT BOLT: within 0.5 W
  /// of their `normalized_power` on the shared rides).
  case full
  /// Partial windows at the start: sample k (from 1) of the first 29
  /// averages the k samples so far, so every sample gives an average (the
  /// pandas `rolling(30, min_periods=1)` of sweat and vmpy).
  case partial
}

/// What a record without a power value counts as.
public enum MissingPowerRule: String, Sendable, Hashable, CaseIterable {
  /// 0 W when the record carries a cadence (a meter that sends nothing
  /// while the rider coasts: Wahoo ELEMNT writes no power with cadence 0),
  /// left out when it carries no cadence either (every bike sensor silent:
  /// a dropout, which Garmin's indoor Edge leaves out of its figures).
  case auto
  /// Always 0 W.
  case zero
  /// Always left out.
  case skip
}

/// The duration TSS is taken over.
public enum TSSDuration: String, Sendable, Hashable, CaseIterable {
  /// The number of rolling averages Normalized Power averages, in seconds
  /// at one sample a second (n - 29 with full windows): reproduces the
  /// indoor Edge's 50.8 and the ELEMNT BOLT's 1.5.
  case windows
  /// The number of power samples, s.
  case samples
  /// The number of power samples in whole minutes, the remainder dropped:
  /// reproduces the Edge 810's 118.7 (4,700 samples, 78 min: 118.74),
  /// where its windows give 118.51 and its samples 119.25. The indoor
  /// Edge and the ELEMNT BOLT count seconds (`windows`).
  case minutes
}

/// Fills the seconds between records written more than 1 s apart (smart
/// recording) so every power figure works on a 1 Hz series, as devices
/// and sweat (`resample` then `interpolate`) do: between two consecutive
/// records with a series value at t0 and t1, 1 s < t1 - t0 <= 10 s, the
/// round(t1 - t0) - 1 missing seconds take the linear interpolation of
/// the two values. A longer interval is a pause, and a record left out
/// (no power, no cadence) a dropout: nothing is filled across either.
public struct OneHertzFill: Sendable {
  /// The longest interval between records that is filled, s.
  public static let longestFilledSeconds = 10.0
  private var previousTime: Double?
  private var previousWatts: Double?

  public init() {}

  /// A record at `time` with series value `watts` (nil: left out): hands
  /// the filled seconds before it to `emit`, oldest first; the caller then
  /// adds `watts` itself.
  public mutating func add(time: Double?, watts: Double?, emit: (Double) -> Void) {
    if let w = watts, let w0 = previousWatts, let t = time, let t0 = previousTime {
      let gap = t - t0
      if gap > 1.5 && gap <= Self.longestFilledSeconds {
        let n = Int(gap.rounded())
        for k in 1..<n { emit(w0 + (w - w0) * Double(k) / Double(n)) }
      }
    }
    if time != nil || watts == nil {
      previousTime = time
      previousWatts = watts
    }
  }
}

/// Parameters of the power figures devices and coaches compute.
public struct PowerParameters: Sendable, Hashable {
  /// Length of Normalized Power's rolling average, samples (s at 1 Hz).
  public var rollingSeconds = 30
  public var windows = NormalizedPowerWindows.full
  public var missingPower = MissingPowerRule.auto
  public var tssDuration = TSSDuration.windows
  /// Upper bounds of the power zones as fractions of FTP, ascending; one
  /// zone more than bounds. Default: Coggan's seven levels (active
  /// recovery < 55 %, endurance < 75 %, tempo < 90 %, threshold < 105 %,
  /// VO2max < 120 %, anaerobic < 150 %, neuromuscular above).
  public var zoneUpperFractions: [Double] = [0.55, 0.75, 0.90, 1.05, 1.20, 1.50]

  public init() {}

  /// A stated functional threshold power, checked: positive watts, or nil
  /// (each file's own). The error names it `ftp_w`, as a run stores it.
  public static func validated(ftpWatts: Double?) throws -> Double? {
    if let ftpWatts {
      try ValueError.require(ftpWatts > 0, "ftp_w", ftpWatts, expected: "a positive number of watts")
    }
    return ftpWatts
  }

  public var described: [NamedParameter] {
    [
      NamedParameter(
        name: "np_window_s", value: String(rollingSeconds),
        meaning: "Normalized Power: rolling average over this many 1 s samples (Coggan)"),
      NamedParameter(
        name: "np_windows", value: windows.rawValue,
        meaning: "full: only full windows (as devices); partial: partial windows at the start (sweat, vmpy)"),
      NamedParameter(
        name: "missing_power", value: missingPower.rawValue,
        meaning:
          "a record without power: auto = 0 W with a cadence (coasting), left out without (dropout); zero; skip"
      ),
      NamedParameter(
        name: "tss_duration", value: tssDuration.rawValue,
        meaning: "TSS duration: windows = the rolling averages NP averages; samples = every power sample"),
      NamedParameter(
        name: "power_zones_ftp", value: zoneUpperFractions.map { Fixed.shortest($0) }.joined(separator: ","),
        meaning: "upper bounds of the power zones, fractions of FTP (Coggan's levels 1-7)"),
    ]
  }
}

/// One power sample of a ride: a record's time and power (nil where the
/// record has none) and whether it carries a cadence.
public struct PowerSample: Sendable, Hashable {
  public var timeSecondsSince1970: Double?
  public var powerWatts: Double?
  public var hasCadence: Bool
  public var heartRateBeatsPerMinute: Double?

  public init(
    timeSecondsSince1970: Double?, powerWatts: Double?, hasCadence: Bool,
    heartRateBeatsPerMinute: Double? = nil
  ) {
    self.timeSecondsSince1970 = timeSecondsSince1970
    self.powerWatts = powerWatts
    self.hasCadence = hasCadence
    self.heartRateBeatsPerMinute = heartRateBeatsPerMinute
  }

  /// The samples of a track's fixes (track and time-only, in record
  /// order), the fixes that carry neither time nor power left out.
  public static func samples(of track: Track) -> [PowerSample] {
    let fixes = (track.points + track.timeOnlyPoints).sorted { $0.sourceLine < $1.sourceLine }
    return fixes.map {
      PowerSample(
        timeSecondsSince1970: $0.timeSecondsSince1970, powerWatts: $0.powerWatts,
        hasCadence: $0.cadencePerMinute != nil, heartRateBeatsPerMinute: $0.heartRateBeatsPerMinute)
    }
  }
}

/// The figures of one stretch of power samples (a ride or a lap).
public struct PowerSummary: Sendable, Hashable {
  /// Records in the stretch.
  public var records: Int
  /// Power samples after the missing-power rule: the series every figure
  /// is computed from, one a second.
  public var samples: Int
  /// Records without power that counted as 0 W.
  public var missingAsZero: Int
  /// Records without power that were left out.
  public var missingSkipped: Int
  /// Mean of the samples, W; nil without samples.
  public var meanPowerWatts: Double?
  public var maxPowerWatts: Double?
  /// Work: the sum of the samples times 1 s, J.
  public var workJoules: Double?
  /// Normalized Power, W; nil with fewer samples than a full window
  /// (under `full`).
  public var normalizedPowerWatts: Double?
  /// Rolling averages NP averaged.
  public var rollingAverages: Int
  /// NP / mean power.
  public var variabilityIndex: Double?
  /// The FTP IF and TSS are against, W.
  public var ftpWatts: Double?
  /// NP / FTP.
  public var intensityFactor: Double?
  /// Training Stress Score.
  public var trainingStressScore: Double?
  /// The seconds TSS was taken over.
  public var tssDurationSeconds: Double?
  /// Seconds in each power zone (one sample, one second); empty without
  /// an FTP.
  public var secondsInZones: [Double]
  public var heartRateMeanBeatsPerMinute: Double?
  public var heartRateMaxBeatsPerMinute: Double?
  /// First and last record time, s since 1970.
  public var startSecondsSince1970: Double?
  public var endSecondsSince1970: Double?
}

/// Normalized Power, Intensity Factor, TSS, variability index, work and
/// time in zones, as bike computers and coaching software compute them.
///
/// ```
/// NP  = ( mean over k of  ( mean of samples k-29 ... k )^4 )^(1/4)
/// IF  = NP / FTP
/// TSS = duration_s * NP * IF / (FTP * 3600) * 100
/// VI  = NP / mean power
/// ```
///
/// Samples are taken one per record, at the device's one second, records
/// more than 1 s apart filled to 1 Hz (`OneHertzFill`); a record without
/// power counts as the `missingPower` rule says. Source: A. Coggan,
/// in H. Allen and A. Coggan, "Training and Racing with a Power Meter"
/// (2nd ed., 2010), ch. 7; zones: Table 3.1 there.
public struct PowerAnalysis: Sendable {
  public var parameters: PowerParameters

  public init(parameters: PowerParameters = PowerParameters()) { self.parameters = parameters }

  /// The 1 Hz power series of `samples` under the missing-power rule.
  /// A ride where no record carries power has no series (a run with a
  /// cadence sensor is not a ride at 0 W).
  public func series(_ samples: [PowerSample]) -> [Double] {
    guard samples.contains(where: { $0.powerWatts != nil }) else { return [] }
    var watts: [Double] = []
    watts.reserveCapacity(samples.count)
    var fill = OneHertzFill()
    for s in samples {
      let value = s.powerWatts ?? (countsAsZero(s) ? 0 : nil)
      fill.add(time: s.timeSecondsSince1970, watts: value) { watts.append($0) }
      if let value { watts.append(value) }
    }
    return watts
  }

  /// Whether a record without power counts as 0 W under the missing-power
  /// rule.
  public func countsAsZero(_ s: PowerSample) -> Bool {
    s.powerWatts == nil
      && (parameters.missingPower == .zero || (parameters.missingPower == .auto && s.hasCadence))
  }

  /// The rolling averages of a 1 Hz series: element k is the mean of
  /// the window ending at sample k, nil where the window is not full
  /// (under `full`). Sums are recomputed every 4096 samples so rounding
  /// does not drift over long rides.
  public func rollingAverages(_ watts: [Double]) -> [Double?] {
    let w = max(1, parameters.rollingSeconds)
    var out = [Double?](repeating: nil, count: watts.count)
    var sum = 0.0
    for k in watts.indices {
      sum += watts[k]
      if k >= w { sum -= watts[k - w] }
      if k >= w && k % 4096 == 0 { sum = watts[(k - w + 1)...k].reduce(0, +) }
      let filled = min(k + 1, w)
      if filled == w || parameters.windows == .partial { out[k] = sum / Double(filled) }
    }
    return out
  }

  /// Normalized Power of a 1 Hz series and the number of rolling averages
  /// it averaged; nil when no average can be formed.
  public func normalizedPower(_ watts: [Double]) -> (watts: Double, averages: Int)? {
    Self.normalizedPower(ofAverages: rollingAverages(watts)[...])
  }

  static func normalizedPower(ofAverages averages: ArraySlice<Double?>) -> (watts: Double, averages: Int)? {
    var fourth = 0.0
    var count = 0
    for case let mean? in averages {
      let m2 = mean * mean
      fourth += m2 * m2
      count += 1
    }
    guard count > 0 else { return nil }
    return ((fourth / Double(count)).squareRoot().squareRoot(), count)
  }

  /// The figures of all `samples` against `ftpWatts` (nil: no IF, TSS or
  /// zones).
  public func summary(_ samples: [PowerSample], ftpWatts: Double?) -> PowerSummary {
    summaries(samples, stretches: [], ftpWatts: ftpWatts).whole
  }

  /// The figures of all `samples`, and of each stretch of them (laps, as
  /// index ranges into `samples`). A lap's Normalized Power averages the
  /// ride's rolling averages that end inside it: the 30 s window runs on
  /// across lap boundaries, as the Garmin Edge 810 computes its laps' NP
  /// (within 0.5 W on six of its eight laps; the 30 s windows then start
  /// where the ride's do).
  public func summaries(_ samples: [PowerSample], stretches: [Range<Int>], ftpWatts: Double?)
    -> (whole: PowerSummary, stretches: [PowerSummary])
  {
    // The series, and where each sample landed in it.
    var watts: [Double] = []
    watts.reserveCapacity(samples.count)
    // Each record's stretch of the series: the seconds filled before it
    // and its own sample.
    var span = [Range<Int>?](repeating: nil, count: samples.count)
    var zeroAt = [Bool](repeating: false, count: samples.count)
    var fill = OneHertzFill()
    // No record with power: every figure is unknown, none is 0.
    let anyPower = samples.contains { $0.powerWatts != nil }
    for (i, s) in samples.enumerated() where anyPower {
      let value = s.powerWatts ?? (countsAsZero(s) ? 0 : nil)
      let start = watts.count
      fill.add(time: s.timeSecondsSince1970, watts: value) { watts.append($0) }
      guard let value else { continue }
      zeroAt[i] = s.powerWatts == nil
      watts.append(value)
      span[i] = start..<watts.count
    }
    let averages = rollingAverages(watts)
    func figures(_ range: Range<Int>) -> PowerSummary {
      let positions = range.flatMap { span[$0] ?? 0..<0 }
      let zero = range.filter { zeroAt[$0] }.count
      let skipped = range.filter { span[$0] == nil }.count
      let lapWatts = positions.map { watts[$0] }
      let np = positions.first.flatMap { a in
        positions.last.flatMap { b in Self.normalizedPower(ofAverages: averages[a...b]) }
      }
      let mean = lapWatts.isEmpty ? nil : lapWatts.reduce(0, +) / Double(lapWatts.count)
      let stretch = samples[range]
      let times = stretch.compactMap(\.timeSecondsSince1970)
      let heartRates = stretch.compactMap(\.heartRateBeatsPerMinute)
      var out = PowerSummary(
        records: range.count, samples: lapWatts.count, missingAsZero: zero, missingSkipped: skipped,
        meanPowerWatts: mean, maxPowerWatts: lapWatts.max(),
        workJoules: lapWatts.isEmpty ? nil : lapWatts.reduce(0, +),
        normalizedPowerWatts: np?.watts, rollingAverages: np?.averages ?? 0,
        variabilityIndex: nil, ftpWatts: ftpWatts, intensityFactor: nil, trainingStressScore: nil,
        tssDurationSeconds: nil, secondsInZones: [],
        heartRateMeanBeatsPerMinute: heartRates.isEmpty
          ? nil : heartRates.reduce(0, +) / Double(heartRates.count),
        heartRateMaxBeatsPerMinute: heartRates.max(), startSecondsSince1970: times.min(),
        endSecondsSince1970: times.max())
      if let np = np?.watts, let mean, mean > 0 { out.variabilityIndex = np / mean }
      if let ftp = ftpWatts, ftp > 0 {
        if let np = np {
          let intensity = np.watts / ftp
          let seconds: Double
          switch parameters.tssDuration {
          case .windows: seconds = Double(np.averages)
          case .samples: seconds = Double(lapWatts.count)
          case .minutes: seconds = Double(lapWatts.count / 60 * 60)
          }
          out.intensityFactor = intensity
          out.tssDurationSeconds = seconds
          out.trainingStressScore = seconds * np.watts * intensity / (ftp * 3600) * 100
        }
        var zones = [Double](repeating: 0, count: parameters.zoneUpperFractions.count + 1)
        for p in lapWatts {
          let fraction = p / ftp
          let zone =
            parameters.zoneUpperFractions.firstIndex { fraction < $0 } ?? parameters.zoneUpperFractions.count
          zones[zone] += 1
        }
        out.secondsInZones = zones
      }
      return out
    }
    return (figures(samples.indices), stretches.map(figures))
  }
}
