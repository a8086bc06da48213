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

  /// Fixtures/theses.tsv: thesis by name (lower case, hyphens as spaces)
  /// and by citing file ("named" where each citation names its thesis).
  static func theses() throws -> (names: [String: String], files: [String: String]) {
    let text = try String(contentsOfFile: "\(fixtures)/theses.tsv", encoding: .utf8)
    var names: [String: String] = [:]
    var files: [String: String] = [:]
    for line in text.split(separator: "\n") where !line.hasPrefix("#") {
      let f = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
      try #require(f.count == 3 && ["name", "file"].contains(f[0]), "theses.tsv: \(line)")
      if f[0] == "name" { names[normalised(f[1])] = f[2] } else { files[f[1]] = f[2] }
    }
    return (names, files)
  }

  static func normalised(_ text: some StringProtocol) -> String {
    text.lowercased().replacingOccurrences(of: "-", with: " ")
  }

  /// The thesis a citation refers to: its file's, or, in a file whose
  /// citations name their thesis, the thesis name nearest before it on its
  /// line or up to 3 lines above; nil when none is named.
  static func thesis(
    of file: String, line i: Int, lines: [String], column: String.Index,
    names: [String: String], files: [String: String]
  ) -> String? {
    guard let thesis = files[file] else { return nil }
    guard thesis == "named" else { return thesis }
    let texts =
      [normalised(lines[i][..<column])]
      + stride(from: i - 1, through: max(0, i - window), by: -1).map { normalised(lines[$0]) }
    for text in texts {
      let found = names.compactMap { name, thesis in
        text.ranges(of: name).last.map { (text.distance(from: text.startIndex, to: $0.lowerBound), thesis) }
      }
      if let nearest = found.max(by: { $0.0 < $1.0 }) { return nearest.1 }
    }
    return nil
  }

  /// Citations in the citing files: (file, line index, lines, citation,
  /// where it starts on its line).
  static func occurrences() throws -> [(
    file: String, line: Int, lines: [String], citation: String, column: String.Index
  )] {
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
    var found: [(String, Int, [String], String, String.Index)] = []
    for file in files.sorted() {
      let lines = try String(contentsOfFile: "\(packageRoot)/\(file)", encoding: .utf8).components(
        separatedBy: "\n")
      for (i, line) in lines.enumerated() {
        for match in line.matches(of: pattern) {
          found.append((file, i, lines, String(line[match.range]), match.range.lowerBound))
        }
      }
    }
    return found
  }

  /// The rows a citation rests on: of its thesis (a row of another thesis
  /// with the same line number never counts), its line range, and a claim
  /// among the citing lines.
  static func matching(_ rows: [Row], thesis: String, citation: String, near: String) -> [Int] {
    rows.indices.filter {
      rows[$0].thesis == thesis && rows[$0].citation == citation && near.contains(rows[$0].claim)
    }
  }

  /// In the carbon gamification notebook a "questionnaire ... L777" once
  /// rested on the StepMyHealth thesis's L777 row ("questionnaire"); the
  /// file's thesis is 001, so that row does not count, and in a file whose
  /// citations name their thesis the nearest name before the citation
  /// decides (GUIDE.md: Alter Eco is 000, carbon gamification 001, PEM 003).
  @Test func aCitationRestsOnlyOnRowsOfItsThesis() throws {
    let rows = try Self.manifest()
    let (names, files) = try Self.theses()
    let line = "the 1-7 scale is that of the questionnaire, L777"
    let column = try #require(line.range(of: "L777")).lowerBound
    let thesis = Self.thesis(
      of: "Notebooks/carbon-gamification.md", line: 0, lines: [line], column: column, names: names,
      files: files)
    #expect(thesis == "001")
    #expect(rows.contains { $0.thesis == "004" && $0.citation == "L777" && line.contains($0.claim) })
    #expect(Self.matching(rows, thesis: "001", citation: "L777", near: line).isEmpty)
    let named = [
      "as the PEM thesis does (L1018)",
      "plane factor of carbon-gamification-2022 against the Alter Eco thesis L803",
      "the calculator of Fig 7.5 (L573-647)",
    ]
    let cases: [(Int, String, String?)] = [(0, "L1018", "003"), (1, "L803", "000"), (2, "L573", "000")]
    for (i, citation, expected) in cases {
      let at = try #require(named[i].range(of: citation)).lowerBound
      #expect(
        Self.thesis(
          of: "Notebooks/transport-carbon.md", line: i, lines: named, column: at, names: names, files: files)
          == expected, "\(named[i])")
    }
    #expect(
      Self.thesis(
        of: "Notebooks/unlisted.md", line: 0, lines: [line], column: column, names: names, files: files)
        == nil)
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
    let (names, files) = try Self.theses()
    var used = Set<Int>()
    for o in occurrences {
      let near = o.lines[max(0, o.line - Self.window)...min(o.lines.count - 1, o.line + Self.window)].joined(
        separator: "\n")
      guard
        let thesis = Self.thesis(
          of: o.file, line: o.line, lines: o.lines, column: o.column, names: names, files: files)
      else {
        Issue.record(
          "\(o.file):\(o.line + 1): \(o.citation) names no thesis (theses.tsv: the file's thesis, or a thesis name up to \(Self.window) lines before it)"
        )
        continue
      }
      let matching = Self.matching(rows, thesis: thesis, citation: o.citation, near: near)
      used.formUnion(matching)
      #expect(
        !matching.isEmpty,
        "\(o.file):\(o.line + 1): \(o.citation) has no row of thesis \(thesis) in citations.tsv (claim and thesis anchor): \(o.lines[o.line])"
      )
    }
    for k in rows.indices where !used.contains(k) {
      Issue.record("citations.tsv row \(rows[k].citation) \"\(rows[k].claim)\" matches no citation")
    }
  }

  static let seeds = URL(fileURLWithPath: packageRoot).deletingLastPathComponent().appendingPathComponent(
    "shared/seeds"
  ).path

  /// The excerpts are the theses' own lines. The theses are not part of
  /// the checkout (they are not ours to redistribute); beside it (a
  /// development machine) they are compared, otherwise the test is skipped
  /// and says so, and the committed excerpts stand.
  @Test(
    .enabled(
      if: FileManager.default.fileExists(atPath: seeds),
      "../shared/seeds (the five theses, not redistributable) is not beside the checkout"))
  func excerptsMatchTheTheses() throws {
    let seeds = Self.seeds
    let names = try FileManager.default.contentsOfDirectory(atPath: seeds)
    for thesis in try Self.manifest().map(\.thesis).uniqued() {
      let name = try #require(names.first { $0.hasPrefix("\(thesis)_") }, "thesis \(thesis) in \(seeds)")
      let full = try String(contentsOfFile: "\(seeds)/\(name)", encoding: .utf8).components(separatedBy: "\n")
      for (n, line) in try Self.excerpt(thesis) {
        #expect(n <= full.count && full[n - 1] == line, "\(thesis).txt line \(n) differs from \(name)")
      }
    }
  }
}

