/// What a fix is in its file: a recorded track point, a point of a planned
/// route, a waypoint (a point of interest, never part of a path), or a TCX
/// trackpoint that carries a time but no position.
public enum FixKind: UInt8, Sendable, Hashable {
  case track
  case route
  case waypoint
  /// A TCX trackpoint without a position: its time counts towards the
  /// duration, it adds no distance.
  case timeOnly
}

/// One fix of a recorded or synthetic track.
///
/// Held compactly (96 bytes): a value that is absent is stored as NaN,
/// which no reader ever yields for a present one (they refuse NaN), and read
/// back as nil.
public struct TrackPoint: Sendable, Hashable {
  public var latitudeDegrees: Double
  public var longitudeDegrees: Double
  private var elevation = Double.nan
  private var time = Double.nan
  private var heartRate = Double.nan
  private var cadence = Double.nan
  private var temperature = Double.nan
  private var power = Double.nan
  private var reportedSpeed = Double.nan
  private var dilution = Double.nan
  private var line: Int32
  /// Ordinal (from 0) of the path segment holding the fix in its file: for
  /// track fixes the `<trkseg>` (counted across all `<trk>`; TCX: the
  /// `<Track>`), for route points the `<rte>`. Consecutive fixes of two
  /// segments are never joined by a step.
  public var segment: Int32
  /// Track fix, route point, waypoint or time-only trackpoint.
  public var kind: FixKind

  /// Elevation above the reference surface of the source (GPX: WGS-84
  /// ellipsoid or geoid, as the device wrote it), in metres.
  public var elevationMeters: Double? {
    get { elevation.isNaN ? nil : elevation }
    set { elevation = newValue ?? .nan }
  }
  /// Seconds since 1970-01-01T00:00:00Z.
  public var timeSecondsSince1970: Double? {
    get { time.isNaN ? nil : time }
    set { time = newValue ?? .nan }
  }
  public var heartRateBeatsPerMinute: Double? {
    get { heartRate.isNaN ? nil : heartRate }
    set { heartRate = newValue ?? .nan }
  }
  /// Cadence, revolutions or steps per minute as the device writes it.
  public var cadencePerMinute: Double? {
    get { cadence.isNaN ? nil : cadence }
    set { cadence = newValue ?? .nan }
  }
  public var temperatureCelsius: Double? {
    get { temperature.isNaN ? nil : temperature }
    set { temperature = newValue ?? .nan }
  }
  public var powerWatts: Double? {
    get { power.isNaN ? nil : power }
    set { power = newValue ?? .nan }
  }
  /// Speed the device reported (GPX 1.0 `<speed>`, TCX `Speed`), m/s.
  public var reportedSpeedMetersPerSecond: Double? {
    get { reportedSpeed.isNaN ? nil : reportedSpeed }
    set { reportedSpeed = newValue ?? .nan }
  }
  /// Horizontal dilution of precision, when written.
  public var horizontalDilution: Double? {
    get { dilution.isNaN ? nil : dilution }
    set { dilution = newValue ?? .nan }
  }
  /// 1-based line of the fix in its source file, for diagnostics (lines
  /// beyond 2^31 are kept as 2^31 - 1); for FIT, the 1-based ordinal of its
  /// `record` message.
  public var sourceLine: Int {
    get { Int(line) }
    set { line = Int32(clamping: newValue) }
  }

  public init(
    latitudeDegrees: Double, longitudeDegrees: Double, elevationMeters: Double? = nil,
    timeSecondsSince1970: Double? = nil, heartRateBeatsPerMinute: Double? = nil, sourceLine: Int = 0,
    kind: FixKind = .track, segment: Int32 = 0
  ) {
    self.latitudeDegrees = latitudeDegrees
    self.longitudeDegrees = longitudeDegrees
    self.line = Int32(clamping: sourceLine)
    self.kind = kind
    self.segment = segment
    self.elevationMeters = elevationMeters
    self.timeSecondsSince1970 = timeSecondsSince1970
    self.heartRateBeatsPerMinute = heartRateBeatsPerMinute
  }

  public static func == (a: TrackPoint, b: TrackPoint) -> Bool {
    a.latitudeDegrees == b.latitudeDegrees && a.longitudeDegrees == b.longitudeDegrees
      && a.elevationMeters == b.elevationMeters && a.timeSecondsSince1970 == b.timeSecondsSince1970
      && a.heartRateBeatsPerMinute == b.heartRateBeatsPerMinute && a.cadencePerMinute == b.cadencePerMinute
      && a.temperatureCelsius == b.temperatureCelsius && a.powerWatts == b.powerWatts
      && a.reportedSpeedMetersPerSecond == b.reportedSpeedMetersPerSecond
      && a.horizontalDilution == b.horizontalDilution && a.line == b.line && a.segment == b.segment
      && a.kind == b.kind
  }

