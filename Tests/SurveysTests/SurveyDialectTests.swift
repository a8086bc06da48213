import EnergyLabCore
import Foundation
import Ingest
import Surveys
import Testing

/// Exports as R, pandas, Excel and Qualtrics write them, against answer
/// counts computed with pandas (scripts/fixtures/survey-dialect-expectations.py
/// wrote Fixtures/dialects/expected.json).
struct SurveyDialectTests {
  static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
    "Fixtures/dialects"
  ).path

  static let expected: [String: [String: [String: Int]]] = {
    let data = try! Data(contentsOf: URL(fileURLWithPath: folder + "/expected.json"))
    return try! JSONDecoder().decode([String: [String: [String: Int]]].self, from: data)
  }()

  static func counts(_ survey: Survey) -> [String: [String: Int]] {
    var out: [String: [String: Int]] = [:]
    for q in survey.questions {
      var c: [String: Int] = [:]
      for answer in (q.responses ?? []).flatMap({ $0 }) { c[answer, default: 0] += 1 }
      out[q.id] = c
    }
    return out
  }

  @Test(arguments: [
    "plain-heart.csv", "plain-semicolon.csv", "plain-tab.csv", "qualtrics-repeated.csv",
    "qualtrics-legacy.csv",
  ])
  func countsEqualPandas(file: String) throws {
    let survey = try SurveyReader().read(path: "\(Self.folder)/\(file)")
    #expect(Self.counts(survey) == Self.expected[file], "\(file)")
  }

  @Test func plainCSVIsTheFallbackWithANoteAndIds() throws {
    let survey = try SurveyReader().read(path: "\(Self.folder)/plain-heart.csv")
    #expect(survey.format == "plain")
    #expect(survey.questions.map(\.id) == ["age", "sex", "cp", "target"])
    #expect(survey.respondentIDs?.first == "p01")
    #expect(survey.notes.contains { $0.code == "plain-survey" })
    // Named, there is no note; NA, N/A, -99 and empty cells are no answer.
    let named = try SurveyReader(dialect: .plain).read(path: "\(Self.folder)/plain-heart.csv")
    #expect(named.notes.isEmpty)
    let age = try #require(named.questions.first { $0.id == "age" })
    #expect(age.responses?.filter(\.isEmpty).count == 2)
    // Other missing codes on request: -99 then counts as an age.
    let custom = try SurveyReader(dialect: .plain, missingCodes: ["NA"]).read(
      path: "\(Self.folder)/plain-heart.csv")
    #expect(custom.questions.first { $0.id == "age" }?.responses?.filter(\.isEmpty).count == 1)
  }

  @Test func qualtricsMetadataRepeatedTitlesAndTheLegacyExport() throws {
    let current = try SurveyReader().read(path: "\(Self.folder)/qualtrics-repeated.csv")
    #expect(current.format == "qualtrics")
    #expect(current.questions.map(\.id) == ["Q12_1", "Q12_2", "Q13"])
    #expect(current.questions.map(\.text) == ["Taste - Rating", "Price - Rating", "Would you buy it?"])
    #expect(current.respondentIDs == ["R_a1", "R_a2", "R_a3", "R_a4"])
    #expect(current.notes.contains { $0.code == "repeated-column" && $0.message.contains("Q12_1, Q12_2") })
    #expect(try current.question(matching: "Q12_2").text == "Price - Rating")
    let legacy = try SurveyReader().read(path: "\(Self.folder)/qualtrics-legacy.csv")
    #expect(legacy.format == "qualtrics-legacy")
    #expect(legacy.questions.map(\.id) == ["Q1", "Q2", "Q3"])
    #expect(legacy.questions[0].text == "How often do you cycle?")
    #expect(legacy.respondentIDs?.count == 4)
  }

  @Test func unknownDialectGetsTheClosest() {
    let error = #expect(throws: ValueError.self) {
      try SurveyDialect(named: "qualtrix")
    }
    #expect(error?.description.contains("did you mean qualtrics?") == true)
  }
}