/// Every author-year citation ("Hall et al. 2004", "Bland and Altman
/// 1999", "Lewis (1995)") in the notebooks, reports, README and model
/// documentation names a reference of Fixtures/references.tsv with the
/// year printed there, its second author when one is named, and no "et
/// al." for a single author; known wrong attributions ("Cameron et al.
/// 2004") fail with what to cite instead. scripts/thesis-citations.py
/// check applies the same rule.
struct AuthorYearCitationTests {
  struct Citation: Equatable {
    var name: String
    var second: String?
    var etAl: Bool
    var year: String
    var line: Int
  }

  /// A capitalised name (with its initials, a "van" or "de" before it),
  /// an optional second author or "et al.", then the year, in brackets or
  /// not; a year followed by ";" and a digit is a journal's volume.
  static let pattern = try! NSRegularExpression(
    pattern:
      #"(?<![\w.])((?:van |de )?[A-Z][A-Za-z\u2019'-]+)(?: [A-Z]{1,3}(?= ))?(?:,? +(?:and|&|&amp;) +((?:van |de )?[A-Z][A-Za-z\u2019'-]+))?( +et al\.?)?,? +\(?((?:19|20)\d\d)(?!\d|;\d)"#
  )

  /// The citations of a text; a line break (with a comment's slashes) is
  /// read as a space, so a citation broken over two lines is still one.
  static func citations(in text: String) -> [Citation] {
    var units = Array(text.utf16)
    var newlineOffsets: [Int] = []
    var i = 0
    while i < units.count {
      if units[i] == 10 {
        newlineOffsets.append(i)
        units[i] = 32
        var j = i + 1
        while j < units.count, units[j] == 32 || units[j] == 9 { j += 1 }
        while j < units.count, units[j] == 47 {
          units[j] = 32
          j += 1
        }
        i = j
      } else {
        i += 1
      }
    }
    let flat = String(decoding: units, as: UTF16.self) as NSString
    return pattern.matches(in: flat as String, range: NSRange(location: 0, length: flat.length)).map { m in
      func group(_ k: Int) -> String? {
        m.range(at: k).location == NSNotFound ? nil : flat.substring(with: m.range(at: k))
      }
      return Citation(
        name: group(1) ?? "", second: group(2), etAl: group(3) != nil, year: group(4) ?? "",
        line: newlineOffsets.prefix { $0 < m.range.location }.count + 1)
    }
  }

