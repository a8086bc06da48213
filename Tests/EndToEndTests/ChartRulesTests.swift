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
