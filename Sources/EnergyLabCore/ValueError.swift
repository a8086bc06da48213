/// A value given to the library that cannot be used: text that does not
/// read as the quantity, a name that is not known, a number outside what is
/// accepted, a key that matches no item or several. It keeps the value and
/// what was expected; the command line reports it as a usage error (exit
/// 64), naming the option where the value came from one.
public struct ValueError: ReportedError, Sendable, Hashable {
  public enum Kind: Sendable, Hashable {
    /// Text that does not read as the subject (`a speed`, `a duration`).
    case unreadable
    /// A name not among `known`; the nearest is suggested.
    case unknown(known: [String])
    /// A value outside what is accepted.
    case outOfRange
    /// A key that matches none of the subjects (0) or several.
    case matches(Int)
  }

  public var kind: Kind
  /// What the value was meant to be: `a speed`, `model`, `SUS items`.
  public var subject: String
  /// The value as given.
  public var value: String
  /// What would have been accepted.
  public var expected: String
  public var remedy: Remedy?

  public init(_ kind: Kind, _ subject: String, value: String, expected: String, remedy: Remedy? = nil) {
    self.kind = kind
    self.subject = subject
    self.value = value
    self.expected = expected
    self.remedy = remedy
  }

  public var description: String {
    let text: String
    switch kind {
    case .unreadable:
      text = "cannot read \"\(value)\" as \(subject); expected \(expected)"
    case .unknown(let known):
      text =
        "unknown \(subject) \"\(value)\"\(NameSuggestion.hint(for: value, among: known)); expected \(expected)"
    case .outOfRange:
      text = "\(subject) must be \(expected); got \(value)"
    case .matches(0):
      text = "no \(subject) matches \"\(value)\"; expected \(expected)"
    case .matches(let n):
      text = "\"\(value)\" matches \(n) \(subject)s; expected \(expected)"
    }
    return remedy.map { $0.fill(text) { " (use \($0))" } } ?? text
  }

  /// A name not among `known`, expecting one of them (`one of a, b`, or
  /// `one of FILE: a, b` when the names come from a file).
  public static func unknown(
    _ subject: String, _ value: String, among known: [String], in source: String? = nil, remedy: Remedy? = nil
  ) -> ValueError {
    ValueError(
      .unknown(known: known), subject, value: value,
      expected: "one of \(source.map { "\($0): " } ?? "")\(known.joined(separator: ", "))", remedy: remedy)
  }

  /// A parameter's check: unless `holds`, an out-of-range error naming the
  /// parameter as a run reports it (`grade_window_m`), its value and what
  /// is accepted; where the value came from is the caller's to say.
  public static func require(_ holds: Bool, _ name: String, _ value: Double, expected: String) throws {
    guard holds else { throw ValueError(.outOfRange, name, value: Fixed.shortest(value), expected: expected) }
  }
}
