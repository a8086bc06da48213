/// A value in a command's result: what every output format (table, CSV,
/// JSON, Markdown) renders from.
public indirect enum ResultValue: Sendable, Hashable {
  case null
  case bool(Bool)
  case integer(Int)
  /// A number and the digits it is shown with in tables and Markdown; JSON
  /// and CSV carry its shortest exact form.
  case number(Double, digits: Int)
  case string(String)
  case array([ResultValue])
  case record(ResultRecord)

  /// A number, or `.null` when absent.
  public static func number(_ value: Double?, _ digits: Int) -> ResultValue {
    guard let value else { return .null }
    return .number(value, digits: digits)
  }
}

/// An ordered set of snake_case keys, each carrying its unit in its name
/// (`distance_m`, `energy_kcal`), and their values.
public struct ResultRecord: Sendable, Hashable {
  public private(set) var fields: [(key: String, value: ResultValue)] = []

  public init() {}

  public init(_ fields: KeyValuePairs<String, ResultValue>) {
    for (key, value) in fields { self[key] = value }
  }

  public var keys: [String] { fields.map(\.key) }

  public subscript(key: String) -> ResultValue? {
    get { fields.first(where: { $0.key == key })?.value }
    set {
      if let index = fields.firstIndex(where: { $0.key == key }) {
        if let newValue { fields[index].value = newValue } else { fields.remove(at: index) }
      } else if let newValue {
        fields.append((key, newValue))
      }
    }
  }

  public static func == (lhs: ResultRecord, rhs: ResultRecord) -> Bool {
    lhs.fields.count == rhs.fields.count
      && zip(lhs.fields, rhs.fields).allSatisfy { $0.key == $1.key && $0.value == $1.value }
  }

  public func hash(into hasher: inout Hasher) {
    for field in fields {
      hasher.combine(field.key)
      hasher.combine(field.value)
    }
  }
}

/// Rows of records with the same keys, as a command prints them.
public struct ResultTable: Sendable, Hashable {
  /// A short name, used for file names (`data/<name>.csv`) and titles.
  public var name: String
  public var rows: [ResultRecord]
  /// Whether JSON prints one object rather than an array (a command that
  /// answers with one result, like `models eval`).
  public var isSingleObject: Bool
  /// The command's answer: the columns a table narrowed to a terminal's
  /// width keeps before the others (in the table's order).
  public var keyColumns: [String]

  public init(name: String, rows: [ResultRecord], isSingleObject: Bool = false, keyColumns: [String] = []) {
    self.name = name
    self.rows = rows
    self.isSingleObject = isSingleObject
    self.keyColumns = keyColumns
  }

  /// The table with only `columns`, in that order (names it lacks are
  /// left out).
  public func selecting(_ columns: [String]) -> ResultTable {
    var out = self
    out.rows = rows.map { row in
      var picked = ResultRecord()
      for c in columns { if let v = row[c] { picked[c] = v } }
      return picked
    }
    return out
  }

  /// The union of the rows' keys, in first-seen order.
  public var columns: [String] {
    var seen = Set<String>()
    var ordered: [String] = []
    for row in rows {
      for key in row.keys where seen.insert(key).inserted { ordered.append(key) }
    }
    return ordered
  }
}