  /// references.tsv rows by name: name, year, authors, title and journal.
  static func references() throws -> [String: [[String]]] {
    let text = try String(contentsOfFile: "\(CitationTests.fixtures)/references.tsv", encoding: .utf8)
    var rows: [String: [[String]]] = [:]
    for line in text.split(separator: "\n") where !line.hasPrefix("#") {
      let f = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
      try #require(f.count == 4, "references.tsv: expected 4 tab-separated fields: \(line)")
      rows[f[0], default: []].append(f)
    }
    return rows
  }

  /// A citation without a year: "Name et al." or "Name and Name" with no
  /// year after it. Words in quotation marks (a thesis quoted as it
  /// wrote) are not citations of ours.
  static let yearless = try! NSRegularExpression(
    pattern:
      #"(?<![\w."\u201C-])((?:van |de )?[A-Z][A-Za-z\u2019'-]+)(?:(?:,? +(?:and|&|&amp;) +((?:van |de )?[A-Z][A-Za-z\u2019'-]+))|( +et al\.?))(?!'s)(?![,.]? *\(?(?:[A-Z][a-z]+ )?(?:19|20)\d\d)(?![\w-])"#
  )

  /// Citations without a year in `text`, by the same line rule as
  /// `citations(in:)`.
  static func yearlessCitations(in text: String) -> [Citation] {
    let flat = text as NSString
    return yearless.matches(in: text, range: NSRange(location: 0, length: flat.length)).map { m in
      func group(_ k: Int) -> String? {
        m.range(at: k).location == NSNotFound ? nil : flat.substring(with: m.range(at: k))
      }
      let line = flat.substring(to: m.range.location).filter { $0 == "\n" }.count + 1
      return Citation(name: group(1) ?? "", second: group(2), etAl: group(3) != nil, year: "", line: line)
    }
  }

  /// Why a citation without a year names no reference as listed, or nil:
  /// "Name et al." needs a reference whose first author is Name, with
  /// more than one author; "Name and Other" is checked when Name is a
  /// first author of the list (otherwise it is prose, as "Swift and
  /// Python"): Other must be the second author of one of Name's.
  static func yearlessProblem(_ c: Citation, _ references: [String: [[String]]]) -> String? {
    let known = (references[c.name] ?? []).filter { $0[1] != "*" && $0[2] != "-" }
    let surnames = known.map { row in
      row[2].components(separatedBy: ", ").map { author in
        let words = author.split(separator: " ")
        return words.count > 1 ? words.dropLast().joined(separator: " ") : author
      }
    }
    if c.etAl {
      guard !known.isEmpty else {
        let firstAuthors = references.values.flatMap { $0 }.filter {
          $0[2].components(separatedBy: ", ").dropFirst().contains { $0.hasPrefix(c.name + " ") }
        }
        let instead = firstAuthors.first.map { " (\($0[2]) \($0[1]) is \($0[0]) et al.)" } ?? ""
        return "\(c.name) et al.: no reference with first author \(c.name) in references.tsv\(instead)"
      }
      if surnames.allSatisfy({ $0.count == 1 }) {
        return "\(c.name) et al.: \(c.name) wrote alone, so no et al."
      }
      return nil
    }
    guard let second = c.second, !known.isEmpty else { return nil }
    if surnames.contains(where: { $0.count > 1 && $0[1] == second }) { return nil }
    return
      "\(c.name) and \(second): the references of \(c.name) list \(known.map { $0[2] }.joined(separator: "; "))"
  }

