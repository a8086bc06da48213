import EnergyLabCore
import Foundation
import Reporting
import Store

/// `db info` and `db export` as library calls.
public enum DatabaseCommands {
  /// The database used when no `--db` is given: `$ENERGYLAB_DB`, else
  /// `energylab.sqlite` in the current folder.
  public static var defaultPath: String {
    ProcessInfo.processInfo.environment["ENERGYLAB_DB"] ?? "energylab.sqlite"
  }

  /// `PRAGMA integrity_check` of a store: "ok" when sound.
  public static func check(path: String, context: CommandContext) throws {
    let result = try open(path).integrityCheck()
    context.write("\(path): \(result)\n")
    guard result == "ok" else { throw RuntimeError("\(path): integrity check failed: \(result)") }
  }

  static func open(_ path: String) throws -> ResultsStore {
    guard FileManager.default.fileExists(atPath: path) else {
      throw InputError(
        SourceLocation(file: path), "no such database", expected: "an EnergyLab results database")
    }
    return try ResultsStore(path: path)
  }

  public static func info(path: String, format: OutputFormat?, context: CommandContext) throws {
    let info = try open(path).info()
    let rows = info.rowCounts.map { ResultRecord(["table": .string($0.table), "rows": .integer($0.rows)]) }
    if (format ?? context.defaultFormat) != .json {
      context.write("database: \(path)\nmigrations: \(info.schemaMigrations.joined(separator: ", "))\n\n")
    }
    context.emit(ResultTable(name: "db-info", rows: rows), format: format)
  }

  public static func export(path: String, table: String, format: OutputFormat?, context: CommandContext)
    throws
  {
    let (columns, rows) = try open(path).rows(of: table)
    let records = rows.map { values in
      var record = ResultRecord()
      for (column, value) in zip(columns, values) {
        if let value, let number = Double(value), !column.hasSuffix("sha256"), !column.contains("key") {
          record[column] = .number(number, 4)
        } else {
          record[column] = value.map { .string($0) } ?? .null
        }
      }
      return record
    }
    context.emit(ResultTable(name: table, rows: records), format: format)
  }
}
