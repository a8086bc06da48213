import EnergyLabCore
import Foundation

/// What a track file says about itself apart from its fixes.
public struct TrackHeader: Sendable, Hashable {
  public var name: String?
  /// `gpx-1.0`, `gpx-1.1`, `gpx` (version not stated), `tcx` or `fit`.
  public var format: String
  /// TCX activity sports, in file order (`Running`, `Biking`, ...); FIT
  /// session sports (`running`, `cycling/indoor_cycling`, ...).
  public var sports: [String]
  /// Counts of tracks, segments, routes, waypoints and their fixes.
  public var structure: TrackStructure
  /// Distance the recording device measured itself (TCX: the sum of the
  /// laps' `DistanceMeters`, else the last trackpoint's; FIT: the sum of the
  /// sessions' `total_distance`, else the last record's `distance`), metres.
  public var deviceDistanceMeters: Double?
  /// Declared activity by path segment (TCX `Sport`, GPX `<trk><type>`,
  /// FIT session `sport` or `sport/sub_sport`).
  public var declaredSportBySegment: [Int32: String] = [:]
  public var diagnostics: [Diagnostic]
  /// What a FIT file says of itself (sessions, laps, user profile,
  /// devices); nil for GPX and TCX.
  public var fit: FITSummary? = nil
  /// The laps the file declares (FIT `lap` messages, TCX `<Lap>`), in
  /// file order, with the device's own figures for each.
  public var laps: [DeviceLap] = []

  public init(
    name: String?, format: String, sports: [String], structure: TrackStructure,
    deviceDistanceMeters: Double?, diagnostics: [Diagnostic]
  ) {
    self.name = name
    self.format = format
    self.sports = sports
    self.structure = structure
    self.deviceDistanceMeters = deviceDistanceMeters
    self.diagnostics = diagnostics
  }
}

/// Reads GPX 1.0 and 1.1 (tracks of segments of track points, routes of
/// route points, and waypoints) and TCX (Activities, Laps, Tracks,
/// Trackpoints, multisport) with a streaming byte-level scanner: fixes are
/// handed over one at a time, each tagged with its kind and segment, so a
/// summary can be computed in constant memory.
///
/// GPX: `lat`/`lon` in any order and spacing, `<ele>`, `<time>`, GPX 1.0
/// `<speed>` and `<hdop>`, and extension elements named `hr`/`heartrate`,
/// `cad`/`cadence`, `atemp`/`temp`/`temperature` and `power`/`watts` in any
/// namespace (Garmin TrackPointExtension and common variants). Root `<gpx>`
/// with or without a namespace. TCX: `Time`, `LatitudeDegrees`,
/// `LongitudeDegrees`, `AltitudeMeters`, `HeartRateBpm/Value`, `Cadence`,
/// `Speed`, `Watts` and `DistanceMeters`; trackpoints with a time but no
/// position are handed over as `.timeOnly` fixes. Empty elements (`<ele/>`,
/// `<time></time>`) are missing values, counted in a diagnostic.
///
/// A TCX lap is not a gap: devices keep measuring across laps, and their
/// `DistanceMeters` runs on. The `<Lap>`s and `<Track>`s of one
/// `<Activity>` make one path segment; a new segment starts only where the
/// file shows a pause between two trackpoints: more than
/// `TCXPauseRule.gapSeconds` between them, or a `DistanceMeters` that grows
/// by less than half of the way between fixes more than
/// `TCXPauseRule.movedMeters` apart (the timer was stopped while the wearer
/// moved). Each pause is counted in a note. The activity
/// a file declares (TCX `Sport`, GPX `<trk><type>`) is kept per segment.
public struct GPXReader: Sendable {
  /// Offset applied to times written without one, in seconds east of UTC.
  public var defaultOffsetSeconds: Int
  /// Time zone of times written without an offset; overrides
  /// `defaultOffsetSeconds` and follows daylight saving.
  public var defaultTimeZone: TimeZone?
  public var limits: XMLLimits

  public init(
    defaultOffsetSeconds: Int = 0, defaultTimeZone: TimeZone? = nil, limits: XMLLimits = XMLLimits()
  ) {
    self.defaultOffsetSeconds = defaultOffsetSeconds
    self.defaultTimeZone = defaultTimeZone
    self.limits = limits
  }

