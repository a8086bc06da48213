/// Where in an input a problem was found: a file and, when known, a line
/// and column (both 1-based).
public struct SourceLocation: Sendable, Hashable, CustomStringConvertible {
  public var file: String
  public var line: Int?
  public var column: Int?

  public init(file: String, line: Int? = nil, column: Int? = nil) {
    self.file = file
    self.line = line
    self.column = column
  }

  /// `file`, `file:line` or `file:line:column`.
  public var description: String {
    var text = file
    if let line {
      text += ":\(line)"
      if let column { text += ":\(column)" }
    }
    return text
  }
}

/// An input that cannot be read: it names where, what is wrong and what was
/// expected, as in `walk-03.gpx:118:7: unclosed <trkpt>; expected </trkpt>`.
public struct InputError: Error, Sendable, Hashable, CustomStringConvertible {
  public var location: SourceLocation
  public var problem: String
  public var expected: String

  public init(_ location: SourceLocation, _ problem: String, expected: String) {
    self.location = location
    self.problem = problem
    self.expected = expected
  }

  public var description: String { "\(location): \(problem); expected \(expected)" }
}

/// A command used wrongly (unknown model, malformed option value); the
/// command line maps it to exit code 64.
public struct UsageError: Error, Sendable, Hashable, CustomStringConvertible {
  public var message: String
  public init(_ message: String) { self.message = message }
  public var description: String { message }
}

/// A failure at run time that is neither bad input nor bad usage (a file
/// that cannot be written, a database that cannot be opened).
public struct RuntimeError: Error, Sendable, Hashable, CustomStringConvertible {
  public var message: String
  public init(_ message: String) { self.message = message }
  public var description: String { message }
}
