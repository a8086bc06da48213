import EnergyLabCore
import Foundation

/// The System Usability Scale (Brooke 1996): ten items answered 1-5.
public enum SUS {
  /// 2.5 x (sum of (x - 1) over odd items + sum of (5 - x) over even items),
  /// 0-100. Items in questionnaire order.
  public static func score(_ items: [Double]) throws -> Double {
    guard items.count == 10 else {
      throw ValueError(.outOfRange, "the number of SUS items", value: String(items.count), expected: "10")
    }
    for x in items where !(1...5).contains(x) || x != x.rounded() {
      throw ValueError(.outOfRange, "SUS items", value: Fixed.shortest(x), expected: "whole numbers 1-5")
    }
    var sum = 0.0
    for (i, x) in items.enumerated() { sum += i % 2 == 0 ? x - 1 : 5 - x }
    return sum * 2.5
  }

  /// Mean SUS of each adjective of Bangor, Kortum and Miller (2009, J Usability
  /// Studies 4(3):114-123); a score takes the adjective with the nearest mean.
  public static let adjectives: [(String, Double)] = [
    ("Worst imaginable", 12.5), ("Awful", 20.3), ("Poor", 35.7), ("OK", 50.9), ("Good", 71.4),
    ("Excellent", 85.5),
    ("Best imaginable", 90.9),
  ]

  public static func adjective(_ score: Double) -> String {
    adjectives.min { abs($0.1 - score) < abs($1.1 - score) }!.0
  }

  /// Sauro and Lewis's curved grading scale (Quantifying the User Experience,
  /// 2016, Table 8.5).
  public static func grade(_ score: Double) -> String {
    let bounds: [(Double, String)] = [
      (84.1, "A+"), (80.8, "A"), (78.9, "A-"), (77.2, "B+"), (74.1, "B"), (72.6, "B-"), (71.1, "C+"),
      (65.0, "C"),
      (62.7, "C-"), (51.7, "D"),
    ]
    return bounds.first { score >= $0.0 }?.1 ?? "F"
  }

  /// Mean, SD and 95 % t interval of the scores.
  public struct Summary: Sendable, Hashable {
    public var n: Int
    public var mean: Double
    public var sd: Double
    public var lower: Double
    public var upper: Double
    public var scores: [Double]
  }

  public static func summary(_ scores: [Double]) -> Summary {
    let n = Double(scores.count)
    let mean = scores.reduce(0, +) / n
    let sd = scores.count > 1 ? sqrt(scores.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / (n - 1)) : .nan
    let t = scores.count > 1 ? StudentT.quantile(0.975, degreesOfFreedom: n - 1) : .nan
    return Summary(
      n: scores.count, mean: mean, sd: sd, lower: mean - t * sd / sqrt(n), upper: mean + t * sd / sqrt(n),
      scores: scores)
  }
}

/// The After-Scenario Questionnaire (Lewis 1991): per task, three items on
/// a 7-point scale (ease, time, support information); the ASQ score is
/// their mean.
public enum ASQ {
  public static let items = ["ease of completing the task", "time it took", "support information"]
  public static func score(_ items: [Double]) throws -> Double {
    guard items.count == 3 else {
      throw ValueError(.outOfRange, "the number of ASQ items", value: String(items.count), expected: "3")
    }
    return items.reduce(0, +) / 3
  }
}

/// Keyword codebook for open-ended answers: a theme matches an answer when
/// any of its keywords occurs in it (case-insensitive).
public struct Codebook: Sendable, Hashable {
  public var themes: [(name: String, keywords: [String])]

  public init(themes: [(name: String, keywords: [String])]) { self.themes = themes }

  public static func == (a: Codebook, b: Codebook) -> Bool { a.themes.map(\.name) == b.themes.map(\.name) }
  public func hash(into hasher: inout Hasher) { hasher.combine(themes.map(\.name)) }

  /// Theme counts with up to `examples` example quotes each, in codebook order.
  public func code(_ answers: [String], examples: Int = 2) -> [(theme: String, count: Int, quotes: [String])]
  {
    themes.map { theme in
      let matches = answers.filter { answer in
        let lower = answer.lowercased()
        return theme.keywords.contains { lower.contains($0.lowercased()) }
      }
      return (theme.name, matches.count, Array(matches.prefix(examples)))
    }
  }
}
