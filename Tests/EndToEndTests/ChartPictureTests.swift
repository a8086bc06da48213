import Foundation
import TestSupport
import Testing

/// A text drawn in an SVG chart, with the box it covers estimated from its
/// font size: about 0.6 font sizes per character (a sans-serif average,
/// generous for narrow letters), 0.8 above the baseline and 0.25 below.
struct DrawnText {
  var text: String
  var x: Double
  var y: Double
  var degrees: Double
  var fontSize: Double
  var anchor: String

  /// Corners of the estimated box on the canvas, rotation applied.
  var corners: [(x: Double, y: Double)] {
    let width = 0.6 * fontSize * Double(text.count)
    let left = anchor == "end" ? -width : anchor == "middle" ? -width / 2 : 0
    let radians = degrees * .pi / 180
    return [
      (left, -0.8 * fontSize), (left + width, -0.8 * fontSize), (left, 0.25 * fontSize),
      (left + width, 0.25 * fontSize),
    ]
    .map { (x + $0.0 * cos(radians) - $0.1 * sin(radians), y + $0.0 * sin(radians) + $0.1 * cos(radians)) }
  }

  var box: (minX: Double, minY: Double, maxX: Double, maxY: Double) {
    let c = corners
    return (c.map(\.x).min()!, c.map(\.y).min()!, c.map(\.x).max()!, c.map(\.y).max()!)
  }

  func overlaps(_ other: DrawnText) -> Bool {
    let a = box
    let b = other.box
    return a.minX < b.maxX && b.minX < a.maxX && a.minY < b.maxY && b.minY < a.maxY
  }
}

/// What a gnuplot SVG draws: its canvas and its texts.
struct SVGChart {
  var width: Double
  var height: Double
  var texts: [DrawnText]

  init(_ svg: String) throws {
    let viewBox = try #require(firstMatch(#"viewBox="0 0 ([0-9.]+) ([0-9.]+)""#, in: svg))
    width = Double(viewBox[1])!
    height = Double(viewBox[2])!
    let pattern =
      #"<g transform="translate\(([-0-9.]+),([-0-9.]+)\)(?: rotate\(([-0-9.]+)\))?"[^>]*?font-size="([0-9.]+)"[^>]*?text-anchor="(\w+)"[^>]*>\s*<text>(.*?)</text>"#
    texts = allMatches(pattern, in: svg).map { m in
      DrawnText(
        text: SVGChart.plain(m[6]), x: Double(m[1])!, y: Double(m[2])!, degrees: Double(m[3]) ?? 0,
        fontSize: Double(m[4])!, anchor: m[5])
    }
  }

  /// Text content without tags, entities decoded, outer spaces trimmed.
  static func plain(_ markup: String) -> String {
    var s = markup.replacingOccurrences(of: #"<[^>]+>"#, with: "", options: .regularExpression)
    for (entity, c) in [("&lt;", "<"), ("&gt;", ">"), ("&quot;", "\""), ("&apos;", "'"), ("&amp;", "&")] {
      s = s.replacingOccurrences(of: entity, with: c)
    }
    return s.trimmingCharacters(in: .whitespaces)
  }

  func isInside(_ t: DrawnText) -> Bool {
    t.corners.allSatisfy { $0.x >= -0.5 && $0.x <= width + 0.5 && $0.y >= -0.5 && $0.y <= height + 0.5 }
  }

  /// Numbers drawn as y tick labels (right-aligned, unrotated).
  var yTickValues: [Double] {
    texts.filter { $0.anchor == "end" && $0.degrees == 0 }.compactMap { Double($0.text) }
  }
}

/// What a chart script asks gnuplot to draw.
struct ChartScript {
  var title: String
  var xLabel: String
  var yLabel: String
  var keyEntries: [String]