  public func hash(into hasher: inout Hasher) {
    hasher.combine(latitudeDegrees)
    hasher.combine(longitudeDegrees)
    hasher.combine(elevationMeters)
    hasher.combine(timeSecondsSince1970)
    hasher.combine(line)
    hasher.combine(segment)
    hasher.combine(kind)
  }
}

/// Where a file's path comes from.
public enum PathSource: String, Sendable, Hashable {
  /// Track fixes (`<trk>`/`<trkseg>`/`<trkpt>`, TCX trackpoints).
  case tracks
  /// Route points (`<rte>`/`<rtept>`), used only when the file has no track fix.
  case routes
  /// Neither: the file has no path (waypoints alone make none).
  case none
}

/// How a track file is built: counts of its tracks, segments, routes and
/// waypoints, as the file holds them.
public struct TrackStructure: Sendable, Hashable {
  /// `<trk>` elements (TCX: `<Activity>`).
  public var tracks = 0
  /// `<trkseg>` elements, empty ones included (TCX: `<Track>`).
  public var segments = 0
  /// Track fixes with a position.
  public var trackPoints = 0
  /// TCX trackpoints with a time but no position.
  public var timeOnlyPoints = 0
  /// `<rte>` elements.
  public var routes = 0
  public var routePoints = 0
  /// `<wpt>` elements.
  public var waypoints = 0

  public init() {}

  /// Track fixes when there are any, else route points.
  public var pathSource: PathSource {
    trackPoints > 0 ? .tracks : routePoints > 0 ? .routes : .none
  }
}

/// A track as read from a file: the fixes of its path in file order (track
/// fixes, or route points when the file has no track), each tagged with its
/// segment; its waypoints apart; and what was noticed while reading.
public struct Track: Sendable, Hashable {
  public var name: String?
  /// The file it came from, as given.
  public var source: String
  /// The path's fixes, in file order; a change of `segment` between two
  /// consecutive fixes is a gap that no step crosses.
  public var points: [TrackPoint]
  /// Points of interest: never part of the path.
  public var waypoints: [TrackPoint]
  /// TCX trackpoints without a position: they count towards the duration.
  public var timeOnlyPoints: [TrackPoint]
  public var structure: TrackStructure
  /// Distance the recording device measured itself (TCX), metres.
  public var deviceDistanceMeters: Double?
  /// The activity the file declares for a path segment, as written (TCX
  /// `<Activity Sport="Running">`, GPX `<trk><type>running</type>`, FIT
  /// `sport`), by segment ordinal; segments the file declares nothing for
  /// are absent.
  public var declaredSportBySegment: [Int32: String] = [:]
  /// Set when the fixes' elevation was cleaned as it was read: the gain
  /// and loss as recorded and as cleaned (a summary of the track takes
  /// them from here rather than cleaning twice).
  public var elevationTally: ElevationTally?
  public var diagnostics: [Diagnostic]

  public init(
    name: String? = nil, source: String, points: [TrackPoint], waypoints: [TrackPoint] = [],
    timeOnlyPoints: [TrackPoint] = [], structure: TrackStructure? = nil, diagnostics: [Diagnostic] = []
  ) {
    self.name = name
    self.source = source
    self.points = points
    self.waypoints = waypoints
    self.timeOnlyPoints = timeOnlyPoints
    self.structure = structure ?? Track.structure(ofPath: points, waypoints: waypoints.count)
    self.diagnostics = diagnostics
  }

  /// The structure of a path built in memory: one track whose segments are
  /// the distinct `segment` runs of `points`.
  static func structure(ofPath points: [TrackPoint], waypoints: Int) -> TrackStructure {
    var s = TrackStructure()
    s.waypoints = waypoints
    guard !points.isEmpty else { return s }
    s.tracks = 1
    s.trackPoints = points.count
    s.segments = 1
    for i in points.indices.dropFirst() where points[i].segment != points[i - 1].segment { s.segments += 1 }
    return s
  }

  /// The index ranges of `points` that make one segment each, in order;
  /// with `joined`, one range over all of them.
  public func segmentRanges(joined: Bool = false) -> [Range<Int>] {
    guard !points.isEmpty else { return [] }
    if joined { return [0..<points.count] }
    var out: [Range<Int>] = []
    var start = 0
    for i in 1...points.count where i == points.count || points[i].segment != points[i - 1].segment {
      out.append(start..<i)
      start = i
    }
    return out
  }
}