  /// Reads a whole file into a `Track`.
  public func read(path: String) throws -> Track {
    var assembler = TrackAssembler()
    let header = try stream(path: path) { assembler.add($0) }
    return assembler.track(
      name: header.name, source: path, structure: header.structure,
      deviceDistanceMeters: header.deviceDistanceMeters,
      declaredSportBySegment: header.declaredSportBySegment,
      diagnostics: header.diagnostics)
  }

  public func read(data: Data, source: String) throws -> Track {
    var assembler = TrackAssembler()
    let h = try stream(data: data, source: source) { assembler.add($0) }
    return assembler.track(
      name: h.name, source: source, structure: h.structure, deviceDistanceMeters: h.deviceDistanceMeters,
      declaredSportBySegment: h.declaredSportBySegment, diagnostics: h.diagnostics)
  }

  /// Streams the fixes of a document in memory to `onPoint`, in file order.
  @discardableResult
  public func stream(data: Data, source: String, onPoint: @escaping (TrackPoint) throws -> Void) throws
    -> TrackHeader
  {
    var handler = TrackFileHandler(
      source: source, defaultOffsetSeconds: defaultOffsetSeconds, onPoint: onPoint)
    handler.defaultTimeZone = defaultTimeZone
    guard !data.isEmpty else {
      throw InputError(
        .empty,
        SourceLocation(file: source, line: 1, column: 1), "empty file", expected: "a GPX document")
    }
    let scanner = XMLScanner(source: source, limits: limits)
    let scanned = try scanner.scan(data: data, handler: &handler)
    return try handler.finish(declaredEncoding: scanned.encoding)
  }

  /// Streams the fixes of a file to `onPoint`, in file order; `-` is
  /// standard input.
  @discardableResult
  public func stream(path: String, onPoint: @escaping (TrackPoint) throws -> Void) throws -> TrackHeader {
    if path == "-" {
      var handler = TrackFileHandler(
        source: path, defaultOffsetSeconds: defaultOffsetSeconds, onPoint: onPoint)
      handler.defaultTimeZone = defaultTimeZone
      let scanner = XMLScanner(source: path, limits: limits)
      // Hashed as it is read: the run's input is what came in.
      var hasher = SHA256()
      let scanned = try scanner.scan(fileDescriptor: 0, handler: &handler) { hasher.update(buffer: $0) }
      StandardInput.record(sizeBytes: scanned.bytesRead, sha256: hasher.finalizeHex())
      guard scanned.bytesRead > 0 else {
        throw InputError(
          .empty,
          SourceLocation(file: path, line: 1, column: 1), "empty input", expected: "a GPX document")
      }
      return try handler.finish(declaredEncoding: scanned.encoding)
    }
    guard let status = FileStatus.of(path) else {
      throw InputError(
        .unreadable, SourceLocation(file: path), "no such file", expected: "a readable GPX or TCX file")
    }
    guard !status.isDirectory else {
      throw InputError(.unreadable, SourceLocation(file: path), "is a folder", expected: "a GPX or TCX file")
    }
    guard status.sizeBytes > 0 else {
      throw InputError(
        .empty,
        SourceLocation(file: path, line: 1, column: 1), "empty file", expected: "a GPX document")
    }
    var handler = TrackFileHandler(source: path, defaultOffsetSeconds: defaultOffsetSeconds, onPoint: onPoint)
    handler.defaultTimeZone = defaultTimeZone
    let scanner = XMLScanner(source: path, limits: limits)
    let scanned = try scanner.scan(path: path, handler: &handler)
    return try handler.finish(declaredEncoding: scanned.encoding)
  }
}

/// Turns scanner events of a GPX or TCX file into fixes.
struct TrackFileHandler: XMLEventHandler {
  enum Field: Int {
    case none, ele, time, hr, cad, temp, power, speed, hdop, name, lat, lon, tcxValue, distance, lapDistance,
      type, lapTime

