import EnergyLabCore
import Foundation
import Ingest
import Surveys
import TestSupport
import Testing

let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")
  .path

struct SurveyReaderTests {
  @Test func googleFormsWithMultiSelect() throws {
    let survey = try SurveyReader(multiSelect: ["features"]).read(path: "\(fixtures)/google-forms.csv")
    #expect(survey.format == "google-forms")
    #expect(survey.respondents == 4)
    #expect(
      survey.questions.map(\.text) == [
        "How easy was the app to use?", "Which features did you use?", "Any comments?",
      ])
    let features = survey.questions[1]
    #expect(features.isMultiSelect)
    #expect(features.responses?[2] == ["Progress bar", "Badges", "Leaderboard"])
    #expect(features.responses?[3] == [])
  }

  @Test func microsoftFormsRecognisesItsMultiSelect() throws {
    let survey = try SurveyReader().read(path: "\(fixtures)/microsoft-forms.csv")
    #expect(survey.format == "microsoft-forms")
    #expect(survey.questions.count == 3)
    #expect(survey.questions[1].isMultiSelect)
    #expect(survey.questions[1].responses?[0] == ["Progress bars", "Leaderboards"])
  }

  @Test func qualtricsThreeHeaderRows() throws {
    let survey = try SurveyReader().read(path: "\(fixtures)/qualtrics.csv")
    #expect(survey.format == "qualtrics")
    #expect(survey.respondents == 3)
    #expect(survey.questions.map(\.id) == ["Q1", "Q2"])
    #expect(survey.questions[0].text == "How likely are you to continue using the app?")
    #expect(survey.questions[1].responses?.map { $0.first } == ["Great", "Good", "Good"])
  }

  @Test func surveyMonkeyTwoHeaderRows() throws {
    let survey = try SurveyReader().read(path: "\(fixtures)/surveymonkey.csv")
    #expect(survey.format == "surveymonkey")
    #expect(survey.questions.map(\.text) == ["Do you cycle to work?", "Which modes do you use?"])
    #expect(survey.questions[1].isMultiSelect)
    #expect(survey.questions[1].responses == [["Bus", "Car"], ["Train"], ["Bus", "Train"]])
  }

  @Test func limeSurveyOptionColumns() throws {
    let survey = try SurveyReader().read(path: "\(fixtures)/limesurvey.csv")
    #expect(survey.format == "limesurvey")
    #expect(survey.questions.map(\.id) == ["G01Q01", "G01Q02"])
    #expect(survey.questions[1].responses == [["SQ001"], ["SQ002"], ["SQ001", "SQ002"]])
  }

  /// A header no platform writes is read as a plain CSV, with a note; a
  /// named dialect that does not match is an error saying what it expects.
  @Test func unrecognisedExportIsPlainUnlessADialectIsNamed() throws {
    let plain = try SurveyReader().read(path: "\(fixtures)/unrecognised-header.csv")
    #expect(plain.format == "plain")
    #expect(plain.notes.map(\.code) == ["plain-survey"])
    let error = #expect(throws: InputError.self) {
      try SurveyReader(dialect: .qualtrics).read(path: "\(fixtures)/unrecognised-header.csv")
    }
    #expect(error?.description.contains("unrecognised-header.csv:1: not a qualtrics export") == true)
    #expect(error?.expected.contains("Qualtrics") == true)
  }

  @Test func shippedAggregatesRead() throws {
    for name in [
      "stepmyhealth-requirements", "stepmyhealth-demo", "stepmyhealth-heuristic", "alter-eco-design",
      "alter-eco-beta",
      "nudge-feedback", "carbon-gamification-asq",
    ] {
      let survey = try SurveyReader().read(path: "\(packageRoot)/Datasets/surveys/\(name).csv")
      #expect(survey.format == "aggregate")
      #expect(!survey.questions.isEmpty)
    }
  }

  /// StepMyHealth Appendix B: every question's counts add up to n = 112.
  @Test func stepMyHealthCountsAddUp() throws {
    let survey = try SurveyReader().read(
      path: "\(packageRoot)/Datasets/surveys/stepmyhealth-requirements.csv")
    for id in ["Q1", "Q2", "Q3", "Q4"] {
      let q = try survey.question(matching: id)
      #expect(q.aggregate.compactMap(\.value).reduce(0, +) == 112, "\(id)")
    }
  }
}

