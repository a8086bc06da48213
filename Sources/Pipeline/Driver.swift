import EnergyLabCore
import Foundation
import Reporting
import Store

/// What a command computed, carrying its own provenance: the files it
/// read (and only those), the parameters that change it (every subject
/// value, subject id and option) and what was noticed on the way (files
/// skipped, diagnostics). A command builds it without a driver and prints
/// nothing while it computes; `Driver.finish` takes it through
/// fingerprint, store and render, the same on the command line, in a
/// notebook and in `batch`.
package protocol CommandOutcome {
  /// The files read, as given (the driver fingerprints them).
  var inputs: [String] { get }
  var parameters: [NamedParameter] { get }
  var diagnostics: [Diagnostic] { get }
  /// Notes on what the command skipped (an unreadable file among several,
  /// `energylab: FILE: why (skipped)`), in the order met; printed first.
  var skipped: [String] { get }
  /// Whether the printed output lists the diagnostics itself (a
  /// `diagnostics` column), so the command line need not repeat them.
  var diagnosticsListedInOutput: Bool { get }
  /// The run to store, built from the typed value; nil for a command
  /// that stores nothing.
  func runRecord(inputs: [InputFingerprint], recordedAt: String?) -> RunRecord?
  /// The tables, prose and charts to print for `request`; builds a value,
  /// prints nothing (the driver's `Printer` does).
  func render(_ request: RenderRequest) throws -> Rendering
}

extension CommandOutcome {
  package var skipped: [String] { [] }
  package var diagnosticsListedInOutput: Bool { false }
  package func runRecord(inputs: [InputFingerprint], recordedAt: String?) -> RunRecord? { nil }

  /// What was noticed on the way, as printed before the content: a
  /// warning per file skipped, then the diagnostics (see
  /// `Rendering.Block.runDiagnostics`).
  package func noticed(for request: RenderRequest) -> Rendering {
    var out = Rendering(request, blocks: skipped.map { .warning($0) })
    out.record(diagnostics, listedInOutput: diagnosticsListedInOutput)
    return out
  }

  /// Everything printed for this outcome, in order: what was noticed,
  /// then what `render(request)` builds.
  package func rendering(for request: RenderRequest) throws -> Rendering {
    var out = noticed(for: request)
    out.append(try render(request))
    return out
  }
}

/// What a command noticed before it failed: the diagnostics its error
/// points at ("see its warnings"), taken through `Driver.finish` so they
/// are printed (or kept in a notebook's report) before the error. Stores
/// nothing and prints no table.
package struct NoticedBeforeFailure: CommandOutcome {
  package var inputs: [String] { [] }
  package var parameters: [NamedParameter] { [] }
  package var diagnostics: [Diagnostic]

  package init(diagnostics: [Diagnostic]) { self.diagnostics = diagnostics }

  package func render(_ request: RenderRequest) throws -> Rendering { Rendering(request) }
}