  init(_ script: String) {
    let lines = script.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    func quoted(after prefix: String) -> String {
      guard let line = lines.first(where: { $0.hasPrefix(prefix) }),
        let m = firstMatch(#"'((?:[^']|'')*)'"#, in: String(line.dropFirst(prefix.count)))
      else { return "" }
      return m[1].replacingOccurrences(of: "''", with: "'")
    }
    title = lines.first { $0.hasPrefix("# EnergyLab chart: ") }.map { String($0.dropFirst(19)) } ?? ""
    xLabel = quoted(after: "set xlabel ")
    yLabel = quoted(after: "set ylabel ")
    let keyShown = !lines.contains("unset key")
    keyEntries =
      keyShown
      ? lines.filter { !$0.hasPrefix("set ") && !$0.hasPrefix("#") }.flatMap { line in
        allMatches(#" title '((?:[^']|'')*)'"#, in: line).map {
          $0[1].replacingOccurrences(of: "''", with: "'")
        }
      } : []
  }
}

func firstMatch(_ pattern: String, in text: String) -> [String]? {
  allMatches(pattern, in: text).first
}

func allMatches(_ pattern: String, in text: String) -> [[String]] {
  let regex = try! NSRegularExpression(pattern: pattern, options: [.dotMatchesLineSeparators])
  let ns = text as NSString
  return regex.matches(in: text, range: NSRange(location: 0, length: ns.length)).map { m in
    (0..<m.numberOfRanges).map { i in
      m.range(at: i).location == NSNotFound ? "" : ns.substring(with: m.range(at: i))
    }
  }
}

/// Every chart the notebooks make is checked as the picture gnuplot draws
/// (its SVG), not only as a script: each text lies on the canvas, the
/// title, axis titles and key entries are all drawn, the title whole
/// (wrapped, never cut), the x title and title clear of other text, axes
/// of counts reach the respondents n, and axes of rates and counts start
/// at zero.
struct ChartPictureTests {
  static let gnuplotInstalled =
    (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").contains {
      FileManager.default.isExecutableFile(atPath: "\($0)/gnuplot")
    }

  @Test(
    .enabled(if: gnuplotInstalled, "gnuplot is not installed (scripts/install-deps installs gnuplot-nox)"))
  func everyChartFitsItsCanvas() throws {
    let scratch = try scratchFolder()
    let run = try energylab(
      ["run", "--reproducible", "--quiet", "--reports-dir", scratch], in: packageRoot)
    #expect(run.status == 0, "\(run.stderr)")
    let fm = FileManager.default
    let svgs = try #require(fm.subpathsOfDirectory(atPath: scratch) as [String]?).filter {
      $0.hasSuffix(".svg")
    }.sorted()
    #expect(svgs.count >= 40, "expected the notebooks' charts, found \(svgs.count)")
    for file in svgs {
      let picture = try SVGChart(String(contentsOfFile: "\(scratch)/\(file)", encoding: .utf8))
      let script = ChartScript(
        try String(contentsOfFile: "\(scratch)/\(file.dropLast(4)).gp", encoding: .utf8))
      for t in picture.texts where !picture.isInside(t) {
        Issue.record("\(file): \"\(t.text)\" is cut or off the canvas")
      }
      let drawn = picture.texts.map(\.text)
      let words = drawn.joined(separator: " ").split(separator: " ").joined(separator: " ")
      let titleWords = script.title.split(separator: " ").joined(separator: " ")
      #expect(words.contains(titleWords), "\(file): title not drawn whole: \(script.title)")
      for label in [script.xLabel, script.yLabel] + script.keyEntries where !label.isEmpty {
        #expect(drawn.contains(label), "\(file): \"\(label)\" is not drawn")
      }
      // No text runs into another (tick labels, titles, key entries).
      for (i, t) in picture.texts.enumerated() {
        for other in picture.texts[(i + 1)...] where t.overlaps(other) {
          Issue.record("\(file): \"\(t.text)\" overlaps \"\(other.text)\"")
        }
      }
      let ticks = picture.yTickValues
      if let n = firstMatch(#"^(?:respondents|exact respondents) \(n = ([0-9]+)\)"#, in: script.yLabel) {
        #expect((ticks.max() ?? 0) >= Double(n[1])!, "\(file): y axis stops below n = \(n[1])")
      }
      if firstMatch(#"kcal/min|counts/min|per hour|m/s|respondents|percent"#, in: script.yLabel) != nil {
        #expect((ticks.min() ?? 0) <= 0, "\(file): y axis of a rate or count starts above zero")
      }
    }
  }
}
