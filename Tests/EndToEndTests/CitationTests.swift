import Foundation
import TestSupport
import Testing

/// Every thesis line citation ("L842-848") in the notebooks, reports and
/// shipped data is checked against the thesis text it names: the citing
/// words (a manifest row's claim) stand within 3 lines of the citation,
/// and the thesis words the claim rests on (its anchor) stand within 3
/// lines of the cited range. The thesis lines are kept in
/// Fixtures/theses/ (written by scripts/thesis-citations.py excerpts from
/// the theses); where the theses themselves are present beside the
/// checkout (../shared/seeds/), the excerpts are compared with them too.
struct CitationTests {
  static let fixtures = "\(packageRoot)/Tests/EndToEndTests/Fixtures"
  static let window = 3

  struct Row {
    var thesis: String
    var citation: String
    var claim: String
    var anchor: String
    var range: ClosedRange<Int>
  }

  static func range(_ citation: String) -> ClosedRange<Int>? {
    let parts = citation.dropFirst().split(separator: "-").map { $0.hasPrefix("L") ? $0.dropFirst() : $0 }
    guard citation.hasPrefix("L"), let start = parts.first.flatMap({ Int($0) }) else { return nil }
    let end = parts.count > 1 ? Int(parts[1]) ?? start : start
    return start <= end ? start...end : nil
  }

  static func manifest() throws -> [Row] {
    let text = try String(contentsOfFile: "\(fixtures)/citations.tsv", encoding: .utf8)
    return try text.split(separator: "\n").filter { !$0.hasPrefix("#") }.map { line in
      let f = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
      let cited = try #require(f.count == 4 ? range(f[1]) : nil, "citations.tsv: \(line)")
      return Row(thesis: f[0], citation: f[1], claim: f[2], anchor: f[3], range: cited)
    }
  }

  /// Thesis lines by number, from the excerpt file.
  static func excerpt(_ thesis: String) throws -> [Int: String] {
    let text = try String(contentsOfFile: "\(fixtures)/theses/\(thesis).txt", encoding: .utf8)
    var lines: [Int: String] = [:]
    for line in text.split(separator: "\n", omittingEmptySubsequences: false) where !line.hasPrefix("#") {
      guard let tab = line.firstIndex(of: "\t"), let n = Int(line[..<tab]) else { continue }
      lines[n] = String(line[line.index(after: tab)...])
    }
    return lines
  }

  /// Citations in the citing files: (file, line index, lines, citation).
  static func occurrences() throws -> [(file: String, line: Int, lines: [String], citation: String)] {
    var files: [String] = []
    let fm = FileManager.default
    for name in try fm.contentsOfDirectory(atPath: "\(packageRoot)/Notebooks") where name.hasSuffix(".md") {
      files.append("Notebooks/\(name)")
    }
    for name in try fm.contentsOfDirectory(atPath: "\(packageRoot)/Reports") where !name.hasPrefix(".") {
      files.append("Reports/\(name)/report.md")
    }
    let datasets = fm.enumerator(atPath: "\(packageRoot)/Datasets")
    while let path = datasets?.nextObject() as? String {
      if path.hasSuffix("README.md") || path.hasSuffix(".csv") { files.append("Datasets/\(path)") }
    }
    let pattern = try Regex(#"\bL[0-9]{2,4}(-L?[0-9]{2,4})?\b"#)
    var found: [(String, Int, [String], String)] = []
    for file in files.sorted() {
      let lines = try String(contentsOfFile: "\(packageRoot)/\(file)", encoding: .utf8).components(
        separatedBy: "\n")
      for (i, line) in lines.enumerated() {
        for match in line.matches(of: pattern) { found.append((file, i, lines, String(line[match.range]))) }
      }
    }
    return found
  }

  @Test func everyCitationRestsOnTheThesisText() throws {
    let rows = try Self.manifest()
    var excerpts: [String: [Int: String]] = [:]
    for thesis in Set(rows.map(\.thesis)) { excerpts[thesis] = try Self.excerpt(thesis) }
    for row in rows {
      let lines = excerpts[row.thesis] ?? [:]
      let around = (row.range.lowerBound - Self.window)...(row.range.upperBound + Self.window)
      let text = around.compactMap { lines[$0] }.joined(separator: "\n")
      #expect(
        row.range.allSatisfy { lines[$0] != nil },
        "\(row.thesis) \(row.citation): cited lines not in the excerpt")
      #expect(
        text.contains(row.anchor), "thesis \(row.thesis) \(row.citation) does not say \"\(row.anchor)\"")
    }
    let occurrences = try Self.occurrences()
    #expect(occurrences.count >= 200)
    var used = Set<Int>()
    for o in occurrences {
      let near = o.lines[max(0, o.line - Self.window)...min(o.lines.count - 1, o.line + Self.window)].joined(
        separator: "\n")
      let matching = rows.indices.filter { rows[$0].citation == o.citation && near.contains(rows[$0].claim) }
      used.formUnion(matching)
      #expect(
        !matching.isEmpty,
        "\(o.file):\(o.line + 1): \(o.citation) has no row in citations.tsv (claim and thesis anchor): \(o.lines[o.line])"
      )
    }
    for k in rows.indices where !used.contains(k) {
      Issue.record("citations.tsv row \(rows[k].citation) \"\(rows[k].claim)\" matches no citation")
    }
  }

  /// The excerpts are the theses' own lines.
  @Test func excerptsMatchTheTheses() throws {
    let seeds = URL(fileURLWithPath: packageRoot).deletingLastPathComponent().appendingPathComponent(
      "shared/seeds"
    ).path
    // The theses are not part of the checkout; beside it (a development
    // machine) they are compared, otherwise the committed excerpts stand.
    guard let names = try? FileManager.default.contentsOfDirectory(atPath: seeds) else { return }
    for thesis in try Self.manifest().map(\.thesis).uniqued() {
      let name = try #require(names.first { $0.hasPrefix("\(thesis)_") }, "thesis \(thesis) in \(seeds)")
      let full = try String(contentsOfFile: "\(seeds)/\(name)", encoding: .utf8).components(separatedBy: "\n")
      for (n, line) in try Self.excerpt(thesis) {
        #expect(n <= full.count && full[n - 1] == line, "\(thesis).txt line \(n) differs from \(name)")
      }
    }
  }
}

extension Array where Element: Hashable {
  fileprivate func uniqued() -> [Element] {
    var seen = Set<Element>()
    return filter { seen.insert($0).inserted }
  }
}
