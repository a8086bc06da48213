import EnergyLabCore
import Foundation

/// The accelerometer export dialects EnergyLab recognises.
public enum AccelFormat: String, Sendable, Hashable, CaseIterable, Codable {
  /// ActiLife CSV of raw acceleration (epoch period 00:00:00), in g.
  case actigraphRaw = "actigraph-raw"
  /// ActiLife CSV of epoch counts (axis1..axis3, steps, vector magnitude).
  case actigraphCounts = "actigraph-counts"
  /// Axivity (OmGui) CSV: a time column, then x, y, z in g (and gyroscope).
  case axivity
  /// UK Biobank epoch time series: acceleration (ENMO) in mg per epoch.
  case ukBiobankEpoch = "ukbiobank-epoch"
  /// GENEActiv PC software CSV: a 100-line header of `key,value` lines,
  /// then time (`2021-06-01 09:30:00:250`), x, y, z in g, lux, button,
  /// temperature.
  case geneactiv
  /// Empatica E4 `ACC.csv` (E4 connect export): the session's start in
  /// Unix seconds (UTC) on the first line and the sample rate in Hz on the
  /// second, each written once per axis; then x, y, z in 1/64 g, the
  /// [-2 g, 2 g] range in 8 bits, at 32 Hz.
  case empaticaE4 = "empatica-e4"
  /// Phone sensor apps with named columns (Sensor Logger, phyphox and the
  /// like): time or seconds_elapsed, x, y, z.
  case phone
  /// Any CSV, read through a column map.
  case generic
  /// Axivity AX3/AX6 binary `.cwa` (`CWAReader`).
  case axivityCWA = "axivity-cwa"
  /// GENEActiv binary `.bin` (`GENEActivBinReader`).
  case geneactivBin = "geneactiv-bin"
  /// ActiGraph `.gt3x` (`GT3XReader`).
  case actigraphGT3X = "actigraph-gt3x"

  /// The device format a dialect names; nil for the CSV dialects.
  public var deviceFormat: DeviceFileFormat? {
    switch self {
    case .axivityCWA: return .axivityCWA
    case .geneactivBin: return .geneactivBin
    case .actigraphGT3X: return .actigraphGT3X
    default: return nil
    }
  }
}

/// The unit of acceleration cells.
public enum AccelUnit: String, Sendable, Hashable, CaseIterable {
  case g
  case metersPerSecondSquared = "m/s2"
  case milliG = "mg"

  /// Standard gravity, m/s^2 (CGPM 1901).
  public static let standardGravity = 9.80665

  /// The factor that turns a cell into g.
  public var toG: Double {
    switch self {
    case .g: return 1
    case .metersPerSecondSquared: return 1 / Self.standardGravity
    case .milliG: return 0.001
    }
  }
}

/// How a time column is written.
public enum AccelTimeFormat: String, Sendable, Hashable, CaseIterable {
  /// A date and time, `2016-05-01 10:00:00.010` or ISO-8601 with offset.
  case dateTime = "datetime"
  case unixSeconds = "unix-s"
  case unixMilliseconds = "unix-ms"
  case unixNanoseconds = "unix-ns"
  /// Seconds since the start of the recording.
  case elapsed
  /// Milliseconds since the start of the recording (AndroSensor's "Time
  /// since start in ms").
  case elapsedMilliseconds = "elapsed-ms"
  /// Nanoseconds on the phone's own clock, which starts at boot (Android
  /// `SensorEvent.timestamp`): times relative to the first sample.
  case sensorNanoseconds = "sensor-ns"
}

/// A column named by its header text or by its 1-based position.
public enum ColumnReference: Sendable, Hashable, CustomStringConvertible {
  case name(String)
  case position(Int)

  /// A number is a position, anything else a name.
  public init(_ text: String) {
    if let n = Int(text), n > 0 { self = .position(n) } else { self = .name(text) }
  }

  public var description: String {
    switch self {
    case .name(let n): return "\"\(n)\""
    case .position(let p): return "column \(p)"
    }
  }
}

/// What the user says about a file, overriding detection.
public struct AccelColumnMap: Sendable, Hashable {
  public var format: AccelFormat?
  public var time: ColumnReference?
  public var timeFormat: AccelTimeFormat?
  public var x: ColumnReference?
  public var y: ColumnReference?
  public var z: ColumnReference?
  public var unit: AccelUnit?
  public var dateOrder: DateOrder?
  /// The start, seconds since 1970 UTC, for elapsed times or files without
  /// a time column.
  public var start: Double?
  /// The sample rate for files without a time column, Hz.
  public var sampleRateHz: Double?

  public init(
    format: AccelFormat? = nil, time: ColumnReference? = nil, timeFormat: AccelTimeFormat? = nil,
    x: ColumnReference? = nil, y: ColumnReference? = nil, z: ColumnReference? = nil, unit: AccelUnit? = nil,
    dateOrder: DateOrder? = nil, start: Double? = nil, sampleRateHz: Double? = nil
  ) {
    self.format = format
    self.time = time
    self.timeFormat = timeFormat
    self.x = x
    self.y = y
    self.z = z
    self.unit = unit
    self.dateOrder = dateOrder
    self.start = start
    self.sampleRateHz = sampleRateHz
  }
}

/// Where the time of a row comes from.
public enum AccelTimeSource: Sendable, Hashable {
  /// One column with a date-time.
  case dateTime(column: Int, order: DateOrder)
  /// A date column and a time column (ActiLife epoch files).
  case dateAndTime(date: Int, time: Int, order: DateOrder)
  /// A number: time = start + value x scale.
  case number(column: Int, scale: Double, start: Double)
  /// No time column: time = start + row x period.
  case implicit(start: Double, period: Double)
}

/// A file's dialect as detected: where its rows start, what its columns
/// mean and what its header said.
public struct AccelLayout: Sendable {
  public var format: AccelFormat
  public var kind: AccelDataKind
  public var delimiter: UInt8
  /// Lines before the first data row (header block and column names).
  public var headerLines: Int
  /// Fields every data row must have.
  public var columnCount: Int
  public var columnNames: [String]
  public var time: AccelTimeSource
  /// Columns of the values, 0-based, in the order of `kind` (-1: absent).
  public var valueColumns: [Int]
  /// Factor turning raw value cells into g (1 for counts and ENMO).
  public var scale: Double
  public var unit: AccelUnit?
  /// The rate the file declares (ActiGraph `at 30 Hz`, an epoch period).
  public var declaredRateHz: Double?
  /// False when times are elapsed seconds with no known start.
  public var absoluteTime: Bool
  /// Header facts worth reporting (serial number, device, start).
  public var metadata: [String: String]
  public var diagnostics: [Diagnostic]
  /// The zone the header states for times written without an offset
  /// (GENEActiv's `Time Zone,GMT +01:00`); `--tz` takes precedence.
  public var timeZone: TimeZone? = nil
  /// The byte between a number's whole and fractional digits: `.`, or `,`
  /// in semicolon- or tab-separated exports of a decimal-comma locale
  /// (phyphox's "semicolon, decimal comma", a spreadsheet's CSV).
  public var decimalSeparator: UInt8 = 0x2E
}
