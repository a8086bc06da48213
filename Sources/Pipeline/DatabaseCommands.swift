import EnergyLabCore
import Foundation
import Reporting
import Store

/// `db info`, `check`, `export`, `compare` and `merge` as library calls.
package enum DatabaseCommands {
  /// The database used when no `--db` is given: `$ENERGYLAB_DB`, else
  /// `energylab.sqlite` in the current folder.
  package static var defaultPath: String {
    ProcessInfo.processInfo.environment["ENERGYLAB_DB"] ?? "energylab.sqlite"
  }

  /// SQLite's integrity check of a store: "ok" when sound.
  package static func integrity(path: String) throws -> String { try open(path).integrityCheck() }

  /// The tables and columns a store lacks of its schema; empty when whole.
  package static func schemaProblems(path: String) throws -> [String] { try open(path).schemaCheck() }

  /// `PRAGMA integrity_check` of a store, then its schema: every table and
  /// column its migrations make must be there. "ok" when both hold.
  package static func check(path: String, driver: Driver) throws {
    let result = try integrity(path: path)
    guard result == "ok" else {
      try driver.print(Rendering(blocks: [.prose("\(path): \(result)\n")]))
      throw RuntimeError("\(path): integrity check failed: \(result)")
    }
    let problems = try schemaProblems(path: path)
    guard problems.isEmpty else {
      try driver.print(Rendering(blocks: [.prose("\(path): \(problems.joined(separator: "; "))\n")]))
      throw RuntimeError(
        "\(path): schema check failed: \(problems.joined(separator: "; ")); expected every table and column of an EnergyLab results database"
      )
    }
    try driver.print(Rendering(blocks: [.prose("\(path): ok\n")]))
  }

  /// Opens a store read-only: reading commands never migrate or change a
  /// database, and refuse one that is not EnergyLab's.
  static func open(_ path: String) throws -> ResultsStore {
    try ResultsStore.reading(path)
  }

  /// The applied migrations and the rows of each table.
  package static func information(path: String) throws -> StoreInfo { try open(path).info() }

  package static func info(path: String, format: OutputFormat?, driver: Driver) throws {
    let info = try information(path: path)
    let rows = info.rowCounts.map { ResultRecord(["table": .string($0.table), "rows": .integer($0.rows)]) }
    var out = driver.rendering()
    if (format ?? out.defaultFormat) != .json {
      out.write("database: \(path)\nmigrations: \(info.schemaMigrations.joined(separator: ", "))\n\n")
    }
    out.emit(ResultTable(name: "db-info", rows: rows), format: format)
    try driver.print(out)
  }

  package static func export(path: String, table: String, format: OutputFormat?, driver: Driver)
    throws
  {
    try driver.print(Rendering(blocks: [.table(try exported(path: path, table: table), format: format)]))
  }

  /// A table of the store as it is printed: numbers as numbers, except
  /// digests and keys; whole numbers (row ids, counts, sizes) as integers
  /// in every format, as CSV and JSON always printed them.
  package static func exported(path: String, table: String) throws -> ResultTable {
    let (columns, rows) = try open(path).rows(of: table)
    let records = rows.map { values in
      var record = ResultRecord()
      for (column, value) in zip(columns, values) {
        if let value, !column.hasSuffix("sha256"), !column.contains("key"), let integer = Int(value) {
          record[column] = .integer(integer)
        } else if let value, let number = Double(value), !column.hasSuffix("sha256"), !column.contains("key")
        {
          record[column] = .number(number, 4)
        } else {
          record[column] = value.map { .string($0) } ?? .null
        }
      }
      return record
    }
    return ResultTable(name: table, rows: records)
  }

  /// `db merge OUT SHARD...`: every run of the shards copied into OUT in
  /// one transaction, replacing runs of the same key, so merging again (or
  /// merging overlapping shards) changes nothing.
  package static func merge(output: String, shards: [String], driver: Driver) throws {
    let result = try merged(output: output, shards: shards)
    try driver.print(
      Rendering(blocks: [
        .prose(
          "merged \(result.copied) runs from \(shards.count) databases into \(output) (\(result.total) runs)\n"
        )
      ]))
  }

  /// Merges the shards into `output`: the runs copied, and the runs it then holds.
  package static func merged(output: String, shards: [String]) throws -> (copied: Int, total: Int) {
    guard !shards.isEmpty else { throw UsageError(.missing, "db merge needs at least one shard database") }
    let sources = try shards.map(open)
    let copied = try ResultsStore(path: output).merge(sources)
    let total = try ResultsStore(path: output).canonicalLines().filter { $0.hasPrefix("run ") }.count
    return (copied, total)
  }

  /// Whether two stores hold the same results, and where they first
  /// differ in their canonical dumps.
  package struct Comparison: Sendable, Hashable {
    /// Runs in the first store.
    package var runs: Int
    /// 1-based line of the first difference, with each side's line (nil
    /// past its end); nil when the stores agree.
    package var firstDifference: (line: Int, left: String?, right: String?)?
    package var same: Bool { firstDifference == nil }

    package static func == (a: Comparison, b: Comparison) -> Bool {
      a.runs == b.runs && a.firstDifference?.line == b.firstDifference?.line
        && a.firstDifference?.left == b.firstDifference?.left
        && a.firstDifference?.right == b.firstDifference?.right
    }
    package func hash(into hasher: inout Hasher) {
      hasher.combine(runs)
      hasher.combine(firstDifference?.line)
    }
  }

  /// Compares two stores run by run (by key, with every row, ignoring row
  /// ids and recording times).
  package static func comparison(_ a: String, _ b: String) throws -> Comparison {
    let left = try open(a).canonicalLines()
    let right = try open(b).canonicalLines()
    let runs = left.filter { $0.hasPrefix("run ") }.count
    guard left != right else { return Comparison(runs: runs, firstDifference: nil) }
    let k = (0..<min(left.count, right.count)).first { left[$0] != right[$0] } ?? min(left.count, right.count)
    return Comparison(
      runs: runs,
      firstDifference: (k + 1, k < left.count ? left[k] : nil, k < right.count ? right[k] : nil))
  }

  /// `db compare A B`: whether two stores hold the same results; exit 1
  /// and the first difference when not.
  package static func compare(_ a: String, _ b: String, driver: Driver) throws {
    let result = try comparison(a, b)
    guard let difference = result.firstDifference else {
      try driver.print(
        Rendering(blocks: [.prose("\(a) and \(b) hold the same results (\(result.runs) runs)\n")]))
      return
    }
    throw RuntimeError(
      "\(a) and \(b) differ at line \(difference.line) of their canonical dumps:\n  \(difference.left ?? "(end)")\n  \(difference.right ?? "(end)")"
    )
  }
}
