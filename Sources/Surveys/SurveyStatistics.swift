import EnergyLabCore
import Foundation

/// A proportion with its Wilson score interval.
public struct Proportion: Sendable, Hashable {
  public var successes: Double
  public var total: Double
  public var estimate: Double { total > 0 ? successes / total : .nan }
  public var lower: Double
  public var upper: Double

  /// Wilson score interval (Wilson 1927; Newcombe 1998, method 3):
  /// ```
  /// (p + z^2/2n -/+ z sqrt(p(1-p)/n + z^2/4n^2)) / (1 + z^2/n)
  /// ```
  public init(successes: Double, total: Double, z: Double = 1.959963984540054) {
    self.successes = successes
    self.total = total
    guard total > 0 else {
      lower = .nan
      upper = .nan
      return
    }
    let p = successes / total
    let z2 = z * z
    let centre = (p + z2 / (2 * total)) / (1 + z2 / total)
    let half = z / (1 + z2 / total) * sqrt(p * (1 - p) / total + z2 / (4 * total * total))
    lower = max(0, centre - half)
    upper = min(1, centre + half)
  }
}

/// Order statistics of coded ordinal answers.
public enum Quantiles {
  /// The p-quantile by linear interpolation between order statistics
  /// (Hyndman and Fan type 7, the default of R and NumPy).
  public static func quantile(_ sorted: [Double], _ p: Double) -> Double {
    guard !sorted.isEmpty else { return .nan }
    let h = Double(sorted.count - 1) * p
    let lo = Int(h.rounded(.down))
    let hi = min(sorted.count - 1, lo + 1)
    return sorted[lo] + (h - Double(lo)) * (sorted[hi] - sorted[lo])
  }
}

/// What `survey summary` reports of one question.
public struct QuestionSummary: Sendable, Hashable {
  public var question: SurveyQuestion
  /// Respondents who answered (or the published n).
  public var n: Int?
  /// label -> count, in scale order (or order of first appearance).
  public var counts: [(label: String, count: Double)]
  /// Counts over several options whose split is unknown (partial data).
  public var partial: [(labels: [String], count: Double, note: String)]
  public var percentages: [(label: String, percent: Double)]
  public var scale: SurveyScale?
  public var median: Double?
  public var interquartileRange: Double?
  /// Mean and SD of the codes: ordinal data, reported with that flag.
  public var mean: Double?
  public var standardDeviation: Double?
  /// Share in the two highest categories, with its Wilson interval.
  public var topTwoBox: Proportion?
  public var notApplicable: Double
  public var openAnswers: [String]
  /// Answers an aggregate names but whose numbers the source does not publish.
  public var unpublished: [String] = []

  public static func == (a: QuestionSummary, b: QuestionSummary) -> Bool {
    a.question == b.question && a.counts.map(\.label) == b.counts.map(\.label)
      && a.counts.map(\.count) == b.counts.map(\.count)
  }
  public func hash(into hasher: inout Hasher) { hasher.combine(question) }
}

