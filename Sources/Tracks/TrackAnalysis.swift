import EnergyLabCore
import Foundation

/// The named parameters of track analysis; every one is recorded with a run
/// and printed in reports.
public struct TrackAnalysisParameters: Sendable, Hashable {
  /// How distances between fixes are computed. Default: geodesic.
  public var distanceMethod: Geodesy.DistanceMethod = .geodesic
  /// Horizontal length of the windows over which grade is computed, metres.
  /// Default 20 m, the PEM thesis's grade step (Fig 6.13).
  public var gradeWindowMeters: Double = 20
  /// Steps slower than this count as stopped, m/s. Default 0.3 m/s, below
  /// any walking pace (ACSM's walking range starts at 1.9 mph = 0.85 m/s).
  public var stopSpeedMetersPerSecond: Double = 0.3
  /// Stop speeds by activity, m/s: below a slow walk (0.3), a slow jog (0.8),
  /// a bicycle balancing (1.0), a car creeping in traffic (2.0). EnergyLab's
  /// choices, reported with every run.
  public static let stopSpeedDefaults: [String: Double] = [
    "walk": 0.3, "run": 0.8, "cycle": 1.0, "drive": 2.0,
  ]
  /// Fixes in the centred moving average of the smoothed elevation gain.
  /// Default 5.
  public var elevationSmoothingFixes = 5
  /// Change of elevation that counts towards the hysteresis gain and loss,
  /// metres. Default 5 m, about the vertical error of consumer GPS.
  public var elevationHysteresisMeters = 5.0
  /// Step speeds in the running median whose maximum is the robust maximum
  /// speed. Default 5.
  public var robustSpeedWindow = 5
  /// Cleaning of fixes before any metric (impossible fixes by default).
  /// How recorded elevation is cleaned before gain, loss and grade.
  public var elevationCleaning = ElevationCleaning()
  public var cleaning = CleaningParameters()
  /// Join the segments (and tracks) of a file into one path, as readers
  /// that ignore `<trkseg>` do: steps then cross the gaps. Default off:
  /// each segment is a path of its own and gaps are measured, not travelled.
  public var joinSegments = false
  /// A gap between segments at least this long, metres, or this long in
  /// time, seconds, is named in a diagnostic. Defaults 100 m and 300 s.
  public var gapNoteMeters = 100.0
  public var gapNoteSeconds = 300.0
  /// Read a file that ends early (a FIT file cut short) up to its last
  /// whole message, with a diagnostic saying what is missing, instead of
  /// refusing it. Default off.
  public var readTruncatedFiles = false
  /// Read a FIT file whose header or file CRC does not match, with a
  /// warning naming the byte, instead of refusing it. Default off.
  public var ignoreFileCRC = false
  /// A step between two consecutive fixes longer than this, hours, is a
  /// gap in the recording, not a movement: no model costs it, no epoch or
  /// profile bin is made of it, and the path is not travelled across it.
  /// Default 6 h: longer than any pause inside one outing, far shorter than
  /// a clock error (a year written 2121 for 2021) or a recording resumed
  /// on another day.
  public var maximumStepHours = 6.0

  public init() {}

  /// The parameters, each checked against what it can be: an error names
  /// the parameter as the run reports it (`grade_window_m`), its value and
  /// what is accepted, and leaves it to the caller to say where the value
  /// came from.
  public func validated() throws -> TrackAnalysisParameters {
    func require(_ holds: Bool, _ name: String, _ value: Double, _ expected: String) throws {
      try ValueError.require(holds, name, value, expected: expected)
    }
    try require(
      gradeWindowMeters > 0 && gradeWindowMeters.isFinite, "grade_window_m", gradeWindowMeters, "positive")
    try require(
      maximumStepHours > 0 && maximumStepHours.isFinite, "max_step_h", maximumStepHours,
      "a positive number of hours")
    try require(stopSpeedMetersPerSecond >= 0, "stop_speed_mps", stopSpeedMetersPerSecond, "at least 0")
    try require(
      elevationSmoothingFixes >= 1, "elevation_smoothing_fixes", Double(elevationSmoothingFixes), "at least 1"
    )
    try require(
      elevationHysteresisMeters >= 0, "elevation_hysteresis_m", elevationHysteresisMeters, "at least 0")
    if let v = cleaning.impossibleSpeedMetersPerSecond {
      try require(v > 0, "impossible_speed_mps", v, "positive")
    }
    return self
  }

