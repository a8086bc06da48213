import Foundation
import TestSupport
import Testing

/// Rules every shipped chart keeps, checked on the data each report's
/// figures/ holds: a chart draws more than one value, not one value
/// everywhere, and a report never draws the same data twice.
struct ChartRulesTests {
  /// A chart's data: its `.dat` lines that are not comments, and the
  /// numbers in them after the first column (the x or the category).
  struct ChartData {
    var file: String
    var lines: [String]
    var values: [Double]
    var script: String

    init(dat: String) throws {
      file = dat
      let text = try String(contentsOfFile: dat, encoding: .utf8)
      lines = text.split(separator: "\n").map(String.init).filter {
        !$0.hasPrefix("#") && !$0.trimmingCharacters(in: .whitespaces).isEmpty
      }
      let image =
        (try? String(contentsOfFile: String(dat.dropLast(4)) + ".gp", encoding: .utf8))?.contains(
          "with image") ?? false
      values = lines.flatMap { line -> [Double] in
        // A grid's lines are x, y, value: only the value is drawn.
        if image { return line.split(separator: " ").last.flatMap { Double($0) }.map { [$0] } ?? [] }
        // A quoted category first ("2020-07-06" or "Yes"), else an x value.
        let rest =
          line.hasPrefix("\"")
          ? String(
            line.split(separator: "\"", omittingEmptySubsequences: false).dropFirst(2).joined(separator: "\"")
          )
          : String(line.split(separator: " ").dropFirst().joined(separator: " "))
        return rest.split(separator: " ").compactMap { Double($0) }
      }
      script = (try? String(contentsOfFile: String(dat.dropLast(4)) + ".gp", encoding: .utf8)) ?? ""
    }

    var isBarsOrCells: Bool {
      script.contains("histograms") || script.contains("with image") || script.contains("boxxyerror")
    }
  }

  static func reports() throws -> [(report: String, charts: [ChartData])] {
    let root = "\(packageRoot)/Reports"
    return try FileManager.default.contentsOfDirectory(atPath: root).sorted().compactMap { name in
      let figures = "\(root)/\(name)/figures"
      guard let files = try? FileManager.default.contentsOfDirectory(atPath: figures) else { return nil }
      return (
        name,
        try files.filter { $0.hasSuffix(".dat") }.sorted().map { try ChartData(dat: "\(figures)/\($0)") }
      )
    }
  }

  @Test func noChartDrawsOneValueOrOneValueEverywhere() throws {
    var charts = 0
    for (report, list) in try Self.reports() {
      for chart in list where chart.isBarsOrCells {
        charts += 1
        // A diverging chart's lines are its segments (question, answer,
        // left, right); other charts draw each nonzero value.
        let drawn =
          chart.script.contains("boxxyerror")
          ? chart.lines.map { _ in 1.0 } : chart.values.filter { $0.isFinite && $0 != 0 }
        #expect(drawn.count > 1, "\(report): \((chart.file as NSString).lastPathComponent) draws one value")
        // Values that differ by under a tenth of the largest magnitude
        // draw one colour or one height everywhere.
        if let low = chart.values.min(), let high = chart.values.max(), chart.values.count > 1 {
          #expect(
            high - low > 0.1 * max(abs(low), abs(high)),
            "\(report): \((chart.file as NSString).lastPathComponent) draws \(low) to \(high) everywhere")
        }
      }
    }
    #expect(charts >= 10)
  }

  /// A transport mode takes one colour in every chart of a report: the
  /// colour of the line style each plotted series titled with a mode
  /// uses.
  @Test func aModeHasOneColourAcrossAReport() throws {
    let modes: Set = ["walk", "run", "cycle", "bus", "car", "train", "plane", "vehicle", "stationary"]
    var seen = 0
    for (report, list) in try Self.reports() {
      var colours: [String: Set<String>] = [:]
      for chart in list {
        var styles: [String: String] = [:]
        for m in chart.script.matches(of: #/set style line (\d+) lc rgb '(#[0-9a-f]{6})'/#) {
          styles[String(m.1)] = String(m.2)
        }
        for m in chart.script.matches(of: #/ls (\d+) title '([^']*)'/#) where modes.contains(String(m.2)) {
          colours[String(m.2), default: []].insert(styles[String(m.1)] ?? "style \(m.1)")
          seen += 1
        }
      }
      for (mode, set) in colours {
        #expect(set.count == 1, "\(report): \(mode) is drawn in \(set.sorted())")
      }
    }
    #expect(seen >= 5)
  }

  @Test func noReportDrawsTheSameDataTwice() throws {
    for (report, list) in try Self.reports() {
      var seen: [String: String] = [:]
      for chart in list where !chart.lines.isEmpty {
        let key = chart.lines.joined(separator: "\n")
        let name = (chart.file as NSString).lastPathComponent
        if let first = seen[key] {
          Issue.record("\(report): \(name) draws the data of \(first)")
        } else {
          seen[key] = name
        }
      }
    }
  }
}

