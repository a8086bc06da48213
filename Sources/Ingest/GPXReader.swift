import EnergyLabCore
import Foundation

/// What a track file says about itself apart from its fixes.
public struct TrackHeader: Sendable, Hashable {
  public var name: String?
  /// `gpx-1.0`, `gpx-1.1`, `gpx` (version not stated) or `tcx`.
  public var format: String
  /// TCX activity sports, in file order (`Running`, `Biking`, ...).
  public var sports: [String]
  public var points: Int
  public var diagnostics: [Diagnostic]
}

/// Reads GPX 1.0 and 1.1 (track points, route points and waypoints) and
/// TCX (Activities, Laps, Trackpoints, multisport) with a streaming
/// byte-level scanner: fixes are handed over one at a time, so a summary
/// can be computed in constant memory.
///
/// GPX: `lat`/`lon` in any order and spacing, `<ele>`, `<time>`, GPX 1.0
/// `<speed>` and `<hdop>`, and extension elements named `hr`/`heartrate`,
/// `cad`/`cadence`, `atemp`/`temp`/`temperature` and `power`/`watts` in any
/// namespace (Garmin TrackPointExtension and common variants). Root `<gpx>`
/// with or without a namespace. TCX: `Time`, `LatitudeDegrees`,
/// `LongitudeDegrees`, `AltitudeMeters`, `HeartRateBpm/Value`, `Cadence`,
/// `Speed` and `Watts`; trackpoints without a position are counted and left out.
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
    var points: [TrackPoint] = []
    let header = try stream(path: path) { points.append($0) }
    return Track(name: header.name, source: path, points: points, diagnostics: header.diagnostics)
  }

  public func read(data: Data, source: String) throws -> Track {
    var points: [TrackPoint] = []
    var handler = TrackFileHandler(source: source, defaultOffsetSeconds: defaultOffsetSeconds) {
      points.append($0)
    }
    guard !data.isEmpty else {
      throw InputError(
        SourceLocation(file: source, line: 1, column: 1), "empty file", expected: "a GPX document")
    }
    let scanner = XMLScanner(source: source, limits: limits)
    try scanner.scan(data: data, handler: &handler)
    let header = try handler.finish(declaredEncoding: scanner.declaration.encoding)
    return Track(name: header.name, source: source, points: points, diagnostics: header.diagnostics)
  }

  /// Streams the fixes of a file to `onPoint`, in file order.
  @discardableResult
  public func stream(path: String, onPoint: @escaping (TrackPoint) throws -> Void) throws -> TrackHeader {
    guard let status = FileStatus.of(path) else {
      throw InputError(SourceLocation(file: path), "no such file", expected: "a readable GPX or TCX file")
    }
    guard !status.isDirectory else {
      throw InputError(SourceLocation(file: path), "is a folder", expected: "a GPX or TCX file")
    }
    guard status.sizeBytes > 0 else {
      throw InputError(
        SourceLocation(file: path, line: 1, column: 1), "empty file", expected: "a GPX document")
    }
    var handler = TrackFileHandler(source: path, defaultOffsetSeconds: defaultOffsetSeconds, onPoint: onPoint)
    handler.defaultTimeZone = defaultTimeZone
    let scanner = XMLScanner(source: path, limits: limits)
    try scanner.scan(path: path, handler: &handler)
    return try handler.finish(declaredEncoding: scanner.declaration.encoding)
  }
}

