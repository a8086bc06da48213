/// The unit of a result's column: the text the store writes in a result
/// row's `unit` column, and the suffix a printed key ends in (`_m` in
/// `distance_2d_m`). Counts and pure numbers have no suffix. The one rule
/// from a unit to a printed suffix lives here.
public struct ResultUnit: Sendable, Hashable {
  /// The stored unit (`m`, `kcal/min`, `count`).
  public var text: String
  /// The printed key's ending, without its underscore; nil for none.
  public var suffix: String?

  public init(_ text: String, suffix: String?) {
    self.text = text
    self.suffix = suffix
  }

  public static let meters = ResultUnit("m", suffix: "m")
  public static let seconds = ResultUnit("s", suffix: "s")
  public static let minutes = ResultUnit("min", suffix: "min")
  public static let hours = ResultUnit("h", suffix: "h")
  public static let kilocalories = ResultUnit("kcal", suffix: "kcal")
  public static let kilojoules = ResultUnit("kJ", suffix: "kj")
  public static let joules = ResultUnit("J", suffix: "j")
  public static let watts = ResultUnit("W", suffix: "w")
  public static let kilograms = ResultUnit("kg", suffix: "kg")
  public static let metersPerSecond = ResultUnit("m/s", suffix: "mps")
  public static let percent = ResultUnit("%", suffix: "pct")
  public static let beatsPerMinute = ResultUnit("bpm", suffix: "bpm")
  public static let hertz = ResultUnit("Hz", suffix: "hz")
  public static let milliG = ResultUnit("mg", suffix: "mg")
  public static let gravity = ResultUnit("g", suffix: "g")
  public static let gravityPerCelsius = ResultUnit("g/C", suffix: "g_per_c")
  public static let kilocaloriesPerMinute = ResultUnit("kcal/min", suffix: "kcal_per_min")
  public static let vo2 = ResultUnit("mL/kg/min", suffix: "ml_kg_min")
  public static let count = ResultUnit("count", suffix: nil)
  public static let steps = ResultUnit("steps", suffix: nil)
  public static let breaks = ResultUnit("breaks", suffix: nil)
  public static let fraction = ResultUnit("fraction", suffix: nil)
  public static let ratio = ResultUnit("ratio", suffix: nil)
  public static let points = ResultUnit("points", suffix: nil)
  public static let rank = ResultUnit("rank", suffix: nil)
  public static let boolean = ResultUnit("boolean", suffix: nil)
  public static let trainingStress = ResultUnit("tss", suffix: nil)
  /// Training stress per day (CTL, ATL, TSB: exponentially weighted
  /// daily TSS).
  public static let trainingStressPerDay = ResultUnit("tss/day", suffix: nil)
  /// A pure number (a scale factor, a correlation).
  public static let none = ResultUnit("", suffix: nil)
}

/// One column of a result, declared once: its name (without a unit), its
/// unit, how it is printed (digits) and how its value is read from the
/// typed result. The printed record and the stored rows are both made
/// from a list of these, so a figure has one name, one unit and one
/// number of digits wherever it appears.
public struct ResultColumn<Value>: Sendable {
  /// How a column prints.
  public enum Shape: Sendable, Hashable {
    /// A number shown with `digits` decimals.
    case number(digits: Int)
    /// A whole number.
    case integer
    /// Yes or no: printed as a boolean, stored as 1 or 0.
    case flag
    /// Words, a time or a list: printed, never stored.
    case text
  }

  /// The stored metric name, without a unit (`distance_2d`).
  public let name: String
  public let unit: ResultUnit
  public let shape: Shape
  /// Whether the column is printed (a few stored figures are not).
  public let isPrinted: Bool
  let read: @Sendable (Value) -> Double?
  let words: @Sendable (Value) -> ResultValue
  let applies: @Sendable (Value) -> Bool

  /// A number with `digits` decimals in `unit`; `when` says whether the
  /// column is there at all for a value (absent, not empty, when not).
  public static func number(
    _ name: String, _ unit: ResultUnit, digits: Int, printed: Bool = true,
    when applies: @escaping @Sendable (Value) -> Bool = { _ in true },
    _ read: @escaping @Sendable (Value) -> Double?
  ) -> ResultColumn {
    ResultColumn(
      name: name, unit: unit, shape: .number(digits: digits), isPrinted: printed, read: read,
      words: { _ in .null }, applies: applies)
  }

  /// A whole number (a count, a rank) in `unit`.
  public static func integer(
    _ name: String, _ unit: ResultUnit = .count,
    when applies: @escaping @Sendable (Value) -> Bool = { _ in true },
    _ read: @escaping @Sendable (Value) -> Int?
  ) -> ResultColumn {
    ResultColumn(
      name: name, unit: unit, shape: .integer, isPrinted: true, read: { read($0).map(Double.init) },
      words: { _ in .null }, applies: applies)
  }