/// Builds a `Track` from fixes of every kind handed over in file order: the
/// path is the track fixes, or the route points when there is no track fix;
/// waypoints and time-only trackpoints are kept apart.
public struct TrackAssembler: Sendable {
  private var trackPoints: [TrackPoint] = []
  private var routePoints: [TrackPoint] = []
  private var waypoints: [TrackPoint] = []
  private var timeOnly: [TrackPoint] = []

  public init() {}

  public mutating func add(_ p: TrackPoint) {
    switch p.kind {
    case .track: trackPoints.append(p)
    case .route: routePoints.append(p)
    case .waypoint: waypoints.append(p)
    case .timeOnly: timeOnly.append(p)
    }
  }

  /// The track, with a diagnostic when its path comes from routes or when
  /// it has none.
  public func track(
    name: String?, source: String, structure: TrackStructure, deviceDistanceMeters: Double? = nil,
    declaredSportBySegment: [Int32: String] = [:], diagnostics: [Diagnostic]
  ) -> Track {
    let fromRoutes = trackPoints.isEmpty && !routePoints.isEmpty
    var track = Track(
      name: name, source: source, points: fromRoutes ? routePoints : trackPoints, waypoints: waypoints,
      timeOnlyPoints: timeOnly, structure: structure,
      diagnostics: diagnostics + structure.pathDiagnostics(source: source))
    track.deviceDistanceMeters = deviceDistanceMeters
    track.declaredSportBySegment = declaredSportBySegment
    return track
  }
}

extension TrackStructure {
  /// Notes on where the path comes from: routes when the file has no track,
  /// nothing when it has neither.
  public func pathDiagnostics(source: String) -> [Diagnostic] {
    switch pathSource {
    case .tracks: return []
    case .routes:
      return [
        Diagnostic(
          code: "path-from-routes", severity: .note,
          message:
            "the file has no track; its path is its \(routes == 1 ? "route" : "\(routes) routes") (\(routePoints) route points, a planned path, not a recording)",
          location: source)
      ]
    case .none:
      return waypoints > 0
        ? [
          Diagnostic(
            code: "no-path",
            message: "the file holds \(waypoints) waypoints and no track or route: waypoints make no path",
            location: source)
        ] : []
    }
  }
}

/// Gain and loss of a path's elevation, as recorded and as cleaned.
public struct ElevationTally: Sendable, Hashable {
  /// Sum of the rises between consecutive fixes with a position of one
  /// segment, as recorded (as gpxpy sums them), m.
  public var recordedGainMeters = 0.0
  public var recordedLossMeters = 0.0
  /// The same over every fix with an elevation, time-only records
  /// included (a barometric unit's elevation before its GPS has a fix), m.
  public var seriesGainMeters = 0.0
  public var seriesLossMeters = 0.0
  /// Gain and loss of the cleaned elevation (under its hysteresis), m.
  public var gainMeters = 0.0
  public var lossMeters = 0.0
  /// Fixes with an elevation.
  public var fixes = 0
  /// Consecutive pairs of recorded changes, and those that reverse
  /// direction: how much the recorded elevation jitters.
  public var changes = 0
  public var reversals = 0
  /// Whether the headline gain and loss are the cleaned ones (else as
  /// recorded).
  public var usesCleaned = true
  /// Whether uncleaned headline figures come from every fix less the
  /// jumps (else the recorded sums).
  public var usesSeries = true
  /// Changes between consecutive fixes faster than a body moves
  /// vertically (`ElevationCleaning.jumpMetersPerSecond`): sensor jumps,
  /// their number and their rises and falls within the recorded sum, m.
  public var jumps = 0
  public var jumpGainMeters = 0.0
  public var jumpLossMeters = 0.0

  public init() {}

  /// Share of consecutive recorded changes that reverse direction; nil
  /// with none.
  public var reversalShare: Double? { changes > 0 ? Double(reversals) / Double(changes) : nil }

  /// The headline gain and loss, m: cleaned, or as recorded over every
  /// fix less the sensor jumps.
  /// (`recorded` keeps the recorded sums of the fixes with a position).
  public var headlineGainMeters: Double {
    usesCleaned ? gainMeters : usesSeries ? seriesGainMeters - jumpGainMeters : recordedGainMeters
  }
  public var headlineLossMeters: Double {
    usesCleaned ? lossMeters : usesSeries ? seriesLossMeters - jumpLossMeters : recordedLossMeters
  }
}