  /// Why a citation does not match the references, or nil.
  static func problem(_ c: Citation, _ references: [String: [[String]]]) -> String? {
    let known = references[c.name] ?? []
    if known.contains(where: { $0[1] == "*" }) { return nil }
    let cited = "\(c.name)\(c.second.map { " and \($0)" } ?? "")\(c.etAl ? " et al." : "") \(c.year)"
    guard !known.isEmpty else { return "\(cited): no reference \(c.name) in references.tsv" }
    guard let row = known.first(where: { $0[1] == c.year }) else {
      return "\(cited): references.tsv has \(c.name) only in \(known.map { $0[1] }.joined(separator: ", "))"
    }
    if row[2] == "-" { return "\(cited): \(row[3])" }
    let surnames = row[2].components(separatedBy: ", ").map { author in
      let words = author.split(separator: " ")
      return words.count > 1 ? words.dropLast().joined(separator: " ") : author
    }
    if let second = c.second, surnames.count < 2 || surnames[1] != second {
      return "\(cited): the authors of \(c.name) \(c.year) are \(row[2])"
    }
    if c.etAl && surnames.count == 1 { return "\(cited): \(c.name) \(c.year) has one author, so no et al." }
    return nil
  }

  @Test func everyAuthorYearCitationIsAKnownReference() throws {
    let references = try Self.references()
    let fm = FileManager.default
    var files = ["README.md"]
    for name in try fm.contentsOfDirectory(atPath: "\(packageRoot)/Notebooks") where name.hasSuffix(".md") {
      files.append("Notebooks/\(name)")
    }
    for name in try fm.contentsOfDirectory(atPath: "\(packageRoot)/Reports") where !name.hasPrefix(".") {
      files.append("Reports/\(name)/report.md")
    }
    for folder in ["Sources/EnergyModels", "Sources/Estimation"] {
      let names = try fm.contentsOfDirectory(atPath: "\(packageRoot)/\(folder)")
      files += names.filter { $0.hasSuffix(".swift") }.map { "\(folder)/\($0)" }
    }
    var count = 0
    for file in files.sorted() {
      let text = try String(contentsOfFile: "\(packageRoot)/\(file)", encoding: .utf8)
      for c in Self.citations(in: text) {
        count += 1
        if let problem = Self.problem(c, references) { Issue.record("\(file):\(c.line): \(problem)") }
      }
      for c in Self.yearlessCitations(in: text) {
        if let problem = Self.yearlessProblem(c, references) { Issue.record("\(file):\(c.line): \(problem)") }
      }
    }
    // Hall et al. 2004, Keytel et al. 2005, Bland and Altman 1999 and the
    // rest are found in the shipped text (about 150 citations).
    #expect(count >= 100)
  }

  @Test(arguments: [
    ("the equation of Cameron et al. 2004", "Cameron is the first name"),
    ("as Hall et al. (2005) found", "references.tsv has Hall only in 2004"),
    ("limits (Bland and Smith 1999)", "the authors of Bland 1999 are Bland JM, Altman DG"),
    ("507 kcal (Birdsley et al.\n2005)", "Birdsley 2005 has one author"),
    ("/// after Smith\n/// 2010, a guess", "no reference Smith"),
  ])
  func wrongCitationsAreCaught(text: String, expected: String) throws {
    let found = Self.citations(in: text)
    #expect(found.count == 1, "\(found)")
    let problems = try found.compactMap { Self.problem($0, try Self.references()) }
    #expect(problems.count == 1 && problems[0].contains(expected), "\(problems)")
  }

