import Synchronization

/// The input setting that resolves a diagnostic or an error: a time zone for
/// times without an offset, a unit for acceleration without one. Libraries
/// name the setting; only the program that offers it (the command line)
/// words it, as its option, through `Remedy.install(naming:)`.
public struct Remedy: Sendable, Hashable, Codable {
  public enum Setting: String, Sendable, Hashable, Codable, CaseIterable {
    case timeZone
    case dateOrder
    case accelerationUnit
    case sampleRate
    case timeFormat
    case start
    case axisColumns
    case surveyDialect
    case surveyItems
    case ordinalScale
    case factorSet
    case factorFallback
    case assumption
    case outputFormat
    case columns
    case wearLocation
    case intensityEpoch
    case readTruncated
    case ignoreCRC
    case idleSleep
    case followLinks
    case rerun
    case cutPoints
    case storedDiagnostics

    /// The setting in words, for programs that install no naming.
    public var prose: String {
      switch self {
      case .timeZone: "the time zone"
      case .dateOrder: "the date order"
      case .accelerationUnit: "the acceleration unit"
      case .sampleRate: "the sample rate"
      case .timeFormat: "the time format"
      case .start: "the start time"
      case .axisColumns: "the axis columns"
      case .surveyDialect: "the survey dialect"
      case .surveyItems: "the questionnaire items"
      case .ordinalScale: "an ordinal scale"
      case .factorSet: "another factor set"
      case .factorFallback: "a fallback mode"
      case .assumption: "an assumed value"
      case .outputFormat: "another output format"
      case .columns: "a column list"
      case .wearLocation: "the wear location"
      case .intensityEpoch: "the epoch the cut-points classify"
      case .readTruncated: "the readTruncated option"
      case .ignoreCRC: "the ignoreCRC option"
      case .idleSleep: "the idle-sleep treatment"
      case .followLinks: "following links"
      case .rerun: "a rerun"
      case .cutPoints: "other cut-points"
      case .storedDiagnostics: "the diagnostics table of the store"
      }
    }
  }

  /// One setting, or several given together (a sample rate and a start).
  public var settings: [Setting]
  /// The value that resolves it, when one does (`sensor-ns`).
  public var value: String?

  public init(_ settings: Setting..., value: String? = nil) {
    self.settings = settings
    self.value = value
  }

  private static let naming = Mutex<@Sendable (Setting) -> String>({ $0.prose })

  /// How the program names a setting (`--tz`); set once at start.
  public static func install(naming: @escaping @Sendable (Setting) -> String) {
    Self.naming.withLock { $0 = naming }
  }

  /// The settings as the program names them, with the value: `--time-format
  /// sensor-ns`, `--sample-rate and --start`.
  public var text: String {
    let name = Self.naming.withLock { $0 }
    return settings.map(name).joined(separator: " and ") + (value.map { " \($0)" } ?? "")
  }

  /// Where a message names the remedy inside its sentence, as in `no start
  /// was given (\(Remedy.slot)); no dates are reported`; a message without
  /// it has the remedy after it.
  public static let slot = "\u{E000}"

  /// `message` with the remedy in its slot, or followed by `after(text)`.
  public func fill(_ message: String, after: (String) -> String) -> String {
    message.contains(Self.slot)
      ? message.replacingOccurrences(of: Self.slot, with: text) : message + after(text)
  }
}
