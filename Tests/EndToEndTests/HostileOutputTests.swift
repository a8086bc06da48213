import Foundation
import TestSupport
import Testing

#if canImport(FoundationXML)
  import FoundationXML
#endif

/// RFC 4180 records of a CSV text (quoted fields may hold commas, quotes
/// and line breaks).
func csvRecords(_ text: String) -> [[String]] {
  var records: [[String]] = []
  var record: [String] = []
  var field = ""
  var quoted = false
  var scalars = Array(text.unicodeScalars)[...]
  while let c = scalars.popFirst() {
    if quoted {
      if c == "\"" {
        if scalars.first == "\"" {
          field.unicodeScalars.append("\"")
          scalars.removeFirst()
        } else {
          quoted = false
        }
      } else {
        field.unicodeScalars.append(c)
      }
    } else if c == "\"" {
      quoted = true
    } else if c == "," {
      record.append(field)
      field = ""
    } else if c == "\n" {
      record.append(field)
      records.append(record)
      record = []
      field = ""
    } else {
      field.unicodeScalars.append(c)
    }
  }
  if !field.isEmpty || !record.isEmpty { records.append(record + [field]) }
  return records
}

/// Whether text holds a control character other than a line feed or tab:
/// what would drive a terminal or break XML.
func hasStrayControl(_ text: String) -> Bool {
  text.unicodeScalars.contains { $0.properties.generalCategory == .control && $0 != "\n" && $0 != "\t" }
}

/// Every command that prints a table, found from `--help`, run with
/// `--format csv` (one RFC 4180 table: one header, every record as wide)
/// and `--format json` (one document). A new command with `--format` fails
/// the test until it is added here.
struct EveryTableCommandTests {
  /// Leaf commands whose help offers `--format`, as "survey summary".
  static func tableCommands(_ path: [String] = []) throws -> [String] {
    let help = try energylab(path + ["--help"], in: packageRoot).stdout
    let lines = help.components(separatedBy: "\n")
    guard let start = lines.firstIndex(of: "SUBCOMMANDS:") else {
      return help.contains("--format <format>") ? [path.joined(separator: " ")] : []
    }
    var found: [String] = []
    for line in lines[(start + 1)...] {
      if line.isEmpty { break }
      guard line.hasPrefix("  "), let first = line.dropFirst(2).first, first.isLowercase else { continue }
      let name = String(line.dropFirst(2).prefix { $0 != " " })
      found += try tableCommands(path + [name])
    }
    return found
  }