    /// The element as a reader would name it in a message.
    func elementName(tcx: Bool) -> String {
      switch self {
      case .ele: tcx ? "AltitudeMeters" : "ele"
      case .time: tcx ? "Time" : "time"
      case .hr: tcx ? "HeartRateBpm" : "hr"
      case .cad: tcx ? "Cadence" : "cad"
      case .temp: "temp"
      case .power: tcx ? "Watts" : "power"
      case .speed: tcx ? "Speed" : "speed"
      case .hdop: "hdop"
      case .name: "name"
      case .type: "type"
      case .lat: "LatitudeDegrees"
      case .lon: "LongitudeDegrees"
      case .distance, .lapDistance: "DistanceMeters"
      case .lapTime: "TotalTimeSeconds"
      case .none, .tcxValue: ""
      }
    }
  }

  let source: String
  let defaultOffsetSeconds: Int
  var defaultTimeZone: TimeZone?
  let onPoint: (TrackPoint) throws -> Void
  var format = ""
  /// `format == "tcx"`, kept as a flag: it is asked at every element.
  var isTCX = false
  var sawRoot = false
  var name: String?
  var sports: [String] = []
  var structure = TrackStructure()
  /// The segment new track fixes belong to; -1 before the first.
  var trackSegment: Int32 = -1
  /// Whether the `<trk>` being read has opened a segment (GPX puts track
  /// points inside `<trkseg>`; a point outside one opens a segment of its own).
  var trackHasSegment = false
  var routeName: String?
  var inRoute = false
  var pointKind = FixKind.track
  var pointsWithoutOffset = 0
  var tcxWithoutPositionOrTime = 0
  var invalidText = 0
  /// Heart rates of 0 (no strap contact), read as missing.
  var heartRateZeros = 0
  /// Heart rates and speeds outside `HumanLimits`, left out.
  var recordLimits = RecordLimits(noun: "fixes")
  /// Empty value elements by `Field.rawValue`, and the first line of each.
  var emptyValues: [Int] = Array(repeating: 0, count: 18)
  var firstEmptyLine: Int?
  var inLap = false
  var inTCXTrack = false
  var lapDistanceSum: Double?
  /// TCX: the `<Lap>`s read so far (start, total time, distance).
  var laps: [DeviceLap] = []
  var lastTrackpointDistance: Double?
  /// TCX: the sport of the `<Activity>` being read.
  var activitySport: String?
  /// TCX: a `<Track>` has begun whose first trackpoint decides whether it
  /// continues the previous one; `activityHasSegment` is false until the
  /// activity's first segment is open.
  var tcxTrackPending = false
  var activityHasSegment = false
  /// TCX: the last trackpoint handed over with a position, and its
  /// `DistanceMeters`; the current trackpoint's `DistanceMeters`.
  var lastTCXFix: TrackPoint?
  var lastTCXFixDistance: Double?
  var currentDistance: Double?
  var tcxPauses = 0
  var tcxTracksJoined = 0
  var declaredSportBySegment: [Int32: String] = [:]
  /// GPX: the `<type>` of the `<trk>` being read, and its first segment.
  var trackType: String?
  var trackFirstSegment: Int32 = 0
  var inTrackSegment = false
  var extensionDepth = 0
  var lastTCXTime: Double?
  /// The fix being read, valid while `inPoint` (kept in place rather than
  /// optional, so setting a field writes it without copying the fix).
  var current = TrackPoint(latitudeDegrees: .nan, longitudeDegrees: .nan)
  var inPoint = false
  var hasPosition = false
  var field = Field.none
  let text = TextBuffer()
  var inHeartRate = false
  var inTrack = false

  init(source: String, defaultOffsetSeconds: Int, onPoint: @escaping (TrackPoint) throws -> Void) {
    self.source = source
    self.defaultOffsetSeconds = defaultOffsetSeconds
    self.onPoint = onPoint
  }

