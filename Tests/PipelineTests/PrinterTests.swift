import EnergyLabCore
import EnergyModels
import Foundation
import Pipeline
import Reporting
import Testing

/// The printer on hand-built renderings: what a command's value becomes in
/// each format, written out here in full.
struct PrinterTests {
  /// A printer writing into `out`, notes into `notes` (as the command line
  /// does on standard error).
  final class Capture {
    var out = ""
    var notes: [String] = []
  }

  static func printer(defaultFormat: OutputFormat = .table) -> (Printer, Capture) {
    let capture = Capture()
    let context = CommandContext(sink: { capture.out += $0 }, warningSink: { capture.notes.append($0) })
    return (Printer(context: context, defaultFormat: defaultFormat), capture)
  }

  static let summary = ResultTable(
    name: "summary", rows: [ResultRecord(["n": .integer(2)])], isSingleObject: true)
  static let letters = ResultTable(
    name: "letters", rows: [ResultRecord(["a": .string("x")]), ResultRecord(["a": .string("y")])])

  /// Two tables of one `--format json` command are one document: an
  /// object by table name, a single-object table as an object, any other
  /// as an array of its rows; its prose goes to standard error.
  @Test func twoJSONTablesAreOneObjectByName() throws {
    let (printer, capture) = Self.printer()
    printer.beginCommand(format: .json)
    try printer.print(
      Rendering(blocks: [
        .prose("Two tables follow.\n"), .table(Self.summary, format: .json),
        .table(Self.letters, format: .json),
      ]))
    #expect(capture.out == "", "nothing is printed before the command ends")
    printer.endCommand()
    #expect(
      capture.out == """
        {
          "summary": {
            "n": 2
          },
          "letters": [
            {
              "a": "x"
            },
            {
              "a": "y"
            }
          ]
        }

        """)
    #expect(capture.notes == ["Two tables follow."])
  }

  /// CSV holds one table: the second becomes a note naming it.
  @Test func secondCSVTableBecomesANote() throws {
    let (printer, capture) = Self.printer()
    printer.beginCommand(format: .csv)
    try printer.print(
      Rendering(blocks: [.table(Self.letters, format: .csv), .table(Self.summary, format: .csv)]))
    printer.endCommand()
    #expect(capture.out == "a\nx\ny\n")
    #expect(capture.notes.count == 1)
    let note = try #require(capture.notes.first)
    #expect(note.hasPrefix("energylab: note: table summary not printed: CSV output holds one table ("))
    #expect(note.hasSuffix(" json prints all of them)"))
  }

  /// Markdown tables after prose, and after each other, are kept apart by
  /// a blank line (else the second would continue the first).
  @Test func markdownTablesAreSeparatedByABlankLine() throws {
    let (printer, capture) = Self.printer(defaultFormat: .markdown)
    let other = ResultTable(name: "other", rows: [ResultRecord(["b": .string("z")])])
    try printer.print(
      Rendering(blocks: [.prose("Text."), .table(Self.letters, format: nil), .table(other, format: nil)]))
    #expect(capture.out == "Text.\n\n| a |\n| --- |\n| x |\n| y |\n\n| b |\n| --- |\n| z |\n")
    #expect(printer.emittedTables.map(\.name) == ["letters", "other"])
  }

  /// Control characters from data (BEL, ESC) never reach the terminal;
  /// line feeds and tabs stay.
  @Test func controlCharactersAreCleaned() throws {
    let (printer, capture) = Self.printer()
    try printer.print(Rendering(blocks: [.prose("bell\u{7}\tand \u{1B}[31mred\n")]))
    #expect(capture.out == "bell \tand  [31mred\n")
  }

  /// `--columns` naming a column no table has is warned of once, at the
  /// command's end, with the columns there are.
  @Test func unknownColumnsAreNamedOnce() throws {
    let (printer, capture) = Self.printer()
    printer.columns = ["a", "zz"]
    printer.beginCommand(format: .csv)
    try printer.print(Rendering(blocks: [.table(Self.letters, format: .csv)]))
    printer.endCommand()
    #expect(capture.out == "a\nx\ny\n")
    #expect(capture.notes == ["energylab: warning: no column zz in letters; it has a"])
  }

  /// Without a warning sink (a notebook), notes and diagnostics go to the
  /// report's provenance instead of being printed.
  @Test func notesGoToTheReportWithoutAWarningSink() throws {
    var text = ""
    let printer = Printer(context: CommandContext(sink: { text += $0 }), defaultFormat: .markdown)
    let diagnostic = Diagnostic(code: "no-elevation", message: "no elevation", location: "walk.gpx")
    try printer.print(
      Rendering(blocks: [.warning("energylab: note: skipped b.gpx"), .diagnostic(diagnostic)]))
    #expect(text == "")
    #expect(printer.recorder.provenance.skipped == ["energylab: note: skipped b.gpx"])
    #expect(printer.recorder.provenance.diagnostics == [diagnostic])
  }

  /// A chart that would mislead is not drawn: a sentence in Markdown (the
  /// report says why), a note on standard error from the command line.
  /// Nothing is written: the reason is known before gnuplot runs.
  @Test func aChartNotWorthDrawingIsASentenceInMarkdownAndANoteElsewhere() throws {
    var chart = GnuplotChart(
      name: "speed", title: "Speed of walk.gpx", xLabel: "time (s)", yLabel: "speed (m/s)", series: [])
    chart.notDrawnReason = "one value"
    let folder = "/nonexistent-energylab-printer-test"
    let (markdown, inReport) = Self.printer(defaultFormat: .markdown)
    try markdown.print(Rendering(blocks: [.chart(chart, folder: folder, format: nil)]))
    #expect(inReport.out == "\n*Chart \"Speed of walk.gpx\" not drawn: one value.*\n")
    #expect(inReport.notes.isEmpty)
    let (terminal, onTerminal) = Self.printer()
    try terminal.print(Rendering(blocks: [.chart(chart, folder: folder, format: nil)]))
    #expect(onTerminal.out == "")
    #expect(onTerminal.notes == ["energylab: note: chart \"Speed of walk.gpx\" not drawn: one value"])
    #expect(!FileManager.default.fileExists(atPath: folder))
  }

  /// A chart with neither a folder of its own nor a figures folder is not
  /// drawn and not mentioned (charts are wanted only where a folder is).
  @Test func aChartWithoutAFolderIsLeftOut() throws {
    let chart = GnuplotChart(
      name: "speed", title: "Speed", xLabel: "time (s)", yLabel: "speed (m/s)",
      series: [.init(title: "walk", style: .lines, points: [.init(0, 1), .init(1, 2)])])
    let (printer, capture) = Self.printer(defaultFormat: .markdown)
    try printer.print(Rendering(blocks: [.chart(chart, folder: nil, format: nil)]))
    #expect(capture.out == "")
    #expect(capture.notes.isEmpty)
  }

  /// An outcome's rendering is a value: building it prints nothing, and
  /// printing it is what the driver prints for the command.
  @Test func anOutcomeRendersWithoutPrinting() throws {
    let walk = try TrackCommandResultTests.twoLegTrack()
    defer { try? FileManager.default.removeItem(atPath: walk) }
    var options = EnergyCommand.Options(files: [walk], modelID: "acsm-walking", subject: ModelInput())
    options.subject.bodyMassKilograms = 70
    let outcome = try EnergyCommand.outcome(options)
    let rendering = try outcome.render(RenderRequest(defaultFormat: .csv))
    #expect(rendering.blocks.count == 1)
    guard case .table(let table, let format) = rendering.blocks.first else {
      Issue.record("expected one table, got \(rendering.blocks)")
      return
    }
    #expect(table.rows.count == 1)
    #expect(format == nil)
    let (printer, capture) = Self.printer(defaultFormat: .csv)
    try printer.print(rendering)
    let (driver, buffer) = Driver.buffered(defaultFormat: .csv)
    try driver.finish(outcome, database: nil)
    #expect(capture.out == buffer.text)
    #expect(capture.out.hasPrefix("file,"))
  }
}
