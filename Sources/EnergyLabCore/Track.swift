/// One fix of a recorded or synthetic track.
public struct TrackPoint: Sendable, Hashable {
  public var latitudeDegrees: Double
  public var longitudeDegrees: Double
  /// Elevation above the reference surface of the source (GPX: WGS-84
  /// ellipsoid or geoid, as the device wrote it), in metres.
  public var elevationMeters: Double?
  /// Seconds since 1970-01-01T00:00:00Z.
  public var timeSecondsSince1970: Double?
  public var heartRateBeatsPerMinute: Double?
  /// Cadence, revolutions or steps per minute as the device writes it.
  public var cadencePerMinute: Double?
  public var temperatureCelsius: Double?
  public var powerWatts: Double?
  /// Speed the device reported (GPX 1.0 `<speed>`, TCX `Speed`), m/s.
  public var reportedSpeedMetersPerSecond: Double?
  /// Horizontal dilution of precision, when written.
  public var horizontalDilution: Double?
  /// 1-based line of the fix in its source file, for diagnostics.
  public var sourceLine: Int

  public init(
    latitudeDegrees: Double, longitudeDegrees: Double, elevationMeters: Double? = nil,
    timeSecondsSince1970: Double? = nil, heartRateBeatsPerMinute: Double? = nil, sourceLine: Int = 0
  ) {
    self.latitudeDegrees = latitudeDegrees
    self.longitudeDegrees = longitudeDegrees
    self.elevationMeters = elevationMeters
    self.timeSecondsSince1970 = timeSecondsSince1970
    self.heartRateBeatsPerMinute = heartRateBeatsPerMinute
    self.sourceLine = sourceLine
  }
}

/// A track as read from a file: its fixes in file order (segments joined)
/// and what was noticed while reading.
public struct Track: Sendable, Hashable {
  public var name: String?
  /// The file it came from, as given.
  public var source: String
  public var points: [TrackPoint]
  public var diagnostics: [Diagnostic]

  public init(name: String? = nil, source: String, points: [TrackPoint], diagnostics: [Diagnostic] = []) {
    self.name = name
    self.source = source
    self.points = points
    self.diagnostics = diagnostics
  }
}
