import EnergyLabCore

/// What a run used: inputs with their digests, parameters, commands and
/// diagnostics. Reports end with it; the store records it.
package struct Provenance: Sendable, Hashable {
  package var commands: [String] = []
  package private(set) var inputs: [InputFingerprint] = []
  /// The inputs as a set, so recording each of many thousand files is not
  /// a search of all before it.
  private var inputSet: Set<InputFingerprint> = []
  package var parameters: [NamedParameter] = []
  package var diagnostics: [Diagnostic] = []
  package var skipped: [String] = []

  package init() {}

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
package final class ProvenanceRecorder {
  package internal(set) var provenance = Provenance()

  package init() {}
}