  mutating func startElement(
    _ name: UnsafeBufferPointer<UInt8>,
    attributes: UnsafeBufferPointer<XMLAttribute>, line: Int, column: Int
  ) throws {
    if !sawRoot {
      sawRoot = true
      if name.equals("gpx") {
        let version = attributes.first { $0.name.equals("version") }.map {
          String(decoding: $0.value, as: UTF8.self)
        }
        format = version.map { "gpx-\($0)" } ?? "gpx"
      } else if name.equals("TrainingCenterDatabase") {
        format = "tcx"
        isTCX = true
      } else {
        throw InputError(
          .malformed,
          SourceLocation(file: source, line: line, column: column),
          "root element is <\(String(decoding: name, as: UTF8.self))>",
          expected: "<gpx> (GPX 1.0 or 1.1) or <TrainingCenterDatabase> (TCX)")
      }
      return
    }
    if isTCX {
      if name.equals("Trackpoint") {
        if !inTCXTrack {
          // A trackpoint outside <Track> still belongs to a segment.
          structure.segments += 1
          tcxTrackPending = true
          inTCXTrack = true
        }
        current = TrackPoint(
          latitudeDegrees: .nan, longitudeDegrees: .nan, sourceLine: line, kind: .track,
          segment: max(trackSegment, 0))
        currentDistance = nil
        inPoint = true
        hasPosition = false
      } else if name.equals("Activity") {
        structure.tracks += 1
        activitySport = nil
        activityHasSegment = false
        lastTCXFix = nil
        lastTCXFixDistance = nil
        if let sport = attributes.first(where: { $0.name.equals("Sport") }) {
          let text = String(decoding: sport.value, as: UTF8.self)
          sports.append(text)
          activitySport = text
        }
      } else if name.equals("Lap") {
        inLap = true
        var lap = DeviceLap()
        if let start = attributes.first(where: { $0.name.equals("StartTime") }) {
          lap.startSecondsSince1970 =
            ISO8601.parse(bytes: start.value, defaultOffsetSeconds: defaultOffsetSeconds)?.secondsSince1970
        }
        laps.append(lap)
      } else if name.equals("Track") {
        structure.segments += 1
        tcxTrackPending = true
        inTCXTrack = true
      } else if inLap && !inTCXTrack && name.equals("DistanceMeters") {
        field = .lapDistance
        text.removeAll()
      } else if inLap && !inTCXTrack && name.equals("TotalTimeSeconds") {
        field = .lapTime
        text.removeAll()
      } else if inPoint {
        field = .none
        if name.equals("Time") {
          field = .time
        } else if name.equals("LatitudeDegrees") {
          field = .lat
        } else if name.equals(
          "LongitudeDegrees")
        {
          field = .lon
        } else if name.equals("AltitudeMeters") {
          field = .ele
        } else if name.equals("HeartRateBpm") {
          inHeartRate = true
        } else if name.equals("Value") && inHeartRate {
          field = .hr
        } else if name.equals("Cadence") || name.equals("RunCadence") {
          field = .cad
        } else if name.equals("Speed") {
          field = .speed
        } else if name.equals("Watts") {
          field = .power
        } else if name.equals("DistanceMeters") {
          field = .distance
        }
        text.removeAll()
      }
      return
    }
    if name.equals("extensions") { extensionDepth += 1 }
    let kind: FixKind? =
      name.equals("trkpt") ? .track : name.equals("rtept") ? .route : name.equals("wpt") ? .waypoint : nil
    if let kind {
      var lat: Double?
      var lon: Double?
      for attribute in attributes {
        if attribute.name.equals("lat") {
          guard let v = NumberScanner.double(attribute.value), (-90...90).contains(v) else {
            throw InputError(
              .value,
              SourceLocation(file: source, line: line, column: column),
              "cannot read lat=\"\(String(decoding: attribute.value, as: UTF8.self))\"",
              expected: "a latitude in degrees from -90 to 90")
          }
          lat = v
        } else if attribute.name.equals("lon") {
          guard let v = NumberScanner.double(attribute.value), (-180...180).contains(v) else {
            throw InputError(
              .value,
              SourceLocation(file: source, line: line, column: column),
              "cannot read lon=\"\(String(decoding: attribute.value, as: UTF8.self))\"",
              expected: "a longitude in degrees from -180 to 180")
          }
          lon = v
        }
      }
      guard let lat, let lon else {
        throw InputError(
          .malformed,
          SourceLocation(file: source, line: line, column: column),
          "<\(String(decoding: name, as: UTF8.self))> without lat and lon attributes",
          expected: "lat=\"..\" lon=\"..\"")
      }
      var segment: Int32 = 0
      switch kind {
      case .track:
        if !trackHasSegment { openTrackSegment() }
        segment = trackSegment
        structure.trackPoints += 1
      case .route:
        segment = Int32(max(0, structure.routes - 1))
        structure.routePoints += 1
      case .waypoint, .timeOnly:
        structure.waypoints += 1
      }
      current = TrackPoint(
        latitudeDegrees: lat, longitudeDegrees: lon, sourceLine: line, kind: kind, segment: segment)
      pointKind = kind
      inPoint = true
      return
    }
    if name.equals("trk") {
      inTrack = true
      trackHasSegment = false
      structure.tracks += 1
      trackType = nil
      trackFirstSegment = trackSegment + 1
      inTrackSegment = false
    } else if name.equals("trkseg") {
      openTrackSegment()
    } else if name.equals("rte") {
      inRoute = true
      structure.routes += 1
    }
    field = .none
    if name.equals("ele") {
      field = .ele
    } else if name.equals("time") {
      field = .time
    } else if name.equals("hr")
      || name.equals("heartrate")
    {
      field = .hr
    } else if name.equals("cad") || name.equals("cadence") {
      field = .cad
    } else if name.equals("atemp")
      || name.equals("temp") || name.equals("temperature")
    {
      field = .temp
    } else if name.equals("power") || name.equals("watts") || name.equals("PowerInWatts") {
      field = .power
    } else if name
      .equals("speed")
    {
      field = .speed
    } else if name.equals("hdop") {
      field = .hdop
    } else if name.equals("name") && !inPoint
      && ((inTrack && self.name == nil) || (inRoute && routeName == nil))
    {
      field = .name
    } else if name.equals("type") && inTrack && !inPoint && depthOfTrackChild {
      field = .type
    }
    if field != .none { text.removeAll() }
  }