public enum SurveyStatistics {
  /// Summarises a question: raw answers are counted (multi-select: each
  /// option chosen counts once per respondent; percentages are of
  /// respondents who answered); aggregates are reported as published, a
  /// partial count staying partial.
  public static func summary(_ q: SurveyQuestion, scale declared: SurveyScale?) throws -> QuestionSummary {
    if let column = q.answers {
      // One pass over the codes counts each distinct answer set; the scale
      // then reads the few distinct answers, not every cell.
      var answeredCount = 0
      var distinct: [String: Int] = [:]
      var firstSeen: [String] = []
      for (options, n) in zip(column.choices, column.choiceCounts()) where n > 0 {
        answeredCount += n
        for answer in options {
          if let c = distinct[answer] {
            distinct[answer] = c + n
          } else {
            distinct[answer] = n
            firstSeen.append(answer)
          }
        }
      }
      let scale = declared ?? (q.isMultiSelect ? nil : SurveyScale.detect(firstSeen))
      var order: [String] = []
      var counts: [String: Double] = [:]
      var na = 0.0
      var codes: [Double] = []
      for answer in firstSeen {
        let n = distinct[answer, default: 0]
        if let scale {
          if scale.isNotApplicable(answer) {
            na += Double(n)
            continue
          }
          guard let index = scale.index(of: answer) else {
            throw InputError(
              .value,
              SourceLocation(file: "question \"\(q.text)\""),
              "unknown answer \"\(answer)\" on scale \(scale.name)",
              expected: "one of \(scale.labels.joined(separator: ", "))")
          }
          counts[scale.labels[index], default: 0] += Double(n)
          codes += repeatElement(scale.values[index], count: n)
        } else {
          order.append(answer)
          counts[answer, default: 0] += Double(n)
        }
      }
      let labels = scale?.labels ?? order
      let orderedCounts = labels.map { ($0, counts[$0] ?? 0) }
      let total = Double(answeredCount) - (scale == nil ? 0 : na)
      let percentages = orderedCounts.map { ($0.0, total > 0 ? 100 * $0.1 / total : .nan) }
      var summary = QuestionSummary(
        question: q, n: answeredCount, counts: orderedCounts, partial: [], percentages: percentages,
        scale: scale,
        median: nil, interquartileRange: nil, mean: nil, standardDeviation: nil, topTwoBox: nil,
        notApplicable: na,
        openAnswers: [])
      if let scale, scale.labels.count >= 3, !codes.isEmpty {
        let sorted = codes.sorted()
        summary.median = Quantiles.quantile(sorted, 0.5)
        summary.interquartileRange = Quantiles.quantile(sorted, 0.75) - Quantiles.quantile(sorted, 0.25)
        // Sums in sorted order, so the result does not depend on row order.
        let mean = sorted.reduce(0, +) / Double(sorted.count)
        summary.mean = mean
        summary.standardDeviation =
          sorted.count > 1
          ? sqrt(sorted.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(sorted.count - 1)) : nil
        let topTwo = scale.labels.suffix(2).reduce(0) { $0 + (counts[$1] ?? 0) }
        summary.topTwoBox = Proportion(successes: topTwo, total: Double(codes.count))
      }
      if scale == nil && !q.isMultiSelect && order.count > max(10, answeredCount / 2) {
        // Mostly distinct answers: an open-ended question, in answer order.
        summary.openAnswers = (0..<column.count).flatMap { column[$0] }
      }
      return summary
    }
    let n = q.aggregateN
    var counts: [(String, Double)] = []
    var partial: [([String], Double, String)] = []
    var percentages: [(String, Double)] = []
    var open: [String] = []
    var mean: Double?
    var unpublished: [String] = []
    for entry in q.aggregate {
      if entry.kind != .text && entry.value == nil {
        unpublished.append(entry.labels.joined(separator: " or ") + (entry.kind == .mean ? " (mean)" : ""))
        continue
      }
      switch entry.kind {
      case .count:
        counts.append((entry.labels.joined(separator: " or "), entry.value ?? 0))
        if let n, n > 0 {
          percentages.append((entry.labels.joined(separator: " or "), 100 * (entry.value ?? 0) / Double(n)))
        }
      case .percentage: percentages.append((entry.labels.joined(separator: " or "), entry.value ?? .nan))
      case .group: partial.append((entry.labels, entry.value ?? 0, entry.note))
      case .mean: mean = entry.value
      case .text: open.append(entry.text ?? "")
      }
    }
    var scale = declared
    if scale == nil { scale = SurveyScale.detect(counts.map(\.0) + partial.flatMap(\.0)) }
    if let s = scale {
      counts.sort { (s.index(of: $0.0) ?? 0) < (s.index(of: $1.0) ?? 0) }
      percentages.sort { (s.index(of: $0.0) ?? 0) < (s.index(of: $1.0) ?? 0) }
    }
    var summary = QuestionSummary(
      question: q, n: n, counts: counts.map { ($0.0, $0.1) }, partial: partial.map { ($0.0, $0.1, $0.2) },
      percentages: percentages.map { ($0.0, $0.1) }, scale: scale, median: nil, interquartileRange: nil,
      mean: mean,
      standardDeviation: nil, topTwoBox: nil, notApplicable: 0, openAnswers: open)
    summary.unpublished = unpublished
    return summary
  }

  /// A contingency table with Pearson's chi-square test of independence and
  /// Cramer's V:
  /// ```
  /// chi2 = sum (O - E)^2 / E,  E = row total x column total / n
  /// dof = (r - 1)(c - 1),  V = sqrt(chi2 / (n (min(r, c) - 1)))
  /// ```
  public struct Crosstab: Sendable, Hashable {
    public var rowLabels: [String]
    public var columnLabels: [String]
    public var counts: [[Double]]
    public var chiSquare: Double
    public var degreesOfFreedom: Int
    public var pValue: Double
    public var cramersV: Double
    /// Cells with an expected count below 5 (the test's usual caveat).
    public var sparseCells: Int
  }

