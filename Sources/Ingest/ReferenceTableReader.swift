import EnergyLabCore
import Foundation

/// Reads a reference table (see `ReferenceTable` for the layout) and checks
/// it: the provenance header must name its source, units, how it was
/// transcribed and its licence; every row must have a value for every
/// column; keys must be numbers in increasing order.
public enum ReferenceTableReader {
  /// Provenance keys every table must carry.
  public static let requiredProvenance = [
    "source", "units", "transcribed", "licence", "row_variable", "column_variable", "value",
  ]

  public static func read(path: String) throws -> ReferenceTable {
    let data = try FileInput.read(path, expected: "a reference table CSV")
    guard let text = String(data: data, encoding: .utf8) else {
      throw InputError(.encoding, SourceLocation(file: path), "not UTF-8 text", expected: "a UTF-8 CSV file")
    }
    let name = URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent
    return try parse(text, source: path, name: name)
  }

  public static func parse(_ text: String, source: String, name: String) throws -> ReferenceTable {
    var provenance: [ReferenceTable.ProvenanceField] = []
    var lines = text.split(separator: "\n", omittingEmptySubsequences: false)
    var lineNumber = 0
    while let first = lines.first, first.hasPrefix("#") || first.trimmingCharacters(in: .whitespaces).isEmpty
    {
      lineNumber += 1
      let body = first.dropFirst(first.hasPrefix("#") ? 1 : 0).trimmingCharacters(in: .whitespacesAndNewlines)
      lines.removeFirst()
      guard !body.isEmpty else { continue }
      guard let colon = body.firstIndex(of: ":") else {
        throw InputError(
          .malformed,
          SourceLocation(file: source, line: lineNumber), "provenance line without a key",
          expected: "# key: value")
      }
      let key = body[..<colon].trimmingCharacters(in: .whitespaces)
      let value = body[body.index(after: colon)...].trimmingCharacters(in: .whitespaces)
      if let index = provenance.firstIndex(where: { $0.key == key }) {
        provenance[index].value += " " + value
      } else {
        provenance.append(.init(key: key, value: value))
      }
    }
    for key in requiredProvenance where !provenance.contains(where: { $0.key == key }) {
      throw InputError(
        .malformed,
        SourceLocation(file: source, line: max(1, lineNumber)), "provenance header lacks \"\(key)\"",
        expected: "a line \"# \(key): ...\" before the table")
    }
    let body = lines.joined(separator: "\n")
    let rows = try CSVTokenizer.rows(body, source: source, firstLine: lineNumber + 1)
      .filter { !($0.fields.count == 1 && $0.fields[0].isEmpty) }
    guard let header = rows.first else {
      throw InputError(
        .empty,
        SourceLocation(file: source, line: lineNumber + 1), "no table after the header",
        expected: "a header row")
    }
    guard header.fields.count >= 2 else {
      throw InputError(
        .malformed,
        SourceLocation(file: source, line: header.line), "header has \(header.fields.count) column",
        expected: "a row-variable name and at least one column value")
    }
    func number(_ text: String, line: Int, column: Int, what: String) throws -> Double {
      guard let value = Double(text.trimmingCharacters(in: .whitespaces)), value.isFinite else {
        let hint = text.contains(",") ? " (a ',' decimal separator is not accepted)" : ""
        throw InputError(
          .value,
          SourceLocation(file: source, line: line, column: column),
          "cannot read \"\(text)\" as a number\(hint)",
          expected: what)
      }
      return value
    }
    let columnKeys = try header.fields.dropFirst().enumerated().map {
      try number($0.element, line: header.line, column: $0.offset + 2, what: "a numeric column key")
    }
    try checkIncreasing(columnKeys, source: source, line: header.line, what: "column keys")
    var rowKeys: [Double] = []
    var values: [[Double]] = []
    for row in rows.dropFirst() {
      guard row.fields.count == header.fields.count else {
        throw InputError(
          .malformed,
          SourceLocation(file: source, line: row.line), "row has \(row.fields.count) fields",
          expected: "\(header.fields.count) fields like the header")
      }
      rowKeys.append(try number(row.fields[0], line: row.line, column: 1, what: "a numeric row key"))
      values.append(
        try row.fields.dropFirst().enumerated().map {
          try number($0.element, line: row.line, column: $0.offset + 2, what: "a number")
        })
    }
    guard !rowKeys.isEmpty else {
      throw InputError(
        .empty,
        SourceLocation(file: source, line: header.line + 1), "table has no rows",
        expected: "at least one data row")
    }
    try checkIncreasing(rowKeys, source: source, line: rows[1].line, what: "row keys")
    // Every required key is there (checked above).
    let field = { (key: String) in provenance.first(where: { $0.key == key })?.value ?? "" }
    var fixed: [ReferenceTable.FixedInput] = []
    if let text = provenance.first(where: { $0.key == "fixed" })?.value {
      for item in text.split(separator: ",") {
        let parts = item.split(separator: "=").map { $0.trimmingCharacters(in: .whitespaces) }
        guard parts.count == 2, let value = Double(parts[1]), value.isFinite else {
          throw InputError(
            .value,
            SourceLocation(file: source, line: lineNumber), "cannot read fixed input \"\(item)\"",
            expected: "variable=number, as duration_min=30")
        }
        fixed.append(.init(variable: parts[0], value: value))
      }
    }
    return ReferenceTable(
      name: name, source: source, provenance: provenance, rowVariable: field("row_variable"),
      columnVariable: field("column_variable"), valueVariable: field("value"), rowKeys: rowKeys,
      columnKeys: columnKeys, values: values, fixed: fixed)
  }

  private static func checkIncreasing(_ keys: [Double], source: String, line: Int, what: String) throws {
    for i in keys.indices.dropFirst() where keys[i] <= keys[i - 1] {
      throw InputError(
        .malformed,
        SourceLocation(file: source, line: line),
        "\(what) not in increasing order at \(Fixed.shortest(keys[i]))",
        expected: "strictly increasing \(what)")
    }
  }
}
