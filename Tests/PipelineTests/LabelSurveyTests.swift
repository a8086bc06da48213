import EnergyLabCore
import Foundation
import Pipeline
import Surveys
import TestSupport
import Testing

/// SUS and ASQ of exports answered with text labels.
struct LabelSurveyTests {
  static let fixtures = packageRoot + "/Tests/SurveysTests/Fixtures"
  static let items = (1...10).map { "Q\($0)" }

  static func export(_ text: String) throws -> String {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent(
      "energylab-label-survey-\(UUID().uuidString).csv"
    ).path
    try text.write(toFile: path, atomically: true, encoding: .utf8)
    return path
  }

  /// A Qualtrics export of 30 respondents who each answered all ten SUS
  /// items on the 5-point "Somewhat" wording (scripts/fixtures/make-label-sus.py).
  /// scripts/oracles/sus_labels.py (pandas, scipy) gives: all 30 scored,
  /// mean 68.5000, SD 17.4396, 95 % t interval 61.9880-75.0120, first five
  /// scores 82.5, 50, 55, 92.5, 75. The same answers coded 1-5 in a plain
  /// CSV score the same through the numeric path.
  @Test func susOfLabelAnswersEqualsTheNumericExportAndTheOracle() throws {
    let labels = try SurveyCommands.sus(
      SurveyCommands.loaded(SurveyCommands.Input(path: Self.fixtures + "/sus-labels-qualtrics.csv")),
      items: Self.items)
    #expect(labels.skipped == 0 && labels.summary.n == 30)
    #expect(labels.respondents.allSatisfy { $0.missing.isEmpty && $0.itemsUsed == 10 })
    #expect(labels.scales["Q1"]?.name == "agreement5-somewhat")
    #expect(labels.coding.hasPrefix("agreement5-somewhat: Strongly disagree = 1, Somewhat disagree = 2"))
    expectClose(labels.summary.mean, 68.5, tolerance: 1e-9)
    expectClose(labels.summary.sd, 17.4396, tolerance: 5e-5)
    expectClose(labels.summary.lower, 61.9880, tolerance: 5e-5)
    expectClose(labels.summary.upper, 75.0120, tolerance: 5e-5)
    #expect(labels.respondents.prefix(5).map(\.score) == [82.5, 50, 55, 92.5, 75])

    let numeric = try SurveyCommands.sus(
      SurveyCommands.loaded(SurveyCommands.Input(path: Self.fixtures + "/sus-labels-numeric.csv")),
      items: (1...10).map { "S\($0)" })
    #expect(numeric.respondents.map(\.score) == labels.respondents.map(\.score))
    #expect(numeric.respondents.map(\.id) == labels.respondents.map(\.id))
  }

  /// Items are found without --items when exactly ten are on a 5-point
  /// scale; a not-applicable or empty answer leaves that respondent out
  /// and names the item. By hand: respondent a answers Agree (4) on odd
  /// items and Disagree (2) on even ones: 5 x 3 + 5 x 3 = 30, x 2.5 = 75.
  @Test func labelItemsFoundAndOnlyTrulyMissingAnswersLeftOut() throws {
    let header = "id," + Self.items.joined(separator: ",")
    let a = (1...10).map { $0 % 2 == 1 ? "Agree" : "Disagree" }
    var b = a
    b[2] = "N/A"
    var c = a
    c[9] = ""
    let path = try Self.export(
      [
        header, "a," + a.joined(separator: ","), "b," + b.joined(separator: ","),
        "c," + c.joined(separator: ","),
      ]
      .joined(separator: "\n") + "\n")
    defer { try? FileManager.default.removeItem(atPath: path) }
    let sus = try SurveyCommands.sus(SurveyCommands.loaded(SurveyCommands.Input(path: path)), items: [])
    #expect(sus.respondents.map(\.score) == [75, nil, nil])
    #expect(sus.respondents.map(\.missing) == [[], ["Q3"], ["Q10"]])
    #expect(sus.skipped == 2)
  }

