import EnergyLabCore
import Foundation
import Reporting
import Testing

let snapshots = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
  "Snapshots"
).path

/// Compares text with a golden file. With RECORD_SNAPSHOTS=1 the file is
/// rewritten and the test fails, so a new baseline is never a silent pass.
func assertSnapshot(
  _ text: String, named name: String, sourceLocation: Testing.SourceLocation = #_sourceLocation
) throws {
  let path = "\(snapshots)/\(name)"
  if ProcessInfo.processInfo.environment["RECORD_SNAPSHOTS"] == "1" {
    try text.write(toFile: path, atomically: true, encoding: .utf8)
    Issue.record("recorded \(name); run again without RECORD_SNAPSHOTS", sourceLocation: sourceLocation)
    return
  }
  let expected = try String(contentsOfFile: path, encoding: .utf8)
  #expect(text == expected, "\(name) differs from its snapshot", sourceLocation: sourceLocation)
}

struct RenderingTests {
  let hostile = "`touch /tmp/pwned` | <b>x</b> *y* 'q' \"dq\"\nnext, line"

  var table: ResultTable {
    ResultTable(
      name: "t",
      rows: [
        ResultRecord(["file": .string(hostile), "distance_m": .number(777.8496, digits: 1), "hr": .null]),
        ResultRecord([
          "file": .string("b.gpx"), "distance_m": .number(-0.0001, digits: 1), "hr": .integer(120),
        ]),
      ])
  }

  @Test func csvQuotesPerRFC4180() {
    let csv = ResultRenderer.csv(table)
    let lines = csv.split(separator: "\n", omittingEmptySubsequences: false)
    #expect(lines[0] == "file,distance_m,hr")
    #expect(csv.contains("\"`touch /tmp/pwned` | <b>x</b> *y* 'q' \"\"dq\"\"\nnext, line\",777.8496,"))
    #expect(csv.hasSuffix("b.gpx,-0.0001,120\n"))
  }

  @Test func jsonKeepsKeyOrderAndEscapes() {
    let json = ResultRenderer.json(table)
    #expect(
      json.hasPrefix(
        "[\n  {\n    \"file\": \"`touch /tmp/pwned` | <b>x</b> *y* 'q' \\\"dq\\\"\\nnext, line\",\n    \"distance_m\": 777.8496,\n    \"hr\": null\n"
      ))
    let decoded = try? JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[String: Any]]
    #expect(decoded?.first?["file"] as? String == hostile)
  }

  @Test func markdownCellsStayInert() {
    let md = ResultRenderer.markdown(table)
    let lines = md.split(separator: "\n")
    #expect(lines.count == 4)
    #expect(
      lines[2]
        == "| \\`touch /tmp/pwned\\` \\| &lt;b&gt;x&lt;/b&gt; \\*y\\* 'q' \"dq\" next, line | 777.8 |  |")
    #expect(lines[3] == "| b.gpx | 0.0 | 120 |")
  }

  /// A table without rows has no columns: in Markdown it is no text, not
  /// the header-less stub "|  |" and "|" that a survey of open answers
  /// only once left in the nudge report.
  @Test func markdownOfAnEmptyTableIsNoText() {
    #expect(ResultRenderer.markdown(ResultTable(name: "survey-answers", rows: [])) == "")
  }

  @Test func plainTableAlignsNumbersRight() {
    let text = ResultRenderer.render(
      ResultTable(
        name: "t",
        rows: [
          ResultRecord(["a": .string("x"), "n": .number(5, digits: 1)]),
          ResultRecord(["a": .string("long"), "n": .number(12.25, digits: 2)]),
        ]),
      as: .table)
    // Widths 4 and 5; text left-aligned, numbers right-aligned, two spaces between.
    #expect(text == "a         n\n----  -----\nx       5.0\nlong  12.25\n")
  }
}

struct GnuplotChartTests {
  var chart: GnuplotChart {
    var chart = GnuplotChart(
      name: "Models vs table", title: "It's `touch /tmp/energylab-gnuplot-injection` time",
      xLabel: "reference (kcal)", yLabel: "predicted (kcal)",
      series: [
        .init(title: "acsm-walking", style: .points, points: [.init(25, 15.5), .init(50, 31)]),
        .init(title: "a_b^c", style: .lines, points: [.init(1, 2)]),
      ])
    chart.identityLine = true
    chart.horizontalLines = [.init(y: -2.5, title: "bias")]
    return chart
  }