  /// Yes or no, stored as 1 or 0 (unit `boolean`).
  public static func flag(
    _ name: String, when applies: @escaping @Sendable (Value) -> Bool = { _ in true },
    _ read: @escaping @Sendable (Value) -> Bool?
  ) -> ResultColumn {
    ResultColumn(
      name: name, unit: .boolean, shape: .flag, isPrinted: true, read: { read($0).map { $0 ? 1 : 0 } },
      words: { _ in .null }, applies: applies)
  }

  /// Words, times, lists and identifiers: printed under `name`, not
  /// stored.
  public static func text(
    _ name: String, when applies: @escaping @Sendable (Value) -> Bool = { _ in true },
    _ words: @escaping @Sendable (Value) -> ResultValue
  ) -> ResultColumn {
    ResultColumn(
      name: name, unit: .none, shape: .text, isPrinted: true, read: { _ in nil }, words: words,
      applies: applies)
  }

  /// The printed key: the name and its unit's suffix (`distance_2d_m`),
  /// or the name alone for counts and pure numbers; the few keys that
  /// read otherwise are listed in `ResultColumns.printedKeyExceptions`.
  public var key: String {
    if let exception = ResultColumns.printedKeyExceptions[name], shape != .text { return exception }
    return unit.suffix.map { "\(name)_\($0)" } ?? name
  }

  /// Whether the column is stored: every number, never words.
  public var isStored: Bool { shape != .text }

  /// The number of the column for `value`; nil when unknown (and where
  /// it could not be computed: never infinite, never NaN).
  public func number(_ value: Value) -> Double? { read(value).flatMap { $0.isFinite ? $0 : nil } }

  /// The printed value of the column for `value`.
  public func printed(_ value: Value) -> ResultValue {
    switch shape {
    case .text: return words(value)
    case .integer: return number(value).map { .integer(Int($0)) } ?? .null
    case .flag: return number(value).map { .bool($0 != 0) } ?? .null
    case .number(let digits): return .number(number(value), digits)
    }
  }

  /// Whether the column is there for `value`.
  public func applies(to value: Value) -> Bool { applies(value) }

  /// The same column under `name_qualifier`: a column declared once for
  /// a row per model, stored and printed under each model's name
  /// (`energy` of `met-intensity` is `energy_met_intensity`).
  public func qualified(by qualifier: String) -> ResultColumn {
    ResultColumn(
      name: "\(name)_\(qualifier)", unit: unit, shape: shape, isPrinted: isPrinted, read: read, words: words,
      applies: applies)
  }

  /// The same column reading a part of another value (`part`).
  public func reading<Whole>(_ part: @escaping @Sendable (Whole) -> Value) -> ResultColumn<Whole> {
    let read = self.read
    let words = self.words
    let applies = self.applies
    let shape: ResultColumn<Whole>.Shape
    switch self.shape {
    case .number(let digits): shape = .number(digits: digits)
    case .integer: shape = .integer
    case .flag: shape = .flag
    case .text: shape = .text
    }
    return ResultColumn<Whole>(
      name: name, unit: unit, shape: shape, isPrinted: isPrinted, read: { read(part($0)) },
      words: { words(part($0)) }, applies: { applies(part($0)) })
  }
}

/// What a list of columns makes of a value: its printed record and its
/// stored numbers.
public enum ResultColumns {
  /// The printed keys that do not follow the name-plus-suffix rule, by
  /// stored name: `energy` prints its rate and the figures it compares
  /// with a measurement under their units alone.
  public static let printedKeyExceptions: [String: String] = [
    "energy_rate": "kcal_per_min",
    "compared_duration": "compared_s",
    "left_out_duration": "left_out_s",
    "model_compared_energy": "model_compared_kcal",
    "measured_energy": "measured_kcal",
  ]

  /// The printed record of `value`: each printed column that applies, in
  /// the declared order, under its key.
  public static func record<Value>(_ columns: [ResultColumn<Value>], of value: Value) -> ResultRecord {
    var record = ResultRecord()
    for column in columns where column.isPrinted && column.applies(to: value) {
      record[column.key] = column.printed(value)
    }
    return record
  }

  /// The stored numbers of `value`: each numeric column that applies and
  /// whose value is known, under its name with its unit's text. An
  /// unknown value is no row, never 0.
  public static func numbers<Value>(_ columns: [ResultColumn<Value>], of value: Value) -> [(
    name: String, value: Double, unit: String
  )] {
    columns.compactMap { column in
      guard column.isStored, column.applies(to: value), let number = column.number(value) else { return nil }
      return (column.name, number, column.unit.text)
    }
  }
}
