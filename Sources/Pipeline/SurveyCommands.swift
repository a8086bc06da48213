import EnergyLabCore
import Foundation
import Ingest
import Reporting
import Store
import Surveys

/// `survey summary`, `survey sus`, `survey crosstab` and `survey compare`.
/// A survey command's outcome: the export and scale file read, the
/// reader's notes, the loading parameters and the command's own.
protocol SurveyOutcome: CommandOutcome {
  var loaded: SurveyCommands.Loaded { get }
  var command: String { get }
  var commandParameters: [NamedParameter] { get }
}

extension SurveyOutcome {
  var inputs: [String] { loaded.inputs }
  var parameters: [NamedParameter] { loaded.parameters + commandParameters }
  var diagnostics: [Diagnostic] { loaded.notes }
}

package enum SurveyCommands {
  package struct Input: Sendable {
    package var path: String
    /// `QUESTION=SCALE` assignments (question id, text or part of it).
    package var scales: [String] = []
    /// A CSV of custom scales (`scale,label,value,role`).
    package var scaleFile: String?
    package var multiSelect: [String] = []
    /// Reverse-scored questions.
    package var reverse: [String] = []
    /// The export's dialect (`plain`, `qualtrics`, ...); nil detects it.
    package var dialect: SurveyDialect?
    /// Cells that mean no answer in a plain CSV, besides the empty cell.
    package var missingCodes = SurveyReader.defaultMissingCodes
    /// The id column of a plain CSV.
    package var idColumn: String?
    package init(path: String) { self.path = path }
  }

  /// Every question summarised; an error names the export as well as the
  /// question.
  static func summaries(of survey: Survey, scales: [String: SurveyScale]) throws -> [QuestionSummary] {
    try survey.questions.map { q in
      do {
        return try SurveyStatistics.summary(q, scale: scales[q.id])
      } catch let error as InputError {
        throw InputError(
          error.kind,
          SourceLocation(file: survey.source), "\(error.location.file): \(error.problem)",
          expected: error.expected)
      }
    }
  }

  /// The rows a survey's summaries store: counts, partial counts, means.
  static func storedRows(_ survey: Survey, _ summaries: [QuestionSummary]) -> [SurveyResultRow] {
    var rows: [SurveyResultRow] = []
    for s in summaries {
      for c in s.counts {
        rows.append(
          SurveyResultRow(
            survey: survey.name, question: s.question.text, answer: c.label, count: c.count,
            percentage: s.percentages.first { $0.label == c.label }?.percent))
      }
      for p in s.partial {
        rows.append(
          SurveyResultRow(
            survey: survey.name, question: s.question.text, answer: p.labels.joined(separator: " | "),
            count: p.count,
            percentage: nil, note: "partial: \(p.note)"))
      }
      if let mean = s.mean {
        rows.append(
          SurveyResultRow(
            survey: survey.name, question: s.question.text, answer: "mean", count: mean, percentage: nil,
            note: "ordinal mean"))
      }
    }
    return rows
  }

  /// A survey read with its scales assigned, and what reading it found.
  package struct Loaded: Sendable {
    package var survey: Survey
    /// Scales by question id: assigned, inferred from the labels a
    /// question's raw answers use, reversed.
    package var scales: [String: SurveyScale]
    /// The questions whose scale was inferred from their answers (not
    /// assigned by QUESTION=SCALE).
    package var inferred: Set<String> = []
    /// The scales of the scale file, tried before the built-in ones.
    package var custom: [SurveyScale] = []
    /// The export, then the scale file when given.
    package var inputs: [String]
    /// What the reader noticed (the dialect it chose, columns passed over).
    package var notes: [Diagnostic]
    package var parameters: [NamedParameter]
  }

  /// `tallied`: read for the counts only (`SurveyReader.tally`), as
  /// summaries need, in memory that does not grow with the respondents.
  package static func loaded(_ input: Input, tallied: Bool = false) throws -> Loaded {
    let reader = SurveyReader(
      multiSelect: input.multiSelect, dialect: input.dialect, missingCodes: input.missingCodes,
      idColumn: input.idColumn)
    let survey = try tallied ? reader.tally(path: input.path) : reader.read(path: input.path)
    // A multi-select question that matches none (a slip of the keyboard)
    // is an error with the nearest question, not a silent single choice.
    for item in input.multiSelect
    where !survey.questions.contains(where: {
      $0.id == item || $0.text == item || $0.text.lowercased().contains(item.lowercased())
    }) {
      _ = try survey.question(matching: item)
    }
    var inputs = [input.path]
    var parameters: [NamedParameter] = []
    if survey.format == "plain" {
      parameters.append(
        NamedParameter(
          name: "missing_codes",
          value: ([""] + input.missingCodes).map { "\"\($0)\"" }.joined(separator: ", "),
          meaning: "cells read as no answer in a plain CSV"))
    }
    var custom: [SurveyScale] = []
    if let file = input.scaleFile {
      let data = try FileInput.read(file, expected: "a scale CSV")
      let rows = try CSVTokenizer.rows(String(decoding: data, as: UTF8.self), source: file).map(\.fields)
      custom = try SurveyScale.parseFile(rows, source: file)
      inputs.append(file)
    }
    var assigned: [String: SurveyScale] = [:]
    for item in input.scales {
      guard let eq = item.lastIndex(of: "=") else {
        throw ValueError(.unreadable, "a scale", value: item, expected: "QUESTION=SCALE, as Q5=points5")
      }
      let question = try survey.question(matching: String(item[..<eq]))
      assigned[question.id] = try SurveyScale.named(String(item[item.index(after: eq)...]), extra: custom)
    }
    // A question of raw single answers takes the scale its labels fit (the
    // scale file's first); when a longer wording fits them too, the choice
    // is noted once per pair of scales.
    var inferred: Set<String> = []
    var notes = survey.notes
    var longer: [(chosen: SurveyScale, other: SurveyScale, questions: [String])] = []
    for q in survey.questions where assigned[q.id] == nil && !q.isMultiSelect {
      guard let column = q.answers else { continue }
      let answers = column.choices.flatMap { $0 }
      guard let scale = SurveyScale.detect(answers, extra: custom) else { continue }
      assigned[q.id] = scale
      inferred.insert(q.id)
      guard let other = SurveyScale.longerFit(answers, than: scale) else { continue }
      if let k = longer.firstIndex(where: { $0.chosen.name == scale.name && $0.other.name == other.name }) {
        longer[k].questions.append(q.id)
      } else {
        longer.append((scale, other, [q.id]))
      }
    }
    for (chosen, other, questions) in longer {
      let unused = other.labels.filter { chosen.index(of: $0) == nil }.map { "\"\($0)\"" }
      notes.append(
        Diagnostic(
          code: "scale-length-inferred", severity: .note,
          message:
            "\(questions.joined(separator: ", ")) read on the \(chosen.labels.count)-point \(chosen.name) scale: no answer is \(unused.joined(separator: " or ")); if the questions offered \(other.labels.count) points, assign \(other.name) (QUESTION=\(other.name))",
          location: survey.source, remedy: Remedy(.ordinalScale)))
    }
    for item in input.reverse {
      let question = try survey.question(matching: item)
      let answers = (question.answers?.choices ?? []).flatMap { $0 } + question.aggregate.flatMap(\.labels)
      guard let scale = assigned[question.id] ?? SurveyScale.detect(answers) else {
        throw UsageError(
          .unsupported, "reversed question \"\(item)\" has no scale; give it one (QUESTION=SCALE)")
      }
      assigned[question.id] = scale.reversed
      inferred.remove(question.id)
    }
    return Loaded(
      survey: survey, scales: assigned, inferred: inferred, custom: custom, inputs: inputs, notes: notes,
      parameters: parameters)
  }

  /// The scales of `questions` and how each was chosen, one row per scale:
  /// its name, the questions on it, every label's code.
  static func scaleRows(_ loaded: Loaded, _ questions: [SurveyQuestion], scales: [String: SurveyScale])
    -> [ResultRecord]
  {
    var groups: [(scale: SurveyScale, ids: [String], inferred: Bool)] = []
    var position: [String: Int] = [:]
    for q in questions {
      guard let scale = scales[q.id] else { continue }
      let k = position[scale.name] ?? groups.count
      if k == groups.count {
        position[scale.name] = k
        groups.append((scale, [], true))
      }
      groups[k].ids.append(q.id)
      if !loaded.inferred.contains(q.id) { groups[k].inferred = false }
    }
    return groups.map { entry in
      let name = entry.scale.name
      return ResultRecord([
        "scale": .string(name), "questions": .string(entry.ids.joined(separator: ",")),
        "chosen": .string(entry.inferred ? "inferred from the labels used" : "assigned"),
        "coding": .string(entry.scale.coding),
      ])
    }
  }

  /// The run of a survey command, without its rows: the export (and
  /// scale file) read, the loading parameters and the command's own, the
  /// reader's notes.
  static func surveyRun(
    _ loaded: Loaded, command: String, parameters: [NamedParameter], inputs: [InputFingerprint],
    recordedAt: String?
  ) -> RunRecord {
    var run = RunRecord(
      command: "\(command) \(loaded.survey.name)", recordedAt: recordedAt, inputs: inputs,
      parameters: parameters)
    run.diagnostics = loaded.notes.map(DiagnosticRow.init)
    return run
  }

  static func record(_ s: QuestionSummary) -> ResultRecord {
    var counts = ResultRecord()
    for (label, count) in s.counts { counts[label] = .number(count, 0) }
    var percentages = ResultRecord()
    for (label, percent) in s.percentages { percentages[label] = .number(percent, 1) }
    var record = ResultRecord([
      "question": .string(s.question.text), "id": .string(s.question.id),
      "n": s.n.map { .integer($0) } ?? .null,
      "scale": s.scale.map { .string($0.name) } ?? .null, "counts": .record(counts),
      "coding": s.scale.map { .string($0.coding) } ?? .null,
      "percentages": .record(percentages),
      "median": .number(s.median, 2), "iqr": .number(s.interquartileRange, 2),
    ])
    if s.mean != nil { record["mean_ordinal"] = .number(s.mean, 2) }
    if s.standardDeviation != nil { record["sd_ordinal"] = .number(s.standardDeviation, 2) }
    if let top = s.topTwoBox {
      record["top_two_box_pct"] = .number(100 * top.estimate, 1)
      record["top_two_box_ci95_lower_pct"] = .number(100 * top.lower, 1)
      record["top_two_box_ci95_upper_pct"] = .number(100 * top.upper, 1)
    }
    if s.notApplicable > 0 { record["not_applicable"] = .number(s.notApplicable, 0) }
    if !s.partial.isEmpty {
      record["partial"] = .array(
        s.partial.map { p in
          .record(
            ResultRecord([
              "options": .array(p.labels.map { .string($0) }), "count": .number(p.count, 0),
              "share_pct": .number(s.n.map { n in n > 0 ? 100 * p.count / Double(n) : .nan }, 1),
              "note": .string(p.note),
            ]))
        })
    }
    if s.question.isMultiSelect { record["multi_select"] = .bool(true) }
    if !s.unpublished.isEmpty { record["not_published"] = .array(s.unpublished.map { .string($0) }) }
    if !s.openAnswers.isEmpty { record["answers"] = .array(s.openAnswers.map { .string($0) }) }
    return record
  }

  /// A survey summarised: every question's counts, percentages and
  /// statistics, with the open answers' themes when a codebook is given.
  package struct Summary: Sendable {
    package var loaded: Loaded
    package var summaries: [QuestionSummary]
    package var codebook: Codebook?
    package var codebookPath: String?
    package var parameters: [NamedParameter] {
      [
        NamedParameter(name: "survey_format", value: loaded.survey.format, meaning: "detected export format"),
        NamedParameter(
          name: "percentages", value: "of respondents answering",
          meaning: "multi-select may add to over 100 %"),
        NamedParameter(
          name: "quantiles", value: "type 7", meaning: "median and IQR of scale codes (Hyndman and Fan)"),
        NamedParameter(name: "proportion_ci", value: "Wilson 95 %", meaning: "top-two-box intervals"),
      ]
    }
  }

  package static func summary(_ input: Input, codebookPath: String? = nil) throws -> Summary {
    let loaded = try loaded(input, tallied: true)
    let summaries = try summaries(of: loaded.survey, scales: loaded.scales)
    var codebook: Codebook?
    if let codebookPath {
      let data = try FileInput.read(codebookPath, expected: "a codebook CSV (theme,keywords)")
      let rows = try CSVTokenizer.rows(String(decoding: data, as: UTF8.self), source: codebookPath)
      guard rows.first?.fields == ["theme", "keywords"] else {
        throw InputError(
          .malformed,
          SourceLocation(file: codebookPath, line: 1), "unexpected header", expected: "theme,keywords")
      }
      codebook = Codebook(
        themes: rows.dropFirst().map {
          ($0.fields[0], $0.fields[1].split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) })
        })
    }
    return Summary(loaded: loaded, summaries: summaries, codebook: codebook, codebookPath: codebookPath)
  }

  /// A survey summary with how it is printed and stored.
  package struct SummaryOutcome: CommandOutcome {
    package var result: Summary
    package var chartsDirectory: String?
    package var format: OutputFormat?
    package var inputs: [String] { result.loaded.inputs + (result.codebookPath.map { [$0] } ?? []) }
    package var parameters: [NamedParameter] { result.loaded.parameters + result.parameters }
    package var diagnostics: [Diagnostic] { result.loaded.notes }
    package func runRecord(inputs: [InputFingerprint], recordedAt: String?) -> RunRecord? {
      var run = RunRecord(
        command: "survey summary \(result.loaded.survey.name)", recordedAt: recordedAt, inputs: inputs,
        parameters: parameters)
      run.surveyResults = storedRows(result.loaded.survey, result.summaries)
      run.diagnostics = diagnostics.map(DiagnosticRow.init)
      return run
    }
    package func render(_ request: RenderRequest) throws -> Rendering {
      var out = Rendering(request)
      try renderSummary(result, chartsDirectory: chartsDirectory, format: format, into: &out)
      return out
    }
  }

  /// `survey summary`: compute, then store and print through the driver.
  package static func summary(
    _ input: Input, codebookPath: String?, chartsDirectory: String?, databasePath: String?,
    format: OutputFormat?,
    driver: Driver
  ) throws {
    try driver.finish(
      SummaryOutcome(
        result: try summary(input, codebookPath: codebookPath), chartsDirectory: chartsDirectory,
        format: format), database: databasePath)
  }

  /// The questions, answers, ordinal statistics and open answers, then the
  /// charts.
  static func renderSummary(
    _ result: Summary, chartsDirectory: String?, format: OutputFormat?, into out: inout Rendering
  ) throws {
    let survey = result.loaded.survey
    let summaries = result.summaries
    let codebook = result.codebook
    let fmt = format ?? out.defaultFormat
    var records = summaries.map(record)
    if let codebook {
      for (i, s) in summaries.enumerated() where !s.openAnswers.isEmpty {
        records[i]["themes"] = .array(
          codebook.code(s.openAnswers).map {
            .record(
              ResultRecord([
                "theme": .string($0.theme), "count": .integer($0.count),
                "examples": .array($0.quotes.map { .string($0) }),
              ]))
          })
      }
    }
    if fmt == .json {
      out.emit(ResultTable(name: "survey-summary", rows: records), format: fmt)
    } else {
      out.write(
        (fmt == .markdown ? "Survey **\(Markdown.escapeInline(survey.name))**" : "survey \(survey.name)")
          + " (\(survey.format)\(survey.respondents.map { ", n = \($0)" } ?? "")).\n\n")
      // One long table of question, answer, count, percent; statistics after.
      var rows: [ResultRecord] = []
      for s in summaries {
        for (k, c) in s.counts.enumerated() {
          rows.append(
            ResultRecord([
              "question": .string(s.question.id), "answer": .string(c.label), "count": .number(c.count, 0),
              "percent": .number(
                s.percentages.first { $0.label == c.label }?.percent
                  ?? (k < s.percentages.count ? s.percentages[k].percent : nil), 1),
              "n": s.n.map { .integer($0) } ?? .null,
            ]))
          annotate(&rows, note(s.question, labels: [c.label]))
        }
        for (label, percent) in s.percentages where !s.counts.contains(where: { $0.label == label }) {
          rows.append(
            ResultRecord([
              "question": .string(s.question.id), "answer": .string(label), "count": .null,
              "percent": .number(percent, 1),
              "n": s.n.map { .integer($0) } ?? .null,
            ]))
          annotate(&rows, note(s.question, labels: [label]))
        }
        for p in s.partial {
          rows.append(
            ResultRecord([
              "question": .string(s.question.id),
              "answer": .string(p.labels.joined(separator: " or ") + " (partial)"),
              "count": .number(p.count, 0),
              "percent": .number(s.n.map { $0 > 0 ? 100 * p.count / Double($0) : .nan }, 1),
              "n": s.n.map { .integer($0) } ?? .null,
            ]))
          annotate(&rows, p.note)
        }
        for label in s.unpublished {
          rows.append(
            ResultRecord([
              "question": .string(s.question.id), "answer": .string(label + " (not published)"),
              "count": .null,
              "percent": .null, "n": s.n.map { .integer($0) } ?? .null,
            ]))
        }
        if let mean = s.mean, s.counts.isEmpty {
          rows.append(
            ResultRecord([
              "question": .string(s.question.id), "answer": .string("mean (published)"), "count": .null,
              "percent": .null, "n": s.n.map { .integer($0) } ?? .null, "value": .number(mean, 2),
            ]))
        }
      }
      let questions = ResultTable(
        name: "survey-questions",
        rows: summaries.map {
          ResultRecord([
            "question": .string($0.question.id), "text": .string($0.question.text),
            "n": $0.n.map { .integer($0) } ?? .null,
          ])
        })
      out.emit(questions, format: fmt)
      out.write("\n")
      out.emit(ResultTable(name: "survey-answers", rows: rows), format: fmt)
      let ordinal = summaries.filter { $0.median != nil }
      if !ordinal.isEmpty {
        out.write("\n")
        out.emit(
          ResultTable(
            name: "survey-ordinal",
            rows: ordinal.map {
              ResultRecord([
                "question": .string($0.question.id), "scale": .string($0.scale?.name ?? ""),
                "n": $0.n.map { .integer($0) } ?? .null,
                "median": .number($0.median, 1), "iqr": .number($0.interquartileRange, 1),
                "mean_ordinal": .number($0.mean, 2), "sd_ordinal": .number($0.standardDeviation, 2),
                "top_two_box_pct": .number($0.topTwoBox.map { 100 * $0.estimate }, 1),
                "top_two_box_ci95_lower_pct": .number($0.topTwoBox.map { 100 * $0.lower }, 1),
                "top_two_box_ci95_upper_pct": .number($0.topTwoBox.map { 100 * $0.upper }, 1),
              ])
            }), format: fmt)
        out.write(
          "\n(Mean and SD of ordinal codes are shown for comparison with published means; medians are the summary of record.)\n"
        )
        // How the labels became codes, one row per scale.
        out.write("\n")
        out.emit(
          ResultTable(
            name: "survey-scales",
            rows: scaleRows(
              result.loaded, ordinal.map(\.question),
              scales: Dictionary(
                ordinal.compactMap { s in s.scale.map { (s.question.id, $0) } },
                uniquingKeysWith: { a, _ in a }))),
          format: fmt)
      }
      for s in summaries where !s.openAnswers.isEmpty {
        out.write(
          "\n\(fmt == .markdown ? "**\(Markdown.escapeInline(s.question.text))**" : s.question.text) (\(s.openAnswers.count) answers):\n\n"
        )
        for answer in s.openAnswers {
          out.write("- " + (fmt == .markdown ? Markdown.escapeInline(answer) : answer) + "\n")
        }
        if let codebook {
          out.write("\n")
          out.emit(
            ResultTable(
              name: "survey-themes",
              rows: codebook.code(s.openAnswers).map {
                ResultRecord([
                  "question": .string(s.question.id), "theme": .string($0.theme), "count": .integer($0.count),
                  "example": .string($0.quotes.first ?? ""),
                ])
              }), format: fmt)
        }
      }
    }
    try drawCharts(
      survey: survey, summaries: summaries, folder: chartsDirectory, format: format, into: &out)
  }

  static func drawCharts(
    survey: Survey, summaries: [QuestionSummary], folder: String?, format: OutputFormat?,
    into out: inout Rendering
  ) throws {
    guard folder != nil || out.figuresDirectory != nil else { return }
    // Diverging bars: ordinal questions grouped by scale.
    var scales: [String] = []
    for s in summaries where !(s.counts.isEmpty && s.partial.isEmpty) {
      if let scale = s.scale, scale.labels.count >= 3, !scales.contains(scale.name) {
        scales.append(scale.name)
      }
    }
    var dotted: Set<String> = []
    for name in scales {
      let group = summaries.filter { $0.scale?.name == name && !($0.counts.isEmpty && $0.partial.isEmpty) }
      guard let scale = group.first?.scale else { continue }
      let ns = Set(group.compactMap(\.n))
      let nText = ns.count == 1 ? "n = \(ns.first ?? 0)" : "n = \(ns.min() ?? 0)-\(ns.max() ?? 0)"
      // A one-way scale (no neutral answer, as severity 0-4) has no centre
      // to diverge from: a dot per question at its median, with quartiles.
      if scale.neutral == nil {
        let positions = group.map { s in
          s.counts.flatMap { c in
            Array(repeating: Double(scale.index(of: c.label) ?? 0), count: max(0, Int(c.count.rounded())))
          }.sorted()
        }
        // With one rating per question (one evaluator) there is no median
        // or quartile to speak of: each dot is that rating.
        let single = positions.allSatisfy { $0.count <= 1 }
        var dots = GnuplotChart(
          name: "\(survey.name)-\(name)-dots", title: "\(survey.name): \(name) rating per question",
          xLabel: single
            ? "\(name) rating (dot: the single rating of each question; \(nText))"
            : "\(name) rating (dot: median, bar: quartiles; \(nText))", yLabel: "question", series: [])
        dots.dotPlot = GnuplotChart.DotPlot(
          questions: group.map { $0.question.text }, labels: scale.labels,
          medians: positions.map { Quantiles.quantile($0, 0.5) },
          lower: positions.map { Quantiles.quantile($0, 0.25) },
          upper: positions.map { Quantiles.quantile($0, 0.75) })
        out.draw(dots, folder: folder, format: format)
        for s in group { dotted.insert(s.question.id) }
        continue
      }
      // One question on its own scale that the grouped bars below draw
      // (no median: partial or unpublished answers) is drawn there once,
      // with its counts and n.
      if group.count == 1 && group[0].median == nil && group[0].counts.count + group[0].partial.count >= 2 {
        continue
      }
      var chart = GnuplotChart(
        name: "\(survey.name)-\(name)-diverging", title: "\(survey.name): answers on the \(name) scale",
        xLabel: "answers (% of respondents, neutral centred; \(nText))", yLabel: "question", series: [])
      // Percent of n where a published n exists (partial counts then keep
      // their share), else of the answers on the scale.
      func base(_ s: QuestionSummary) -> Double {
        if let n = s.n, s.question.answers == nil, n > 0 { return Double(n) }
        return s.counts.reduce(0) { $0 + $1.count }
      }
      chart.divergingBars = GnuplotChart.DivergingBars(
        questions: group.map { $0.question.text },
        labels: scale.labels,
        percentages: group.map { s in
          let total = base(s)
          return scale.labels.map { label in
            total > 0 ? 100 * (s.counts.first { $0.label == label }?.count ?? 0) / total : 0
          }
        },
        neutralIndex: scale.neutral.flatMap { scale.index(of: $0) },
        notApplicable: group.map { s in
          let total = base(s) + s.notApplicable
          return total > 0 ? 100 * s.notApplicable / total : 0
        },
        partial: group.map { s in
          s.partial.compactMap { p in
            let indices = p.labels.compactMap { scale.index(of: $0) }
            guard let low = indices.min(), let high = indices.max(), base(s) > 0 else { return nil }
            return GnuplotChart.DivergingBars.PartialShare(
              low: low, high: high, percent: 100 * p.count / base(s))
          }
        })
      out.draw(chart, folder: folder, format: format)
    }
    // Grouped bars: each categorical question's counts (and partial groups).
    for s in summaries
    where s.median == nil && !dotted.contains(s.question.id)
      && (!s.counts.isEmpty || !s.partial.isEmpty || !s.percentages.isEmpty)
    {
      var categories = s.counts.map(\.label)
      var values = s.counts.map { [$0.count] }
      var marked = s.counts.map { isApproximate(s.question, labels: [$0.label]) }
      var unit = "respondents"
      if s.counts.isEmpty && s.partial.isEmpty {
        categories = s.percentages.map(\.label)
        values = s.percentages.map { [$0.percent] }
        marked = s.percentages.map { isApproximate(s.question, labels: [$0.label]) }
        unit = "percent"
      }
      for p in s.partial {
        categories.append(p.labels.joined(separator: " or ") + " (partial)")
        values.append([p.count])
        marked.append(true)
      }
      // A single published figure that is not an exact count (a share, an
      // approximate or partial number) stays in the answers table with its
      // note: one bar would draw it as exact.
      if categories.count == 1 && (marked[0] || unit == "percent") { continue }
      var chart = GnuplotChart(
        name: "\(survey.name)-\(s.question.id)", title: s.question.text, xLabel: "answer",
        yLabel: unit + (s.n.map { " (n = \($0))" } ?? ""), series: [])
      chart.stackedBars = GnuplotChart.StackedBars(
        categories: categories, seriesTitles: [marked.contains(true) ? "exact \(unit)" : unit],
        values: values,
        clustered: true,
        yMaximum: unit == "percent" ? 100 : s.n.map(Double.init), marked: marked,
        markedTitle: "partial or approximate \(unit) (see table)")
      out.draw(chart, folder: folder, format: format)
    }
  }

  /// Adds the source's note to the last row, where there is one: how the
  /// source states the figure (approximate, partial, its line).
  static func annotate(_ rows: inout [ResultRecord], _ note: String) {
    guard !note.isEmpty, !rows.isEmpty else { return }
    rows[rows.count - 1]["note"] = .string(note)
  }

  /// Whether the source states a published figure as approximate ("around
  /// 90 %"), from the note of its aggregate entry.
  static func isApproximate(_ question: SurveyQuestion, labels: [String]) -> Bool {
    question.aggregate.contains { entry in
      entry.labels.joined(separator: " or ") == labels.joined(separator: " or ")
        && ["approximate", "around", "about", "roughly"].contains { entry.note.lowercased().contains($0) }
    }
  }

  /// The source's note on a published figure (how it is stated, where).
  static func note(_ question: SurveyQuestion, labels: [String]) -> String {
    question.aggregate.first { $0.labels.joined(separator: " or ") == labels.joined(separator: " or ") }?.note
      ?? ""
  }

  /// SUS scores: each respondent's score (nil without all ten items) and
  /// the summary over those scored.
  package struct SUSResult: Sendable {
    package var survey: Survey
    package var items: [SurveyQuestion]
    /// Each item's scale, by question id: how its answers became 1-5.
    package var scales: [String: SurveyScale]
    /// (respondent id, score, items answered, items without a score:
    /// unanswered or not applicable), in the export's order.
    package var respondents: [(id: String, score: Double?, itemsUsed: Int, missing: [String])]
    package var summary: SUS.Summary
    package var scores: [Double] { respondents.compactMap(\.score) }
    package var skipped: Int { respondents.filter { $0.score == nil }.count }
    /// "agreement5-somewhat: Strongly disagree = 1, ..." per scale used.
    package var coding: String { codingText(items, scales) }
    package var parameters: [NamedParameter] {
      [
        NamedParameter(
          name: "sus_items", value: items.map(\.id).joined(separator: ","), meaning: "items 1-10 in order"),
        NamedParameter(name: "sus_coding", value: coding, meaning: "answers read as 1-5"),
        NamedParameter(
          name: "sus_incomplete_skipped", value: String(skipped),
          meaning: "respondents without all ten answers"),
      ]
    }
  }

  /// "scale: label = code, ..." for each scale of `questions`, in order.
  static func codingText(_ questions: [SurveyQuestion], _ scales: [String: SurveyScale]) -> String {
    var seen = Set<String>()
    return questions.compactMap { scales[$0.id] }.filter { seen.insert($0.name).inserted }.map {
      "\($0.name): \($0.coding)"
    }.joined(separator: "; ")
  }

  /// The scale of each of `questions` that is scored together (the SUS
  /// items, an ASQ task): an assigned scale as given; the others take the
  /// scale that holds all their answers pooled, so one item that happens
  /// not to use "Agree" is read on the same wording as the rest. Answers
  /// that are numbers on no scale ("4.0") are read as numbers
  /// (`pointsN`, coded as written).
  /// The scale `pooledScales` gave question `q`.
  static func scale(of q: SurveyQuestion, in scales: [String: SurveyScale], what: String) throws
    -> SurveyScale
  {
    guard let scale = scales[q.id] else {
      throw UsageError(
        .unsupported, "\(what) item \(q.id) has no scale; give it one with \(Remedy.slot)",
        remedy: Remedy(.ordinalScale))
    }
    return scale
  }

  static func pooledScales(
    _ questions: [SurveyQuestion], assigned: [String: SurveyScale], custom: [SurveyScale], points: Int,
    source: String, what: String
  ) throws -> [String: SurveyScale] {
    var scales: [String: SurveyScale] = [:]
    let open = questions.filter { assigned[$0.id] == nil }
    for q in questions { if let s = assigned[q.id] { scales[q.id] = s } }
    if !open.isEmpty {
      let answers = open.flatMap { ($0.answers?.choices ?? []).flatMap { $0 } }
      // The questionnaire's length decides between wordings that both fit
      // (7-point items that never used "Somewhat").
      let fits = SurveyScale.candidates(answers, extra: custom)
      if let scale = fits.first(where: { $0.isCodedOneTo(points) }) ?? fits.first {
        for q in open { scales[q.id] = scale }
      } else if answers.allSatisfy({ Double($0) != nil }) {
        let numbers = SurveyScale(
          name: "points\(points)", labels: (1...points).map(String.init), notApplicable: [])
        for q in open { scales[q.id] = numbers }
      } else {
        let unknown = Array(Set(answers)).sorted().prefix(6).map { "\"\($0)\"" }
        throw InputError(
          .value, SourceLocation(file: source),
          "the \(what) items \(open.map(\.id).joined(separator: ",")) are answered on no known scale (\(unknown.joined(separator: ", ")))",
          expected:
            "a \(points)-point scale: numbers 1-\(points), a built-in wording or a scale file with QUESTION=SCALE",
          remedy: Remedy(.ordinalScale))
      }
    }
    for q in questions {
      let scale = try scale(of: q, in: scales, what: what)
      guard !scale.isCodedOneTo(points) else { continue }
      throw UsageError(
        .unsupported,
        "\(what) items are answered on \(points) points coded 1-\(points); \(q.id) is read on \(scale.name) (\(scale.coding)); give it a \(points)-point scale with \(Remedy.slot)",
        remedy: Remedy(.ordinalScale))
    }
    return scales
  }

  /// The code of one respondent's answer to an item: nil when unanswered
  /// or not applicable; an error naming the respondent when the answer is
  /// on no label of the item's scale.
  static func code(
    _ q: SurveyQuestion, respondent r: Int, id: String, scale: SurveyScale, source: String
  ) throws -> Double? {
    guard let answer = q.answers?[r].first, !answer.isEmpty, !scale.isNotApplicable(answer) else {
      return nil
    }
    if let i = scale.index(of: answer) { return scale.values[i] }
    if scale.isNumeric, let number = Double(answer) { return number }
    throw InputError(
      .value, SourceLocation(file: source),
      "respondent \(id), \(q.id): \"\(answer)\" is not on the \(scale.name) scale",
      expected: "one of \(scale.labels.joined(separator: ", "))")
  }

  /// SUS of a survey: the ten items named in order, or the ten questions
  /// answered on a 5-point scale. Label answers are coded through the
  /// items' scale (`scales`, else inferred from the labels of all ten
  /// items, `custom` scales first). A respondent without all ten answers
  /// gets no score and is left out of the summary (prorating would change
  /// the scale's meaning).
  package static func sus(
    _ survey: Survey, items: [String], scales assigned: [String: SurveyScale] = [:],
    custom: [SurveyScale] = []
  ) throws -> SUSResult {
    let questions: [SurveyQuestion]
    if items.isEmpty {
      questions = survey.questions.filter { q in
        guard !q.isMultiSelect, let column = q.answers else { return false }
        let answers = column.choices.flatMap { $0 }
        let scale = assigned[q.id] ?? SurveyScale.detect(answers, extra: custom)
        return scale?.isCodedOneTo(5) ?? false
      }
      guard questions.count == 10 else {
        throw UsageError(
          .missing,
          "found \(questions.count) questions answered on a 5-point scale in \(survey.source); name the 10 SUS items with \(Remedy.slot)",
          remedy: Remedy(.surveyItems))
      }
    } else {
      questions = try items.map { try survey.question(matching: $0) }
      guard questions.count == 10 else {
        throw UsageError(
          .outOfRange,
          "\(Remedy.slot) needs the 10 SUS items in order; got \(questions.count)",
          remedy: Remedy(.surveyItems))
      }
    }
    guard let count = questions.first?.answers?.count else {
      throw UsageError(
        .unsupported, "\(survey.source) holds no raw responses; SUS needs each respondent's ten answers")
    }
    let scales = try pooledScales(
      questions, assigned: assigned, custom: custom, points: 5, source: survey.source, what: "SUS")
    var respondents: [(id: String, score: Double?, itemsUsed: Int, missing: [String])] = []
    for r in 0..<count {
      let id = survey.respondentIDs?[r] ?? String(r + 1)
      var codes: [Double] = []
      var missing: [String] = []
      for q in questions {
        if let c = try code(
          q, respondent: r, id: id, scale: try scale(of: q, in: scales, what: "SUS"), source: survey.source)
        {
          codes.append(c)
        } else {
          missing.append(q.id)
        }
      }
      respondents.append((id, missing.isEmpty ? try SUS.score(codes) : nil, codes.count, missing))
    }
    let scores = respondents.compactMap(\.score)
    guard !scores.isEmpty else {
      throw UsageError(
        .unsupported,
        "no respondent answered all ten SUS items (each left out: \(respondents.prefix(3).map { "\($0.id) without \($0.missing.joined(separator: ","))" }.joined(separator: "; ")))"
      )
    }
    return SUSResult(
      survey: survey, items: questions, scales: scales, respondents: respondents, summary: SUS.summary(scores)
    )
  }

  /// SUS of a loaded survey: its assigned scales and scale file apply.
  package static func sus(_ loaded: Loaded, items: [String]) throws -> SUSResult {
    try sus(
      loaded.survey, items: items, scales: loaded.scales.filter { !loaded.inferred.contains($0.key) },
      custom: loaded.custom)
  }

  /// `survey sus`: the scores of one export.
  struct SUSOutcome: SurveyOutcome {
    var loaded: Loaded
    var result: SUSResult
    var chartsDirectory: String?
    var format: OutputFormat?
    var command: String { "survey sus" }
    var commandParameters: [NamedParameter] { result.parameters }

    func runRecord(inputs: [InputFingerprint], recordedAt: String?) -> RunRecord? {
      var run = surveyRun(
        loaded, command: command, parameters: parameters, inputs: inputs, recordedAt: recordedAt)
      let name = loaded.survey.name
      run.results =
        ResultColumns.storedRows(susColumns, of: result, subject: name)
        + result.respondents.flatMap {
          ResultColumns.storedRows(susRespondentColumns, of: $0, subject: "\(name) respondent \($0.id)")
        }
      return run
    }

    func render(_ request: RenderRequest) throws -> Rendering {
      var out = Rendering(request)
      try renderSUS(
        result, survey: loaded.survey, chartsDirectory: chartsDirectory, format: format, into: &out)
      return out
    }
  }

  package static func sus(
    _ input: Input, items: [String], chartsDirectory: String?, databasePath: String? = nil,
    format: OutputFormat?, driver: Driver
  ) throws {
    let loaded = try loaded(input)
    let result = try sus(loaded, items: items)
    try driver.finish(
      SUSOutcome(loaded: loaded, result: result, chartsDirectory: chartsDirectory, format: format),
      database: databasePath)
  }

  static func renderSUS(
    _ result: SUSResult, survey: Survey, chartsDirectory: String?, format: OutputFormat?,
    into out: inout Rendering
  ) throws {
    let scores = result.scores
    let s = result.summary
    let perRespondent = result.respondents.map { ResultColumns.record(susRespondentColumns, of: $0) }
    let record = ResultColumns.record(susColumns, of: result)
    let fmt = format ?? out.defaultFormat
    if fmt == .json {
      out.emit(
        ResultTable(
          name: "sus",
          rows: [
            ResultRecord([
              "summary": .record(record), "respondents": .array(perRespondent.map { .record($0) }),
            ])
          ],
          isSingleObject: true), format: format)
    } else if fmt == .csv {
      // One table per CSV: the respondents; the summary is one row of it in
      // JSON and the other formats.
      out.emit(ResultTable(name: "sus-respondents", rows: perRespondent), format: format)
      out.warn(
        "energylab: note: SUS mean \(Fixed.format(s.mean, digits: 1)) (n = \(s.n), 95 % CI \(Fixed.format(s.lower, digits: 1))-\(Fixed.format(s.upper, digits: 1))); the summary table is in \(Remedy(.outputFormat).text) json, table or markdown"
      )
    } else {
      out.emit(ResultTable(name: "sus", rows: [record], isSingleObject: true), format: format)
      out.write("\n")
      out.emit(ResultTable(name: "sus-respondents", rows: perRespondent), format: format)
    }
    if chartsDirectory != nil || out.figuresDirectory != nil {
      let bins = stride(from: 0.0, to: 100.0, by: 10.0).map { lo in
        (lo, Double(scores.filter { $0 >= lo && ($0 < lo + 10 || (lo == 90 && $0 <= 100)) }.count))
      }
      var chart = GnuplotChart(
        name: "\(survey.name)-sus-distribution",
        title: "SUS scores (mean \(Fixed.format(s.mean, digits: 1)), \(SUS.adjective(s.mean)))",
        xLabel: "SUS score", yLabel: "respondents", series: [])
      chart.stackedBars = GnuplotChart.StackedBars(
        categories: bins.map { "\(Int($0.0))-\(Int($0.0) + (Int($0.0) == 90 ? 10 : 9))" },
        seriesTitles: ["respondents"],
        values: bins.map { [$0.1] }, clustered: true)
      out.draw(chart, folder: chartsDirectory, format: format)
    }
  }

  static func singleAnswers(_ q: SurveyQuestion, source: String) throws -> [String?] {
    guard let column = q.answers else {
      throw UsageError(
        .unsupported,
        "\(source) holds no raw responses for \"\(q.text)\"; crosstabs and tests need raw answers")
    }
    guard !q.isMultiSelect else {
      throw UsageError(.unsupported, "\"\(q.text)\" is multi-select; choose a single-choice question")
    }
    return (0..<column.count).map { column[$0].first }
  }

  /// One ASQ task scored: the summary over respondents with all three
  /// items, how many were left out, and how the answers were coded.
  package struct ASQTask: Sendable {
    package var task: String
    package var summary: SUS.Summary
    /// Respondents without all three items (unanswered or not applicable).
    package var skipped: Int
    /// "points7: 1 = 1, ..." or "agreement7: Strongly disagree = 1, ...".
    package var coding: String
  }

  /// After-Scenario Questionnaire: per task, each respondent's mean of the
  /// three items (coded 1-7 through their scale: numbers as given, labels
  /// through an assigned, file or inferred 7-point scale), then the mean,
  /// SD and 95 % t interval over respondents with all three items.
  package static func asq(
    _ survey: Survey, tasks: [(name: String, items: [String])], scales assigned: [String: SurveyScale] = [:],
    custom: [SurveyScale] = []
  ) throws -> [ASQTask] {
    try tasks.map { task in
      let questions = try task.items.map { try survey.question(matching: $0) }
      guard questions.count == 3, let respondents = questions[0].answers?.count else {
        throw UsageError(.missing, "ASQ task \(task.name) needs three items with raw answers")
      }
      let scales = try pooledScales(
        questions, assigned: assigned, custom: custom, points: 7, source: survey.source, what: "ASQ")
      var scores: [Double] = []
      var skipped = 0
      for r in 0..<respondents {
        let id = survey.respondentIDs?[r] ?? String(r + 1)
        let items = try questions.compactMap {
          try code(
            $0, respondent: r, id: id, scale: try scale(of: $0, in: scales, what: "ASQ"),
            source: survey.source)
        }
        guard items.count == 3 else {
          skipped += 1
          continue
        }
        guard items.allSatisfy({ (1...7).contains($0) }) else {
          throw InputError(
            .value, SourceLocation(file: survey.source),
            "respondent \(id), task \(task.name): answers \(items.map(Fixed.shortest).joined(separator: ", "))",
            expected: "ASQ items coded 1-7")
        }
        scores.append(try ASQ.score(items))
      }
      return ASQTask(
        task: task.name, summary: SUS.summary(scores), skipped: skipped, coding: codingText(questions, scales)
      )
    }
  }

  /// `survey asq`: each task's scores.
  struct ASQOutcome: SurveyOutcome {
    var loaded: Loaded
    var commandParameters: [NamedParameter]
    var scores: [ASQTask]
    var format: OutputFormat?
    var command: String { "survey asq" }

    func runRecord(inputs: [InputFingerprint], recordedAt: String?) -> RunRecord? {
      var run = surveyRun(
        loaded, command: command, parameters: parameters, inputs: inputs, recordedAt: recordedAt)
      for t in scores {
        run.results += ResultColumns.storedRows(asqColumns, of: t, subject: "\(loaded.survey.name) \(t.task)")
      }
      return run
    }

    func render(_ request: RenderRequest) throws -> Rendering {
      var out = Rendering(request)
      let rows = scores.map { ResultColumns.record(asqColumns, of: $0) }
      out.emit(ResultTable(name: "asq", rows: rows), format: format)
      return out
    }
  }

  package static func asq(
    _ input: Input, tasks: [(name: String, items: [String])], databasePath: String? = nil,
    format: OutputFormat?, driver: Driver
  )
    throws
  {
    let loaded = try loaded(input)
    let scores = try asq(
      loaded.survey, tasks: tasks, scales: loaded.scales.filter { !loaded.inferred.contains($0.key) },
      custom: loaded.custom)
    let parameters =
      tasks.map {
        NamedParameter(
          name: "asq_task_\($0.name)", value: $0.items.joined(separator: ","),
          meaning: "the task's three items")
      }
      + scores.map {
        NamedParameter(name: "asq_coding_\($0.task)", value: $0.coding, meaning: "answers read as 1-7")
      }
    try driver.finish(
      ASQOutcome(loaded: loaded, commandParameters: parameters, scores: scores, format: format),
      database: databasePath)
  }

  /// A contingency table of two single-choice questions, answers in their
  /// scales' order, with its chi-square test.
  package static func crosstab(_ loaded: Loaded, rows: String, columns: String) throws -> (
    rows: SurveyQuestion, columns: SurveyQuestion, table: SurveyStatistics.Crosstab
  ) {
    let survey = loaded.survey
    let rq = try survey.question(matching: rows)
    let cq = try survey.question(matching: columns)
    func order(_ q: SurveyQuestion, _ answers: [String?]) -> [String]? {
      (loaded.scales[q.id] ?? SurveyScale.detect(answers.compactMap { $0 }))?.labels
    }
    let ra = try singleAnswers(rq, source: survey.source)
    let ca = try singleAnswers(cq, source: survey.source)
    func canonical(_ answers: [String?], _ labels: [String]?) -> [String?] {
      guard let labels else { return answers }
      let scale = SurveyScale(name: "", labels: labels)
      return answers.map { a in a.map { scale.index(of: $0).map { labels[$0] } ?? $0 } }
    }
    return (
      rq, cq,
      SurveyStatistics.crosstab(
        rows: canonical(ra, order(rq, ra)), columns: canonical(ca, order(cq, ca)), rowOrder: order(rq, ra),
        columnOrder: order(cq, ca))
    )
  }

  /// `survey crosstab`: two questions' answers against each other.
  struct CrosstabOutcome: SurveyOutcome {
    var loaded: Loaded
    var rq: SurveyQuestion
    var cq: SurveyQuestion
    var t: SurveyStatistics.Crosstab
    var format: OutputFormat?
    var command: String { "survey crosstab" }
    var commandParameters: [NamedParameter] {
      [
        NamedParameter(name: "crosstab_rows", value: rq.id, meaning: "question of the rows"),
        NamedParameter(name: "crosstab_columns", value: cq.id, meaning: "question of the columns"),
      ]
    }

    func runRecord(inputs: [InputFingerprint], recordedAt: String?) -> RunRecord? {
      var run = surveyRun(
        loaded, command: command, parameters: parameters, inputs: inputs, recordedAt: recordedAt)
      let question = "\(rq.text) x \(cq.text)"
      for (r, label) in t.rowLabels.enumerated() {
        for (c, column) in t.columnLabels.enumerated() {
          run.surveyResults.append(
            SurveyResultRow(
              survey: loaded.survey.name, question: question, answer: "\(label) | \(column)",
              count: t.counts[r][c], percentage: nil, note: "crosstab cell"))
        }
      }
      let subject = "\(loaded.survey.name) \(rq.id) x \(cq.id)"
      run.results = ResultColumns.storedRows(crosstabColumns, of: t, subject: subject)
      return run
    }

    func render(_ request: RenderRequest) throws -> Rendering {
      var out = Rendering(request)
      renderCrosstab(rq, cq, t, format: format, into: &out)
      return out
    }
  }

  package static func crosstab(
    _ input: Input, rows: String, columns: String, databasePath: String? = nil, format: OutputFormat?,
    driver: Driver
  ) throws {
    let loaded = try loaded(input)
    let (rq, cq, t) = try crosstab(loaded, rows: rows, columns: columns)
    try driver.finish(
      CrosstabOutcome(loaded: loaded, rq: rq, cq: cq, t: t, format: format), database: databasePath)
  }

  static func renderCrosstab(
    _ rq: SurveyQuestion, _ cq: SurveyQuestion, _ t: SurveyStatistics.Crosstab, format: OutputFormat?,
    into out: inout Rendering
  ) {
    var table: [ResultValue] = []
    for (r, label) in t.rowLabels.enumerated() {
      var row = ResultRecord(["row": .string(label)])
      for (c, column) in t.columnLabels.enumerated() { row[column] = .number(t.counts[r][c], 0) }
      table.append(.record(row))
    }
    var record = ResultRecord(["rows": .string(rq.text), "cols": .string(cq.text), "table": .array(table)])
    for (key, value) in ResultColumns.record(crosstabColumns, of: t).fields { record[key] = value }
    if (format ?? out.defaultFormat) == .json {
      out.emit(ResultTable(name: "crosstab", rows: [record], isSingleObject: true), format: format)
    } else {
      out.emit(
        ResultTable(
          name: "crosstab-table",
          rows: table.compactMap { if case .record(let r) = $0 { return r } else { return nil } }),
        format: format)
      out.write(
        "\nchi2 = \(Fixed.format(t.chiSquare, digits: 3)), dof = \(t.degreesOfFreedom), p = \(Fixed.format(t.pValue, digits: 4)), Cramer's V = \(Fixed.format(t.cramersV, digits: 3))"
          + (t.sparseCells > 0
            ? "; \(t.sparseCells) cells expect fewer than 5 answers, so the chi-square approximation is rough"
            : "") + "\n")
    }
  }

  /// An ordinal question's scale values split by another question's
  /// answers, in order of first appearance.
  package struct GroupComparison: Sendable {
    package enum Test: Sendable {
      case mannWhitney(SurveyStatistics.MannWhitney)
      case kruskalWallis(SurveyStatistics.KruskalWallis)
    }
    package var question: SurveyQuestion
    package var by: SurveyQuestion
    package var groups: [(name: String, values: [Double])]
    /// Mann-Whitney U for two groups, Kruskal-Wallis H for more.
    package var test: Test
    /// The scale whose codes are compared.
    package var scale: SurveyScale
  }

  package static func comparison(_ loaded: Loaded, question: String, by group: String) throws
    -> GroupComparison
  {
    let survey = loaded.survey
    let q = try survey.question(matching: question)
    let g = try survey.question(matching: group)
    let answers = try singleAnswers(q, source: survey.source)
    let groups = try singleAnswers(g, source: survey.source)
    guard let scale = loaded.scales[q.id] ?? SurveyScale.detect(answers.compactMap { $0 }) else {
      throw UsageError(
        .unsupported, "\"\(q.text)\" has no ordinal scale; give one with \(Remedy.slot)",
        remedy: Remedy(.ordinalScale))
    }
    var byGroup: [(name: String, values: [Double])] = []
    for (a, gr) in zip(answers, groups) {
      guard let a, let gr, let index = scale.index(of: a) else { continue }
      if let k = byGroup.firstIndex(where: { $0.name == gr }) {
        byGroup[k].values.append(scale.values[index])
      } else {
        byGroup.append((gr, [scale.values[index]]))
      }
    }
    guard byGroup.count >= 2 else {
      throw UsageError(
        .unsupported, "\"\(g.text)\" splits the answers into \(byGroup.count) group; need at least 2")
    }
    let test: GroupComparison.Test =
      byGroup.count == 2
      ? .mannWhitney(SurveyStatistics.mannWhitney(byGroup[0].values, byGroup[1].values))
      : .kruskalWallis(SurveyStatistics.kruskalWallis(byGroup.map(\.values)))
    return GroupComparison(question: q, by: g, groups: byGroup, test: test, scale: scale)
  }

  /// `survey compare`: an ordinal question's answers by group.
  struct ComparisonOutcome: SurveyOutcome {
    var loaded: Loaded
    var result: GroupComparison
    var format: OutputFormat?
    var command: String { "survey compare" }
    var commandParameters: [NamedParameter] {
      [
        NamedParameter(
          name: "compare_question", value: result.question.id, meaning: "ordinal question compared"),
        NamedParameter(
          name: "compare_by", value: result.by.id, meaning: "question whose answers are the groups"),
      ]
    }

    func runRecord(inputs: [InputFingerprint], recordedAt: String?) -> RunRecord? {
      var run = surveyRun(
        loaded, command: command, parameters: parameters, inputs: inputs, recordedAt: recordedAt)
      let base = "\(loaded.survey.name) \(result.question.id) by \(result.by.id)"
      for g in result.groups {
        run.results += [
          ResultRow(
            subject: "\(base) \(g.name)", metric: "n", value: Double(g.values.count), unit: "count"),
          ResultRow(
            subject: "\(base) \(g.name)", metric: "median",
            value: Quantiles.quantile(g.values.sorted(), 0.5),
            unit: "scale value"),
        ]
      }
      switch result.test {
      case .mannWhitney(let t):
        run.results += [
          ResultRow(subject: base, metric: "mann_whitney_u", value: t.u, unit: ""),
          ResultRow(subject: base, metric: "z", value: t.z, unit: ""),
          ResultRow(subject: base, metric: "p_value", value: t.pValue, unit: ""),
          ResultRow(subject: base, metric: "effect_size_r", value: t.effectSizeR, unit: ""),
        ]
      case .kruskalWallis(let t):
        run.results += [
          ResultRow(subject: base, metric: "kruskal_wallis_h", value: t.h, unit: ""),
          ResultRow(subject: base, metric: "dof", value: Double(t.degreesOfFreedom), unit: "count"),
          ResultRow(subject: base, metric: "p_value", value: t.pValue, unit: ""),
          ResultRow(subject: base, metric: "epsilon_squared", value: t.epsilonSquared, unit: ""),
        ]
      }
      return run
    }

    func render(_ request: RenderRequest) throws -> Rendering {
      var out = Rendering(request)
      renderComparison(result, format: format, into: &out)
      return out
    }
  }

  package static func compare(
    _ input: Input, question: String, by group: String, databasePath: String? = nil, format: OutputFormat?,
    driver: Driver
  ) throws {
    let loaded = try loaded(input)
    let result = try comparison(loaded, question: question, by: group)
    try driver.finish(
      ComparisonOutcome(loaded: loaded, result: result, format: format),
      database: databasePath)
  }

  static func renderComparison(_ result: GroupComparison, format: OutputFormat?, into out: inout Rendering) {
    let q = result.question
    let g = result.by
    let byGroup = result.groups.map { ($0.name, $0.values) }
    var record = ResultRecord([
      "question": .string(q.text), "by": .string(g.text),
      "scale": .string(result.scale.name), "coding": .string(result.scale.coding),
      "groups": .array(
        byGroup.map {
          .record(
            ResultRecord([
              "group": .string($0.0), "n": .integer($0.1.count),
              "median": .number(Quantiles.quantile($0.1.sorted(), 0.5), 2),
            ]))
        }),
    ])
    switch result.test {
    case .mannWhitney(let t):
      record["test"] = .string("Mann-Whitney U")
      record["u"] = .number(t.u, 2)
      record["z"] = .number(t.z, 4)
      record["p_value"] = .number(t.pValue, 4)
      record["effect_size_r"] = .number(t.effectSizeR, 4)
    case .kruskalWallis(let t):
      record["test"] = .string("Kruskal-Wallis H")
      record["h"] = .number(t.h, 4)
      record["dof"] = .integer(t.degreesOfFreedom)
      record["p_value"] = .number(t.pValue, 4)
      record["epsilon_squared"] = .number(t.epsilonSquared, 4)
    }
    out.emit(ResultTable(name: "compare", rows: [record], isSingleObject: true), format: format)
  }
}
