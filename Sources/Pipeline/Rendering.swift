import EnergyLabCore
import Reporting

/// What a command's printed content depends on: the format used where the
/// command is not given `--format` and the folder a notebook's charts go
/// to. Nothing else of where the output lands reaches a render function.
package struct RenderRequest: Sendable, Hashable {
  /// The format used when a command is not given `--format` (`table` on
  /// the command line, `markdown` in a notebook).
  package var defaultFormat: OutputFormat
  /// A notebook's figures folder; nil means charts are not drawn unless a
  /// command is given a folder of its own.
  package var figuresDirectory: String?

  package init(defaultFormat: OutputFormat = .table, figuresDirectory: String? = nil) {
    self.defaultFormat = defaultFormat
    self.figuresDirectory = figuresDirectory
  }
}

/// A command's output as a value: tables, prose, charts to draw, and notes
/// for the user, in order. A `Printer` turns it into the chosen format;
/// building one prints nothing and writes no file.
package struct Rendering: Sendable {
  /// One piece of output.
  package enum Block: Sendable, Hashable {
    /// A table in `format` (nil: the default format).
    case table(ResultTable, format: OutputFormat?)
    /// Text for the reader (standard error when the output is CSV or
    /// JSON, so standard output holds only the data).
    case prose(String)
    /// A chart to draw into `folder` (nil: the figures folder, if any),
    /// linked from Markdown output.
    case chart(GnuplotChart, folder: String?, format: OutputFormat?)
    /// A note for the user: standard error on the command line, the
    /// report's skipped list in a notebook.
    case warning(String)
    /// A diagnostic for the user: standard error on the command line, the
    /// report's diagnostics in a notebook.
    case diagnostic(Diagnostic)
    /// The diagnostics of what a command read: kept with the run's
    /// provenance and, on the command line, printed on standard error,
    /// unless the output lists them in full itself (`listedInOutput`, a
    /// `diagnostics` column not narrowed away). See `Printer.record`.
    case runDiagnostics([Diagnostic], listedInOutput: Bool)
  }

  /// What the content was built for.
  package var request: RenderRequest
  package private(set) var blocks: [Block] = []

  package init(_ request: RenderRequest = RenderRequest(), blocks: [Block] = []) {
    self.request = request
    self.blocks = blocks
  }

  /// The format of output not given `--format`.
  package var defaultFormat: OutputFormat { request.defaultFormat }
  /// The notebook's figures folder, if any.
  package var figuresDirectory: String? { request.figuresDirectory }

  /// Adds a table in `format` (nil: the default).
  package mutating func emit(_ table: ResultTable, format: OutputFormat?) {
    blocks.append(.table(table, format: format))
  }

  /// Adds prose.
  package mutating func write(_ text: String) { blocks.append(.prose(text)) }

  /// Adds a chart to draw into `folder` (or the figures folder).
  package mutating func draw(_ chart: GnuplotChart, folder: String?, format: OutputFormat?) {
    blocks.append(.chart(chart, folder: folder, format: format))
  }

  /// Adds a note for the user.
  package mutating func warn(_ text: String) { blocks.append(.warning(text)) }

  /// Adds a diagnostic for the user.
  package mutating func report(_ diagnostic: Diagnostic) { blocks.append(.diagnostic(diagnostic)) }

  /// Adds the diagnostics of what a command read (see `Block.runDiagnostics`).
  package mutating func record(_ diagnostics: [Diagnostic], listedInOutput: Bool) {
    blocks.append(.runDiagnostics(diagnostics, listedInOutput: listedInOutput))
  }

  /// Adds the blocks of `other`, after these.
  package mutating func append(_ other: Rendering) { blocks += other.blocks }
}