  /// Name, value and meaning of each parameter, for provenance.
  public var described: [NamedParameter] {
    [
      NamedParameter(
        name: "distance_method", value: distanceMethod.rawValue,
        meaning: "geodesic (WGS-84, Vincenty) or haversine"),
      NamedParameter(
        name: "grade_window_m", value: Fixed.shortest(gradeWindowMeters),
        meaning: "horizontal run over which grade is computed (PEM thesis Fig 6.13)"),
      NamedParameter(
        name: "stop_speed_mps", value: Fixed.shortest(stopSpeedMetersPerSecond),
        meaning: "steps slower than this are not moving time"),
      NamedParameter(
        name: "max_step_h", value: Fixed.shortest(maximumStepHours),
        meaning: "a longer time step between fixes is a gap: not costed, not travelled"),
      NamedParameter(
        name: "join_segments", value: joinSegments ? "on" : "off",
        meaning: joinSegments
          ? "segments and tracks joined into one path; steps cross the gaps"
          : "each segment a path of its own; gaps between segments are not travelled"),
    ]
      + (readTruncatedFiles
        ? [
          NamedParameter(
            name: "read_truncated", value: "on",
            meaning: "files that end early are read up to their last whole message")
        ] : [])
      + (ignoreFileCRC
        ? [
          NamedParameter(
            name: "ignore_crc", value: "on", meaning: "FIT files with a wrong CRC are read all the same")
        ]
        : []) + cleaning.described + elevationCleaning.described
  }
}

/// The movement between two consecutive fixes of one segment.
///
/// Held compactly (88 bytes): an absent value is stored as NaN and read
/// back as nil.
public struct TrackStep: Sendable, Hashable {
  private var start: Double
  private var duration: Double
  public var distance2DMeters: Double
  public var distance3DMeters: Double
  private var elevationChange: Double
  private var speed: Double
  private var grade: Double
  private var heartRate: Double
  private var power = Double.nan
  private var segmentOrdinal: Int32
  private var endIndex: Int32
  /// Whether a time gap (a time step longer than the analysis's
  /// `maximumStepHours`) lies between this step and the one before it:
  /// activities and lines never span it.
  public var followsTimeGap = false

  public var startSecondsSince1970: Double? {
    get { start.isNaN ? nil : start }
    set { start = newValue ?? .nan }
  }
  public var durationSeconds: Double? {
    get { duration.isNaN ? nil : duration }
    set { duration = newValue ?? .nan }
  }
  public var elevationChangeMeters: Double? {
    get { elevationChange.isNaN ? nil : elevationChange }
    set { elevationChange = newValue ?? .nan }
  }
  /// Horizontal speed, m/s; nil without usable times.
  public var speedMetersPerSecond: Double? {
    get { speed.isNaN ? nil : speed }
    set { speed = newValue ?? .nan }
  }
  /// Grade of the fixed-distance window holding the step's midpoint.
  public var gradeFraction: Double? {
    get { grade.isNaN ? nil : grade }
    set { grade = newValue ?? .nan }
  }
  public var heartRateBeatsPerMinute: Double? {
    get { heartRate.isNaN ? nil : heartRate }
    set { heartRate = newValue ?? .nan }
  }
  /// Mean power of the step's two fixes from a power meter, W.
  public var powerWatts: Double? {
    get { power.isNaN ? nil : power }
    set { power = newValue ?? .nan }
  }
  /// The path segment of the step (steps never cross segments, unless
  /// segments are joined).
  public var segment: Int {
    get { Int(segmentOrdinal) }
    set { segmentOrdinal = Int32(clamping: newValue) }
  }
  /// Index in the track's `points` of the fix the step ends at.
  public var endPointIndex: Int {
    get { Int(endIndex) }
    set { endIndex = Int32(clamping: newValue) }
  }