/// The legend, style, key-placement, labelling and per-hour rules, read
/// from each shipped chart's script and data.
extension ChartRulesTests {
  /// One element of a chart's `plot` command.
  struct PlotElement {
    var text: String
    /// The key entry; nil for `notitle`.
    var title: String?
    var index: Int?
    var style: String? { text.firstMatch(of: #/ (ls|lt) (\d+)/#).map { "\($0.1) \($0.2)" } }
    var isLabels: Bool { text.contains("with labels") }

    init(_ text: String) {
      self.text = text
      title = text.firstMatch(of: #/ title ('(?:[^']|'')*')$/#).map { String($0.1) }
      index = text.firstMatch(of: #/ index (\d+) /#).flatMap { Int($0.1) }
    }
  }

  /// The elements of the first `plot` command (the PNG's; the SVG replots it).
  static func plotElements(_ script: String) -> [PlotElement] {
    guard let start = script.range(of: "\nplot ") else { return [] }
    var command = ""
    for line in script[start.upperBound...].split(separator: "\n", omittingEmptySubsequences: false) {
      command += line.trimmingCharacters(in: .whitespaces)
      guard command.hasSuffix("\\") else { break }
      command.removeLast()
    }
    // Elements are separated by ", " at the end of a script line.
    return command.components(separatedBy: ", ").reduce(into: [String]()) { out, part in
      if let last = out.last, last.filter({ $0 == "'" }).count % 2 == 1 {
        out[out.count - 1] += ", " + part
      } else {
        out.append(part)
      }
    }.map(PlotElement.init)
  }

  /// The blocks of a series chart's data (gnuplot's `index`): lines that
  /// are not comments, blocks split at two blank lines.
  static func blocks(_ dat: String) -> [[String]] {
    let text = (try? String(contentsOfFile: dat, encoding: .utf8)) ?? ""
    return text.components(separatedBy: "\n\n\n").map {
      $0.split(separator: "\n").map(String.init).filter { !$0.hasPrefix("#") && !$0.isEmpty }
    }
  }

  static func name(_ chart: ChartData) -> String { (chart.file as NSString).lastPathComponent }

  /// Every element that draws is in the key, and every key entry draws
  /// something. Without a key only one thing is drawn (a heat map, whose
  /// colour box is its key, a dot plot of one scale, a single series);
  /// with one, an element may go untitled only as the labels of a titled
  /// series' points, the line joining a titled series' error bars, or
  /// bars coloured by answer whose every colour has its own key entry.
  @Test func everyDrawnSeriesIsInTheKeyAndEveryKeyEntryIsDrawn() throws {
    var checked = 0
    for (report, list) in try Self.reports() {
      for chart in list {
        let elements = Self.plotElements(chart.script)
        let name = "\(report): \(Self.name(chart))"
        #expect(!elements.isEmpty, "\(name): no plot command")
        checked += 1
        let blocks = Self.blocks(chart.file)
        let keyShown = !chart.script.contains("\nunset key")
        let fromZero = chart.script.contains("set yrange [0:")
        if !keyShown {
          let drawing = elements.filter { !$0.isLabels }
          #expect(
            drawing.count == 1 || chart.script.contains("with image") || chart.script.contains("xerrorbars"),
            "\(name): \(drawing.count) things drawn without a key")
          continue
        }
        for e in elements {
          if let title = e.title {
            if let i = e.index {
              #expect(i < blocks.count && !blocks[i].isEmpty, "\(name): \(title) has no data")
            } else if let column = e.text.firstMatch(of: #/using (\d+)/#).flatMap({ Int($0.1) }),
              chart.script.contains("histograms")
            {
              let values = chart.lines.compactMap { line -> Double? in
                let cells = line.split(separator: "\"", omittingEmptySubsequences: false)
                let rest = cells.dropFirst(2).joined(separator: "\"").split(separator: " ")
                return column - 2 < rest.count ? Double(rest[column - 2]) : nil
              }
              #expect(values.contains { $0.isFinite && $0 != 0 }, "\(name): \(title) draws no bar")
            } else if let y = e.text.firstMatch(of: #/^(-?[0-9.e+-]+) with lines/#).flatMap({ Double($0.1) })
            {
              #expect(!fromZero || y >= 0, "\(name): \(title) is below the axis")
            } else if e.text.hasPrefix("NaN with boxes lt ") {
              // A colour of bars coloured by answer: drawn when some
              // segment has that answer (lt = label index + 29).
              let lt = Int(e.style?.split(separator: " ").last ?? "") ?? -1
              let labels = Set(chart.lines.compactMap { Int($0.split(separator: " ")[1]) })
              #expect(labels.contains(lt - 29), "\(name): key entry \(title) has no bar")
            } else if e.text.hasPrefix("NaN with boxes fs transparent") {
              let colour = e.text.firstMatch(of: #/lc rgb '(#[0-9a-f]{6})'/#).map { String($0.1) } ?? "?"
              #expect(
                chart.script.contains("behind fc rgb '\(colour)'"), "\(name): shaded \(title) is not drawn")
            }
          } else if e.isLabels {
            #expect(
              elements.contains { $0.title != nil && $0.index == e.index },
              "\(name): labels of an untitled series")
          } else if e.text.contains("lc variable") {
            let proxies = Set(
              elements.compactMap { $0.text.hasPrefix("NaN with boxes lt ") ? $0.style : nil })
            let used = Set(
              chart.lines.compactMap { Int($0.split(separator: " ")[1]) }.filter { $0 >= 1 }.map {
                "lt \($0 + 29)"
              })
            #expect(
              used == proxies, "\(name): colours drawn \(used.sorted()), in the key \(proxies.sorted())")
          } else {
            let joins =
              e.text.contains("using 1:2 with lines")
              && elements.contains {
                $0.title != nil && $0.index == e.index && $0.text.contains("yerrorbars")
              }
            #expect(joins, "\(name): \(e.text) is drawn without a key entry")
          }
        }
      }
    }
    #expect(checked >= 51)
  }

  /// Two key entries of a chart never look alike: the line styles their
  /// elements use are defined in the script and differ in colour, dash or
  /// point (moderate and vigorous cut-points, the lower and upper limits
  /// of agreement, +20 % and -20 %).
  @Test func distinctKeyEntriesHaveDistinctStyles() throws {
    var compared = 0
    for (report, list) in try Self.reports() {
      for chart in list {
        var definitions: [String: String] = [:]
        for m in chart.script.matches(of: #/set style line (\d+) (.*)/#) {
          definitions["ls \(m.1)"] = String(m.2)
        }
        for m in chart.script.matches(of: #/set linetype (\d+) (.*)/#) {
          definitions["lt \(m.1)"] = String(m.2)
        }
        var seen: [String: String] = [:]
        for e in Self.plotElements(chart.script) {
          guard let title = e.title, let style = e.style else { continue }
          let definition = definitions[style]
          #expect(definition != nil, "\(report): \(Self.name(chart)): \(title) uses \(style), never defined")
          // Bars of a histogram take their fill from the style's colour;
          // lines its colour and dash, points its shape.
          let look =
            (definition ?? style) + (e.text.contains("with points") ? " points" : "")
            + (e.text.contains("fill pattern") ? " hatched" : "")
          if let other = seen[look] {
            Issue.record("\(report): \(Self.name(chart)): \(title) and \(other) are drawn alike (\(look))")
          }
          seen[look] = title
          compared += 1
        }
      }
    }
    #expect(compared >= 100)
  }

  /// The key stands above the plot (`set key above`, gnuplot's top
  /// margin), where no axis title is (no chart sets an x2 or y2 title),
  /// never below it, inside it or at a place of its own; and where
  /// category labels take several lines, the x title is moved down by
  /// as many lines and the bottom margin holds them.
  @Test func theKeyNeverCoversAnAxisTitle() throws {
    var keys = 0
    for (report, list) in try Self.reports() {
      for chart in list {
        let name = "\(report): \(Self.name(chart))"
        #expect(!chart.script.contains("x2label") && !chart.script.contains("y2label"), "\(name)")
        for m in chart.script.matches(of: #/\nset key ([^\n]*)/#) {
          let words = m.1.split(separator: " ")
          #expect(words.first == "above", "\(name): set key \(m.1)")
          #expect(
            !words.contains { ["below", "inside", "at", "bmargin", "lmargin", "rmargin"].contains($0) },
            "\(name): set key \(m.1)")
          keys += 1
        }
        guard chart.script.contains("histograms") else { continue }
        let tickLines =
          chart.lines.compactMap { line -> Int? in
            guard line.hasPrefix("\""), let end = line.dropFirst().firstIndex(of: "\"") else { return nil }
            return line[line.startIndex..<end].components(separatedBy: "\\n").count
          }.max() ?? 1
        #expect(chart.script.contains("set xlabel offset 0,\(-(tickLines - 1))\n"), "\(name)")
        let margin = chart.script.firstMatch(of: #/set bmargin (\d+)/#).flatMap { Int($0.1) } ?? 0
        #expect(margin >= tickLines + 3, "\(name): bottom margin \(margin) for \(tickLines) label lines")
      }
    }
    #expect(keys >= 50)
  }

  /// A Bland-Altman chart of at most 30 pairs labels each point (the
  /// participant or the table cell) and, like every Bland-Altman chart,
  /// draws the line of zero difference.
  @Test func smallBlandAltmanChartsLabelTheirPointsAndDrawZero() throws {
    var small = 0
    for (report, list) in try Self.reports() {
      for chart in list where Self.name(chart).hasSuffix("bland-altman.dat") {
        let name = "\(report): \(Self.name(chart))"
        let elements = Self.plotElements(chart.script)
        #expect(
          elements.contains { $0.text.hasPrefix("0 with lines") && $0.title != nil }, "\(name): no zero line")
        let pairs = Self.blocks(chart.file).first ?? []
        guard pairs.count <= 30 else { continue }
        small += 1
        #expect(
          elements.contains { $0.isLabels && $0.index == 0 }, "\(name): \(pairs.count) points unlabelled")
        let labels = pairs.compactMap {
          $0.split(separator: "\"", omittingEmptySubsequences: false).dropFirst().first
        }
        #expect(labels.count == pairs.count && !labels.contains(""), "\(name): labels \(labels)")
        #expect(Set(labels).count == labels.count, "\(name): two points share a label")
      }
    }
    #expect(small >= 6)
  }