  @Test func csvIsOneTableAndJSONOneDocument() throws {
    let folder = try scratchFolder()
    try "a,b\n1,1.2\n2,2.1\n3,2.7\n4,4.4\n".write(
      toFile: folder + "/p.csv", atomically: true, encoding: .utf8)
    _ = try energylab(["track", "synth", "-o", "walk.gpx", "--duration", "10min"], in: folder)
    let stored = try energylab(
      ["energy", "walk.gpx", "--model", "acsm-walking", "--mass", "70kg", "--db", "s.sqlite"], in: folder)
    #expect(stored.status == 0, "\(stored.stderr)")
    let surveys = "\(packageRoot)/Tests/SurveysTests/Fixtures"
    let accel = "\(packageRoot)/Tests/IngestTests/Fixtures/accel"
    let sus = ["--items", "S1,S2,S3,S4,S5,S6,S7,S8,S9,S10"]
    let runs: [String: [String]] = [
      "energy": ["walk.gpx", "--model", "acsm-walking", "--mass", "70kg"],
      "evaluate modes": [
        "\(packageRoot)/Datasets/palms-mode-validation/gpx/030711_106.gpx", "--truth",
        "\(packageRoot)/Datasets/palms-mode-validation/truth", "--truth-tz", "America/Los_Angeles",
        "--no-held-out",
      ],
      "evaluate reference": [
        "--models", "acsm-walking", "--reference", "stanford-walking", "--assume", "speed=3mph", "grade=0",
        "--cells",
      ],
      "evaluate measured": [
        "\(packageRoot)/Datasets/treadmill-enmo-vo2/stages.csv", "--id", "ID", "--measured",
        "VO2_ml_kg_min:mL/kg/min", "--input", "speed=speed_kmh:kmh", "--input", "mass=weight_kg:kg",
        "--models",
        "acsm-walking", "--by", "speed_kmh",
      ],
      "sweep": [
        "--models", "acsm-walking", "--reference", "stanford-walking", "--vary", "speed", "--from", "2mph",
        "--to", "4mph", "--step", "1mph", "--assume", "grade=0",
      ],
      "profile": ["walk.gpx"],
      "footprint flights": ["STN-CAG:return", "DUB-STN"],
      "footprint annual": [
        "--electricity-kwh", "350", "--supplier", "all-island-mix", "--heating", "natural-gas", "--occupants",
        "2", "--petrol", "20", "--flight", "DUB-STN:return", "--diet", "medium-meat", "--spend",
        "clothing=50",
      ],
      "survey summary": ["\(surveys)/dialects/plain-heart.csv"],
      "survey sus": ["\(surveys)/sus.csv"] + sus,
      "survey asq": ["\(surveys)/asq.csv", "--task", "T1=Ease,Time,Support"],
      "survey crosstab": ["\(surveys)/dialects/plain-heart.csv", "--rows", "sex", "--cols", "target"],
      "survey compare": ["\(surveys)/sus.csv", "--question", "S1", "--by", "Group", "--scale", "S1=points5"],
      "balance": ["--user", "Ann:2100:5000:2000", "--user", "Bo:1800:12000:2500"],
      "duration": ["1 hour 5 mins", "45 mins", "--actual", "60 mins", "--actual", "50 mins"],
      "agreement": ["walk.gpx", "--models", "acsm-walking,cameron-walking", "--mass", "70kg"],
      "stats agreement": ["p.csv", "--a", "a", "--b", "b"],
      "models list": [],
      "models explain": ["acsm-walking"],
      "models eval": [
        "acsm-walking", "--speed", "3mph", "--grade", "0%", "--mass", "70kg", "--published",
        "kcal_per_min=4.55",
      ],
      "track summary": ["walk.gpx"],
      "track segments": ["walk.gpx"],
      "track trips": ["walk.gpx"],
      "track plot": ["walk.gpx", "--charts", "charts"],
      "track power": ["\(packageRoot)/Datasets/power-rides/edge810-vector-ride.fit"],
      "power load": ["\(packageRoot)/Datasets/power-rides/edge810-vector-ride.fit", "--charts", "charts"],
      "power curve": ["\(packageRoot)/Datasets/power-rides/edge810-vector-ride.fit", "--charts", "charts"],
      "accel summary": ["\(accel)/actigraph-raw-timestamp.csv"],
      "accel epochs": ["\(accel)/actigraph-raw-timestamp.csv"],
      "accel days": ["\(accel)/actigraph-counts-named.csv"],
      "accel energy": ["\(accel)/actigraph-counts-named.csv", "--intake", "2100"],
      "accel plot": ["\(accel)/actigraph-raw-timestamp.csv", "--charts", "charts"],
      "db info": ["--db", "s.sqlite"],
      "db export": ["--db", "s.sqlite", "--table", "runs"],
    ]
    let commands = try Self.tableCommands()
    #expect(commands.count >= 30, "\(commands)")
    #expect(Set(commands) == Set(runs.keys), "commands with --format and no case here, or the reverse")
    for command in commands {
      guard let arguments = runs[command] else { continue }
      let words = command.split(separator: " ").map(String.init) + arguments
      let csv = try energylab(words + ["--format", "csv"], in: folder)
      #expect(csv.status == 0, "\(command): \(csv.stderr)")
      let records = csvRecords(csv.stdout)
      #expect(!records.isEmpty, "\(command) --format csv printed nothing")
      let width = records.first?.count ?? 0
      let header = records.first ?? []
      #expect(Set(header).count == header.count, "\(command): repeated column in \(header)")
      for (k, record) in records.enumerated() where record.count != width {
        Issue.record(
          "\(command) --format csv record \(k + 1) has \(record.count) fields, not \(width): \(record)")
      }
      let json = try energylab(words + ["--format", "json"], in: folder)
      #expect(json.status == 0, "\(command): \(json.stderr)")
      #expect(
        (try? JSONSerialization.jsonObject(with: Data(json.stdout.utf8))) != nil,
        "\(command) --format json is one document: \(json.stdout.prefix(300))")
    }
  }
}

/// A corpus of hostile names and values (quotes, backquotes, Unicode,
/// leading dashes, HTML, spreadsheet formulas, ESC and BEL) through every
/// output format and the charts, each expectation written out.
struct HostileOutputTests {
  static let formulaQuestion = "=1+1 `id` <b>bold</b> | *x*"
  static let controlQuestion = "Ölberg \"q\" 's'\u{1B}[31m\u{07}"
  static let atQuestion = "@SUM(A1)"

