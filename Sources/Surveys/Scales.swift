import EnergyLabCore
import Foundation

/// An ordered answer scale: labels with their numeric codes, the neutral
/// label, and labels kept apart as not applicable.
public struct SurveyScale: Sendable, Hashable {
  public var name: String
  /// Labels in order, lowest first, with their codes.
  public var labels: [String]
  public var values: [Double]
  public var neutral: String?
  public var notApplicable: [String]
  /// Other spellings of a label, as platforms word it ("Neutral" for
  /// "Neither agree nor disagree"): alias -> the label it stands for.
  public var aliases: [String: String]

  public init(
    name: String, labels: [String], values: [Double]? = nil, neutral: String? = nil,
    notApplicable: [String] = [], aliases: [String: String] = [:]
  ) {
    self.name = name
    self.labels = labels
    self.values = values ?? labels.indices.map { Double($0 + 1) }
    self.neutral = neutral
    self.notApplicable = notApplicable
    self.aliases = aliases
  }

  static let defaultNotApplicable = ["N/A", "Not applicable", "Prefer not to say", "Don't know"]

  /// The neutral point of agreement scales and the other ways exports word it.
  static let agreementNeutral = "Neither agree nor disagree"
  static let agreementNeutralAliases = [
    "Neutral": agreementNeutral, "Neither agree or disagree": agreementNeutral,
    "Neither disagree nor agree": agreementNeutral, "Undecided": agreementNeutral,
  ]

  /// An agree/disagree scale: the disagree side from the strongest, the
  /// neutral point, the agree side to the strongest.
  static func agreement(_ name: String, disagree: [String], agree: [String]) -> SurveyScale {
    SurveyScale(
      name: name, labels: disagree + [agreementNeutral] + agree, neutral: agreementNeutral,
      notApplicable: defaultNotApplicable, aliases: agreementNeutralAliases)
  }

  /// The built-in scales. The agreement scales are the wordings survey
  /// platforms offer: 5 points as SurveyMonkey's and Google Forms' grids
  /// ("Disagree", "Agree") or Qualtrics' ("Somewhat disagree", "Somewhat
  /// agree"); 7 points as Qualtrics and SurveyMonkey ("Disagree",
  /// "Somewhat ..."), with "Slightly", or with "Moderately" and "Slightly".
  public static let builtIn: [SurveyScale] = [
    agreement(
      "agreement5", disagree: ["Strongly disagree", "Disagree"], agree: ["Agree", "Strongly agree"]),
    agreement(
      "agreement5-somewhat", disagree: ["Strongly disagree", "Somewhat disagree"],
      agree: ["Somewhat agree", "Strongly agree"]),
    agreement(
      "agreement7", disagree: ["Strongly disagree", "Disagree", "Somewhat disagree"],
      agree: ["Somewhat agree", "Agree", "Strongly agree"]),
    agreement(
      "agreement7-slightly", disagree: ["Strongly disagree", "Disagree", "Slightly disagree"],
      agree: ["Slightly agree", "Agree", "Strongly agree"]),
    agreement(
      "agreement7-moderately", disagree: ["Strongly disagree", "Moderately disagree", "Slightly disagree"],
      agree: ["Slightly agree", "Moderately agree", "Strongly agree"]),
    SurveyScale(
      name: "likelihood5",
      labels: [
        "Extremely unlikely", "Somewhat unlikely", "Neither likely nor unlikely", "Somewhat likely",
        "Extremely likely",
      ],
      neutral: "Neither likely nor unlikely", notApplicable: defaultNotApplicable),
    SurveyScale(
      name: "ease5",
      labels: [
        "Extremely difficult", "Somewhat difficult", "Neither easy nor difficult", "Somewhat easy",
        "Extremely easy",
      ],
      neutral: "Neither easy nor difficult", notApplicable: defaultNotApplicable),
    SurveyScale(
      name: "quality5", labels: ["Terrible", "Poor", "Average", "Good", "Great"], neutral: "Average",
      notApplicable: defaultNotApplicable),
    SurveyScale(
      name: "definitely5",
      labels: ["Definitely not", "Probably not", "Might or might not", "Probably yes", "Definitely yes"],
      neutral: "Might or might not", notApplicable: defaultNotApplicable),
    SurveyScale(name: "yesno", labels: ["No", "Yes"], notApplicable: defaultNotApplicable),
    SurveyScale(
      name: "yesmaybeno", labels: ["No", "Maybe", "Yes"], neutral: "Maybe",
      notApplicable: defaultNotApplicable),
    SurveyScale(
      name: "points5", labels: ["1", "2", "3", "4", "5"], neutral: "3", notApplicable: defaultNotApplicable),
    SurveyScale(
      name: "points7", labels: ["1", "2", "3", "4", "5", "6", "7"], neutral: "4",
      notApplicable: defaultNotApplicable),
    // Nielsen (1994) severity ratings, 0-4.
    SurveyScale(
      name: "severity", labels: ["0", "1", "2", "3", "4"], values: [0, 1, 2, 3, 4],
      notApplicable: defaultNotApplicable),
  ]

  public static func named(_ name: String, extra: [SurveyScale] = []) throws -> SurveyScale {
    guard let scale = (extra + builtIn).first(where: { $0.name == name }) else {
      let known = (extra + builtIn).map(\.name)
      throw ValueError(
        .unknown(known: known), "scale", value: name,
        expected: "one of \(known.joined(separator: ", ")) or a scale file")
    }
    return scale
  }

