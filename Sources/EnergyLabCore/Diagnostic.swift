/// Something readable but imperfect about an input or a result (missing
/// elevation, a time gap, a value outside a model's valid range). It is
/// attached to the result and listed in reports; it never stops a run.
public struct Diagnostic: Sendable, Hashable, CustomStringConvertible, Codable {
  public enum Severity: String, Sendable, Hashable, Codable {
    case note
    case warning
  }

  /// A stable kebab-case identifier, such as `speed-outside-valid-range`.
  public var code: String
  public var severity: Severity
  /// The message; it may hold `Remedy.slot`, so print `text`.
  public var message: String
  /// Where it was seen, as `file` or `file:line`, when it concerns an input.
  public var location: String?
  /// The setting that would resolve it (a time zone, a unit), worded by the
  /// program after the message: `(use --tz)`.
  public var remedy: Remedy?

  public init(
    code: String, severity: Severity = .warning, message: String, location: String? = nil,
    remedy: Remedy? = nil
  ) {
    self.code = code
    self.severity = severity
    self.message = message
    self.location = location
    self.remedy = remedy
  }

  /// The message with its remedy worded: `read as UTC (use --tz)`.
  public var text: String { remedy.map { $0.fill(message) { " (use \($0))" } } ?? message }

  public var description: String {
    if let location { return "\(location): \(severity.rawValue): \(text) [\(code)]" }
    return "\(severity.rawValue): \(text) [\(code)]"
  }
}