  /// A chart per local hour of the day draws means, not sums over the
  /// days: per worn hour for a recording (the days worn in each hour under
  /// it, never more than the days), per day for travel (every day under
  /// each hour, since an hour without a trip is a true zero); its title
  /// says which and over how many days.
  /// The three-day recording's night hours hold one sedentary hour each:
  /// 1.3 MET (Compendium 2011, 07021) x 70 kg x 1 h = 91 kcal.
  @Test func perHourChartsDrawMeansWithTheirDays() throws {
    var charts = 0
    for (report, list) in try Self.reports() {
      for chart in list
      where chart.script.contains("set xlabel 'local hour (h)'")
        || chart.script.contains("set xlabel 'hour of day")
      {
        charts += 1
        let name = "\(report): \(Self.name(chart))"
        let title = chart.script.firstMatch(of: #/# EnergyLab chart: ([^\n]*)/#).map { String($0.1) } ?? ""
        let accelerometer = chart.script.contains("set xlabel 'local hour (h)'")
        #expect(title.contains(accelerometer ? "per worn hour" : "mean per day"), "\(name): \(title)")
        let days = title.firstMatch(of: #/mean (?:per day )?over (\d+|one) days?/#).map {
          $0.1 == "one" ? 1 : Int($0.1) ?? 0
        }
        #expect(days != nil, "\(name): \(title) says not over how many days")
        for line in chart.lines {
          let behind = line.firstMatch(of: #/^"\d+\\n(\d+) d"/#).flatMap { Int($0.1) }
          #expect(
            behind != nil && behind! <= (days ?? 0), "\(name): \(line) gives no days within \(days ?? 0)")
          #expect(accelerometer || behind == days, "\(name): \(line): not every day is behind the hour")
        }
        if Self.name(chart) == "wear-3-days-10hz-energy.dat" {
          #expect(days == 3)
          let night = chart.lines.first { $0.hasPrefix("\"3\\n") }?.split(separator: "\"").last?.split(
            separator: " "
          ).first
          #expect(abs((night.flatMap { Double($0) } ?? 0) - 1.3 * 70) < 1e-6, "\(name): \(night ?? "none")")
        }
      }
    }
    #expect(charts >= 5)
  }

  /// A Bland-Altman chart whose pairs keep one ratio draws its points on
  /// one line through zero, on which the bias and the limits lie hidden.
  /// Recomputed from each chart's data (x the mean, y the difference, so
  /// a = x + y/2 and b = x - y/2): the relative differences (a - b) / b
  /// must spread over more than a tenth of the largest. The Stanford
  /// walking table's models differ from it by about -37 % at every cell
  /// (the report's relative-error sentence), so their charts are sentences.
  @Test func noBlandAltmanChartDrawsOneConstantRatio() throws {
    var charts = 0
    for (report, list) in try Self.reports() {
      for chart in list where Self.name(chart).hasSuffix("bland-altman.dat") {
        charts += 1
        let relative = (Self.blocks(chart.file).first ?? []).compactMap { line -> Double? in
          let numbers = line.split(separator: " ").prefix(2).compactMap { Double($0) }
          guard numbers.count == 2 else { return nil }
          let (a, b) = (numbers[0] + numbers[1] / 2, numbers[0] - numbers[1] / 2)
          return b == 0 ? nil : (a - b) / b
        }
        guard let low = relative.min(), let high = relative.max() else { continue }
        #expect(
          high - low > 0.1 * max(abs(low), abs(high)),
          "\(report): \(Self.name(chart)) draws one ratio (\(low) to \(high))")
      }
    }
    #expect(charts >= 8)
    let text = try String(
      contentsOfFile: "\(packageRoot)/Reports/pem-walking-evaluation/report.md", encoding: .utf8)
    for model in ["acsm-walking", "cameron-walking", "met"] {
      #expect(
        text.contains("Bland-Altman: \(model) against stanford-walking (n = 375)\" not drawn"),
        "\(model): no sentence in place of the chart")
    }
  }

