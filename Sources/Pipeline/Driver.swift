import EnergyLabCore
import Foundation
import Reporting
import Store

/// What a command computed, carrying its own provenance: the files it
/// read (and only those), the parameters that change it (every subject
/// value, subject id and option) and what was noticed on the way. A
/// command builds it without a context; `Driver.finish` takes it through
/// fingerprint, store and render, the same on the command line, in a
/// notebook and in `batch`.
public protocol CommandOutcome {
  /// The files read, as given (the driver fingerprints them).
  var inputs: [String] { get }
  var parameters: [NamedParameter] { get }
  var diagnostics: [Diagnostic] { get }
  /// Whether the printed output lists the diagnostics itself (a
  /// `diagnostics` column), so the command line need not repeat them.
  var diagnosticsListedInOutput: Bool { get }
  /// The run to store, built from the typed value; nil for a command
  /// that stores nothing.
  func runRecord(inputs: [InputFingerprint], recordedAt: String?) -> RunRecord?
  /// Prints the tables and prose, and draws the charts.
  func render(into context: CommandContext) throws
}

extension CommandOutcome {
  public var diagnosticsListedInOutput: Bool { false }
  public func runRecord(inputs: [InputFingerprint], recordedAt: String?) -> RunRecord? { nil }
}

/// Fingerprint, store, render: the one path from a command's value to the
/// database and the screen.
public enum Driver {
  /// Stores the outcome's run in `database` (or the context's database)
  /// before anything is printed, so a failed output loses no run; adds the
  /// outcome's inputs, parameters and diagnostics to the context's report
  /// provenance (a notebook's report lists every command's); then renders.
  /// The run is built from the outcome alone: the same command stores the
  /// same run key typed alone, in a notebook after other commands, or
  /// run by `batch`. Returns the run stored, if any.
  @discardableResult
  public static func finish(_ outcome: some CommandOutcome, context: CommandContext, database: String?)
    throws -> RunRecord?
  {
    let fingerprints = try outcome.inputs.map { try context.recordInput($0) }
    var stored: RunRecord?
    if let path = database ?? context.databasePath {
      // The store is opened only for an outcome that stores a run.
      stored = try store(
        outcome, fingerprints: try context.hashed(fingerprints), recordedAt: context.timestamp,
        record: { _ = try ResultsStore(path: path).record($0) })
    }
    context.record(outcome.diagnostics, listedInOutput: outcome.diagnosticsListedInOutput)
    context.provenance.addParameters(outcome.parameters)
    try outcome.render(into: context)
    return stored
  }

  /// Fingerprints the outcome's inputs (each by content and stored name),
  /// builds its run and hands it to `record` (a results store's `record`,
  /// or any sink); returns the run, nil for an outcome that stores none.
  /// Needs no context and holds no state, so `batch`'s workers call it at
  /// once, each with its own file's outcome, into one shared store.
  @discardableResult
  public static func store(
    _ outcome: some CommandOutcome, recordedAt: String?, record: (RunRecord) throws -> Void
  ) throws -> RunRecord? {
    try store(
      outcome, fingerprints: try outcome.inputs.map { try InputFingerprint.stored(path: $0) },
      recordedAt: recordedAt, record: record)
  }

  private static func store(
    _ outcome: some CommandOutcome, fingerprints: [InputFingerprint], recordedAt: String?,
    record: (RunRecord) throws -> Void
  ) throws -> RunRecord? {
    guard let run = outcome.runRecord(inputs: fingerprints, recordedAt: recordedAt) else { return nil }
    try record(run)
    return run
  }
}

/// What the command line read to build a command's options, beyond the
/// command's own files: a subjects file (and the subject chosen from it),
/// a MET table (and the activity code looked up). Each file is an input of
/// the run, each choice a parameter.
public struct OptionSources: Sendable, Hashable {
  public var files: [String] = []
  public var parameters: [NamedParameter] = []
  public init(files: [String] = [], parameters: [NamedParameter] = []) {
    self.files = files
    self.parameters = parameters
  }

  public static func + (a: OptionSources, b: OptionSources) -> OptionSources {
    OptionSources(
      files: a.files + b.files.filter { !a.files.contains($0) },
      parameters: a.parameters + b.parameters.filter { !a.parameters.contains($0) })
  }
}

/// An outcome assembled from its parts, for the commands whose value is
/// printed by one function: what was read, the parameters, the
/// diagnostics, the run (when the command stores one) and the rendering.
public struct ComputedOutcome: CommandOutcome {
  public var inputs: [String]
  public var parameters: [NamedParameter]
  public var diagnostics: [Diagnostic]
  public var diagnosticsListedInOutput: Bool
  var run: (([InputFingerprint], String?) -> RunRecord?)?
  var draw: (CommandContext) throws -> Void

  public init(
    inputs: [String], parameters: [NamedParameter] = [], diagnostics: [Diagnostic] = [],
    diagnosticsListedInOutput: Bool = false,
    run: ((_ inputs: [InputFingerprint], _ recordedAt: String?) -> RunRecord?)? = nil,
    render: @escaping (CommandContext) throws -> Void
  ) {
    self.inputs = inputs
    self.parameters = parameters
    self.diagnostics = diagnostics
    self.diagnosticsListedInOutput = diagnosticsListedInOutput
    self.run = run
    self.draw = render
  }

  public func runRecord(inputs: [InputFingerprint], recordedAt: String?) -> RunRecord? {
    run?(inputs, recordedAt)
  }

  public func render(into context: CommandContext) throws { try draw(context) }
}
