import EnergyLabCore

/// What a run used: inputs with their digests, parameters, commands and
/// diagnostics. Reports end with it; the store records it.
public struct Provenance: Sendable, Hashable {
  public var commands: [String] = []
  public private(set) var inputs: [InputFingerprint] = []
  /// The inputs as a set, so recording each of many thousand files is not
  /// a search of all before it.
  private var inputSet: Set<InputFingerprint> = []
  public var parameters: [NamedParameter] = []
  public var diagnostics: [Diagnostic] = []
  public var skipped: [String] = []

  public init() {}

  mutating func addInput(_ input: InputFingerprint) {
    if inputSet.insert(input).inserted { inputs.append(input) }
  }

  mutating func addParameters(_ list: [NamedParameter]) {
    for p in list where !parameters.contains(p) { parameters.append(p) }
  }
}

/// The provenance of the commands run by one command line or one
/// notebook, shared by the `Driver` (inputs, parameters, diagnostics) and
/// the `Printer` (notes a report lists instead of printing). A command's
/// stored run never comes from here: `Driver.finish` builds it from the
/// command's own outcome.
public final class ProvenanceRecorder {
  public internal(set) var provenance = Provenance()

  public init() {}
}