  /// The scale of a reverse-scored item: the same labels, coded from the
  /// other end (the highest code goes to the lowest label).
  public var reversed: SurveyScale {
    SurveyScale(
      name: name + " (reversed)", labels: labels.reversed(), values: values, neutral: neutral,
      notApplicable: notApplicable)
  }

  /// The index of `answer` on the scale (case- and space-insensitive), nil
  /// when it is not a label.
  public func index(of answer: String) -> Int? {
    let key = Self.normalised(answer)
    if let i = labels.firstIndex(where: { Self.normalised($0) == key }) { return i }
    guard let alias = aliases.first(where: { Self.normalised($0.key) == key }) else { return nil }
    return labels.firstIndex(of: alias.value)
  }

  /// Whether the scale reads `answer`: one of its labels, an alias or a
  /// not-applicable answer.
  public func holds(_ answer: String) -> Bool { index(of: answer) != nil || isNotApplicable(answer) }

  /// The numeric code of each label, lowest first: "Strongly disagree = 1,
  /// ..., Strongly agree = 5".
  public var coding: String {
    zip(labels, values).map { "\($0) = \(Fixed.shortest($1))" }.joined(separator: ", ")
  }

  /// Whether the labels are the numbers themselves ("1" ... "5").
  public var isNumeric: Bool { labels.allSatisfy { Double($0) != nil } }

  public func isNotApplicable(_ answer: String) -> Bool {
    notApplicable.contains { Self.normalised($0) == Self.normalised(answer) }
  }

  static func normalised(_ text: String) -> String {
    text.lowercased().split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
  }

  /// The scale holding every answer given: a scale of `extra` (a scale
  /// file) before the built-in ones, and among them the one with fewest
  /// labels (yes/no before yes/maybe/no), so a scale's length is inferred
  /// from the labels used: "Somewhat agree" without "Agree" is the 5-point
  /// wording, "Somewhat agree" with "Agree" the 7-point one.
  public static func detect(_ answers: [String], extra: [SurveyScale] = []) -> SurveyScale? {
    candidates(answers, extra: extra).first
  }

  /// Every scale holding every answer given, in the order `detect` prefers
  /// them; empty without an answer on a scale.
  public static func candidates(_ answers: [String], extra: [SurveyScale] = []) -> [SurveyScale] {
    var seen = Set<String>()
    let distinct = answers.filter { seen.insert(normalised($0)).inserted }
    guard !distinct.isEmpty else { return [] }
    let builtIns = builtIn.filter { $0.name != "severity" }
    func fitting(_ scales: [SurveyScale]) -> [SurveyScale] {
      scales.enumerated().filter { _, scale in
        distinct.allSatisfy(scale.holds) && distinct.contains { scale.index(of: $0) != nil }
      }.sorted { ($0.element.labels.count, $0.offset) < ($1.element.labels.count, $1.offset) }.map(\.element)
    }
    return fitting(extra) + fitting(builtIns)
  }

  /// The next longer worded scale that also holds every answer, when the
  /// chosen one is worded (not numbers): the answers alone cannot tell the
  /// two apart, so the choice is stated.
  public static func longerFit(_ answers: [String], than chosen: SurveyScale) -> SurveyScale? {
    guard !chosen.isNumeric else { return nil }
    return candidates(answers).first { $0.labels.count > chosen.labels.count && !$0.isNumeric }
  }

  /// Whether the scale codes its labels 1 to `points`, one each, as SUS
  /// (5) and ASQ (7) items are scored.
  public func isCodedOneTo(_ points: Int) -> Bool {
    labels.count == points && Set(values) == Set((1...points).map(Double.init))
  }

  /// Reads scales from a CSV `scale,label,value,role` (role: empty,
  /// `neutral` or `na`), labels in order within each scale.
  public static func parseFile(_ rows: [[String]], source: String) throws -> [SurveyScale] {
    guard rows.first == ["scale", "label", "value", "role"] else {
      throw InputError(
        .malformed,
        SourceLocation(file: source, line: 1), "unexpected header", expected: "scale,label,value,role")
    }
    var scales: [SurveyScale] = []
    for (i, row) in rows.dropFirst().enumerated() {
      guard row.count == 4, let value = Double(row[2]) else {
        throw InputError(
          .value,
          SourceLocation(file: source, line: i + 2), "cannot read scale row",
          expected: "scale,label,number,role")
      }
      let index: Int
      if let known = scales.firstIndex(where: { $0.name == row[0] }) {
        index = known
      } else {
        index = scales.count
        scales.append(SurveyScale(name: row[0], labels: [], values: []))
      }
      switch row[3] {
      case "na": scales[index].notApplicable.append(row[1])
      case "neutral":
        scales[index].neutral = row[1]
        scales[index].labels.append(row[1])
        scales[index].values.append(value)
      case "":
        scales[index].labels.append(row[1])
        scales[index].values.append(value)
      default:
        throw InputError(
          .value,
          SourceLocation(file: source, line: i + 2, column: 4), "unknown role \"\(row[3])\"",
          expected: "empty, neutral or na")
      }
    }
    return scales
  }
}
