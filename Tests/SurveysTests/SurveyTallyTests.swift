import EnergyLabCore
import Foundation
import Ingest
import Surveys
import Testing

/// Exports read a window at a time for their counts only
/// (`SurveyReader.tally`) against pandas' counts and against the whole
/// read: small windows make every fixture span many.
struct SurveyTallyTests {
  /// Answers per option from the counts alone: each option once per
  /// respondent choosing it.
  static func counts(_ survey: Survey) -> [String: [String: Int]] {
    var out: [String: [String: Int]] = [:]
    for q in survey.questions {
      var c: [String: Int] = [:]
      if let column = q.answers {
        for (options, n) in zip(column.choices, column.choiceCounts()) {
          for answer in options { c[answer, default: 0] += n }
        }
      }
      out[q.id] = c
    }
    return out
  }

  /// What `survey summary` prints and stores of each question.
  static func printed(_ survey: Survey) throws -> [String] {
    try survey.questions.map { q in
      let s = try SurveyStatistics.summary(q, scale: nil)
      return
        "\(q.id) n=\(s.n ?? -1) \(s.counts.map { "\($0.label)=\($0.count)" }) \(s.percentages.map { "\($0.label)=\($0.percent)" }) median=\(s.median ?? -1) mean=\(s.mean ?? -1) sd=\(s.standardDeviation ?? -1) open=\(s.openAnswers)"
    }
  }

  @Test(arguments: [
    "plain-heart.csv", "plain-semicolon.csv", "plain-tab.csv", "qualtrics-repeated.csv",
    "qualtrics-legacy.csv",
  ])
  func talliedCountsEqualPandas(file: String) throws {
    let path = "\(SurveyDialectTests.folder)/\(file)"
    for window in [48, 100, 1000] {
      let tallied = try SurveyReader().tally(path: path, windowBytes: window)
      #expect(Self.counts(tallied) == SurveyDialectTests.expected[file], "\(file), window \(window)")
      let whole = try SurveyReader().read(path: path)
      #expect(tallied.format == whole.format && tallied.respondents == whole.respondents)
      #expect(try Self.printed(tallied) == Self.printed(whole), "\(file), window \(window)")
    }
  }

  /// A Google Forms export written here: 120 respondents; Q1 agreement
  /// cycling through the five labels with every tenth unanswered (so 108
  /// answers, 21 or 22 of each label); Q2 a multi-select of "Maps, Steps"
  /// for odd rows and "Steps" for even ones (Steps 120, Maps 60); Q3 an
  /// open answer, distinct in every row, some quoted with line breaks and
  /// quotes; Q4 "café" written precomposed and decomposed (one answer).
  @Test func aGeneratedExportTalliesAsCountedByHand() throws {
    let labels = ["Strongly disagree", "Disagree", "Neither agree nor disagree", "Agree", "Strongly agree"]
    var text = "Timestamp,Q1 ease,Q2 features,Q3 comments,Q4 place\r\n"
    for r in 0..<120 {
      let q1 = r % 10 == 9 ? "" : labels[r % 5]
      let q2 = r % 2 == 1 ? "\"Maps, Steps\"" : "Steps"
      let q3 = r % 7 == 0 ? "\"said \"\"fine\"\",\nthen \(r)\"" : "answer \(r)"
      let q4 = r % 2 == 0 ? "caf\u{E9}" : "cafe\u{301}"
      text += "2024/05/01 10:00:00,\(q1),\(q2),\(q3),\(q4)\r\n"
    }
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("tally-\(UUID().uuidString).csv")
      .path
    try text.write(toFile: path, atomically: true, encoding: .utf8)
    defer { try? FileManager.default.removeItem(atPath: path) }
    let reader = SurveyReader(multiSelect: ["Q2 features"])
    let tallied = try reader.tally(path: path, windowBytes: 256)
    #expect(tallied.format == "google-forms" && tallied.respondents == 120)
    let c = Self.counts(tallied)
    #expect(c["Q1"]?.values.reduce(0, +) == 108)
    // Rows 0-119 minus every tenth (9, 19, ...): label k = r mod 5.
    for (k, label) in labels.enumerated() {
      let hand = (0..<120).filter { $0 % 10 != 9 && $0 % 5 == k }.count
      #expect(c["Q1"]?[label] == hand, "\(label)")
    }
    #expect(c["Q2"] == ["Maps": 60, "Steps": 120])
    #expect(c["Q4"] == ["caf\u{E9}": 120])
    // The open question keeps its answers, in row order.
    let open = try SurveyStatistics.summary(tallied.questions[2], scale: nil).openAnswers
    #expect(open.count == 120 && open[1] == "answer 1" && open[7] == "said \"fine\",\nthen 7")
    #expect(
      tallied.questions[0].answers?.isTallied == true && tallied.questions[2].answers?.isTallied == false)
    #expect(try Self.printed(tallied) == Self.printed(try reader.read(path: path)))
  }
}
