import EnergyLabCore
import Foundation

/// Two numeric columns of a CSV with a header, read as pairs: the input of
/// `stats agreement`.
public enum PairedColumns {
  /// Cells that mean "no value": empty, NA, N/A, NaN (any case), as R,
  /// pandas and SPSS exports write them.
  public static func isMissing(_ cell: String) -> Bool {
    ["", "na", "n/a", "nan"].contains(cell.lowercased())
  }

  /// The pairs read, with the participant of each when an id column was
  /// named.
  public struct Rows: Sendable {
    public var pairs: [(Double, Double)]
    /// One per pair; `nil` without an id column.
    public var ids: [String]?
    /// Rows left out for a missing value (or a missing id).
    public var skipped: Int
  }

  /// Reads columns `a` and `b` (and the participant column `id`, when
  /// named) of a CSV with a header; rows where either value or the id is
  /// missing (empty, NA, N/A, NaN) are dropped and counted; any other cell
  /// that is not a number is an error naming its line and column.
  public static func pairs(path: String, a: String, b: String, id: String? = nil) throws -> Rows {
    let data = try FileInput.read(path, expected: "a CSV file with a header")
    guard let text = String(data: data, encoding: .utf8) else {
      throw InputError(.encoding, SourceLocation(file: path), "not UTF-8 text", expected: "a UTF-8 CSV file")
    }
    let rows = try CSVTokenizer.rows(text, source: path).filter {
      !($0.fields.count == 1 && $0.fields[0].isEmpty)
    }
    guard let header = rows.first else {
      throw InputError(
        .empty,
        SourceLocation(file: path, line: 1), "empty file", expected: "a header naming \(a) and \(b)")
    }
    let names = header.fields.map { $0.trimmingCharacters(in: .whitespaces) }
    let wanted = [a, b] + (id.map { [$0] } ?? [])
    guard let ia = names.firstIndex(of: a), let ib = names.firstIndex(of: b),
      id.map({ names.contains($0) }) ?? true
    else {
      let missing = wanted.filter { !names.contains($0) }.joined(separator: ", ")
      throw InputError(
        .malformed,
        SourceLocation(file: path, line: header.line), "no column \(missing)",
        expected: "one of the header's columns: \(names.joined(separator: ", "))")
    }
    let iid = id.flatMap { names.firstIndex(of: $0) }
    var pairs: [(Double, Double)] = []
    var ids: [String] = []
    var skipped = 0
    for row in rows.dropFirst() {
      guard row.fields.count == names.count else {
        throw InputError(
          .malformed,
          SourceLocation(file: path, line: row.line), "row has \(row.fields.count) fields",
          expected: "\(names.count) fields like the header")
      }
      let ta = row.fields[ia].trimmingCharacters(in: .whitespaces)
      let tb = row.fields[ib].trimmingCharacters(in: .whitespaces)
      let participant = iid.map { row.fields[$0].trimmingCharacters(in: .whitespaces) }
      if isMissing(ta) || isMissing(tb) || participant.map(isMissing) == true {
        skipped += 1
        continue
      }
      func number(_ text: String, column: Int, name: String) throws -> Double {
        guard let value = Double(text), value.isFinite else {
          let hint = text.contains(",") ? " (a ',' decimal separator is not accepted)" : ""
          throw InputError(
            .value,
            SourceLocation(file: path, line: row.line, column: column + 1),
            "cannot read \(name) \"\(text)\" as a number\(hint)",
            expected: "a finite number with '.' decimals")
        }
        return value
      }
      pairs.append((try number(ta, column: ia, name: a), try number(tb, column: ib, name: b)))
      if let participant { ids.append(participant) }
    }
    return Rows(pairs: pairs, ids: iid == nil ? nil : ids, skipped: skipped)
  }
}
