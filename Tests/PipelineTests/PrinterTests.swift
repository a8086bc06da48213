import EnergyLabCore
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
}
