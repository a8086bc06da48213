import EnergyLabCore
import Foundation
import Testing

@testable import Ingest

struct SurveyControlCharacterTests {
  /// "Yes", "Yes" with a BEL and "Ye" + zero-width space + "s" print alike:
  /// one answer with three respondents, and a note saying so.
  @Test func answersThatDifferOnlyByControlCharactersAreOne() throws {
    let text = "id,q\n1,Yes\n2,Yes\u{7}\n3,Ye\u{200B}s\n4,No\n5,\"two\nlines\"\n"
    let survey = try SurveyReader().parse(text, source: "s.csv", name: "s")
    let q = try survey.question(matching: "q")
    let answers = try #require(q.responses).map { $0.first ?? "" }
    #expect(answers == ["Yes", "Yes", "Yes", "No", "two\nlines"])
    let note = try #require(survey.notes.first { $0.code == "control-characters-removed" })
    #expect(note.message.contains("2 distinct answers"))
  }
}