  /// TCX: a trackpoint is in hand; it continues the activity's path
  /// unless the file shows a pause before it (whether or not a new
  /// `<Track>` or `<Lap>` begins there: Garmin Connect keeps timer stops
  /// inside one `<Track>`, Polar starts a new one).
  mutating func tcxContinueOrPause() {
    let boundary = tcxTrackPending
    tcxTrackPending = false
    var paused = !activityHasSegment
    if activityHasSegment {
      if let t0 = lastTCXTime, let t1 = current.timeSecondsSince1970, t1 - t0 > TCXPauseRule.gapSeconds {
        paused = true
      }
      if hasPosition, let last = lastTCXFix, let d0 = lastTCXFixDistance, let d1 = currentDistance {
        let moved = TCXPauseRule.approximateMeters(
          from: (last.latitudeDegrees, last.longitudeDegrees),
          to: (current.latitudeDegrees, current.longitudeDegrees))
        if moved > TCXPauseRule.movedMeters && d1 - d0 < moved / 2 { paused = true }
      }
      if paused {
        tcxPauses += 1
      } else if boundary {
        tcxTracksJoined += 1
      }
    }
    guard paused else { return }
    trackSegment += 1
    activityHasSegment = true
    if let activitySport { declaredSportBySegment[trackSegment] = activitySport }
  }

  /// GPX: a `<type>` directly under `<trk>` (not inside a segment or its
  /// extensions) declares the track's activity.
  var depthOfTrackChild: Bool { !inTrackSegment && extensionDepth == 0 }

  mutating func openTrackSegment() {
    if !inTrack {
      // A segment outside <trk> still belongs to a track of its own.
      structure.tracks += 1
      inTrack = true
      trackType = nil
      trackFirstSegment = trackSegment + 1
    }
    inTrackSegment = true
    structure.segments += 1
    trackSegment += 1
    trackHasSegment = true
  }

  mutating func text(_ bytes: UnsafeBufferPointer<UInt8>) throws {
    if field != .none { text.append(bytes) }
  }

  func value(_ what: String, expected: String, line: Int, column: Int) throws -> Double {
    let v = text.withUnsafeBufferPointer { NumberScanner.double($0) }
    guard let v else {
      throw InputError(
        .value,
        SourceLocation(file: source, line: line, column: column),
        "cannot read <\(what)>\(text.prefixText(40))</\(what)>",
        expected: expected)
    }
    return v
  }