  public init(
    startSecondsSince1970: Double?, durationSeconds: Double?, distance2DMeters: Double,
    distance3DMeters: Double,
    elevationChangeMeters: Double?, speedMetersPerSecond: Double?, gradeFraction: Double?,
    heartRateBeatsPerMinute: Double?, segment: Int = 0, endPointIndex: Int = 0
  ) {
    start = startSecondsSince1970 ?? .nan
    duration = durationSeconds ?? .nan
    self.distance2DMeters = distance2DMeters
    self.distance3DMeters = distance3DMeters
    elevationChange = elevationChangeMeters ?? .nan
    speed = speedMetersPerSecond ?? .nan
    grade = gradeFraction ?? .nan
    heartRate = heartRateBeatsPerMinute ?? .nan
    segmentOrdinal = Int32(clamping: segment)
    endIndex = Int32(clamping: endPointIndex)
  }

  public static func == (a: TrackStep, b: TrackStep) -> Bool {
    a.startSecondsSince1970 == b.startSecondsSince1970 && a.durationSeconds == b.durationSeconds
      && a.distance2DMeters == b.distance2DMeters && a.distance3DMeters == b.distance3DMeters
      && a.elevationChangeMeters == b.elevationChangeMeters
      && a.speedMetersPerSecond == b.speedMetersPerSecond
      && a.gradeFraction == b.gradeFraction && a.heartRateBeatsPerMinute == b.heartRateBeatsPerMinute
      && a.powerWatts == b.powerWatts
      && a.segmentOrdinal == b.segmentOrdinal && a.endIndex == b.endIndex
      && a.followsTimeGap == b.followsTimeGap
  }

  public func hash(into hasher: inout Hasher) {
    hasher.combine(startSecondsSince1970)
    hasher.combine(distance2DMeters)
    hasher.combine(segmentOrdinal)
    hasher.combine(endIndex)
  }
}

