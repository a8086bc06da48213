/// A parameter's name, value and meaning, as recorded with a run.
public struct NamedParameter: Sendable, Hashable {
  public var name: String
  public var value: String
  public var meaning: String
  public init(name: String, value: String, meaning: String) {
    self.name = name
    self.value = value
    self.meaning = meaning
  }
}