  /// Citations without a year are checked too: "Hay et al." names the
  /// second author of Rassia, Hay, Beresford and Baker (2009) as if first;
  /// "Bland and Smith" names a second author Bland never had. Quoted
  /// words, prose ("Swift and Python") and right ones pass.
  @Test func citationsWithoutAYearAreChecked() throws {
    let references = try Self.references()
    let wrong = try #require(Self.yearlessCitations(in: "the kinetic model after Hay et al., as").first)
    #expect(Self.yearlessProblem(wrong, references)?.contains("first author Hay") == true)
    #expect(Self.yearlessProblem(wrong, references)?.contains("Rassia et al.") == true)
    let second = try #require(Self.yearlessCitations(in: "the limits of Bland and Smith show").first)
    #expect(Self.yearlessProblem(second, references)?.contains("Bland JM, Altman DG") == true)
    let fine =
      "limits of Bland and Altman, as Hall et al. found; Swift and Python; the thesis's \"Hay et al.\""
    let found = Self.yearlessCitations(in: fine)
    #expect(found.map(\.name) == ["Bland", "Hall", "Swift"], "\(found)")
    #expect(found.compactMap { Self.yearlessProblem($0, references) } == [])
  }

  @Test func rightCitationsPass() throws {
    let text = """
      Hall et al. (2004), Bland & Altman 1999, Lewis (1995), Birdsley
      2005; in July 2020; Med Sci Sports Exerc 2004;36(12):2128-2134
      """
    let found = Self.citations(in: text)
    #expect(found.map(\.name) == ["Hall", "Bland", "Lewis", "Birdsley", "July"])
    #expect(found.map(\.line) == [1, 1, 1, 1, 2])
    #expect(try found.compactMap { Self.problem($0, try Self.references()) } == [])
  }
}

extension Array where Element: Hashable {
  fileprivate func uniqued() -> [Element] {
    var seen = Set<Element>()
    return filter { seen.insert($0).inserted }
  }
}

/// Every notebook that cites a thesis ends with the table of what its
/// report reproduces: one row per thesis item, naming the item (a line,
/// figure, table, equation or appendix of the thesis, or saying that it
/// is not in the thesis), with one of three statuses and a reason.
struct ReproductionTableTests {
  static let heading = "## What this report reproduces, and what it cannot"
  static let statuses: Set = ["reproduced", "reproduced under a stated assumption", "cannot be reproduced"]

  static func thesisNotebooks() throws -> [String] {
    let pattern = try Regex(#"\bL[0-9]{2,4}(-L?[0-9]{2,4})?\b"#)
    return try FileManager.default.contentsOfDirectory(atPath: "\(packageRoot)/Notebooks").filter { name in
      guard name.hasSuffix(".md") else { return false }
      let text = try String(contentsOfFile: "\(packageRoot)/Notebooks/\(name)", encoding: .utf8)
      return text.contains(pattern)
    }.sorted()
  }

  @Test func everyThesisNotebookEndsWithItsReproductionTable() throws {
    let notebooks = try Self.thesisNotebooks()
    // PEM, Alter Eco, nudge, StepMyHealth, carbon gamification, the
    // accelerometer day and transport carbon cite the theses.
    #expect(notebooks.count >= 7, "\(notebooks)")
    let item = try Regex(#"\bL[0-9]{2,4}\b|\b(Fig|Table|Eqs?|Appendix) [0-9A-Z]|not in the thesis"#)
    for name in notebooks {
      let text = try String(contentsOfFile: "\(packageRoot)/Notebooks/\(name)", encoding: .utf8)
      let sections = text.components(separatedBy: "\n## ")
      let last = "## " + (sections.last ?? "")
      guard sections.count > 1, last.hasPrefix(Self.heading + "\n") else {
        Issue.record("\(name): the last section is not \"\(Self.heading)\"")
        continue
      }
      let rows = last.split(separator: "\n").filter { $0.hasPrefix("| ") && !$0.hasPrefix("| ---") }
      #expect(rows.first == "| thesis item | status | why |", "\(name): \(rows.first ?? "no table")")
      #expect(rows.count >= 3, "\(name): a header and at least one item")
      for row in rows.dropFirst() {
        let cells = row.split(separator: "|", omittingEmptySubsequences: false).map {
          $0.trimmingCharacters(in: .whitespaces)
        }
        guard cells.count == 5 else {
          Issue.record("\(name): expected 3 cells in \(row)")
          continue
        }
        #expect(cells[1].contains(item), "\(name): the item names no thesis line or figure: \(cells[1])")
        #expect(Self.statuses.contains(cells[2]), "\(name): status \"\(cells[2])\" in \(row)")
        #expect(cells[3].count >= 20, "\(name): no reason in \(row)")
      }
    }
  }
}
