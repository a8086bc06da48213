import EnergyLabCore
import Foundation
import Reporting
import Testing

/// A survey title starting with `'` got no chart: gnuplot's scanner reads
/// `'''Green'' routes'` as an empty string and a stray token. A title
/// ending in `\` as a comment joined the next line to it.
struct ChartTitleQuoteTests {
  @Test func aLeadingQuoteIsJoinedOnAsADoubleQuotedQuote() {
    #expect(GnuplotChart.quote("'Green' routes") == "\"'\".'Green'' routes'")
    #expect(GnuplotChart.quote("''x") == "\"'\".\"'\".'x'")
    #expect(GnuplotChart.quote("A 'Green' route") == "'A ''Green'' route'")
  }

  @Test(
    .enabled(
      if: GnuplotRenderer.gnuplotPath() != nil,
      "gnuplot is not installed (scripts/install-deps installs gnuplot-nox)"),
    arguments: [
      "'Green' routes are better", "Routes ending in a slash\\", "'", "x'; system('touch PWNED'); '",
    ])
  func titlesWithQuotesAndBackslashesDraw(title: String) throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "energylab-quote-\(UUID().uuidString)"
    ).path
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let chart = GnuplotChart(
      name: "q", title: title, xLabel: title, yLabel: "y",
      series: [.init(title: title, style: .lines, points: [.init(0, 1), .init(1, 2), .init(2, 3)])])
    let rendered = try GnuplotRenderer.render(chart, into: folder)
    // Every data row is there: no comment swallowed the first.
    let data = try String(contentsOfFile: "\(folder)/q.dat", encoding: .utf8)
    #expect(data.split(separator: "\n").filter { !$0.hasPrefix("#") }.count >= 3)
    #expect(!data.split(separator: "\n").contains { $0.hasPrefix("#") && $0.hasSuffix("\\") })
    #expect(rendered.skippedReason == nil, "\(rendered.skippedReason ?? "")")
    #expect(FileManager.default.fileExists(atPath: "\(folder)/q.png"))
    #expect(!FileManager.default.fileExists(atPath: "\(folder)/PWNED"))
  }
}