  /// A plain respondent-per-row export whose titles and answers are the
  /// corpus; the file name starts with a non-ASCII letter.
  static func writeSurvey(in folder: String) throws -> String {
    let text = """
      id,"=1+1 `id` <b>bold</b> | *x*","Ölberg ""q"" 's'\u{1B}[31m\u{07}",@SUM(A1)
      r1,"=HYPERLINK(""http://e"")",Agree,-2
      r2,+44 <script>,Agree\u{07},-2
      r3,-rm,Ölberg \u{1B}[2J,@x
      r4,"=HYPERLINK(""http://e"")",Agree,5

      """
    try text.write(toFile: "\(folder)/Übung.csv", atomically: true, encoding: .utf8)
    return "Übung.csv"
  }

  @Test func surveyInEveryFormat() throws {
    let folder = try scratchFolder()
    let file = try Self.writeSurvey(in: folder)

    // Terminal table: the text as written, control characters as spaces.
    let table = try energylab(["survey", "summary", file], in: folder)
    #expect(table.status == 0, "\(table.stderr)")
    #expect(!hasStrayControl(table.stdout) && !hasStrayControl(table.stderr))
    #expect(table.stdout.contains("=1+1 `id` <b>bold</b> | *x*"))
    #expect(table.stdout.contains("Ölberg \"q\" 's' [31m "))
    #expect(table.stdout.contains("+44 <script>"))

    // CSV: formulas get an apostrophe, numbers written as text stay numbers.
    let csv = try energylab(["survey", "summary", file, "--format", "csv"], in: folder)
    #expect(csv.status == 0, "\(csv.stderr)")
    #expect(
      csvRecords(csv.stdout) == [
        ["question", "text", "n"],
        ["'=1+1 `id` <b>bold</b> | *x*", "'=1+1 `id` <b>bold</b> | *x*", "4"],
        ["Ölberg \"q\" 's' [31m ", "Ölberg \"q\" 's' [31m ", "4"],
        ["'@SUM(A1)", "'@SUM(A1)", "4"],
      ])
    let crosstab = try energylab(
      ["survey", "crosstab", file, "--rows", "@SUM(A1)", "--cols", Self.formulaQuestion, "--format", "csv"],
      in: folder)
    #expect(crosstab.status == 0, "\(crosstab.stderr)")
    let cells = csvRecords(crosstab.stdout)
    #expect(cells.first?.contains("'=HYPERLINK(\"http://e\")") == true, "\(cells)")
    #expect(cells.first?.contains("'+44 <script>") == true, "\(cells)")
    #expect(cells.first?.contains("'-rm") == true, "\(cells)")
    #expect(Set(cells.dropFirst().compactMap(\.first)) == ["-2", "'@x", "5"], "\(cells)")

