import Foundation
import TestSupport
import Testing

/// No figure in a notebook's prose is typed by hand: a figure a run
/// computes is put there by a `{{name.column}}` placeholder from the run
/// that computes it, so prose and the tables beside it cannot disagree,
/// and a figure moves when its run does (issue 50: the PEM report's
/// section 4 said 42.90 kcal, typed, while its table said 49.43).
///
/// Prose is a notebook's text outside fenced blocks (what commands print
/// reaches the report from the run, not from the notebook). In it, every
/// number written in digits must be one of:
///
/// 1. computed: inside a `{{...}}` placeholder;
/// 2. literal text: inside an inline code span (a command, a flag, a file
///    or column name), a link's target, or an HTML comment;
/// 3. part of a name: digits joined to a letter (`K5`, `v2`) or a unit's
///    exponent (`m^2`), following a word and a hyphen (`keytel-2005`,
///    `Apache-2.0`), a thesis line citation (`L553-554`), an ISO 8601
///    date or clock time (`2011-03-07`, `07:00`), or one of the names in
///    `names` (ISO 8601, CC BY 4.0, ...);
/// 4. a reference to a part of a text or an identifier: a heading's
///    section number, and the numbers after "section", "table", "figure",
///    "fig", "eq", "equation", "chapter", "item", "issue", "question", "Q", "participant"
///    or "code";
/// 5. the year of an author-year citation ("Skiba et al. 2012", by
///    `AuthorYearCitationTests.pattern`, so the citation check covers it);
/// 6. an input of the notebook: equal to a number written in one of its
///    commands or its parameters block (`--epoch 60s` lets the prose say
///    60 s; `mass = 70kg`, 70 kg), so the prose states what the run was
///    asked, not what it found;
/// 7. a quoted thesis figure: in a sentence that carries a thesis line
///    citation, and written (as typed, or without its thousands commas)
///    in the thesis lines cited (3 lines either side, as the citation
///    check reads them, from Fixtures/theses/);
/// 8. a published or stated figure listed in Fixtures/typed-figures.tsv
///    with its source: an author-year citation, or a file of this
///    repository (a dataset's README, a generator script) that writes the
///    number; the source must be named in the number's paragraph, and a
///    file source must hold the number.
///
/// Numbers written as words ("two minutes") are not read, nor the
/// constants of a placeholder's expression (`{{100 * a.x / b.x :1}}`),
/// which the notebook shows beside the value's name.
///
/// Notebooks written before the rule keep their remaining typed figures
/// in Fixtures/unconverted-figures.tsv (notebook, number, how many
/// times): a figure beyond its count fails, and so does a count above
/// what the notebook still holds, so the list only shrinks.
struct ProseFigureTests {
  static let fixtures = "\(packageRoot)/Tests/EndToEndTests/Fixtures"

  /// Names that hold digits and are not figures.
  static let names = [
    "ISO 8601", "RFC 4180", "CC BY-SA 4.0", "CC BY 4.0", "CC BY-NC 4.0", "CC0 1.0", "Swift 6.3",
    "GRDB 7.10.0",
    "Edge 810", "Fenix 6", "Forerunner 945", "iPhone SE (2nd", "Python 3", "Windows 10", "COVID-19",
    "SQLite 3", "UTF-8", "Likert-5", "Ubuntu 24.04", "Web 2.0", "24-hour clock", "BSD 3-clause", "ICC(A,1)",
    "ICC(3,1)", "2-parameter", "3-parameter",
  ]

  struct Figure: CustomStringConvertible {
    var file: String
    var line: Int
    var number: String
    var paragraph: String
    var description: String { "\(file):\(line): \(number)" }
  }

  struct Listed {
    var file: String
    var number: String
    var source: String
    var what: String
  }

  /// Fixtures/typed-figures.tsv: notebook, number as typed, source, what.
  static func listed() throws -> [Listed] {
    let text = try String(contentsOfFile: "\(fixtures)/typed-figures.tsv", encoding: .utf8)
    return try text.split(separator: "\n").filter { !$0.hasPrefix("#") }.map { line in
      let f = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
      try #require(f.count == 4, "typed-figures.tsv: expected 4 tab-separated fields: \(line)")
      return Listed(file: f[0], number: f[1], source: f[2], what: f[3])
    }
  }

  /// Thesis lines of every excerpt, by thesis and line number.
  static func theses() throws -> [String: [Int: String]] {
    var all: [String: [Int: String]] = [:]
    for name in try FileManager.default.contentsOfDirectory(atPath: "\(fixtures)/theses")
    where name.hasSuffix(".txt") {
      let thesis = String(name.dropLast(4))
      all[thesis] = try CitationTests.excerpt(thesis)
    }
    return all
  }