/// What `track summary` reports for one track.
public struct TrackSummary: Sendable, Hashable {
  public var source: String
  public var points: Int
  public var startSecondsSince1970: Double?
  public var endSecondsSince1970: Double?
  public var durationSeconds: Double?
  public var movingTimeSeconds: Double?
  public var distance2DMeters: Double
  public var distance3DMeters: Double
  /// Elevation gain under the parameters' `elevationCleaning` (by
  /// default: the cleaned elevation's rises of at least 0.5 m where the
  /// recorded elevation jitters, else the recorded rises), m.
  public var elevationGainMeters: Double?
  /// Elevation loss likewise (a positive number), m.
  public var elevationLossMeters: Double?
  /// Sum of the rises between consecutive fixes as the file records them,
  /// unsmoothed, m.
  public var elevationGainRecordedMeters: Double? = nil
  /// Sum of the falls as recorded (a positive number), m.
  public var elevationLossRecordedMeters: Double? = nil
  /// Gain and loss of the cleaned elevation, whichever the headline is, m.
  public var elevationGainCleanedMeters: Double? = nil
  public var elevationLossCleanedMeters: Double? = nil
  /// Share of consecutive recorded elevation changes that reverse
  /// direction (how much the recorded elevation jitters).
  public var elevationReversalShare: Double? = nil
  /// 2D distance over duration.
  public var averageSpeedMetersPerSecond: Double?
  /// Largest step speed, unsmoothed.
  public var maxSpeedMetersPerSecond: Double?
  public var gradeMeanFraction: Double?
  public var gradeMinFraction: Double?
  public var gradeMaxFraction: Double?
  public var heartRateMeanBeatsPerMinute: Double?
  public var heartRateMaxBeatsPerMinute: Double?
  public var diagnostics: [Diagnostic]
  /// Gain and loss of the elevation smoothed by a centred moving average.
  public var elevationGainSmoothedMeters: Double?
  public var elevationLossSmoothedMeters: Double?
  /// Gain and loss counting only changes beyond the hysteresis threshold.
  public var elevationGainHysteresisMeters: Double?
  public var elevationLossHysteresisMeters: Double?
  /// Largest running median of step speeds: a maximum that one bad fix
  /// cannot set.
  public var robustMaxSpeedMetersPerSecond: Double?
  /// Fixes whose heart rate makes the mean.
  public var heartRateCount = 0
  /// Gaps between consecutive path segments, their summed great-circle
  /// (geodesic) length and summed time: measured, not part of the distance.
  public var gapCount = 0
  public var gapDistanceMeters = 0.0
  public var gapDurationSeconds: Double?
  /// Tracks, segments, routes and waypoints of the file.
  public var structure = TrackStructure()
  public var pathSource = PathSource.tracks
  /// Distance the device measured itself (TCX), metres.
  public var deviceDistanceMeters: Double?
  /// Mechanical work from a power meter: power integrated over time by
  /// the trapezoid rule between consecutive records of one segment (pauses,
  /// which start segments, left out), J; nil without power.
  public var workJoules: Double?
  /// Seconds the work was integrated over, and the mean power over them,
  /// W (work / seconds).
  public var poweredSeconds: Double?
  public var meanPowerWatts: Double? {
    guard let workJoules, let poweredSeconds, poweredSeconds > 0 else { return nil }
    return workJoules / poweredSeconds
  }
}

/// Work from power: consecutive records of one segment that both carry a
/// power, integrated by the trapezoid rule.
///
/// ```
/// W (J) = sum over consecutive records i, i+1 of one segment of
///         (P_i + P_(i+1)) / 2 x (t_(i+1) - t_i)      (P in W, t in s)
/// ```
/// A record without power, or a step of more than `maximumStepSeconds`,
/// contributes nothing: power is never assumed across a hole.
public struct PowerIntegral: Sendable {
  /// The longest step between two records integrated over, s: 60.
  public static let maximumStepSeconds = 60.0

  public private(set) var joules = 0.0
  public private(set) var seconds = 0.0
  public private(set) var records = 0
  private var last: (time: Double, watts: Double, segment: Int32)?

  public init() {}

  public mutating func add(timeSecondsSince1970 t: Double?, powerWatts p: Double?, segment: Int32) {
    guard let t, let p else {
      last = nil
      return
    }
    records += 1
    if let l = last, l.segment == segment {
      let dt = t - l.time
      if dt > 0 && dt <= Self.maximumStepSeconds {
        joules += (l.watts + p) / 2 * dt
        seconds += dt
      }
    }
    last = (t, p, segment)
  }
}

/// Track metrics computed from the fixes as they are: no smoothing.
public struct TrackAnalysis: Sendable {
  public var parameters: TrackAnalysisParameters

  public init(parameters: TrackAnalysisParameters = TrackAnalysisParameters()) {
    self.parameters = parameters
  }

