/// Where in an input a problem was found: a file and, when known, a line
/// and column (both 1-based), or for a binary file the byte offset (from 0).
public struct SourceLocation: Sendable, Hashable, CustomStringConvertible {
  public var file: String
  public var line: Int?
  public var column: Int?
  /// Offset from the start of a binary file (FIT), bytes.
  public var byteOffset: Int?

  public init(file: String, line: Int? = nil, column: Int? = nil) {
    self.file = file
    self.line = line
    self.column = column
  }

  public init(file: String, byteOffset: Int) {
    self.file = file
    self.byteOffset = byteOffset
  }

  /// `file`, `file:line`, `file:line:column` or `file at byte N`.
  public var description: String {
    var text = file
    if let line {
      text += ":\(line)"
      if let column { text += ":\(column)" }
    } else if let byteOffset {
      text += " at byte \(byteOffset)"
    }
    return text
  }
}

/// An error whose one-line description is what its user needs (where, what
/// and what was expected), as opposed to a failure of the program itself;
/// a notebook reports it under the line of the command that raised it.
public protocol ReportedError: Error, CustomStringConvertible {}

/// An input that cannot be read: it names where, what is wrong and what was
/// expected, as in `walk-03.gpx:118:7: unclosed <trkpt>; expected </trkpt>`.
public struct InputError: ReportedError, Sendable, Hashable {
  /// What is wrong with the input, for callers that treat the cases apart
  /// (skip a missing file, stop on a broken one).
  public enum Kind: String, Sendable, Hashable, CaseIterable {
    /// The file cannot be opened or read: missing, a folder, no permission.
    case unreadable
    /// Not text in a supported encoding, or a broken or short gzip stream.
    case encoding
    /// Readable, but holds no data: an empty file, a header without rows.
    case empty
    /// Not laid out as expected: header, columns, fields, syntax.
    case malformed
    /// A value that cannot be read as its quantity or is out of range.
    case value
  }

  public var kind: Kind
  public var location: SourceLocation
  public var problem: String
  public var expected: String
  /// A setting that would let the input be read, offered after what was
  /// expected: `expected a time column, or --sample-rate and --start`.
  public var remedy: Remedy?

  public init(
    _ kind: Kind, _ location: SourceLocation, _ problem: String, expected: String, remedy: Remedy? = nil
  ) {
    self.kind = kind
    self.location = location
    self.problem = problem
    self.expected = expected
    self.remedy = remedy
  }

  public var description: String {
    "\(location): \(problem); expected " + (remedy.map { $0.fill(expected) { ", or \($0)" } } ?? expected)
  }
}

/// A command used wrongly (something it needs missing, two settings in
/// conflict, a request the input cannot support); the command line maps it
/// to exit code 64, as it does a `ValueError`.
public struct UsageError: ReportedError, Sendable, Hashable {
  public enum Kind: String, Sendable, Hashable, CaseIterable {
    /// Something the command needs was not given (models, a body mass).
    case missing
    /// Two things given that cannot go together.
    case conflict
    /// A setting outside what the command accepts (an empty sweep).
    case outOfRange
    /// The input cannot support what was asked (SUS from counts only, a
    /// crosstab of a multi-select question).
    case unsupported
    /// Arguments that do not parse.
    case invalid
  }

  public var kind: Kind
  /// The message; it may hold `Remedy.slot`, so print `description`.
  public var message: String
  /// The setting that is missing or would resolve it: `(use --factors)`.
  public var remedy: Remedy?
  public init(_ kind: Kind, _ message: String, remedy: Remedy? = nil) {
    self.kind = kind
    self.message = message
    self.remedy = remedy
  }
  public var description: String { remedy.map { $0.fill(message) { " (use \($0))" } } ?? message }
}

/// A failure at run time that is neither bad input nor bad usage (a file
/// that cannot be written, a database that cannot be opened).
public struct RuntimeError: ReportedError, Sendable, Hashable {
  public var message: String
  public init(_ message: String) { self.message = message }
  public var description: String { message }
}