  static var number: Regex<AnyRegexOutput> { try! Regex(#"[+-]?[0-9][0-9,]*(\.[0-9]+)?"#) }
  static var lineCitation: Regex<AnyRegexOutput> { try! Regex(#"\bL[0-9]{2,4}(-L?[0-9]{2,4})?\b"#) }
  static var reference: Regex<AnyRegexOutput> {
    try! Regex(
      #"(?i)\b(sections?|tables?|figures?|figs?\.?|eqs?\.?|equations?|chapters?|items?|issues?|questions?|Q|§|participants?|code)\s*[0-9]+(\.[0-9]+)*((,|,? and|,? or|-)\s*[0-9]+(\.[0-9]+)*)*"#
    )
  }
  static var isoTime: Regex<AnyRegexOutput> {
    try! Regex(#"\b[0-9]{4}-[0-9]{2}-[0-9]{2}(T[0-9:.]+Z?)?\b|\b[0-9]{2}:[0-9]{2}(:[0-9]{2})?\b"#)
  }
  static var code: Regex<AnyRegexOutput> {
    try! Regex(#"`[^`]*`|\{\{.*?\}\}|\]\([^)]*\)|<!--.*?-->|https?://\S+"#)
  }

  /// The numbers written in a notebook's commands and parameters, as values.
  static func inputs(_ text: String) -> Set<Double> {
    var values: Set<Double> = []
    var inBlock = false
    for line in text.components(separatedBy: "\n") {
      if line.hasPrefix("```") {
        inBlock.toggle()
        continue
      }
      guard inBlock, !line.hasPrefix("#") else { continue }
      for m in line.matches(of: try! Regex(#"[0-9]+(\.[0-9]+)?"#)) {
        if let x = Double(line[m.range]) { values.insert(x) }
      }
    }
    return values
  }

  /// The typed figures of a notebook's prose that none of rules 1-7 allow.
  static func candidates(file: String, text: String, theses: [String: [Int: String]]) -> [Figure] {
    let inputs = inputs(text)
    let lines = text.components(separatedBy: "\n")
    let thesisOfFile = (try? CitationTests.theses().files[file]) ?? nil
    var figures: [Figure] = []
    // Paragraphs: runs of prose lines between blank lines, headings and
    // fenced blocks; each keeps the line number of its every character.
    var paragraphs: [[(Int, String)]] = []
    var current: [(Int, String)] = []
    var inBlock = false
    for (i, raw) in lines.enumerated() {
      if raw.hasPrefix("```") {
        inBlock.toggle()
        if !current.isEmpty { paragraphs.append(current) }
        current = []
        continue
      }
      if inBlock { continue }
      var line = raw
      if line.hasPrefix("#") {
        line = line.replacing(try! Regex(#"^#+\s*([0-9]+(\.[0-9]+)*\.?)?"#), with: "")
        if !current.isEmpty { paragraphs.append(current) }
        paragraphs.append([(i + 1, line)])
        current = []
        continue
      }
      if line.trimmingCharacters(in: .whitespaces).isEmpty {
        if !current.isEmpty { paragraphs.append(current) }
        current = []
        continue
      }
      current.append((i + 1, line))
    }
    if !current.isEmpty { paragraphs.append(current) }

    for paragraph in paragraphs {
      let raw = paragraph.map(\.1).joined(separator: " ")
      // Blank out what is not prose, keeping offsets.
      var chars = Array(raw)
      func blank(_ r: Range<String.Index>) {
        let a = raw.distance(from: raw.startIndex, to: r.lowerBound)
        let b = raw.distance(from: raw.startIndex, to: r.upperBound)
        for k in a..<b { chars[k] = " " }
      }
      for m in raw.matches(of: code) { blank(m.range) }
      for m in raw.matches(of: lineCitation) { blank(m.range) }
      for m in raw.matches(of: reference) { blank(m.range) }
      for name in names { for r in raw.ranges(of: name) { blank(r) } }
      for m in raw.matches(of: isoTime) { blank(m.range) }
      let ns = raw as NSString
      for m in AuthorYearCitationTests.pattern.matches(
        in: raw, range: NSRange(location: 0, length: ns.length))
      {
        if let r = Range(m.range(at: 4), in: raw) { blank(r) }
      }
      // "van Hees et al. 2011/2013": a second year of the same citation.
      for m in raw.matches(of: try! Regex(#"\b(19|20)[0-9]{2}/(19|20)[0-9]{2}\b"#)) { blank(m.range) }
      let prose = String(chars)
      // Sentences carrying a thesis line citation, by offset range.
      var cited: [(Range<Int>, [ClosedRange<Int>])] = []
      var start = 0
      let sentenceEnd = try! Regex(#"[.!?](?=\s+[A-Z(\"]|\s*$)"#)
      var ends = raw.matches(of: sentenceEnd).map {
        raw.distance(from: raw.startIndex, to: $0.range.upperBound)
      }
      ends.append(raw.count)
      for end in ends where end > start {
        let s = raw.index(raw.startIndex, offsetBy: start)
        let e = raw.index(raw.startIndex, offsetBy: end)
        let ranges = raw[s..<e].matches(of: lineCitation).compactMap {
          CitationTests.range(String(raw[$0.range]))
        }
        if !ranges.isEmpty { cited.append((start..<end, ranges)) }
        start = end
      }
      for m in prose.matches(of: number) {
        let text = String(prose[m.range])
        let at = prose.distance(from: prose.startIndex, to: m.range.lowerBound)
        let before = at > 0 ? chars[at - 1] : " "
        let afterIndex = prose.distance(from: prose.startIndex, to: m.range.upperBound)
        let after = afterIndex < chars.count ? chars[afterIndex] : " "
        // Rule 3: joined to a letter, or after a word and a hyphen.
        if before.isLetter || before == "_" || before == "^" || after.isLetter && !"xX".contains(after)
          || after == "_"
        {
          continue
        }
        if before == "-" || before == "." || before == "/",
          at > 1, chars[at - 2].isLetter || chars[at - 2].isNumber && before == "."
        {
          continue
        }
        var digits = text.trimmingCharacters(in: CharacterSet(charactersIn: "+-,."))
        if digits.hasSuffix(",") || digits.hasSuffix(".") { digits.removeLast() }
        let plain = digits.replacingOccurrences(of: ",", with: "")
        // Rule 6: an input of the notebook.
        if let x = Double(plain), inputs.contains(x) { continue }
        // Rule 7: a thesis figure in a sentence citing its line.
        if let sentence = cited.first(where: { $0.0.contains(at) }) {
          let sources = thesisOfFile.flatMap { $0 == "named" ? nil : [$0] } ?? Array(theses.keys)
          let found = sources.contains { thesis in
            sentence.1.contains { r in
              ((r.lowerBound - CitationTests.window)...(r.upperBound + CitationTests.window)).contains { n in
                guard let text = theses[thesis]?[n] else { return false }
                return contains(text, digits) || contains(text, plain)
              }
            }
          }
          if found { continue }
        }
        let line = paragraph[min(paragraph.count - 1, lineIndex(raw, offset: at, paragraph: paragraph))].0
        figures.append(Figure(file: file, line: line, number: digits, paragraph: raw))
      }
    }
    return figures
  }

  /// Which of a paragraph's lines holds the character at `offset`.
  static func lineIndex(_ raw: String, offset: Int, paragraph: [(Int, String)]) -> Int {
    var seen = 0
    for (k, line) in paragraph.enumerated() {
      seen += line.1.count + 1
      if offset < seen { return k }
    }
    return paragraph.count - 1
  }

  /// Whether `text` holds `number` as a whole number (not inside a longer one).
  static func contains(_ text: String, _ number: String) -> Bool {
    guard !number.isEmpty else { return false }
    for r in text.ranges(of: number) {
      let before = r.lowerBound > text.startIndex ? text[text.index(before: r.lowerBound)] : " "
      let after = r.upperBound < text.endIndex ? text[r.upperBound] : " "
      let afterNext = text.index(r.upperBound, offsetBy: 1, limitedBy: text.endIndex).flatMap {
        $0 < text.endIndex ? text[$0] : nil
      }
      if before.isNumber || before == "." && r.lowerBound > text.startIndex { continue }
      if after.isNumber || (after == "." || after == ",") && afterNext?.isNumber == true { continue }
      return true
    }
    return false
  }

  /// Every typed figure of a notebook that no rule allows, after the
  /// listed ones (rule 8).
  static func unsourced(file: String, text: String, theses: [String: [Int: String]], listed: [Listed])
    -> [Figure]
  {
    candidates(file: file, text: text, theses: theses).filter { figure in
      !listed.contains { row in
        row.file == figure.file && row.number == figure.number && named(row.source, in: figure.paragraph)
      }
    }
  }

  /// Whether a paragraph names a source: the citation or the path, or
  /// for a README, its folder.
  static func named(_ source: String, in paragraph: String) -> Bool {
    if paragraph.contains(source) { return true }
    guard source.hasSuffix("/README.md") else { return false }
    return paragraph.contains(String(source.dropLast("/README.md".count)))
  }

  static func notebooks() throws -> [(String, String)] {
    try FileManager.default.contentsOfDirectory(atPath: "\(packageRoot)/Notebooks").filter {
      $0.hasSuffix(".md")
    }
    .sorted().map { name in
      ("Notebooks/\(name)", try String(contentsOfFile: "\(packageRoot)/Notebooks/\(name)", encoding: .utf8))
    }
  }

  /// Fixtures/unconverted-figures.tsv: how many times each notebook may
  /// still hold a typed figure, by number.
  static func unconverted() throws -> [String: [String: Int]] {
    let text = try String(contentsOfFile: "\(fixtures)/unconverted-figures.tsv", encoding: .utf8)
    var counts: [String: [String: Int]] = [:]
    for line in text.split(separator: "\n") where !line.hasPrefix("#") {
      let f = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
      let n = try #require(f.count == 3 ? Int(f[2]) : nil, "unconverted-figures.tsv: \(line)")
      counts[f[0], default: [:]][f[1]] = n
    }
    return counts
  }

  @Test func noNotebookProseHoldsATypedFigure() throws {
    let theses = try Self.theses()
    let listed = try Self.listed()
    let unconverted = try Self.unconverted()
    var problems: [String] = []
    for (file, text) in try Self.notebooks() {
      let figures = Self.unsourced(file: file, text: text, theses: theses, listed: listed)
      let found = Dictionary(grouping: figures, by: \.number)
      for (number, these) in found.sorted(by: { $0.key < $1.key }) {
        let allowed = unconverted[file]?[number] ?? 0
        for figure in these.dropFirst(allowed) {
          problems.append(
            "\(figure): typed by hand; put it there with {{result.column}} from its run, or list it with its source in Fixtures/typed-figures.tsv"
          )
        }
      }
      for (number, allowed) in unconverted[file] ?? [:] where allowed > found[number]?.count ?? 0 {
        problems.append(
          "unconverted-figures.tsv: \(file) holds \(found[number]?.count ?? 0) typed \(number), not \(allowed); lower the count"
        )
      }
    }
    #expect(problems.isEmpty, "\(problems.count) typed figures:\n\(problems.joined(separator: "\n"))")
  }

  /// Every row of typed-figures.tsv is used, names a known source, and a
  /// file source holds its number.
  @Test func everyListedFigureHasItsSource() throws {
    let theses = try Self.theses()
    let references = try AuthorYearCitationTests.references()
    let notebooks = Dictionary(uniqueKeysWithValues: try Self.notebooks())
    for row in try Self.listed() {
      let text = try #require(notebooks[row.file], "typed-figures.tsv: no notebook \(row.file)")
      let used = Self.candidates(file: row.file, text: text, theses: theses).contains {
        $0.number == row.number && Self.named(row.source, in: $0.paragraph)
      }
      #expect(
        used, "typed-figures.tsv: \(row.file) has no typed \(row.number) beside \(row.source); remove the row"
      )
      if row.source.contains("/") || row.source.hasSuffix(".md") {
        let path = "\(packageRoot)/\(row.source)"
        let source = try String(contentsOfFile: path, encoding: .utf8)
        #expect(
          Self.contains(source, row.number)
            || Self.contains(source, row.number.replacingOccurrences(of: ",", with: "")),
          "typed-figures.tsv: \(row.source) does not hold \(row.number)")
      } else {
        let citations = AuthorYearCitationTests.citations(in: row.source)
        #expect(
          citations.count == 1 && citations.allSatisfy { references[$0.name] != nil },
          "typed-figures.tsv: \(row.source) is not an author-year citation of references.tsv")
      }
    }
  }

  /// The rule catches the figure that went stale: PEM section 4 as it
  /// read before its figures were interpolated.
  @Test func theStalePEMFigureIsCaught() throws {
    let old = """
      The period grade gives 42.90 kcal against 42.71 step by step (+0.4 %),
      because the climb and the descent last equally long (L898).
      """
    let found = Self.candidates(
      file: "Notebooks/pem-walking-evaluation.md", text: old, theses: try Self.theses())
    #expect(found.map(\.number) == ["42.90", "42.71", "0.4"])
    let fixed = """
      ```energylab
      # result: grade
      energy walk.gpx --epoch 60s
      ```

      The period grade gives {{grade.energy_kcal :2}} kcal (Table 4.2, section 3) over 60 s epochs
      (Rassia et al. 2009; `acsm-walking`, keytel-2005, ISO 8601).
      """
    #expect(
      Self.candidates(file: "Notebooks/pem-walking-evaluation.md", text: fixed, theses: try Self.theses())
        .isEmpty)
  }
}