  /// The element text as a coordinate in degrees, checked to lie within ±`limit`.
  func coordinate(_ what: String, _ noun: String, limit: Double, line: Int, column: Int) throws
    -> Double
  {
    let v = try value(what, expected: "a \(noun) in degrees", line: line, column: column)
    guard (-limit...limit).contains(v) else {
      throw InputError(
        .value,
        SourceLocation(file: source, line: line, column: column), "\(noun) \(v) out of range",
        expected: "-\(Int(limit)) to \(Int(limit))")
    }
    return v
  }

  mutating func endElement(_ name: UnsafeBufferPointer<UInt8>, line: Int, column: Int) throws {
    if isTCX {
      if name.equals("Trackpoint"), inPoint {
        if hasPosition || current.timeSecondsSince1970 != nil {
          tcxContinueOrPause()
          current.segment = trackSegment
          if let t = current.timeSecondsSince1970 { lastTCXTime = t }
        }
        if hasPosition {
          structure.trackPoints += 1
          lastTCXFix = current
          lastTCXFixDistance = currentDistance
          try onPoint(current)
        } else if current.timeSecondsSince1970 != nil {
          structure.timeOnlyPoints += 1
          current.kind = .timeOnly
          try onPoint(current)
        } else {
          tcxWithoutPositionOrTime += 1
        }
        inPoint = false
      } else if name.equals("HeartRateBpm") {
        inHeartRate = false
      } else if name.equals("Track") {
        inTCXTrack = false
      } else if name.equals("Lap") {
        inLap = false
      } else if field == .lapDistance {
        if let v = try optionalValue(
          "DistanceMeters", expected: "a distance in metres", line: line, column: column)
        {
          lapDistanceSum = (lapDistanceSum ?? 0) + v
          if !laps.isEmpty { laps[laps.count - 1].distanceMeters = v }
        }
        field = .none
      } else if field == .lapTime {
        if let v = try optionalValue(
          "TotalTimeSeconds", expected: "a duration in seconds", line: line, column: column)
        {
          if !laps.isEmpty { laps[laps.count - 1].timerSeconds = v }
        }
        field = .none
      } else if inPoint && field != .none {
        try store(line: line, column: column)
      }
      return
    }
    if name.equals("trkpt") || name.equals("rtept") || name.equals("wpt") {
      if inPoint { try onPoint(current) }
      inPoint = false
      return
    }
    if name.equals("extensions") {
      extensionDepth = max(0, extensionDepth - 1)
    } else if name.equals("trk") {
      if let trackType, trackSegment >= trackFirstSegment {
        for segment in trackFirstSegment...trackSegment { declaredSportBySegment[segment] = trackType }
      }
      inTrack = false
    } else if name.equals("trkseg") {
      trackHasSegment = false
      inTrackSegment = false
    } else if name.equals("rte") {
      inRoute = false
    }
    if field == .type {
      let value = text.withUnsafeBufferPointer { XMLScanner.decode($0) }.trimmingCharacters(
        in: .whitespacesAndNewlines)
      if !value.isEmpty { trackType = value }
      field = .none
      return
    }
    if field == .name {
      if text.withUnsafeBufferPointer({ String(validating: $0, as: UTF8.self) }) == nil { invalidText += 1 }
      let value = text.withUnsafeBufferPointer { XMLScanner.decode($0) }.trimmingCharacters(
        in: .whitespacesAndNewlines)
      if value.isEmpty {
        countEmpty(line: line)
      } else if inTrack {
        self.name = value
      } else {
        routeName = value
      }
      field = .none
      return
    }
    if inPoint && field != .none { try store(line: line, column: column) }
  }

  /// Whether the element text holds only white space (an empty element).
  var textIsBlank: Bool {
    text.withUnsafeBufferPointer { bytes in
      bytes.allSatisfy { $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }
    }
  }

  /// The element text as a number, or nil for an empty element (counted).
  mutating func optionalValue(_ what: String, expected: String, line: Int, column: Int) throws -> Double? {
    if textIsBlank {
      countEmpty(line: line)
      return nil
    }
    return try value(what, expected: expected, line: line, column: column)
  }

  mutating func countEmpty(line: Int) {
    emptyValues[field.rawValue] += 1
    if firstEmptyLine == nil { firstEmptyLine = line }
  }