  /// The steps between consecutive fixes, each with its speed and the grade
  /// of its window, plus diagnostics for times that repeat or go backwards
  /// and for time steps longer than `maximumStepHours`. Such a step is a
  /// gap: no step is made of it, the steps after it start a new path piece
  /// (grade windows restart there) and the first of them `followsTimeGap`.
  public func steps(of track: Track) -> (steps: [TrackStep], diagnostics: [Diagnostic]) {
    let points = track.points
    guard points.count >= 2 else { return ([], []) }
    var diagnostics: [Diagnostic] = []
    var steps: [TrackStep] = []
    steps.reserveCapacity(points.count - 1)
    var backwards = 0
    var repeated = 0
    var firstBadLine: Int?
    var sawWindows = false
    // Path pieces: segments (or the joined path) cut at time gaps.
    let gapSeconds = parameters.maximumStepHours * 3600
    var pieces: [(segment: Int, range: Range<Int>, afterGap: Bool)] = []
    var timeGaps = TimeGaps(source: track.source, limitHours: parameters.maximumStepHours)
    var lastTime: Double?
    for (segment, range) in track.segmentRanges(joined: parameters.joinSegments).enumerated() {
      var start = range.lowerBound
      var afterGap = false
      if let lastTime, let t = points[start].timeSecondsSince1970, t - lastTime > gapSeconds {
        afterGap = true
      }
      for i in range.dropFirst() {
        guard let ta = points[i - 1].timeSecondsSince1970, let tb = points[i].timeSecondsSince1970,
          tb - ta > gapSeconds
        else { continue }
        timeGaps.add(from: ta, to: tb, line: points[i].sourceLine)
        pieces.append((segment, start..<i, afterGap))
        start = i
        afterGap = true
      }
      pieces.append((segment, start..<range.upperBound, afterGap))
      lastTime =
        points[range].last(where: { $0.timeSecondsSince1970 != nil })?.timeSecondsSince1970 ?? lastTime
    }
    diagnostics += timeGaps.diagnostics
    for (segment, range, afterGap) in pieces where range.count >= 2 {
      let firstStep = steps.count
      var cumulative = [0.0]
      cumulative.reserveCapacity(range.count)
      for i in range.dropFirst() {
        let a = points[i - 1]
        let b = points[i]
        let d2 = Geodesy.distanceMeters(
          fromLatitude: a.latitudeDegrees, longitude: a.longitudeDegrees, toLatitude: b.latitudeDegrees,
          longitude: b.longitudeDegrees, method: parameters.distanceMethod)
        var dz: Double?
        if let za = a.elevationMeters, let zb = b.elevationMeters { dz = zb - za }
        let d3 = dz.map { sqrt(d2 * d2 + $0 * $0) } ?? d2
        var dt: Double?
        var speed: Double?
        if let ta = a.timeSecondsSince1970, let tb = b.timeSecondsSince1970 {
          let delta = tb - ta
          if delta > 0 {
            dt = delta
            speed = d2 / delta
          } else {
            if delta < 0 { backwards += 1 } else { repeated += 1 }
            if firstBadLine == nil { firstBadLine = b.sourceLine }
          }
        }
        var hr: Double?
        if let ha = a.heartRateBeatsPerMinute, let hb = b.heartRateBeatsPerMinute { hr = (ha + hb) / 2 }
        var step = TrackStep(
          startSecondsSince1970: a.timeSecondsSince1970, durationSeconds: dt, distance2DMeters: d2,
          distance3DMeters: d3, elevationChangeMeters: dz, speedMetersPerSecond: speed, gradeFraction: nil,
          heartRateBeatsPerMinute: hr, segment: segment, endPointIndex: i)
        if let pa = a.powerWatts, let pb = b.powerWatts { step.powerWatts = (pa + pb) / 2 }
        step.followsTimeGap = afterGap && i == range.lowerBound + 1
        steps.append(step)
        cumulative.append(cumulative[cumulative.count - 1] + d2)
      }
      // Grade windows of this segment alone; the pointer walks forward
      // with the steps' midpoints.
      let windows = gradeWindows(points: points[range], cumulative: cumulative)
      sawWindows = sawWindows || !windows.isEmpty
      var w = 0
      for k in firstStep..<steps.count where !windows.isEmpty {
        let j = k - firstStep
        let middle = (cumulative[j] + cumulative[j + 1]) / 2
        while w < windows.count - 1 && middle > windows[w].endMeters { w += 1 }
        steps[k].gradeFraction = windows[w].gradeFraction
      }
    }
    diagnostics += TimeOrder.diagnostics(
      backwards: backwards, repeated: repeated,
      location: firstBadLine.map { "\(track.source):\($0)" } ?? track.source)
    if !sawWindows {
      diagnostics.append(
        Diagnostic(
          code: "no-elevation", message: "fixes carry no elevation; grade is unknown", location: track.source)
      )
    }
    return (steps, diagnostics)
  }

