/// A survey as read from an export: questions with per-respondent answers
/// (raw exports) or published aggregates (counts, percentages, means,
/// partial counts over several options, verbatim answers).
public struct Survey: Sendable, Hashable {
  public var name: String
  public var source: String
  /// The detected export format (`google-forms`, `qualtrics`, `aggregate`, ...).
  public var format: String
  public var questions: [SurveyQuestion]
  /// Respondents in a raw export; for aggregates the `n` of the header.
  public var respondents: Int?
  /// `# key: value` lines of an aggregate file.
  public var provenance: [String: String]
  /// What the reader decided and the user should know (a plain CSV read by
  /// fallback, renamed repeated columns, missing-value codes).
  public var notes: [Diagnostic] = []
  /// Respondent ids (an id column), in row order; nil when the export has
  /// none (rows are then numbered from 1).
  public var respondentIDs: [String]?

  public init(
    name: String, source: String, format: String, questions: [SurveyQuestion], respondents: Int?,
    provenance: [String: String] = [:]
  ) {
    self.name = name
    self.source = source
    self.format = format
    self.questions = questions
    self.respondents = respondents
    self.provenance = provenance
  }

  /// The question whose id equals `key`, or else whose text contains it
  /// (case-insensitive); ambiguous or missing keys are usage errors.
  public func question(matching key: String) throws -> SurveyQuestion {
    if let exact = questions.first(where: { $0.id == key || $0.text == key }) { return exact }
    let found = questions.filter { $0.text.lowercased().contains(key.lowercased()) }
    guard found.count == 1 else {
      // A slip of the keyboard gets the nearest id or text.
      let nearest =
        found.isEmpty
        ? NameSuggestion.closest(to: key, among: questions.map(\.id))
          ?? NameSuggestion.closest(to: key, among: questions.map(\.text)) : nil
      throw ValueError(
        .matches(found.count), "question", value: key,
        expected: found.isEmpty
          ? "a question id or part of its text in \(source)\(nearest.map { "; did you mean \"\($0)\"?" } ?? "")"
          : "more of the text, or the id, of one in \(source)")
    }
    return found[0]
  }
}

/// One question of a survey.
public struct SurveyQuestion: Sendable, Hashable {
  public var id: String
  public var text: String
  /// Raw exports: each respondent's answer, stored as a code into the
  /// question's distinct answers (so a large export costs four bytes a cell).
  public var answers: ResponseColumn?
  /// Aggregate files: what was published.
  public var aggregate: [AggregateEntry]
  /// Respondents asked, for aggregates (per question `n`).
  public var aggregateN: Int?
  /// Whether respondents could choose several options.
  public var isMultiSelect: Bool

  /// Raw exports: for each respondent, the options chosen (one for single
  /// choice, several for multi-select, none when unanswered). Built from
  /// `answers` on each use: keep it in a variable inside loops.
  public var responses: [[String]]? {
    answers.map { column in (0..<column.count).map { column[$0] } }
  }

  public init(
    id: String, text: String, responses: [[String]]? = nil, aggregate: [AggregateEntry] = [],
    aggregateN: Int? = nil,
    isMultiSelect: Bool = false
  ) {
    self.id = id
    self.text = text
    self.answers = responses.map(ResponseColumn.init)
    self.aggregate = aggregate
    self.aggregateN = aggregateN
    self.isMultiSelect = isMultiSelect
  }

  public init(id: String, text: String, answers: ResponseColumn, isMultiSelect: Bool) {
    self.id = id
    self.text = text
    self.answers = answers
    self.aggregate = []
    self.aggregateN = nil
    self.isMultiSelect = isMultiSelect
  }
}

/// The answers of one question in a raw export: the distinct answer sets
/// (options chosen) in order of first appearance, and per respondent the
/// index of its set, -1 when unanswered; or, for an export read for its
/// counts only (`isTallied`), how many respondents gave each set.
public struct ResponseColumn: Sendable, Hashable {
  /// Distinct sets of options chosen; none is empty.
  public private(set) var choices: [[String]]
  /// Per respondent, an index into `choices`, or -1 (empty when tallied).
  public private(set) var codes: [Int32]
  /// Respondents per choice, when tallied.
  private var tally: [Int]?
  private var respondents = 0

  /// From codes into a table of option sets that may repeat or be empty
  /// (distinct cells of an export, after trimming and splitting): equal
  /// sets share one code, an empty one is unanswered.
  public init(options: [[String]], codes raw: [Int32]) {
    var index: [[String]: Int32] = [:]
    var choices: [[String]] = []
    let remap = options.map { set -> Int32 in
      guard !set.isEmpty else { return -1 }
      if let code = index[set] { return code }
      let code = Int32(choices.count)
      index[set] = code
      choices.append(set)
      return code
    }
    self.choices = choices
    codes = raw.map { $0 < 0 ? -1 : remap[Int($0)] }
  }

  /// From per-respondent option lists.
  public init(_ responses: [[String]]) {
    self.init(options: responses, codes: responses.indices.map { Int32($0) })
  }

  /// Counts only: a table of option sets that may repeat or be empty (as
  /// for `init(options:codes:)`) with the respondents who gave each, of
  /// `respondents` in all; equal sets share one choice, their counts
  /// summed; the same choices, in the same order, as the codes would give.
  public init(options: [[String]], counts: [Int], respondents: Int) {
    var index: [[String]: Int] = [:]
    var choices: [[String]] = []
    var tally: [Int] = []
    for (set, n) in zip(options, counts) where !set.isEmpty {
      if let c = index[set] {
        tally[c] += n
      } else {
        index[set] = choices.count
        choices.append(set)
        tally.append(n)
      }
    }
    self.choices = choices
    codes = []
    self.tally = tally
    self.respondents = respondents
  }

  /// Whether only the counts are held (no respondent's own answer).
  public var isTallied: Bool { tally != nil }

  /// Respondents (rows).
  public var count: Int { tally == nil ? codes.count : respondents }

  /// The options respondent `r` chose (empty when unanswered); a tallied
  /// column holds no respondent's answers.
  public subscript(r: Int) -> [String] {
    precondition(tally == nil, "a tallied column holds counts, not each respondent's answers")
    let code = codes[r]
    return code < 0 ? [] : choices[Int(code)]
  }

  /// How many respondents gave each distinct set, in `choices` order.
  public func choiceCounts() -> [Int] {
    if let tally { return tally }
    var counts = [Int](repeating: 0, count: choices.count)
    for code in codes where code >= 0 { counts[Int(code)] += 1 }
    return counts
  }
}

/// A published result of one question.
public struct AggregateEntry: Sendable, Hashable {
  public enum Kind: String, Sendable, Hashable, CaseIterable {
    /// Respondents choosing one option.
    case count
    /// A published share of respondents (percent), count not given.
    case percentage
    /// A published mean of a numeric scale.
    case mean
    /// A count over a set of options whose split is not published
    /// ("7 of 8 answered somewhat or extremely likely"): partial data.
    case group
    /// A verbatim open-ended answer.
    case text
  }

  public var kind: Kind
  /// The option (or options, for a group).
  public var labels: [String]
  public var value: Double?
  public var text: String?
  /// How the source states it ("about 90 %").
  public var note: String

  public init(kind: Kind, labels: [String], value: Double?, text: String? = nil, note: String = "") {
    self.kind = kind
    self.labels = labels
    self.value = value
    self.text = text
    self.note = note
  }
}