  mutating func store(line: Int, column: Int) throws {
    defer { field = .none }
    if textIsBlank {
      countEmpty(line: line)
      return
    }
    switch field {
    case .ele:
      current.elevationMeters = try value(
        "ele", expected: "an elevation in metres", line: line, column: column)
    case .time:
      let parsed = text.withUnsafeBufferPointer { bytes -> ParsedTimestamp? in
        var s = 0
        var e = bytes.count
        while s < e && (bytes[s] == 0x20 || bytes[s] == 0x0A || bytes[s] == 0x0D || bytes[s] == 0x09) {
          s += 1
        }
        while e > s
          && (bytes[e - 1] == 0x20 || bytes[e - 1] == 0x0A || bytes[e - 1] == 0x0D || bytes[e - 1] == 0x09)
        { e -= 1 }
        return ISO8601.parse(
          bytes: UnsafeBufferPointer(rebasing: bytes[s..<e]), defaultOffsetSeconds: defaultOffsetSeconds)
      }
      guard let parsed else {
        throw InputError(
          .value,
          SourceLocation(file: source, line: line, column: column),
          "cannot read <time>\(text.prefixText(40))</time>",
          expected: "an ISO-8601 time such as 2012-05-01T10:00:00Z")
      }
      var seconds = parsed.secondsSince1970
      if !parsed.hadOffset {
        pointsWithoutOffset += 1
        if let zone = defaultTimeZone {
          // Read as local time in the zone: undo the default offset, then
          // apply the zone's offset at that instant.
          let local = seconds + Double(defaultOffsetSeconds)
          let guess = zone.secondsFromGMT(for: Date(timeIntervalSince1970: local))
          let offset = zone.secondsFromGMT(for: Date(timeIntervalSince1970: local - Double(guess)))
          seconds = local - Double(offset)
        }
      }
      current.timeSecondsSince1970 = seconds
    case .hr:
      current.heartRateBeatsPerMinute = try value(
        "hr", expected: "a heart rate in bpm", line: line, column: column)
      // A strap without contact writes 0: a dropout, never a heart rate.
      if current.heartRateBeatsPerMinute == 0 {
        current.heartRateBeatsPerMinute = nil
        heartRateZeros += 1
      }
      current.heartRateBeatsPerMinute = recordLimits.keep(
        current.heartRateBeatsPerMinute, .heartRate, at: "line \(line)")
    case .cad:
      current.cadencePerMinute = try value(
        "cad", expected: "a cadence per minute", line: line, column: column)
    case .temp:
      current.temperatureCelsius = try value(
        "temp", expected: "a temperature in degrees C", line: line, column: column)
    case .power:
      current.powerWatts = try value("power", expected: "a power in watts", line: line, column: column)
    case .speed:
      current.reportedSpeedMetersPerSecond = recordLimits.keep(
        try value("speed", expected: "a speed in m/s", line: line, column: column), .speed, at: "line \(line)"
      )
    case .hdop:
      current.horizontalDilution = try value(
        "hdop", expected: "a dilution of precision", line: line, column: column)
    case .distance:
      lastTrackpointDistance = try value(
        "DistanceMeters", expected: "a distance in metres", line: line, column: column)
      currentDistance = lastTrackpointDistance
    case .lat:
      current.latitudeDegrees = try coordinate(
        "LatitudeDegrees", "latitude", limit: 90, line: line, column: column)
      hasPosition = !current.longitudeDegrees.isNaN
    case .lon:
      current.longitudeDegrees = try coordinate(
        "LongitudeDegrees", "longitude", limit: 180, line: line, column: column)
      hasPosition = !current.latitudeDegrees.isNaN
    default: break
    }
  }