  /// A fixed-distance window and its grade (rise over horizontal run).
  public struct GradeWindow: Sendable, Hashable {
    public var startMeters: Double
    public var endMeters: Double
    public var gradeFraction: Double
  }

  /// Grade over consecutive windows of `gradeWindowMeters` of horizontal
  /// distance, elevation interpolated linearly at the window edges; a last
  /// window shorter than half the length joins the one before it. Windows
  /// restart at every segment; their positions are along the path's
  /// distance, gaps left out.
  public func gradeWindows(of track: Track) -> [GradeWindow] {
    var out: [GradeWindow] = []
    var offset = 0.0
    for range in track.segmentRanges(joined: parameters.joinSegments) {
      var cumulative = [0.0]
      for i in range.dropFirst() {
        let a = track.points[i - 1]
        let b = track.points[i]
        cumulative.append(
          cumulative[cumulative.count - 1]
            + Geodesy.distanceMeters(
              fromLatitude: a.latitudeDegrees, longitude: a.longitudeDegrees, toLatitude: b.latitudeDegrees,
              longitude: b.longitudeDegrees, method: parameters.distanceMethod))
      }
      out += gradeWindows(points: track.points[range], cumulative: cumulative).map {
        GradeWindow(
          startMeters: $0.startMeters + offset, endMeters: $0.endMeters + offset,
          gradeFraction: $0.gradeFraction)
      }
      offset += cumulative.last ?? 0
    }
    return out
  }

  /// Windows of one segment: `cumulative[k]` is the distance to the fix
  /// `points[points.startIndex + k]`.
  private func gradeWindows(points: ArraySlice<TrackPoint>, cumulative: [Double]) -> [GradeWindow] {
    let base = points.startIndex
    let withElevation = points.indices.compactMap { i in
      points[i].elevationMeters.map { (cumulative[i - base], $0) }
    }
    guard withElevation.count >= 2, let total = cumulative.last, total > 0 else { return [] }
    func elevation(at x: Double) -> Double {
      var lo = 0
      var hi = withElevation.count - 1
      if x <= withElevation[lo].0 { return withElevation[lo].1 }
      if x >= withElevation[hi].0 { return withElevation[hi].1 }
      while hi - lo > 1 {
        let mid = (lo + hi) / 2
        if withElevation[mid].0 <= x { lo = mid } else { hi = mid }
      }
      let (x0, z0) = withElevation[lo]
      let (x1, z1) = withElevation[hi]
      return x1 > x0 ? z0 + (z1 - z0) * (x - x0) / (x1 - x0) : z1
    }
    let length = parameters.gradeWindowMeters
    var edges: [Double] = [0]
    var edge = length
    while edge <= total + 1e-9 {
      edges.append(edge)
      edge += length
    }
    if let last = edges.last, total - last > 1e-9 {
      if total - last >= length / 2 || edges.count == 1 {
        edges.append(total)
      } else {
        edges[edges.count - 1] = total
      }
    }
    var windows: [GradeWindow] = []
    for k in 1..<edges.count {
      let run = edges[k] - edges[k - 1]
      guard run > 0 else { continue }
      windows.append(
        GradeWindow(
          startMeters: edges[k - 1], endMeters: edges[k],
          gradeFraction: (elevation(at: edges[k]) - elevation(at: edges[k - 1])) / run))
    }
    return windows
  }