/// Turns scanner events of a GPX or TCX file into fixes.
struct TrackFileHandler: XMLEventHandler {
  enum Field { case none, ele, time, hr, cad, temp, power, speed, hdop, name, lat, lon, tcxValue }

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
  var count = 0
  var pointsWithoutOffset = 0
  var tcxWithoutPosition = 0
  var invalidText = 0
  /// The fix being read, valid while `inPoint` (kept in place rather than
  /// optional, so setting a field writes it without copying the fix).
  var current = TrackPoint(latitudeDegrees: .nan, longitudeDegrees: .nan)
  var inPoint = false
  var hasPosition = false
  var field = Field.none
  let text = TextBuffer()
  var depthNames: [String] = []
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
          SourceLocation(file: source, line: line, column: column),
          "root element is <\(String(decoding: name, as: UTF8.self))>",
          expected: "<gpx> (GPX 1.0 or 1.1) or <TrainingCenterDatabase> (TCX)")
      }
      return
    }
    if isTCX {
      if name.equals("Trackpoint") {
        current = TrackPoint(latitudeDegrees: .nan, longitudeDegrees: .nan, sourceLine: line)
        inPoint = true
        hasPosition = false
      } else if name.equals("Activity") {
        if let sport = attributes.first(where: { $0.name.equals("Sport") }) {
          sports.append(String(decoding: sport.value, as: UTF8.self))
        }
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
        }
        text.removeAll()
      }
      return
    }
    if name.equals("trkpt") || name.equals("rtept") || name.equals("wpt") {
      var lat: Double?
      var lon: Double?
      for attribute in attributes {
        if attribute.name.equals("lat") {
          guard let v = NumberScanner.double(attribute.value), (-90...90).contains(v) else {
            throw InputError(
              SourceLocation(file: source, line: line, column: column),
              "cannot read lat=\"\(String(decoding: attribute.value, as: UTF8.self))\"",
              expected: "a latitude in degrees from -90 to 90")
          }
          lat = v
        } else if attribute.name.equals("lon") {
          guard let v = NumberScanner.double(attribute.value), (-180...180).contains(v) else {
            throw InputError(
              SourceLocation(file: source, line: line, column: column),
              "cannot read lon=\"\(String(decoding: attribute.value, as: UTF8.self))\"",
              expected: "a longitude in degrees from -180 to 180")
          }
          lon = v
        }
      }
      guard let lat, let lon else {
        throw InputError(
          SourceLocation(file: source, line: line, column: column),
          "<\(String(decoding: name, as: UTF8.self))> without lat and lon attributes",
          expected: "lat=\"..\" lon=\"..\"")
      }
      current = TrackPoint(latitudeDegrees: lat, longitudeDegrees: lon, sourceLine: line)
      inPoint = true
      return
    }
    if name.equals("trk") { inTrack = true }
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
    } else if name.equals("name") && !inPoint && inTrack
      && self.name == nil
    {
      field = .name
    }
    if field != .none { text.removeAll() }
  }

  mutating func text(_ bytes: UnsafeBufferPointer<UInt8>) throws {
    if field != .none { text.append(bytes) }
  }

  func value(_ what: String, expected: String, line: Int, column: Int) throws -> Double {
    let v = text.withUnsafeBufferPointer { NumberScanner.double($0) }
    guard let v else {
      throw InputError(
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
        SourceLocation(file: source, line: line, column: column), "\(noun) \(v) out of range",
        expected: "-\(Int(limit)) to \(Int(limit))")
    }
    return v
  }

  mutating func endElement(_ name: UnsafeBufferPointer<UInt8>, line: Int, column: Int) throws {
    if isTCX {
      if name.equals("Trackpoint"), inPoint {
        if hasPosition {
          count += 1
          try onPoint(current)
        } else {
          tcxWithoutPosition += 1
        }
        inPoint = false
      } else if name.equals("HeartRateBpm") {
        inHeartRate = false
      } else if inPoint && field != .none {
        try store(line: line, column: column)
      }
      return
    }
    if name.equals("trkpt") || name.equals("rtept") || name.equals("wpt") {
      if inPoint {
        count += 1
        try onPoint(current)
      }
      inPoint = false
      return
    }
    if name.equals("trk") { inTrack = false }
    if field == .name {
      if text.withUnsafeBufferPointer({ String(validating: $0, as: UTF8.self) }) == nil { invalidText += 1 }
      self.name = text.withUnsafeBufferPointer { XMLScanner.decode($0) }.trimmingCharacters(
        in: .whitespacesAndNewlines)
      field = .none
      return
    }
    if inPoint && field != .none { try store(line: line, column: column) }
  }

  mutating func store(line: Int, column: Int) throws {
    defer { field = .none }
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
    case .cad:
      current.cadencePerMinute = try value(
        "cad", expected: "a cadence per minute", line: line, column: column)
    case .temp:
      current.temperatureCelsius = try value(
        "temp", expected: "a temperature in degrees C", line: line, column: column)
    case .power:
      current.powerWatts = try value("power", expected: "a power in watts", line: line, column: column)
    case .speed:
      current.reportedSpeedMetersPerSecond = try value(
        "speed", expected: "a speed in m/s", line: line, column: column)
    case .hdop:
      current.horizontalDilution = try value(
        "hdop", expected: "a dilution of precision", line: line, column: column)
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
            ?? "\(pointsWithoutOffset) times carry no UTC offset; read as UTC (set --tz for local time)",
          location: source))
    }
    if let encoding = declaredEncoding,
      !["utf-8", "utf8", "us-ascii", "ascii"].contains(encoding.lowercased())
    {
      diagnostics.append(
        Diagnostic(
          code: "encoding-not-utf8", message: "the file declares encoding \(encoding); it was read as UTF-8",
          location: source))
    }
    if invalidText > 0 {
      diagnostics.append(
        Diagnostic(
          code: "invalid-utf8",
          message: "\(invalidText) text values are not valid UTF-8; invalid bytes were replaced",
          location: source))
    }
    if tcxWithoutPosition > 0 {
      diagnostics.append(
        Diagnostic(
          code: "trackpoint-without-position", severity: .note,
          message: "\(tcxWithoutPosition) TCX trackpoints have no position and are left out", location: source
        ))
    }
    return TrackHeader(
      name: name ?? sports.first, format: format, sports: sports, points: count, diagnostics: diagnostics)
  }
}
