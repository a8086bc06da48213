import EnergyLabCore
import Foundation
import Reporting

/// Turns a command's `Rendering` into the chosen format on a context's
/// sink: one JSON document per command, one CSV table (a note for the
/// others), `--columns` picked and a terminal table narrowed, Markdown
/// tables kept apart by a blank line, control characters cleaned; draws
/// the charts (unique file stems per folder, nothing drawn twice) and
/// keeps every table printed for a notebook's `data/`.
package final class Printer {
  package let context: CommandContext
  /// Where notes and diagnostics go when the context has no warning sink
  /// (a notebook's report).
  package let recorder: ProvenanceRecorder
  /// The format used when a command is not given `--format`.
  package var defaultFormat: OutputFormat
  /// Folder for charts; nil means charts are not drawn unless a command is
  /// given a folder of its own.
  package var figuresDirectory: String?
  /// How Markdown output links to the figures folder (`figures/`).
  package var figuresLink: String
  /// In a notebook: the report folder being built and the one it will
  /// replace when every command has succeeded.
  package var reportFolders: ReportFolders?
  /// Columns to print (`--columns`), nil for all.
  package var columns: [String]?
  /// The terminal's width for `table` output; nil prints every column.
  package var terminalWidth: Int?
  /// Every table emitted, for `data/` CSV files.
  package private(set) var emittedTables: [ResultTable] = []

  package init(
    context: CommandContext, recorder: ProvenanceRecorder = ProvenanceRecorder(),
    defaultFormat: OutputFormat = .table, figuresDirectory: String? = nil, figuresLink: String = ""
  ) {
    self.context = context
    self.recorder = recorder
    self.defaultFormat = defaultFormat
    self.figuresDirectory = figuresDirectory
    self.figuresLink = figuresLink
  }

  /// What a command's content may depend on.
  package var request: RenderRequest {
    RenderRequest(defaultFormat: defaultFormat, figuresDirectory: figuresDirectory)
  }

  /// Prints every block of `rendering`, in order.
  package func print(_ rendering: Rendering) throws {
    for block in rendering.blocks {
      switch block {
      case .table(let table, let format): emit(table, format: format)
      case .prose(let text): write(text)
      case .chart(let chart, let folder, let format): try draw(chart, folder: folder, format: format)
      case .warning(let text): warn(text)
      case .diagnostic(let diagnostic): report(diagnostic)
      case .runDiagnostics(let diagnostics, let listed): record(diagnostics, listedInOutput: listed)
      }
    }
  }

  /// Prose; with `--format csv` or `json` it goes to standard error, so
  /// standard output holds only the data.
  package func write(_ text: String) {
    if let commandFormat, commandFormat == .csv || commandFormat == .json,
      let warningSink = context.warningSink
    {
      let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
      if !trimmed.isEmpty { warningSink(trimmed) }
      return
    }
    out(text)
  }

  /// A diagnostic the user should see: on standard error from the command
  /// line, among the report's diagnostics in a notebook.
  package func report(_ diagnostic: Diagnostic) {
    if let warningSink = context.warningSink {
      warningSink("energylab: \(diagnostic)")
    } else {
      recorder.provenance.diagnostics.append(diagnostic)
    }
  }

  /// The diagnostics of the inputs a command read: kept with the run's
  /// provenance (reports, the store) and, from the command line, printed on
  /// standard error, unless the output lists them itself (the summaries'
  /// `diagnostics` column) in full: a table narrowed to a terminal's width
  /// may leave that column out.
  package func record(_ diagnostics: [Diagnostic], listedInOutput: Bool = false) {
    recorder.provenance.diagnostics += diagnostics
    // A table narrowed to the terminal, or columns chosen without them,
    // leave the diagnostics out.
    let narrowed = (commandFormat ?? defaultFormat) == .table && terminalWidth != nil && columns == nil
    let chosenOut = columns.map { !$0.contains("diagnostics") } ?? false
    guard !listedInOutput || narrowed || chosenOut, let warningSink = context.warningSink else { return }
    for diagnostic in diagnostics { warningSink("energylab: \(diagnostic)") }
  }

  /// A note for the user: standard error on the command line, the report's
  /// skipped list in a notebook.
  package func warn(_ text: String) {
    if let warningSink = context.warningSink {
      warningSink(text)
    } else {
      recorder.provenance.skipped.append(text)
    }
  }

  /// The `--format` of the command running, when it has one: in CSV and
  /// JSON its prose goes to standard error, CSV prints one table, and JSON
  /// one document (see `beginCommand`, `endCommand`).
  package private(set) var commandFormat: OutputFormat?
  private var pendingJSON: [ResultTable] = []
  private var csvTablePrinted = false

  package func beginCommand(format: OutputFormat?) {
    commandFormat = format
    pendingJSON = []
    csvTablePrinted = false
    lastOutput = ""
    columnsSeen = []
  }

  /// Prints the command's JSON as one document: its table, or an object of
  /// its tables by name when it has several.
  package func endCommand() {
    defer {
      pendingJSON = []
      commandFormat = nil
      columnsSeen = []
    }
    warnOfUnknownColumns()
    guard !pendingJSON.isEmpty else { return }
    if pendingJSON.count == 1 {
      context.sink(ResultRenderer.render(pendingJSON[0], as: .json))
      return
    }
    var document = ResultRecord()
    for table in pendingJSON {
      document[table.name] =
        table.isSingleObject && table.rows.count == 1
        ? .record(table.rows[0]) : .array(table.rows.map { .record($0) })
    }
    context.sink(JSONText.encode(.record(document)) + "\n")
  }

  /// The tables (with rows) the command has printed so far, with their
  /// columns, for the warning about `--columns` names none of them has.
  private var columnsSeen: [(table: String, columns: [String])] = []

  /// Warns once per command of the `--columns` names in none of the
  /// tables it printed (a command of several tables, such as `accel days`,
  /// has each name in one of them).
  private func warnOfUnknownColumns() {
    guard let columns, !columnsSeen.isEmpty else { return }
    let known = Set(columnsSeen.flatMap(\.columns))
    let unknown = columns.filter { !known.contains($0) }
    guard !unknown.isEmpty else { return }
    let names = columnsSeen.map(\.table).joined(separator: " or ")
    let have = columnsSeen.count == 1 ? "it has" : "they have"
    var listed: [String] = []
    for t in columnsSeen { listed += t.columns.filter { !listed.contains($0) } }
    warn(
      "energylab: warning: no column \(unknown.joined(separator: ", ")) in \(names); \(have) \(listed.joined(separator: ", "))"
    )
  }

  /// Prints a table in `format` (or the default), with the chosen columns
  /// (a table that has none of them is printed whole, since they name
  /// another table of the command), and keeps it whole for `data/`.
  package func emit(_ table: ResultTable, format: OutputFormat?) {
    emittedTables.append(table)
    var shown = table
    if let columns {
      let tableColumns = table.columns
      if !table.rows.isEmpty { columnsSeen.append((table.name, tableColumns)) }
      if columns.contains(where: tableColumns.contains) || table.rows.isEmpty {
        shown = table.selecting(columns)
      }
    }
    let chosen = columns != nil
    let effective = format ?? defaultFormat
    if commandFormat != nil && effective == .json {
      pendingJSON.append(shown)
      return
    }
    if commandFormat != nil && effective == .csv {
      guard !csvTablePrinted else {
        warn(
          "energylab: note: table \(table.name) not printed: CSV output holds one table (\(Remedy(.outputFormat, value: "json").text) prints all of them)"
        )
        return
      }
      csvTablePrinted = true
    }
    let rendered = ResultRenderer.render(shown, as: effective, width: chosen ? nil : terminalWidth)
    // A Markdown table right after other output would continue it: a
    // blank line keeps each table its own.
    if effective == .markdown && !lastOutput.isEmpty && !lastOutput.hasSuffix("\n\n") {
      out(lastOutput.hasSuffix("\n") ? "\n" : "\n\n")
    }
    out(rendered)
  }

  /// The end of what was last printed (to keep Markdown tables apart).
  private var lastOutput = ""

  private func out(_ text: String) {
    guard !text.isEmpty else { return }
    // Control characters from data (ESC, BEL) never reach a terminal or a
    // report; JSON has escaped its own already.
    context.sink(PrintableText.cleanLines(text))
    lastOutput = String((lastOutput + text).suffix(2))
  }

  /// Chart file stems already written, per folder: a second chart with the
  /// same name (two `day1.gpx` of different participants) gets `-2`, so no
  /// chart overwrites another's files.
  private var chartStems: [String: Set<String>] = [:]
  /// What each folder's charts draw (without name and title), by stem.
  private var drawnCharts: [String: [GnuplotChart: String]] = [:]

  /// Draws a chart into `folder` (or the figures folder); in Markdown
  /// output, links the image and its script and data.
  package func draw(_ chart: GnuplotChart, folder requested: String?, format: OutputFormat?) throws {
    var folder = requested
    var copyTo: String?
    if let requested, let reportFolders, let figuresDirectory {
      // In a notebook the report shows what it links: the chart goes into
      // the report's figures folder, and the command's own folder gets a
      // copy. A folder inside the report this run replaces is taken to be
      // inside the new one (written there, it would go with the old).
      let mapped = reportFolders.redirected(requested)
      if WritePolicy.canonical(mapped) != WritePolicy.canonical(figuresDirectory) { copyTo = mapped }
      folder = nil
    }
    guard let target = folder ?? figuresDirectory else { return }
    // A chart that would draw one value, or the same value everywhere, or
    // what an earlier chart of this folder already drew, is not drawn;
    // the report (or the command line) says why.
    let markdown = (format ?? defaultFormat) == .markdown
    func notDrawn(_ why: String) {
      if markdown {
        write(
          "\n*Chart \"\(Markdown.escapeInline(chart.title))\" not drawn: \(Markdown.escapeInline(why)).*\n")
      } else {
        warn("energylab: note: chart \"\(chart.title)\" not drawn: \(why)")
      }
    }
    if let why = chart.notWorthDrawing {
      notDrawn(why)
      return
    }
    if let earlier = drawnCharts[target, default: [:]][chart.drawnContent] {
      notDrawn("it would draw exactly what \(earlier).png above draws")
      return
    }
    let base = GnuplotChart.safeFileStem(chart.name)
    var stem = base
    var k = 1
    while chartStems[target, default: []].contains(stem) {
      k += 1
      stem = "\(base)-\(k)"
    }
    chartStems[target, default: []].insert(stem)
    drawnCharts[target, default: [:]][chart.drawnContent] = stem
    let rendered = try GnuplotRenderer.render(chart, into: target, stem: stem)
    if let reason = rendered.skippedReason {
      // A chart gnuplot could not draw fails a notebook command and warns
      // on the command line; a missing gnuplot is a note in the report.
      if rendered.failed && context.warningSink == nil { throw OutputError(.chart, stem, reason: reason) }
      if rendered.failed { warn("energylab: warning: \(reason)") }
      recorder.provenance.skipped.append(reason)
    } else if folder != nil, let warningSink = context.warningSink {
      // --charts on the command line: say what was written where.
      warningSink(
        "energylab: wrote \((target as NSString).appendingPathComponent(stem)).png (and .svg, .gp, .dat)")
    }
    if let copyTo {
      try Self.copy(rendered.files, from: target, to: copyTo)
    }
    if (format ?? defaultFormat) == .markdown {
      let link = folder == nil ? figuresLink : ""
      if rendered.skippedReason == nil {
        write("\n![\(Markdown.escapeInline(chart.title))](\(link)\(stem).png)\n")
      }
      write(
        "\n*Chart: [\(stem).gp](\(link)\(stem).gp) (gnuplot script), [\(stem).dat](\(link)\(stem).dat) (data).*\n"
      )
    }
  }

  /// The report folder a notebook builds, and the one it replaces.
  package struct ReportFolders: Sendable, Hashable {
    /// The temporary folder the report is built in.
    package var building: String
    /// Where the report is moved when complete (`Reports/NAME`).
    package var final: String

    package init(building: String, final: String) {
      self.building = building
      self.final = final
    }

    /// `path` with a place inside the final report folder moved to the
    /// same place in the one being built; any other path as it is.
    package func redirected(_ path: String) -> String {
      let target = WritePolicy.canonical(path)
      let old = WritePolicy.canonical(final)
      guard target == old || target.hasPrefix(old + "/") else { return path }
      return building + target.dropFirst(old.count)
    }
  }

  /// Copies a chart's `files` from `folder` into `destination`, replacing
  /// files of the same names.
  static func copy(_ files: [String], from folder: String, to destination: String) throws {
    let fm = FileManager.default
    do {
      try fm.createDirectory(atPath: destination, withIntermediateDirectories: true)
      for file in files {
        let data = try Data(
          contentsOf: URL(fileURLWithPath: (folder as NSString).appendingPathComponent(file)))
        try AtomicFile.write(data, to: (destination as NSString).appendingPathComponent(file))
      }
    } catch let error as OutputError {
      throw error
    } catch {
      throw RuntimeError(
        "\(destination): cannot copy the charts there (\((error as NSError).localizedDescription))")
    }
  }
}
