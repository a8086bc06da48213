import EnergyLabCore
import Foundation
import Ingest
import Surveys
import TestSupport
import Testing

/// Label answers are read through the scale whose wording they use, and a
/// scale's length comes from the labels used: "Somewhat agree" without
/// "Agree" is the 5-point wording (Qualtrics), with "Agree" the 7-point one.
struct LabelScaleTests {
  static let cases: [([String], String)] = [
    (["Strongly disagree", "Somewhat agree", "Strongly agree"], "agreement5-somewhat"),
    (["Somewhat disagree", "Neither agree nor disagree", "Somewhat agree"], "agreement5-somewhat"),
    (["Disagree", "Agree", "Strongly agree"], "agreement5"),
    (["Agree", "Somewhat agree"], "agreement7"),
    (["Disagree", "Somewhat agree", "Strongly agree"], "agreement7"),
    (["Slightly agree", "Agree"], "agreement7-slightly"),
    (["Moderately disagree", "Slightly agree"], "agreement7-moderately"),
    // Other wordings of the neutral point, case and spacing, N/A.
    (["Neutral", "Agree"], "agreement5"),
    (["strongly  AGREE", "N/A", "Neither agree or disagree", "Somewhat agree"], "agreement5-somewhat"),
    (["1", "3", "5"], "points5"),
    (["1", "6"], "points7"),
  ]

  @Test(arguments: cases) func scaleInferredFromTheLabelsUsed(answers: [String], expected: String) {
    #expect(SurveyScale.detect(answers)?.name == expected)
  }

  @Test func neutralAliasesAndNotApplicableCode() throws {
    let scale = try SurveyScale.named("agreement5")
    #expect(scale.index(of: "Neutral") == 2)
    #expect(scale.index(of: "neither agree or disagree") == 2)
    #expect(scale.index(of: "N/A") == nil && scale.isNotApplicable("N/A"))
    #expect(
      scale.coding
        == "Strongly disagree = 1, Disagree = 2, Neither agree nor disagree = 3, Agree = 4, Strongly agree = 5"
    )
  }

  /// A 5-point Qualtrics set could be a 7-point question nobody answered
  /// "Agree" or "Disagree" on: the 7-point scale is offered as the longer fit.
  @Test func longerWordingThatAlsoFitsIsNamed() throws {
    let answers = ["Strongly disagree", "Somewhat agree"]
    let chosen = try #require(SurveyScale.detect(answers))
    #expect(SurveyScale.longerFit(answers, than: chosen)?.name == "agreement7")
    #expect(
      SurveyScale.longerFit(["Agree", "Somewhat agree"], than: try SurveyScale.named("agreement7")) == nil)
    // Numbers are not worded: points5 is not questioned.
    #expect(SurveyScale.longerFit(["1", "5"], than: try SurveyScale.named("points5")) == nil)
  }

  /// A scale file's scale is tried before the built-in ones.
  @Test func scaleFileFirst() throws {
    let custom = try SurveyScale.parseFile(
      [
        ["scale", "label", "value", "role"], ["often5", "Never", "1", ""], ["often5", "Rarely", "2", ""],
        ["often5", "Sometimes", "3", "neutral"], ["often5", "Often", "4", ""], ["often5", "Always", "5", ""],
      ], source: "scales.csv")
    #expect(SurveyScale.detect(["Never", "Always"], extra: custom)?.name == "often5")
    #expect(SurveyScale.detect(["Never", "Always"]) == nil)
  }

  /// Q11 of the label fixture (scripts/fixtures/make-label-sus.py): 5
  /// "Strongly agree" and 6 "Somewhat agree" of 30, so top-two-box is
  /// 11/30 = 36.7 % (Wilson 95 % interval 21.87-54.49 %,
  /// scripts/oracles/sus_labels.py); read on the 7-point scale it would be
  /// 5/30 = 16.7 %.
  @Test func topTwoBoxOfTheFivePointSomewhatWording() throws {
    let survey = try SurveyReader().read(path: "\(fixtures)/sus-labels-qualtrics.csv")
    #expect(survey.format == "qualtrics")
    let q11 = try survey.question(matching: "Q11")
    let summary = try SurveyStatistics.summary(q11, scale: nil)
    #expect(summary.scale?.name == "agreement5-somewhat")
    let top = try #require(summary.topTwoBox)
    expectClose(100 * top.estimate, 100 * 11 / 30, tolerance: 1e-9)
    expectClose(100 * top.lower, 21.87, tolerance: 0.005)
    expectClose(100 * top.upper, 54.49, tolerance: 0.005)
    #expect(summary.median == 3)
  }
}