    // JSON keeps the data exactly, control characters escaped.
    let json = try energylab(["survey", "summary", file, "--format", "json"], in: folder)
    #expect(json.status == 0, "\(json.stderr)")
    #expect(json.stdout.contains(#""question": "Ölberg \"q\" 's'\u001b[31m\u0007""#))
    let rows = try #require(JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])
    #expect(
      rows.compactMap { $0["question"] as? String } == [
        Self.formulaQuestion, Self.controlQuestion, Self.atQuestion,
      ])
    let counts = try #require(rows.first?["counts"] as? [String: Int])
    #expect(counts == ["=HYPERLINK(\"http://e\")": 2, "+44 <script>": 1, "-rm": 1])

    // Markdown: HTML escaped, pipes and emphasis escaped, no controls.
    let markdown = try energylab(["survey", "summary", file, "--format", "markdown"], in: folder)
    #expect(markdown.status == 0, "\(markdown.stderr)")
    #expect(!hasStrayControl(markdown.stdout))
    #expect(
      markdown.stdout.contains(
        "| =1+1 \\`id\\` &lt;b&gt;bold&lt;/b&gt; \\| \\*x\\* | =1+1 \\`id\\` &lt;b&gt;bold&lt;/b&gt; \\| \\*x\\* | 4 |"
      ))
    #expect(markdown.stdout.contains("| +44 &lt;script&gt; | 1 | 25.0 | 4 |"))
    // The reader takes the escape out of the answer itself (what remains
    // prints); the question's text is cleaned where it is printed.
    #expect(markdown.stdout.contains("| Ölberg \"q\" 's' \\[31m  | Ölberg \\[2J | 1 | 25.0 | 4 |"))
    #expect(!markdown.stdout.contains("<script>") && !markdown.stdout.contains("<b>"))
  }

  @Test(
    .enabled(
      if: FileManager.default.isExecutableFile(atPath: "/usr/bin/gnuplot"),
      "gnuplot is not installed (scripts/install-deps installs gnuplot-nox)"))
  func surveyCharts() throws {
    let folder = try scratchFolder()
    let file = try Self.writeSurvey(in: folder)
    try? FileManager.default.removeItem(atPath: "/tmp/energylab-hostile-id")
    let out = try energylab(["survey", "summary", file, "--charts", "charts"], in: folder)
    #expect(out.status == 0, "\(out.stderr)")
    // ASCII slugs of the file and question, never starting with a dash.
    let stems = ["ubung-1-1-id-b-bold-b-x", "ubung-olberg-q-s-31m", "ubung-sum-a1"]
    for stem in stems {
      #expect(
        out.stderr.contains("energylab: wrote charts/\(stem).png (and .svg, .gp, .dat)"), "\(out.stderr)")
    }
    let script = try String(contentsOfFile: "\(folder)/charts/ubung-olberg-q-s-31m.gp", encoding: .utf8)
    // The title quoted for gnuplot: single quotes doubled, ESC and BEL
    // spaces (dropped at the end of a wrapped line).
    #expect(script.contains("set title 'Ölberg \"q\" ''s'' [31m' noenhanced"))
    #expect(!hasStrayControl(script))
    let formula = try String(contentsOfFile: "\(folder)/charts/ubung-1-1-id-b-bold-b-x.gp", encoding: .utf8)
    #expect(formula.contains("set title '=1+1 `id` <b>bold</b> | *x*' noenhanced"))
    for stem in stems {
      #expect(FileManager.default.fileExists(atPath: "\(folder)/charts/\(stem).png"), "\(stem).png")
      let svg = try String(contentsOfFile: "\(folder)/charts/\(stem).svg", encoding: .utf8)
      #expect(!hasStrayControl(svg), "\(stem).svg")
      #if canImport(FoundationXML)
        #expect(XMLParser(data: Data(svg.utf8)).parse(), "\(stem).svg is well-formed XML")
      #endif
    }
    // The title is drawn as text, its markup escaped in SVG.
    let svg = try String(contentsOfFile: "\(folder)/charts/ubung-1-1-id-b-bold-b-x.svg", encoding: .utf8)
    #expect(svg.contains("<text>=1+1 `id` &lt;b>bold&lt;/b> | *x*</text>"))
  }

  /// A track file named with a leading dash, quotes, backquotes and Unicode,
  /// and one with ESC in its name.
  @Test func hostileFileNames() throws {
    let folder = try scratchFolder()
    let name = "-Ölberg \"q\" 's' `b`.gpx"
    _ = try energylab(["track", "synth", "-o", "./\(name)", "--duration", "5min"], in: folder)
    #expect(FileManager.default.fileExists(atPath: "\(folder)/\(name)"))
    let path = "./\(name)"

    let csv = try energylab(
      ["track", "summary", path, "--format", "csv", "--columns", "file,points"], in: folder)
    #expect(csv.status == 0, "\(csv.stderr)")
    #expect(csvRecords(csv.stdout) == [["file", "points"], ["./-Ölberg \"q\" 's' `b`.gpx", "301"]])
    let dashed = try energylab(
      ["track", "summary", "--columns", "file,points", "--format", "csv", "--", name], in: folder)
    #expect(csvRecords(dashed.stdout) == [["file", "points"], ["'-Ölberg \"q\" 's' `b`.gpx", "301"]])
    let json = try energylab(["track", "summary", path, "--format", "json", "--columns", "file"], in: folder)
    #expect(json.stdout.contains(#""file": "./-Ölberg \"q\" 's' `b`.gpx""#), "\(json.stdout)")
    let markdown = try energylab(
      ["track", "summary", path, "--format", "markdown", "--columns", "file,points"], in: folder)
    #expect(markdown.stdout.contains("| ./-Ölberg \"q\" 's' \\`b\\`.gpx | 301 |"), "\(markdown.stdout)")

    let plot = try energylab(["track", "plot", "--", name], in: folder)
    #expect(plot.status == 0, "\(plot.stderr)")
    #expect(plot.stderr.contains("energylab: wrote charts/olberg-q-s-b"), "\(plot.stderr)")
    if FileManager.default.isExecutableFile(atPath: "/usr/bin/gnuplot") {
      let made = try FileManager.default.contentsOfDirectory(atPath: "\(folder)/charts")
      #expect(made.contains { $0.hasPrefix("olberg-q-s-b") && $0.hasSuffix(".png") }, "\(made)")
      #expect(!made.contains { $0.hasPrefix("-") }, "\(made)")
    }

    try "x".write(toFile: "\(folder)/e\u{1B}[2Jvil.gpx", atomically: true, encoding: .utf8)
    let bad = try energylab(["track", "summary", "e\u{1B}[2Jvil.gpx"], in: folder)
    #expect(bad.status == 1)
    #expect(!hasStrayControl(bad.stderr))
    #expect(bad.stderr.contains("energylab: e [2Jvil.gpx:1:1: not XML"), "\(bad.stderr)")
  }

  /// A factor file's provenance is text from data: escaped in a Markdown
  /// report, cleaned on a terminal.
  @Test func factorSourceInReports() throws {
    let folder = try scratchFolder()
    _ = try energylab(["track", "synth", "-o", "walk.gpx", "--duration", "5min"], in: folder)
    let factors = """
      # source: <script>alert(1)</script> `rm -rf` "quoted" \u{1B}[2J
      # figure: <img src=x onerror=alert(1)> set\u{07}
      # version: 2020
      # units: kg CO2e per km travelled
      # transcribed: test
      # licence: test
      mode,factor,unit,note
      walk,0,kgCO2e/km,none
      car,0.175,kgCO2e/km,=cmd()

      """
    try factors.write(toFile: "\(folder)/f.csv", atomically: true, encoding: .utf8)
    let markdown = try energylab(
      ["profile", "walk.gpx", "--factors", "f.csv", "--format", "markdown"], in: folder)
    #expect(markdown.status == 0, "\(markdown.stderr)")
    #expect(!hasStrayControl(markdown.stdout))
    #expect(
      markdown.stdout.contains("&lt;script&gt;alert(1)&lt;/script&gt; \\`rm -rf\\` \"quoted\""),
      "\(markdown.stdout)")
    #expect(!markdown.stdout.contains("<script>"))
    let table = try energylab(["profile", "walk.gpx", "--factors", "f.csv"], in: folder)
    #expect(!hasStrayControl(table.stdout) && !hasStrayControl(table.stderr))
  }
}

