import GRDB

/// A results database that could not be read or written, with SQLite's
/// evidence: the result code, its message, and the statement and arguments
/// that failed (GRDB's, kept rather than flattened into text).
public struct StoreError: Error, Sendable, CustomStringConvertible {
  public enum Kind: String, Sendable {
    /// The file is not an SQLite database.
    case notADatabase = "not-a-database"
    /// Still busy (locked by other writers) after every attempt.
    case busy
    /// Any other failure to read.
    case cannotRead = "cannot-read"
    /// Any other failure to write.
    case cannotWrite = "cannot-write"
  }

  public var kind: Kind
  public var path: String
  /// What was being done ("store the run", "read results database").
  public var action: String
  public var resultCode: Int32
  public var message: String
  public var sql: String?
  public var arguments: String?
  /// Attempts made when the database stayed busy.
  public var attempts: Int?

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
    if kind == .notADatabase {
      return "\(path): not an SQLite database; expected an EnergyLab results database"
    }
    var text = "\(path): cannot \(action): \(message)"
    if let attempts { text += " (still busy after \(attempts) attempts)" }
    if let sql { text += " (SQL: \(sql)" + (arguments.map { "; arguments \($0)" } ?? "") + ")" }
    return text
  }
}
