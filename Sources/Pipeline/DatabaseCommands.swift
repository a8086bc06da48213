import EnergyLabCore
import Foundation
import Reporting
import Store

/// `db info` and `db export` as library calls.
public enum DatabaseCommands {
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
