import Foundation
import TestSupport
import Testing

struct SurveyCommandLineTests {
  let fixtures = "\(packageRoot)/Tests/SurveysTests/Fixtures"

  @Test func summaryJSONKeys() throws {
    let out = try energylab(
      ["survey", "summary", "\(fixtures)/google-forms.csv", "--format", "json"], in: packageRoot)
    #expect(out.status == 0, "\(out.stderr)")
    let rows = try #require(JSONSerialization.jsonObject(with: Data(out.stdout.utf8)) as? [[String: Any]])
    let first = try #require(rows.first)
    for key in ["question", "n", "counts", "percentages", "median", "iqr"] {
      #expect(first[key] != nil, "missing \(key)")
    }
    #expect((first["counts"] as? [String: Any])?["Agree"] as? Int == 2)
    #expect(first["median"] as? Double == 4)
  }

  /// The fixture's four respondents by hand: all 3s = 50; 5,1,5,1,... = 100;
  /// 4,2,4,1,5,2,4,2,4,2 = 80; 2,4,2,4,... = (5 x 1 + 5 x 1) x 2.5 = 25.
  /// Mean 63.75.
  @Test func susFromExport() throws {
    let out = try energylab(
      [
        "survey", "sus", "\(fixtures)/sus.csv", "--items", "S1,S2,S3,S4,S5,S6,S7,S8,S9,S10", "--format",
        "json",
      ], in: packageRoot)
    #expect(out.status == 0, "\(out.stderr)")
    let object = try #require(JSONSerialization.jsonObject(with: Data(out.stdout.utf8)) as? [String: Any])
    let o = try #require(object["summary"] as? [String: Any])
    let respondents = try #require(object["respondents"] as? [[String: Any]])
    #expect(o["n"] as? Int == 4)
    #expect(respondents.compactMap { $0["score"] as? Double } == [50, 100, 80, 25])
    expectClose(o["mean"] as? Double, 63.75, tolerance: 1e-9, "mean")
    for key in ["sd", "ci95_lower", "ci95_upper"] { #expect(o[key] is Double, "missing \(key)") }
  }

  @Test func crosstabJSONKeys() throws {
    let out = try energylab(
      [
        "survey", "crosstab", "\(fixtures)/qualtrics.csv", "--rows", "Q1", "--cols", "Q2", "--format", "json",
      ], in: packageRoot)
    #expect(out.status == 0, "\(out.stderr)")
    let o = try #require(JSONSerialization.jsonObject(with: Data(out.stdout.utf8)) as? [String: Any])
    for key in ["table", "chi2", "dof", "p_value", "cramers_v"] { #expect(o[key] != nil, "missing \(key)") }
    // 3 x 2 table of 3 answers: dof = (3 - 1)(2 - 1) = 2.
    #expect(o["dof"] as? Int == 2)
  }

  /// Hostile text from data stays text: Markdown cells are escaped and the
  /// gnuplot scripts quote it so backquotes never run.
  @Test func hostileTextIsEscaped() throws {
    let folder = try scratchFolder()
    try? FileManager.default.removeItem(atPath: "/tmp/energylab-survey-injection")
    let md = try energylab(
      ["survey", "summary", "\(fixtures)/hostile.csv", "--format", "markdown", "--charts", "charts"],
      in: folder)
    #expect(md.status == 0, "\(md.stderr)")
    #expect(md.stdout.contains("Yes \\| \\*really\\*"))
    #expect(md.stdout.contains("&lt;b&gt;this&lt;/b&gt;"))
    #expect(!FileManager.default.fileExists(atPath: "/tmp/energylab-survey-injection"))
    let script = try String(contentsOfFile: "\(folder)/charts/hostile-h1.gp", encoding: .utf8)
    #expect(script.contains("'Do you like `touch /tmp/energylab-survey-injection` | <b>this</b>?'"))
  }

  @Test func compareGroups() throws {
    let out = try energylab(
      [
        "survey", "compare", "\(fixtures)/sus.csv", "--question", "S1", "--by", "Group", "--scale",
        "S1=points5", "--format", "json",
      ],
      in: packageRoot)
    #expect(out.status == 0, "\(out.stderr)")
    let o = try #require(JSONSerialization.jsonObject(with: Data(out.stdout.utf8)) as? [String: Any])
    #expect(o["test"] as? String == "Mann-Whitney U")
    #expect(o["p_value"] is Double)
  }
}