  @Test func dataTextHasOneBlockPerSeries() throws {
    try assertSnapshot(chart.dataText(), named: "chart.dat")
  }

  @Test func scriptQuotesDataTextSafely() throws {
    let script = chart.scriptText()
    // Single-quoted, quote doubled: gnuplot runs no backquotes there.
    #expect(script.contains("set title 'It''s `touch /tmp/energylab-gnuplot-injection` time' noenhanced"))
    #expect(!script.contains("\"`"))
    try assertSnapshot(script, named: "chart.gp")
  }

  /// A long title is wrapped at spaces into lines of at most 80
  /// characters, never cut: the StepMyHealth demo question Q8 (128
  /// characters) breaks after "provide you" (77 characters; adding " with"
  /// makes 82).
  @Test func longTitlesWrapWhole() {
    let chart = GnuplotChart(
      name: "q8",
      title:
        "Which of the following features from the demo would you say would provide you with motivation to reach your daily calorie target?",
      xLabel: "answer", yLabel: "percent", series: [])
    #expect(
      chart.scriptText().contains(
        #"set title 'Which of the following features from the demo would you say would provide you'."\n".'with motivation to reach your daily calorie target?' noenhanced"#
      ))
  }

  /// Bars of partial or approximate figures are drawn apart (hatched, their
  /// own key entry), long category labels wrap onto lines, and the y axis
  /// reaches the n given.
  @Test func markedBarsAreDrawnApartAndTheAxisCoversN() {
    var chart = GnuplotChart(
      name: "b", title: "B", xLabel: "answer", yLabel: "respondents (n = 8)", series: [])
    chart.stackedBars = GnuplotChart.StackedBars(
      categories: ["Yes", "Somewhat likely or Extremely likely (partial)"],
      seriesTitles: ["exact respondents"],
      values: [[1], [7]], clustered: true, yMaximum: 8, marked: [false, true], markedTitle: "partial")
    let data = chart.dataText()
    // Two categories share 760 px in three slots: 35 characters a line,
    // capped at 30.
    #expect(data.contains("\"Yes\" 1 0\n"))
    #expect(data.contains("\"Somewhat likely or Extremely\\nlikely (partial)\" 0 7\n"))
    let script = chart.scriptText()
    #expect(script.contains("set yrange [0:8]\n"))
    #expect(script.contains("set style histogram rowstacked\n"))
    #expect(script.contains("'' using 3 ls 1 fill pattern 4 border -1 title 'partial'"))
    #expect(script.contains("set xlabel offset 0,-1\n"))
    #expect(!script.contains("unset key"))
  }

  @Test(arguments: [("a'b", "'a''b'"), ("x\ny", "'x y'"), ("`id`", "'`id`'")])
  func quoting(text: String, quoted: String) {
    #expect(GnuplotChart.quote(text) == quoted)
  }

  @Test func renderingWritesScriptDataAndImages() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "energylab-chart-\(UUID().uuidString)"
    ).path
    try? FileManager.default.removeItem(atPath: "/tmp/energylab-gnuplot-injection")
    let rendered = try GnuplotRenderer.render(chart, into: folder)
    // The backquoted command in the title must not have run.
    #expect(!FileManager.default.fileExists(atPath: "/tmp/energylab-gnuplot-injection"))
    #expect(FileManager.default.fileExists(atPath: "\(folder)/models-vs-table.gp"))
    #expect(FileManager.default.fileExists(atPath: "\(folder)/models-vs-table.dat"))
    if GnuplotRenderer.gnuplotPath() != nil {
      #expect(rendered.skippedReason == nil, "\(rendered.skippedReason ?? "")")
      let png = try Data(contentsOf: URL(fileURLWithPath: "\(folder)/models-vs-table.png"))
      #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47]))
      #expect(FileManager.default.fileExists(atPath: "\(folder)/models-vs-table.svg"))
    } else {
      #expect(rendered.skippedReason?.contains("gnuplot not installed") == true)
    }
  }
}

/// Names and text from data reach files and outputs harmless.
struct HostileTextTests {
  @Test(arguments: [
    ("Übung", "ubung"), ("Ölberg-walk", "olberg-walk"), ("ß-Straße", "stra-e"), ("-p", "p"),
    ("--help", "help"),
    ("p01/day1", "p01-day1"),
    ("a  b", "a-b"), ("!!!", "chart"), ("", "chart"), ("track day1 speed", "track-day1-speed"),
  ])
  func chartNamesAreSafeSlugs(name: String, stem: String) {
    #expect(GnuplotChart.safeFileStem(name) == stem)
  }