/// Every chart of the shipped reports names both axes, and the axes that
/// carry numbers state their unit: the value axis of bar charts, the
/// percent axis of diverging bars, the scale of dot plots, and both axes
/// of scatter, line and heat-map charts.
struct ChartAxisTests {
  static func label(_ axis: String, in script: String) -> String? {
    for line in script.split(separator: "\n") where line.hasPrefix("set \(axis) '") {
      let body = line.dropFirst("set \(axis) '".count)
      guard let end = body.range(of: "' noenhanced") else { return nil }
      return String(body[..<end.lowerBound])
    }
    return nil
  }

  @Test func everyChartHasLabelledAxesWithUnits() throws {
    let reports = "\(packageRoot)/Reports"
    var checked = 0
    for report in try FileManager.default.contentsOfDirectory(atPath: reports) where !report.hasPrefix(".") {
      let folder = "\(reports)/\(report)/figures"
      guard let files = try? FileManager.default.contentsOfDirectory(atPath: folder) else { continue }
      for file in files where file.hasSuffix(".gp") {
        let script = try String(contentsOfFile: "\(folder)/\(file)", encoding: .utf8)
        let x = Self.label("xlabel", in: script) ?? ""
        let y = Self.label("ylabel", in: script) ?? ""
        #expect(!x.isEmpty && !y.isEmpty, "\(report)/\(file): x '\(x)', y '\(y)'")
        #expect(!script.contains("unset xlabel") && !script.contains("unset ylabel"), "\(report)/\(file)")
        let withUnit: [String]
        if script.contains("set style data histograms") {
          withUnit = [y]
        } else if script.contains("boxxyerror") || script.contains("xerrorbars") {
          withUnit = [x]
        } else if script.contains("with image") {
          withUnit = [x, y, Self.label("cblabel", in: script) ?? ""]
        } else {
          withUnit = [x, y]
        }
        for label in withUnit {
          #expect(label.contains("(") && label.hasSuffix(")"), "\(report)/\(file): no unit in '\(label)'")
        }
        checked += 1
      }
    }
    // About 55 charts: one-bar, one-colour and repeated charts are not
    // drawn (ChartRulesTests).
    #expect(checked >= 50)
  }
}
