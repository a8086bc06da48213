import EnergyLabCore
import Foundation

/// Reads a MET table: `#` provenance lines (source and licence required),
/// then a header `code,met,speed_mph,group,activity` and one activity per
/// row.
public enum METTableReader {
  public static func read(path: String) throws -> [METActivity] {
    let data = try FileInput.read(path, expected: "a MET table CSV")
    guard let text = String(data: data, encoding: .utf8) else {
      throw InputError(.encoding, SourceLocation(file: path), "not UTF-8 text", expected: "a UTF-8 CSV file")
    }
    return try parse(text, source: path)
  }

  public static func parse(_ text: String, source: String) throws -> [METActivity] {
    let split = ProvenanceHeader(splitting: text)
    let headerLines = split.lines
    let keys = Set(split.fields.keys)
    for key in ["source", "licence"] where !keys.contains(key) {
      throw InputError(
        .malformed,
        SourceLocation(file: source, line: max(1, headerLines)), "provenance header lacks \"\(key)\"",
        expected: "a line \"# \(key): ...\"")
    }
    let rows = try CSVTokenizer.rows(
      split.body, source: source, firstLine: headerLines + 1
    )
    .filter { !($0.fields.count == 1 && $0.fields[0].isEmpty) }
    let expected = ["code", "met", "speed_mph", "group", "activity"]
    guard let header = rows.first, header.fields == expected else {
      throw InputError(
        .malformed,
        SourceLocation(file: source, line: headerLines + 1), "unexpected header",
        expected: expected.joined(separator: ","))
    }
    return try rows.dropFirst().map { row in
      guard row.fields.count == expected.count else {
        throw InputError(
          .malformed,
          SourceLocation(file: source, line: row.line), "row has \(row.fields.count) fields",
          expected: "5 fields")
      }
      guard let met = Double(row.fields[1]), met > 0 else {
        throw InputError(
          .value,
          SourceLocation(file: source, line: row.line, column: 2), "cannot read MET \"\(row.fields[1])\"",
          expected: "a positive number")
      }
      var speed: Double?
      if !row.fields[2].isEmpty {
        guard let value = Double(row.fields[2]), value > 0 else {
          throw InputError(
            .value,
            SourceLocation(file: source, line: row.line, column: 3), "cannot read speed \"\(row.fields[2])\"",
            expected: "a speed in mph or an empty cell")
        }
        speed = value
      }
      return METActivity(
        code: row.fields[0], metabolicEquivalent: met, speedMilesPerHour: speed, group: row.fields[3],
        activity: row.fields[4])
    }
  }
}