struct SurveySummaryTests {
  /// Agreement answers of the Google Forms fixture: Agree, Strongly agree,
  /// Neither, Agree; codes 4, 5, 3, 4: median 4, type-7 quartiles 3.75 and
  /// 4.25 (IQR 0.5), top-two-box 3 of 4.
  @Test func ordinalStatistics() throws {
    let survey = try SurveyReader().read(path: "\(fixtures)/google-forms.csv")
    let s = try SurveyStatistics.summary(survey.questions[0], scale: nil)
    #expect(s.scale?.name == "agreement5")
    #expect(s.n == 4)
    #expect(s.counts.map(\.count) == [0, 0, 1, 2, 1])
    #expect(s.median == 4)
    #expect(s.interquartileRange == 0.5)
    #expect(s.topTwoBox?.successes == 3)
    expectClose((s.mean ?? 0), 4, tolerance: 1e-12)
  }

  @Test func unknownAnswerNamesQuestionAndAnswer() throws {
    let survey = try SurveyReader().read(path: "\(fixtures)/scale-mismatch.csv")
    let error = #expect(throws: InputError.self) {
      try SurveyStatistics.summary(survey.questions[0], scale: try SurveyScale.named("agreement5"))
    }
    #expect(error?.description.contains("question \"How easy was it?\"") == true)
    #expect(error?.description.contains("unknown answer \"Sometimes\"") == true)
  }

  /// Partial data stays partial: the Alter Eco 'great or good' count is a
  /// group, never split into its options.
  @Test func partialCountsStayPartial() throws {
    let survey = try SurveyReader().read(path: "\(packageRoot)/Datasets/surveys/alter-eco-beta.csv")
    let s = try SurveyStatistics.summary(try survey.question(matching: "B5"), scale: nil)
    #expect(s.counts.isEmpty)
    #expect(s.partial.count == 1)
    #expect(s.partial[0].labels == ["Great", "Good"])
    #expect(s.partial[0].count == 8)
  }

  /// Alter Eco food scanning (n = 44): 28 easy (63.64 %), 15 neither
  /// (34.09 %), 1 somewhat difficult, 0 extremely difficult.
  @Test func alterEcoFoodScanning() throws {
    let survey = try SurveyReader().read(path: "\(packageRoot)/Datasets/surveys/alter-eco-design.csv")
    let s = try SurveyStatistics.summary(try survey.question(matching: "S5"), scale: nil)
    expectClose(100 * s.partial[0].count / 44, 63.64, tolerance: 0.005)
    let neither = try #require(s.percentages.first { $0.label == "Neither easy nor difficult" })
    expectClose(neither.percent, 34.09, tolerance: 0.005)
  }
}

struct SurveyStatisticsTests {
  /// Newcombe (1998, Stat Med 17:857-872), Table I, method 3 (Wilson).
  @Test(arguments: [
    (81.0, 263.0, 0.2553, 0.3662), (15, 148, 0.0624, 0.1605), (0, 20, 0.0, 0.1611), (1, 29, 0.0061, 0.1718),
  ])
  func wilsonIntervals(x: Double, n: Double, lower: Double, upper: Double) {
    let p = Proportion(successes: x, total: n)
    expectClose(p.lower, lower, tolerance: 0.00006)
    expectClose(p.upper, upper, tolerance: 0.00006)
  }

  /// Hand calculation: [[10, 20], [30, 40]], n = 100, expected 12, 18, 28,
  /// 42: chi2 = 4/12 + 4/18 + 4/28 + 4/42 = 0.79365, dof 1, V =
  /// sqrt(0.79365 / 100) = 0.08909; p = 0.3730 (chi-square table).
  @Test func chiSquareByHand() {
    let rows = Array(repeating: "a", count: 30) + Array(repeating: "b", count: 70)
    let columns =
      Array(repeating: "x", count: 10) + Array(repeating: "y", count: 20) + Array(repeating: "x", count: 30)
      + Array(repeating: "y", count: 40)
    let t = SurveyStatistics.crosstab(rows: rows, columns: columns)
    #expect(t.counts == [[10, 20], [30, 40]])
    expectClose(t.chiSquare, 0.793651, tolerance: 1e-6)
    #expect(t.degreesOfFreedom == 1)
    expectClose(t.cramersV, 0.089087, tolerance: 1e-6)
    expectClose(t.pValue, 0.3730, tolerance: 0.0001)
  }