  @Test func gnuplotStringsKeepQuotesAndUnicodeAndDropControls() {
    #expect(GnuplotChart.quote("it's Übung") == "'it''s Übung'")
    #expect(GnuplotChart.quote("red\u{1B}[31m\u{07}\nnext") == "'red [31m  next'")
  }

  /// ESC and BEL from a GPX name or a survey answer never reach the
  /// terminal table, a report or a chart's data.
  @Test func controlCharactersAreReplacedWhereTextIsPrinted() {
    let evil = "walk\u{1B}[2J\u{07}<script>"
    let table = ResultTable(name: "t", rows: [ResultRecord(["file": .string(evil), "n": .integer(1)])])
    func hasControl(_ text: String) -> Bool {
      text.unicodeScalars.contains { $0.properties.generalCategory == .control && $0 != "\n" }
    }
    #expect(!hasControl(ResultRenderer.render(table, as: .table)))
    let markdown = ResultRenderer.render(table, as: .markdown)
    #expect(!hasControl(markdown))
    #expect(markdown.contains("&lt;script&gt;"))
    var chart = GnuplotChart(name: "c", title: evil, xLabel: "x", yLabel: "y", series: [])
    chart.stackedBars = GnuplotChart.StackedBars(categories: [evil], seriesTitles: [evil], values: [[1]])
    #expect(!hasControl(chart.dataText()))
    #expect(!hasControl(chart.scriptText()))
  }

  /// OWASP's CSV injection rule: text cells starting with =, +, -, @, tab or
  /// carriage return get an apostrophe; numbers stay numbers.
  @Test func csvCellsNeverRunAsFormulas() {
    let table = ResultTable(
      name: "t",
      rows: [
        ResultRecord(["answer": .string("=HYPERLINK(\"x\")"), "n": .number(-5, 0)]),
        // A number written as text is no formula.
        ResultRecord(["answer": .string("+1"), "n": .integer(2)]),
        ResultRecord(["answer": .string("-fast"), "n": .null]),
        ResultRecord(["answer": .string("@sum"), "n": .null]),
        ResultRecord(["answer": .string("plain"), "n": .null]),
        ResultRecord(["answer": .string("-2"), "n": .null]),
      ])
    #expect(
      ResultRenderer.csv(table) == """
        answer,n
        "'=HYPERLINK(""x"")",-5
        +1,2
        '-fast,
        '@sum,
        plain,
        -2,

        """)
  }
}

/// A file that cannot be written names its path and the system's reason,
/// and leaves what was there whole.
struct OutputErrorTests {
  @Test func anUnwritableFileNamesItsPathAndReason() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("out-\(UUID().uuidString)")
      .path
    let path = "\(folder)/no-such-folder/report.md"
    let error = #expect(throws: OutputError.self) { try AtomicFile.write("text", to: path) }
    #expect(error?.kind == .file && error?.target == path)
    // strerror(ENOENT), as the C library words it.
    #expect(error?.reason == String(cString: strerror(ENOENT)))
    #expect(error?.description == "\(path): cannot write file (No such file or directory)")
  }

  /// A table wider than the terminal keeps its key columns (the command's
  /// answer) before filling the width from the left; the kept columns stay
  /// in the table's order and the rest are named.
  @Test func aNarrowedTableKeepsItsKeyColumns() {
    let row = ResultRecord([
      "file": .string("walk.gpx"), "model": .string("acsm-walking"), "duration_s": .number(600, 1),
      "distance_m": .number(777.9, 1), "speed_mps": .number(1.296, 3), "energy_kcal": .number(45.76, 2),
    ])
    let plain = ResultTable(name: "energy", rows: [row])
    let keyed = ResultTable(name: "energy", rows: [row], keyColumns: ["file", "energy_kcal"])
    // file 8 + model 12 + duration_s 10 + separators: 34 columns.
    let header = { (table: ResultTable) in
      ResultRenderer.render(table, as: .table, width: 36).split(separator: "\n").first.map(String.init) ?? ""
    }
    #expect(header(plain).split(separator: " ").map(String.init) == ["file", "model", "duration_s"])
    #expect(header(keyed).split(separator: " ").map(String.init) == ["file", "model", "energy_kcal"])
    let keyedText = ResultRenderer.render(keyed, as: .table, width: 36)
    #expect(
      keyedText.split(separator: "\n").last?.hasPrefix("(3 more columns: duration_s, distance_m, speed_mps;")
        == true)
  }
}
