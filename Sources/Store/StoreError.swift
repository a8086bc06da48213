import EnergyLabCore
import Foundation
import GRDB

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A results database that could not be read or written, with SQLite's
/// evidence: the result code, its message, and the statement and arguments
/// that failed (GRDB's, kept rather than flattened into text).
package struct StoreError: ReportedError, Sendable {
  package enum Kind: String, Sendable {
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

  package var kind: Kind
  package var path: String
  /// What was being done ("store the run", "read results database").
  package var action: String
  /// SQLite's result code and message, when SQLite failed.
  package var resultCode: Int32?
  package var message: String?
  package var sql: String?
  package var arguments: String?
  /// Attempts made when the database stayed busy.
  package var attempts: Int?
  /// The tables a foreign file holds, or the table asked for.
  package var tables: [String] = []
  /// The migrations a newer EnergyLab applied.
  package var migrations: [String] = []
  /// Whether the file was opened for writing and left as it was.
  package var nothingWritten = false
  /// What on the file system made SQLite fail, in words, when it can be
  /// told: a read-only file or file system, a full disk, a missing folder.
  package var cause: String?

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
    cause = Self.cause(path: path, resultCode: error.resultCode.rawValue)
  }

  /// A write refused before SQLite touched the file, for `cause`.
  init(cannotWrite path: String, action: String, cause: String) {
    kind = .cannotWrite
    self.path = path
    self.action = action
    self.cause = cause
    nothingWritten = true
  }

  /// Why SQLite could not open, read or write `path`, told from the file
  /// system when its result code is one of read-only, I/O error, full or
  /// cannot-open; nil when the file system shows nothing wrong.
  static func cause(path: String, resultCode: Int32) -> String? {
    // SQLITE_READONLY 8, SQLITE_IOERR 10, SQLITE_FULL 13, SQLITE_CANTOPEN 14.
    guard [8, 10, 13, 14].contains(resultCode & 0xFF) else { return nil }
    if let blocker = writeBlocker(path: path) { return blocker }
    let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
    var fs = statvfs()
    guard statvfs(folder, &fs) == 0, fs.f_bavail == 0 || resultCode & 0xFF == 13 else { return nil }
    let free = UInt64(fs.f_bavail) * UInt64(fs.f_frsize)
    guard free == 0 else {
      // SQLITE_FULL with room on the disk: a quota, or a page limit.
      return
        "the database is full: no room for it to grow (a quota or a size limit; \(free) bytes free on the disk holding \(folder))"
    }
    return "the disk holding \(folder) is full (0 bytes free)"
  }

  /// What keeps this user from writing the store, in words: a missing
  /// folder, a read-only file system, the database file, a `-wal` or
  /// `-shm` file beside it (SQLite gives those the database's permissions,
  /// so another user's failed attempt on a read-only store leaves them
  /// read-only), or the folder; nil when nothing does.
  static func writeBlocker(path: String) -> String? {
    let manager = FileManager.default
    let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
    var isDirectory: ObjCBool = false
    guard manager.fileExists(atPath: folder, isDirectory: &isDirectory), isDirectory.boolValue else {
      return "the folder \(folder) does not exist"
    }
    var fs = statvfs()
    if statvfs(folder, &fs) == 0 && fs.f_flag & UInt(ST_RDONLY) != 0 {
      return "the file system holding \(folder) is mounted read-only"
    }
    if manager.fileExists(atPath: path) && access(path, W_OK) != 0 {
      return "the database file is read-only for this user"
    }
    for suffix in ["-wal", "-shm"]
    where manager.fileExists(atPath: path + suffix) && access(path + suffix, W_OK) != 0 {
      return
        "its \(suffix) file (\(path + suffix)) is read-only for this user, left by another user's attempt; remove it once no one uses the database"
    }
    if access(folder, W_OK) != 0 && !manager.fileExists(atPath: path + "-wal") {
      return
        "the folder \(folder) is not writable for this user (SQLite writes a -wal file beside the database)"
    }
    return nil
  }

  package var description: String {
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
    let said = message.map { cause == nil ? $0 : "SQLite: \($0)" }
    var text =
      "\(path): cannot \(action): " + [cause, said].compactMap { $0 }.joined(separator: " (")
      + (cause != nil && said != nil ? ")" : "")
    if cause == nil && message == nil { text += "unknown error" }
    if nothingWritten { text += "; nothing was written to it" }
    if let attempts { text += " (still busy after \(attempts) attempts)" }
    if let sql { text += " (SQL: \(sql)" + (arguments.map { "; arguments \($0)" } ?? "") + ")" }
    return text
  }
}