  /// Summary metrics of a track (through `StreamingTrackSummary`).
  public func summary(of track: Track) -> TrackSummary {
    var accumulator = StreamingTrackSummary(
      source: track.source, parameters: parameters, elevationTally: track.elevationTally)
    for point in track.points { accumulator.add(point) }
    for point in track.waypoints { accumulator.add(point) }
    for point in track.timeOnlyPoints { accumulator.add(point) }
    return accumulator.finish(
      diagnostics: track.diagnostics, structure: track.structure,
      deviceDistanceMeters: track.deviceDistanceMeters)
  }
}

/// Smoothing of step speeds, a named, reported parameter of the runs that use it.
public enum SpeedSmoothing {
  /// Replaces each step's speed by the mean over a centred window of `fixes`
  /// steps (steps without a speed are skipped); distances and times stay.
  public static func movingAverage(_ steps: [TrackStep], fixes: Int) -> [TrackStep] {
    guard fixes > 1 else { return steps }
    let half = fixes / 2
    var out = steps
    for i in steps.indices {
      var sum = 0.0
      var count = 0
      for j in max(0, i - half)...min(steps.count - 1, i + half) {
        if let v = steps[j].speedMetersPerSecond {
          sum += v
          count += 1
        }
      }
      if steps[i].speedMetersPerSecond != nil, count > 0 { out[i].speedMetersPerSecond = sum / Double(count) }
    }
    return out
  }
}

/// Time steps longer than the stated limit, counted for one diagnostic that
/// names the first and the longest.
struct TimeGaps {
  let source: String
  let limitHours: Double
  private(set) var count = 0
  private var first: (from: Double, to: Double, line: Int)?
  private var longest: (from: Double, to: Double, line: Int)?

  init(source: String, limitHours: Double) {
    self.source = source
    self.limitHours = limitHours
  }

  mutating func add(from: Double, to: Double, line: Int) {
    count += 1
    if first == nil { first = (from, to, line) }
    if longest.map({ to - from > $0.to - $0.from }) ?? true { longest = (from, to, line) }
  }

  /// How long a step is, in words: hours below two days, days below two
  /// years, years beyond.
  static func text(seconds: Double) -> String {
    if seconds < 2 * 86400 { return "\(Fixed.format(seconds / 3600, digits: 1)) h" }
    if seconds < 2 * 365.25 * 86400 { return "\(Fixed.format(seconds / 86400, digits: 1)) days" }
    return "\(Fixed.format(seconds / (365.25 * 86400), digits: 1)) years"
  }

  var diagnostics: [Diagnostic] {
    guard let first, let longest else { return [] }
    func step(_ s: (from: Double, to: Double, line: Int)) -> String {
      "\(Self.text(seconds: s.to - s.from)) from \(ISO8601.formatUTC(s.from)) to \(ISO8601.formatUTC(s.to))"
    }
    let what =
      count == 1
      ? "a time step of \(step(first))"
      : "\(count) time steps, the first \(step(first)), the longest \(step(longest))"
    return [
      Diagnostic(
        code: "time-gap",
        message:
          "\(what) \(count == 1 ? "is" : "are") longer than the \(Fixed.shortest(limitHours)) h limit (max_step_h): \(count == 1 ? "a gap" : "gaps") in the recording (a clock error or a pause), not costed, not travelled and not split into epochs",
        location: first.line > 0 ? "\(source):\(first.line)" : source)
    ]
  }
}

/// Diagnostics for fixes whose times go backwards or repeat, shared by the
/// step and the streaming analyses.
enum TimeOrder {
  static func diagnostics(backwards: Int, repeated: Int, location: String) -> [Diagnostic] {
    var out: [Diagnostic] = []
    if backwards > 0 {
      out.append(
        Diagnostic(
          code: "time-backwards",
          message: "\(backwards) fixes have a time before the previous fix; their steps have no speed",
          location: location))
    }
    if repeated > 0 {
      out.append(
        Diagnostic(
          code: "time-repeated",
          message: "\(repeated) fixes repeat the previous time; their steps have no speed",
          location: location))
    }
    return out
  }
}