/// Fingerprint, store, render: the one path from a command's value to the
/// database and the screen. A driver serves one command line or one
/// notebook: it fingerprints inputs (checked against the context's write
/// policy), records what the commands used, and prints their renderings.
package final class Driver {
  /// The printer of every command run here (its context is the sink).
  package let printer: Printer
  /// Results database for commands that store their runs.
  package var databasePath: String?
  /// No wall-clock times, stable ordering, fixed number formatting.
  package var reproducible: Bool
  /// Whether inputs are hashed as they are read. Reports and notebooks need
  /// it; a terminal command hashes only what it stores (see `hashed`).
  package var fingerprintsInputs = true

  package init(printer: Printer, databasePath: String? = nil, reproducible: Bool = false) {
    self.printer = printer
    self.databasePath = databasePath
    self.reproducible = reproducible
  }

  /// Where the output lands.
  package var context: CommandContext { printer.context }
  /// What the commands run here used, for the report (a notebook's lists
  /// every command's).
  package var recorder: ProvenanceRecorder { printer.recorder }

  /// A driver that collects its output in memory (tests).
  package static func buffered(defaultFormat: OutputFormat = .table) -> (Driver, OutputBuffer) {
    let buffer = OutputBuffer()
    let context = CommandContext(sink: { buffer.text += $0 })
    return (Driver(printer: Printer(context: context, defaultFormat: defaultFormat)), buffer)
  }

  /// Prints a rendering built outside an outcome.
  package func print(_ rendering: Rendering) throws { try printer.print(rendering) }

  /// An empty rendering for this driver's printer.
  package func rendering() -> Rendering { Rendering(printer.request) }

  /// Records an input (with its sha256 when `fingerprintsInputs`). In a
  /// notebook, an input its policy does not let it read (one reached
  /// through a link, say) fails the command before anything of it is
  /// stored or printed.
  package func recordInput(_ path: String) throws -> InputFingerprint {
    if let writePolicy = context.writePolicy, FileManager.default.fileExists(atPath: path) {
      try writePolicy.checkReading(path)
    }
    let fingerprint: InputFingerprint
    if fingerprintsInputs || path == StandardInput.name {
      fingerprint = try InputFingerprint.of(path: path)
    } else {
      fingerprint = InputFingerprint(path: path, sizeBytes: FileStatus.size(path), sha256: "")
    }
    recorder.provenance.addInput(fingerprint)
    return fingerprint
  }

  /// The inputs as a run stores them: every sha256 computed and each path
  /// canonical (resolved, relative to the working directory when inside
  /// it), so `walk.gpx`, `./walk.gpx` and its absolute path are one input.
  package static func hashed(_ inputs: [InputFingerprint]) throws -> [InputFingerprint] {
    try inputs.map { input in
      var out = input.sha256.isEmpty ? try InputFingerprint.of(path: input.path) : input
      out.path = input.path == StandardInput.name ? input.path : CanonicalPath.of(input.path)
      return out
    }
  }

  /// The current time as ISO-8601 UTC, or nil in reproducible mode.
  package var timestamp: String? {
    reproducible ? nil : ISO8601.formatUTC(Date().timeIntervalSince1970)
  }

  /// Stores the outcome's run in `database` (or the driver's database)
  /// before anything is printed, so a failed output loses no run; adds the
  /// outcome's inputs and parameters to the report's provenance (a
  /// notebook's report lists every command's); then prints its rendering
  /// (`rendering(for:)`: files skipped, diagnostics, its own content).
  /// The run is built from the outcome alone: the same command stores the
  /// same run key typed alone, in a notebook after other commands, or
  /// run by `batch`. Returns the run stored, if any.
  @discardableResult
  package func finish(_ outcome: some CommandOutcome, database: String?) throws -> RunRecord? {
    var stored: RunRecord?
    do {
      let fingerprints = try outcome.inputs.map { try recordInput($0) }
      if let path = database ?? databasePath {
        // The store is opened only for an outcome that stores a run.
        stored = try Self.store(
          outcome, fingerprints: try Self.hashed(fingerprints), recordedAt: timestamp,
          record: { _ = try ResultsStore(path: path).record($0) })
      }
    } catch {
      // The files skipped are still said before the error that stops
      // the command.
      try? printer.print(Rendering(printer.request, blocks: outcome.skipped.map { .warning($0) }))
      throw error
    }
    recorder.provenance.addParameters(outcome.parameters)
    let rendering: Rendering
    do {
      rendering = try outcome.rendering(for: printer.request)
    } catch {
      // What was noticed is said before the error that stops the command.
      try? printer.print(outcome.noticed(for: printer.request))
      throw error
    }
    try printer.print(rendering)
    return stored
  }

  /// Fingerprints the outcome's inputs (each by content and stored name),
  /// builds its run and hands it to `record` (a results store's `record`,
  /// or any sink); returns the run, nil for an outcome that stores none.
  /// Needs no driver and holds no state, so `batch`'s workers call it at
  /// once, each with its own file's outcome, into one shared store.
  @discardableResult
  package static func store(
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
package struct OptionSources: Sendable, Hashable {
  package var files: [String] = []
  package var parameters: [NamedParameter] = []
  package init(files: [String] = [], parameters: [NamedParameter] = []) {
    self.files = files
    self.parameters = parameters
  }

  package static func + (a: OptionSources, b: OptionSources) -> OptionSources {
    OptionSources(
      files: a.files + b.files.filter { !a.files.contains($0) },
      parameters: a.parameters + b.parameters.filter { !a.parameters.contains($0) })
  }
}