  public static func crosstab(
    rows: [String?], columns: [String?], rowOrder: [String]? = nil, columnOrder: [String]? = nil
  )
    -> Crosstab
  {
    var rl: [String] = rowOrder ?? []
    var cl: [String] = columnOrder ?? []
    var pairs: [(String, String)] = []
    for (r, c) in zip(rows, columns) {
      guard let r, let c else { continue }
      if !rl.contains(r) { rl.append(r) }
      if !cl.contains(c) { cl.append(c) }
      pairs.append((r, c))
    }
    var counts = [[Double]](repeating: [Double](repeating: 0, count: cl.count), count: rl.count)
    let rowOf = Dictionary(rl.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
    let columnOf = Dictionary(cl.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
    for (r, c) in pairs {
      if let i = rowOf[r], let j = columnOf[c] { counts[i][j] += 1 }
    }
    // Drop empty rows and columns (declared but unused labels).
    let keepRows = rl.indices.filter { counts[$0].reduce(0, +) > 0 }
    let keepColumns = cl.indices.filter { c in counts.reduce(0) { $0 + $1[c] } > 0 }
    let table = keepRows.map { r in keepColumns.map { counts[r][$0] } }
    let n = table.joined().reduce(0, +)
    let rowTotals = table.map { $0.reduce(0, +) }
    let columnTotals = keepColumns.indices.map { c in table.reduce(0) { $0 + $1[c] } }
    var chi2 = 0.0
    var sparse = 0
    for r in table.indices {
      for c in columnTotals.indices {
        let expected = rowTotals[r] * columnTotals[c] / n
        if expected < 5 { sparse += 1 }
        if expected > 0 { chi2 += (table[r][c] - expected) * (table[r][c] - expected) / expected }
      }
    }
    let dof = max(0, (table.count - 1) * (columnTotals.count - 1))
    let k = Double(min(table.count, columnTotals.count) - 1)
    return Crosstab(
      rowLabels: keepRows.map { rl[$0] }, columnLabels: keepColumns.map { cl[$0] }, counts: table,
      chiSquare: chi2,
      degreesOfFreedom: dof,
      pValue: dof > 0 ? ChiSquared.survival(chi2, degreesOfFreedom: Double(dof)) : .nan,
      cramersV: k > 0 && n > 0 ? sqrt(chi2 / (n * k)) : .nan, sparseCells: sparse)
  }

  /// Average ranks (ties share the mean rank) and the tie correction term
  /// sum (t^3 - t).
  static func ranks(_ values: [Double]) -> (ranks: [Double], ties: Double) {
    let order = values.indices.sorted { values[$0] < values[$1] }
    var ranks = [Double](repeating: 0, count: values.count)
    var ties = 0.0
    var i = 0
    while i < order.count {
      var j = i
      while j + 1 < order.count && values[order[j + 1]] == values[order[i]] { j += 1 }
      let rank = Double(i + j + 2) / 2
      for k in i...j { ranks[order[k]] = rank }
      let t = Double(j - i + 1)
      ties += t * t * t - t
      i = j + 1
    }
    return (ranks, ties)
  }

  /// Mann-Whitney U test of two independent groups, normal approximation
  /// with tie and continuity corrections; effect size r = |z| / sqrt(N).
  public struct MannWhitney: Sendable, Hashable {
    public var u: Double
    public var z: Double
    public var pValue: Double
    public var effectSizeR: Double
  }

  public static func mannWhitney(_ a: [Double], _ b: [Double]) -> MannWhitney {
    let n1 = Double(a.count)
    let n2 = Double(b.count)
    let (r, ties) = ranks(a + b)
    let r1 = r.prefix(a.count).reduce(0, +)
    let u1 = r1 - n1 * (n1 + 1) / 2
    let u = min(u1, n1 * n2 - u1)
    let n = n1 + n2
    let sigma = sqrt(n1 * n2 / 12 * ((n + 1) - ties / (n * (n - 1))))
    let mean = n1 * n2 / 2
    let z = sigma > 0 ? (u1 - mean - (u1 > mean ? 0.5 : u1 < mean ? -0.5 : 0)) / sigma : 0
    let p = sigma > 0 ? min(1, 2 * (1 - StandardNormal.cdf(abs(z)))) : 1
    return MannWhitney(u: u, z: z, pValue: p, effectSizeR: n > 0 ? abs(z) / sqrt(n) : .nan)
  }

  /// Kruskal-Wallis H test of k independent groups, tie-corrected, p from
  /// chi-square with k - 1 degrees of freedom; effect size epsilon squared
  /// = H / (N - 1) (Tomczak and Tomczak 2014).
  public struct KruskalWallis: Sendable, Hashable {
    public var h: Double
    public var degreesOfFreedom: Int
    public var pValue: Double
    public var epsilonSquared: Double
  }

  public static func kruskalWallis(_ groups: [[Double]]) -> KruskalWallis {
    let all = groups.flatMap { $0 }
    let n = Double(all.count)
    let (r, ties) = ranks(all)
    var offset = 0
    var sum = 0.0
    for g in groups {
      let rs = r[offset..<offset + g.count].reduce(0, +)
      if !g.isEmpty { sum += rs * rs / Double(g.count) }
      offset += g.count
    }
    var h = 12 / (n * (n + 1)) * sum - 3 * (n + 1)
    let correction = 1 - ties / (n * n * n - n)
    if correction > 0 { h /= correction }
    let dof = groups.filter { !$0.isEmpty }.count - 1
    return KruskalWallis(
      h: h, degreesOfFreedom: dof,
      pValue: dof > 0 ? ChiSquared.survival(h, degreesOfFreedom: Double(dof)) : .nan,
      epsilonSquared: n > 1 ? h / (n - 1) : .nan)
  }
}
