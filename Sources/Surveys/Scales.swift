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

  public init(
    name: String, labels: [String], values: [Double]? = nil, neutral: String? = nil,
    notApplicable: [String] = []
  ) {
    self.name = name
    self.labels = labels
    self.values = values ?? labels.indices.map { Double($0 + 1) }
    self.neutral = neutral
    self.notApplicable = notApplicable
  }

  static let defaultNotApplicable = ["N/A", "Not applicable", "Prefer not to say", "Don't know"]

  /// The built-in scales.
  public static let builtIn: [SurveyScale] = [
    SurveyScale(
      name: "agreement5",
      labels: ["Strongly disagree", "Disagree", "Neither agree nor disagree", "Agree", "Strongly agree"],
      neutral: "Neither agree nor disagree", notApplicable: defaultNotApplicable),
    SurveyScale(
      name: "agreement7",
      labels: [
        "Strongly disagree", "Disagree", "Somewhat disagree", "Neither agree nor disagree", "Somewhat agree",
        "Agree",
        "Strongly agree",
      ], neutral: "Neither agree nor disagree", notApplicable: defaultNotApplicable),
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
    return labels.firstIndex { Self.normalised($0) == key }
  }

  public func isNotApplicable(_ answer: String) -> Bool {
    notApplicable.contains { Self.normalised($0) == Self.normalised(answer) }
  }

  static func normalised(_ text: String) -> String {
    text.lowercased().split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
  }

  /// The first built-in scale holding every answer given, with fewer
  /// labels preferred (yes/no before yes/maybe/no).
  public static func detect(_ answers: [String]) -> SurveyScale? {
    let distinct = Set(answers.map(normalised))
    guard !distinct.isEmpty else { return nil }
    return builtIn.filter { $0.name != "severity" }.sorted { $0.labels.count < $1.labels.count }.first {
      scale in
      distinct.allSatisfy { a in
        scale.labels.contains { normalised($0) == a } || scale.notApplicable.contains { normalised($0) == a }
      }
    }
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
      var index = scales.firstIndex { $0.name == row[0] }
      if index == nil {
        scales.append(SurveyScale(name: row[0], labels: [], values: []))
        index = scales.count - 1
      }
      switch row[3] {
      case "na": scales[index!].notApplicable.append(row[1])
      case "neutral":
        scales[index!].neutral = row[1]
        scales[index!].labels.append(row[1])
        scales[index!].values.append(value)
      case "":
        scales[index!].labels.append(row[1])
        scales[index!].values.append(value)
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
