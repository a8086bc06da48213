import EnergyLabCore
import Foundation

/// Where a command's output lands and what it may touch: standard output
/// (or a report) as a sink, standard error for notes, progress, and, in a
/// notebook, the write policy. What is printed there is decided by a
/// `Printer` from the command's returned value (tables, prose, charts,
/// files skipped, diagnostics); what a run used is kept by a
/// `ProvenanceRecorder`. Commands write to the sinks only through that
/// value, with one exception: progress (`progressSink`, `progressLog`),
/// which reports the work while it runs, is no part of a result and is
/// not kept, so long work draws it directly.
package final class CommandContext {
  /// Where printed output goes.
  package let sink: (String) -> Void
  /// Where notes and diagnostics go: standard error on a terminal; nil in
  /// a notebook, whose report lists them.
  package var warningSink: ((String) -> Void)?
  /// Where progress bars are drawn: standard error when it is a terminal
  /// (set by the command line), nowhere otherwise or with `--quiet`.
  package var progressSink: (@Sendable (String) -> Void)?
  /// Where long work (`batch`) logs a progress line at intervals when
  /// standard error is not a terminal (a Slurm task's log); nowhere with
  /// `--quiet`.
  package var progressLog: (@Sendable (String) -> Void)?
  /// Where commands may write and read (a notebook's project, report
  /// folder and allowed paths); nil on the command line.
  package var writePolicy: WritePolicy?

  package init(sink: @escaping (String) -> Void, warningSink: ((String) -> Void)? = nil) {
    self.sink = sink
    self.warningSink = warningSink
  }
}

/// Text collected in memory (`Driver.buffered`).
package final class OutputBuffer {
  package var text = ""
}