  /// Critical values of chi-square tables: 3.841 (1 df) and 5.991 (2 df)
  /// at p = 0.05.
  @Test func chiSquareCriticalValues() {
    expectClose(ChiSquared.survival(3.841459, degreesOfFreedom: 1), 0.05, tolerance: 1e-6)
    expectClose(ChiSquared.survival(5.991465, degreesOfFreedom: 2), 0.05, tolerance: 1e-6)
    expectClose(ChiSquared.survival(13.2767, degreesOfFreedom: 4), 0.01, tolerance: 1e-5)
  }

  /// Reference values from scipy.stats (an independent implementation):
  /// mannwhitneyu([1,2,2,3,4,4,5], [3,4,4,5,5,5,5,2], asymptotic, continuity)
  /// U = 14.5, p = 0.12023; kruskal([1,2,2,3,4], [3,4,4,5,5], [2,2,3,3,1])
  /// H = 7.33558, p = 0.025533.
  @Test func rankTests() {
    let mw = SurveyStatistics.mannWhitney([1, 2, 2, 3, 4, 4, 5], [3, 4, 4, 5, 5, 5, 5, 2])
    #expect(mw.u == 14.5)
    expectClose(mw.pValue, 0.12023, tolerance: 1e-5)
    let kw = SurveyStatistics.kruskalWallis([[1, 2, 2, 3, 4], [3, 4, 4, 5, 5], [2, 2, 3, 3, 1]])
    expectClose(kw.h, 7.335581, tolerance: 1e-5)
    #expect(kw.degreesOfFreedom == 2)
    expectClose(kw.pValue, 0.025533, tolerance: 1e-5)
    expectClose(kw.epsilonSquared, 7.335581 / 14, tolerance: 1e-5)
  }

  /// SUS (Brooke 1996): all 3s score 50; the ideal pattern (5 on odd, 1 on
  /// even items) 100; the worst 0. Respondent 4,2,4,1,5,2,4,2,4,2: odd
  /// (3+3+4+3+3) + even (3+4+3+3+3) = 32, x 2.5 = 80.
  @Test func susScoring() throws {
    #expect(try SUS.score(Array(repeating: 3, count: 10)) == 50)
    #expect(try SUS.score([5, 1, 5, 1, 5, 1, 5, 1, 5, 1]) == 100)
    #expect(try SUS.score([1, 5, 1, 5, 1, 5, 1, 5, 1, 5]) == 0)
    #expect(try SUS.score([4, 2, 4, 1, 5, 2, 4, 2, 4, 2]) == 80)
    #expect(throws: ValueError.self) { try SUS.score([3, 3, 3]) }
    let outside = #expect(throws: ValueError.self) { try SUS.score([3, 3, 3, 3, 3, 3, 3, 3, 3, 6]) }
    #expect(outside?.value == "6")
    // Bangor et al. 2009 adjectives; Sauro-Lewis grades.
    #expect(SUS.adjective(72) == "Good")
    #expect(SUS.adjective(50) == "OK")
    #expect(SUS.grade(68) == "C")
    #expect(SUS.grade(85) == "A+")
  }

  @Test func codebookCountsThemes() {
    let book = Codebook(themes: [("forest", ["forest", "trees"]), ("transport", ["transport"])])
    let coded = book.code(["Love the virtual forest", "Transport super useful", "trees and transport"])
    #expect(coded.map(\.count) == [2, 2])
    #expect(coded[0].quotes == ["Love the virtual forest", "trees and transport"])
  }
}

struct ReverseAndASQTests {
  /// Reverse-scored: Agree, Strongly agree, Neither, Agree code 2, 1, 3, 2 on
  /// the reversed agreement scale: median 2, top-two-box (Disagree and
  /// Strongly disagree) 0 of 4.
  @Test func reversedItem() throws {
    let survey = try SurveyReader().read(path: "\(fixtures)/google-forms.csv")
    let s = try SurveyStatistics.summary(
      survey.questions[0], scale: try SurveyScale.named("agreement5").reversed)
    #expect(s.median == 2)
    #expect(s.topTwoBox?.successes == 0)
    #expect(survey.questions.map(\.id) == ["Q1", "Q2", "Q3"])
  }

  /// ASQ (Lewis 1991): the mean of the three items; 7, 6, 5 gives 6.
  @Test func asqScore() throws {
    #expect(try ASQ.score([7, 6, 5]) == 6)
    let error = #expect(throws: ValueError.self) { try ASQ.score([7, 6]) }
    #expect(error?.kind == .outOfRange && error?.value == "2" && error?.expected == "3")
  }
}