  /// SUS is a 5-point questionnaire: items on the 7-point wording are an
  /// error naming the scale and its coding, not scores on the wrong range.
  @Test func sevenPointItemsAreRefusedForSUS() throws {
    let header = "id," + Self.items.joined(separator: ",")
    let row = (1...10).map { $0 % 2 == 1 ? "Agree" : "Somewhat agree" }
    let path = try Self.export(header + "\nr1," + row.joined(separator: ",") + "\n")
    defer { try? FileManager.default.removeItem(atPath: path) }
    #expect {
      try SurveyCommands.sus(SurveyCommands.loaded(SurveyCommands.Input(path: path)), items: Self.items)
    } throws: { error in
      "\(error)".contains("agreement7") && "\(error)".contains("5 points")
    }
  }

  /// An answer on no label of the items' scale names the respondent.
  @Test func answerOffTheAssignedScaleNamesTheRespondent() throws {
    let header = "id," + Self.items.joined(separator: ",")
    let row = Array(repeating: "Agree", count: 9) + ["Totally"]
    let path = try Self.export(header + "\nr7," + row.joined(separator: ",") + "\n")
    defer { try? FileManager.default.removeItem(atPath: path) }
    var input = SurveyCommands.Input(path: path)
    input.scales = Self.items.map { "\($0)=agreement5" }
    #expect {
      try SurveyCommands.sus(SurveyCommands.loaded(input), items: Self.items)
    } throws: { error in
      "\(error)".contains("respondent r7, Q10") && "\(error)".contains("\"Totally\"")
    }
  }

  /// A 7-point ASQ whose answers never use "Somewhat" still fits the
  /// 7-point wording, which the questionnaire's length prefers: r1 (Agree,
  /// Agree, Strongly agree) = (6, 6, 7), mean 19 / 3.
  @Test func asqPrefersItsSevenPointsWhenLabelsFitBoth() throws {
    let path = try Self.export("id,ease,time,support\nr1,Agree,Agree,Strongly agree\n")
    defer { try? FileManager.default.removeItem(atPath: path) }
    let loaded = try SurveyCommands.loaded(SurveyCommands.Input(path: path))
    let tasks = try SurveyCommands.asq(
      loaded.survey, tasks: [(name: "t1", items: ["ease", "time", "support"])])
    expectClose(tasks[0].summary.mean, 19.0 / 3, tolerance: 1e-12)
  }

  /// ASQ on the 7-point wording, by hand: r1 (Agree, Somewhat agree,
  /// Strongly agree) = (6, 5, 7), mean 6; r2 (Disagree, Neither agree nor
  /// disagree, Agree) = (2, 4, 6), mean 4; r3 left one item empty and is
  /// counted as skipped. Task mean 5.
  @Test func asqOfSevenPointLabels() throws {
    let path = try Self.export(
      """
      id,ease,time,support
      r1,Agree,Somewhat agree,Strongly agree
      r2,Disagree,Neither agree nor disagree,Agree
      r3,Agree,,Agree

      """)
    defer { try? FileManager.default.removeItem(atPath: path) }
    let loaded = try SurveyCommands.loaded(SurveyCommands.Input(path: path))
    let tasks = try SurveyCommands.asq(
      loaded.survey, tasks: [(name: "t1", items: ["ease", "time", "support"])], custom: loaded.custom)
    #expect(tasks[0].summary.scores == [6, 4])
    #expect(tasks[0].skipped == 1)
    #expect(
      tasks[0].coding.hasPrefix("agreement7: Strongly disagree = 1, Disagree = 2, Somewhat disagree = 3"))
  }

  /// ASQ items answered on a 5-point wording cannot be scored as 1-7.
  @Test func asqRefusesFivePointLabels() throws {
    let path = try Self.export("id,ease,time,support\nr1,Good,Great,Poor\n")
    defer { try? FileManager.default.removeItem(atPath: path) }
    let loaded = try SurveyCommands.loaded(SurveyCommands.Input(path: path))
    #expect {
      try SurveyCommands.asq(loaded.survey, tasks: [(name: "t1", items: ["ease", "time", "support"])])
    } throws: { error in
      "\(error)".contains("7 points") && "\(error)".contains("quality5")
    }
  }
}
