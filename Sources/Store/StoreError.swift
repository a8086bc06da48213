import EnergyLabCore
import GRDB

/// A results database that could not be read or written, with SQLite's
/// evidence: the result code, its message, and the statement and arguments
/// that failed (GRDB's, kept rather than flattened into text).
public struct StoreError: ReportedError, Sendable {
  public enum Kind: String, Sendable {
    /// The file is not an SQLite database.
    case notADatabase = "not-a-database"
    /// Still busy (locked by other writers) after every attempt.
    case busy
    /// Any other failure to read.
    case cannotRead = "cannot-read"
    /// Any other failure to write.
    case cannotWrite = "cannot-write"
    /// No file at the path (reading never creates one).
    case missing
    /// An empty file.
    case emptyFile = "empty-file"
    /// An SQLite database with no tables.
    case noTables = "no-tables"
    /// An SQLite database that is not EnergyLab's (`tables` lists its tables).
    case foreign
    /// Migrated by a newer EnergyLab (`migrations` lists those unknown here).
    case newer
    /// A table name that is not one of the store's.
    case unknownTable = "unknown-table"
    /// One of the store's tables that this older file does not hold yet.
    case tableAbsent = "table-absent"
  }

  public var kind: Kind
  public var path: String
  /// What was being done ("store the run", "read results database").
  public var action: String
  /// SQLite's result code and message, when SQLite failed.
  public var resultCode: Int32?
  public var message: String?
  public var sql: String?
  public var arguments: String?
  /// Attempts made when the database stayed busy.
  public var attempts: Int?
  /// The tables a foreign file holds, or the table asked for.
  public var tables: [String] = []
  /// The migrations a newer EnergyLab applied.
  public var migrations: [String] = []
  /// Whether the file was opened for writing and left as it was.
  public var nothingWritten = false

  /// A refusal of the store's own, with its evidence.
  init(
    _ kind: Kind, path: String, action: String, tables: [String] = [], migrations: [String] = [],
    nothingWritten: Bool = false
  ) {
    self.kind = kind
    self.path = path
    self.action = action
    self.tables = tables
    self.migrations = migrations
    self.nothingWritten = nothingWritten
  }

  init(_ kind: Kind, path: String, action: String, error: DatabaseError, attempts: Int? = nil) {
    self.kind = kind
    self.path = path
    self.action = action
    resultCode = error.extendedResultCode.rawValue
    message = error.message ?? "\(error)"
    sql = error.sql
    arguments = error.arguments.map { "\($0)" }
    self.attempts = attempts
  }

  public var description: String {
    let written = nothingWritten ? "; nothing was written to it" : ""
    switch kind {
    case .notADatabase:
      return "\(path): not an SQLite database; expected an EnergyLab results database"
    case .missing:
      return "\(path): no such database; expected an EnergyLab results database"
    case .emptyFile:
      return "\(path): empty file, not an EnergyLab results database"
    case .noTables:
      return "\(path): empty database with no tables, not an EnergyLab results database"
    case .foreign:
      let listed = tables.prefix(6).joined(separator: ", ") + (tables.count > 6 ? ", ..." : "")
      return
        "\(path): not an EnergyLab results database (it holds tables \(listed); expected runs, inputs, parameters, ...)"
        + written
    case .newer:
      return
        "\(path): written by a newer EnergyLab (schema migration \(migrations.joined(separator: ", ")) is unknown to EnergyLab \(EnergyLabVersion.current))"
        + written + "; use a newer energylab"
    case .unknownTable:
      return
        "unknown table \"\(tables.first ?? "")\"; expected one of \(ResultsStore.tables.joined(separator: ", "))"
    case .tableAbsent:
      return
        "\(path): no table \(tables.first ?? "") in this database (an older EnergyLab schema; a writing command migrates it)"
    case .busy, .cannotRead, .cannotWrite:
      break
    }
    var text = "\(path): cannot \(action): \(message ?? "unknown error")"
    if let attempts { text += " (still busy after \(attempts) attempts)" }
    if let sql { text += " (SQL: \(sql)" + (arguments.map { "; arguments \($0)" } ?? "") + ")" }
    return text
  }
}