  func finish(declaredEncoding: String? = nil) throws -> TrackHeader {
    guard sawRoot else {
      throw InputError(
        .malformed,
        SourceLocation(file: source, line: 1, column: 1), "no root element",
        expected: "a <gpx> or TCX document")
    }
    var diagnostics: [Diagnostic] = []
    if pointsWithoutOffset > 0 {
      diagnostics.append(
        Diagnostic(
          code: "time-without-offset", severity: .note,
          message: defaultTimeZone.map {
            "\(pointsWithoutOffset) times carry no UTC offset; read as local time in \($0.identifier)"
          }
            ?? "\(pointsWithoutOffset) times carry no UTC offset; read as UTC (set \(Remedy.slot) for local time)",
          location: source, remedy: defaultTimeZone == nil ? Remedy(.timeZone) : nil))
    }
    if let encoding = declaredEncoding,
      !["utf-8", "utf8", "us-ascii", "ascii"].contains(encoding.lowercased())
    {
      diagnostics.append(
        Diagnostic(
          code: "encoding-not-utf8", message: "the file declares encoding \(encoding); it was read as UTF-8",
          location: source))
    }
    diagnostics += recordLimits.diagnostics(location: source)
    if heartRateZeros > 0 {
      diagnostics.append(
        Diagnostic(
          code: "heart-rate-zero",
          message:
            "\(heartRateZeros) fixes with heart rate 0 (the strap lost contact): read as missing, not as 0 bpm",
          location: source))
    }
    if invalidText > 0 {
      diagnostics.append(
        Diagnostic(
          code: "invalid-utf8",
          message: "\(invalidText) text values are not valid UTF-8; invalid bytes were replaced",
          location: source))
    }
    if structure.timeOnlyPoints > 0 {
      diagnostics.append(
        Diagnostic(
          code: "trackpoint-without-position", severity: .note,
          message:
            "\(structure.timeOnlyPoints) TCX trackpoints carry a time but no position: they count towards the duration, not the distance",
          location: source))
    }
    if tcxWithoutPositionOrTime > 0 {
      diagnostics.append(
        Diagnostic(
          code: "trackpoint-without-position-or-time", severity: .note,
          message:
            "\(tcxWithoutPositionOrTime) TCX trackpoints have neither position nor time and are left out",
          location: source))
    }
    let empties = emptyValues.indices.compactMap { k -> String? in
      guard emptyValues[k] > 0, let f = Field(rawValue: k) else { return nil }
      return "\(emptyValues[k]) <\(f.elementName(tcx: isTCX))>"
    }
    if !empties.isEmpty {
      diagnostics.append(
        Diagnostic(
          code: "empty-value", severity: .note,
          message: "empty elements read as missing values: \(empties.joined(separator: ", "))",
          location: firstEmptyLine.map { "\(source):\($0)" } ?? source))
    }
    if tcxTracksJoined > 0 || tcxPauses > 0 {
      diagnostics.append(
        Diagnostic(
          code: "tcx-tracks-joined", severity: .note,
          message:
            "\(tcxTracksJoined) TCX lap or track boundaries continue the path (the device kept measuring); \(tcxPauses) pauses (over \(Fixed.shortest(TCXPauseRule.gapSeconds)) s between trackpoints, or DistanceMeters growing by less than half of a move over \(Fixed.shortest(TCXPauseRule.movedMeters)) m) start new segments",
          location: source))
    }
    var header = TrackHeader(
      name: name ?? routeName ?? sports.first, format: format, sports: sports, structure: structure,
      deviceDistanceMeters: lapDistanceSum ?? lastTrackpointDistance, diagnostics: diagnostics)
    header.declaredSportBySegment = declaredSportBySegment
    header.laps = laps
    return header
  }
}

/// Where a TCX file shows a pause between two of its `<Track>`s.
public enum TCXPauseRule {
  /// More time than this between two trackpoints is a pause, s. Smart
  /// recording writes a trackpoint every 1-10 s or so; a lap boundary adds
  /// none.
  public static let gapSeconds = 60.0
  /// Fixes further apart than this across a boundary, m, whose
  /// `DistanceMeters` grew by less than half of it: the timer was stopped
  /// while the wearer moved.
  public static let movedMeters = 20.0

  /// Great-circle distance on a sphere of 6,371 km, m: enough to tell a
  /// pause from a continuing path.
  static func approximateMeters(from a: (Double, Double), to b: (Double, Double)) -> Double {
    let radians = Double.pi / 180
    let dLat = (b.0 - a.0) * radians
    let dLon = (b.1 - a.1) * radians
    let h =
      sin(dLat / 2) * sin(dLat / 2) + cos(a.0 * radians) * cos(b.0 * radians) * sin(dLon / 2) * sin(dLon / 2)
    return 2 * 6_371_000 * asin(min(1, h.squareRoot()))
  }
}