  /// A bar chart's key entry whose bars are all under 1 % of the chart's
  /// largest value draws nothing a reader can see: such a series is left
  /// out and named in the title instead (a series of zeros gets no key
  /// entry at all).
  @Test func everyBarSeriesIsVisibleAtTheScale() throws {
    var charts = 0
    for (report, list) in try Self.reports() {
      for chart in list where chart.script.contains("histograms") {
        let rows = chart.lines.map { line -> [Double] in
          let rest =
            line.hasPrefix("\"")
            ? String(line.split(separator: "\"", omittingEmptySubsequences: false).last ?? "")
            : String(line.split(separator: " ").dropFirst().joined(separator: " "))
          return rest.split(separator: " ").map { Double($0) ?? .nan }
        }
        guard let width = rows.first?.count, width > 1, rows.allSatisfy({ $0.count == width }) else {
          continue
        }
        charts += 1
        let top = rows.joined().filter(\.isFinite).map(abs).max() ?? 0
        for k in 0..<width {
          let largest = rows.map { abs($0[k]) }.filter(\.isFinite).max() ?? 0
          #expect(
            top == 0 || largest == 0 || largest >= 0.01 * top,
            "\(report): \(Self.name(chart)) series \(k + 1) reaches \(largest) of \(top)")
        }
      }
    }
    #expect(charts >= 3)
  }

  /// The reports of the evaluations against measurements and devices have
  /// the charts a reader of each expects.
  @Test func evaluationReportsHaveTheirCharts() throws {
    let expected: [String: [String]] = [
      "energy-equations-against-measured": ["bias-by-speed_kmh-ml_kg_min", "bias-by-speed_kmh-kcal_per_min"],
      "modes-against-truth": [
        "mode-confusion-energylab", "mode-confusion-energylab-held-out", "mode-confusion-palms",
      ],
      "power-and-training-load": ["power-curve", "edge810-vector-ride-w-prime-balance"],
      "power-meters-against-models": ["agreement-martin-1998-cycling-power-meter-bland-altman"],
    ]
    let reports = Dictionary(uniqueKeysWithValues: try Self.reports().map { ($0.report, $0.charts) })
    for (report, names) in expected {
      let have = Set((reports[report] ?? []).map { String(Self.name($0).dropLast(4)) })
      for name in names { #expect(have.contains(name), "\(report) has no \(name) chart") }
    }
  }
}
