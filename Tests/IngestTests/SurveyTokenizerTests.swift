import EnergyLabCore
import Foundation
import Testing

@testable import Ingest

/// The survey reader's byte-level rows: plain lines are split in place,
/// every other line goes through libcsv; both must give libcsv's rows.
struct SurveyTokenizerTests {
  /// Rows (line, fields) or the error, as libcsv's `forEachRow` gives them.
  static func viaLibcsv(_ text: String) -> String {
    var out: [String] = []
    do {
      try Array(text.utf8).withUnsafeBufferPointer { bytes in
        try CSVTokenizer.forEachRow(bytes: bytes, source: "t.csv", firstLine: 1) {
          out.append("\($0.line):\($0.fields)")
        }
      }
    } catch {
      out.append("error: \(error)")
    }
    return out.joined(separator: "\n")
  }

  /// The same through `forEachRawRow`.
  static func raw(_ text: String) -> String {
    var out: [String] = []
    do {
      try Array(text.utf8).withUnsafeBufferPointer { bytes in
        try CSVTokenizer.forEachRawRow(bytes: bytes, source: "t.csv", firstLine: 1) { line, fields in
          out.append("\(line):\(fields.map { String(decoding: $0, as: UTF8.self) })")
        }
      }
    } catch {
      out.append("error: \(error)")
    }
    return out.joined(separator: "\n")
  }

  @Test(
    arguments: [
      "a,b,c\n1,2,3\n",
      "a,b,c\r\n1,2,3\r\n",
      "a,b,c\n1,2,3",  // no line break at the end
      "a,b,c\n1,2,3\r",  // a carriage return at the end
      "a,b\n\n\n1,2\n",  // blank lines are no rows
      "a,b\n  \n\t\n1,2\n",  // nor are lines of spaces and tabs
      "a,b\n,\n,,\n",  // empty cells
      "a,b\n 1,2 \n\t1\t,2\n",  // spaces and tabs around cells are trimmed
      "a,b\n1 2,3\t4\n",  // inside a cell they stay
      "a,b\n\"x, y\",2\n",  // a delimiter inside quotes
      "a,b\n\"line one\nline two\",2\n3,4\n",  // a quoted cell over two lines
      "a,b\n\"line one\r\nline two\",2\r\n3,4\r\n",
      "a,b\n\"say \"\"hi\"\"\",2\n",  // a doubled quote
      "a,b\n1,2\r3,4\n",  // a lone carriage return ends a row
      "a,b\n1,x\"y\n",  // a stray quote: an error on its line
      "a,b\n1,2\n\"open,3\n4,5\n",  // the file ends inside quotes
      "\u{FEFF}a,b\n1,2\n",  // a byte-order mark
      "a,b\n\u{E9}t\u{E9},\u{1F600}\n",  // UTF-8 cells
      "a;b\n1;2\n",  // another delimiter is one cell here
      "",
      "\n",
    ])
  func rowsAreLibcsvRows(text: String) {
    #expect(Self.raw(text) == Self.viaLibcsv(text))
  }

  /// Hand-counted: a Google Forms export whose rows hold a CRLF line, a
  /// quoted answer with a comma, a quoted answer over two lines, an answer
  /// with a space before it and one in decomposed Unicode.
  @Test func answersCountedAcrossEveryLineShape() throws {
    let text =
      "Timestamp,Q1,Q2\n"
      + "2024/05/01 10:00:00,Agree,\"Bus, then walk\"\r\n"  // line 2, CRLF
      + "2024/05/01 10:01:00, Agree,\"Walk\nall the way\"\n"  // lines 3-4
      + "2024/05/01 10:02:00,Caf\u{E9},\"Bus, then walk\"\n"  // line 5
      + "2024/05/01 10:03:00,Cafe\u{301},\n"  // line 6: decomposed é, no answer
    let survey = try Array(text.utf8).withUnsafeBufferPointer {
      try SurveyReader().parse(bytes: $0, source: "forms.csv", name: "forms")
    }
    #expect(survey.format == "google-forms" && survey.respondents == 4)
    let q1 = try #require(survey.questions[0].answers)
    // "Agree" and " Agree" (trimmed) are one answer; "Café" in its two
    // Unicode forms is one answer, spelled as first seen.
    #expect(q1.choices == [["Agree"], ["Caf\u{E9}"]])
    #expect(q1.codes == [0, 0, 1, 1])
    let q2 = try #require(survey.questions[1].answers)
    #expect(q2.choices == [["Bus, then walk"], ["Walk\nall the way"]])
    #expect(q2.codes == [0, 1, 0, -1])
  }

  /// A row with too few cells after a quoted cell over two lines is named
  /// by the line it starts on.
  @Test func aShortRowIsNamedByItsFirstLine() {
    let text = "Timestamp,Q1,Q2\n2024/05/01 10:00:00,\"a\nb\",c\n2024/05/01 10:01:00,d\n"
    let error = inputError {
      _ = try Array(text.utf8).withUnsafeBufferPointer {
        try SurveyReader().parse(bytes: $0, source: "forms.csv", name: "forms")
      }
    }
    #expect(error?.description == "forms.csv:4: row has 2 fields; expected 3 fields like the header")
  }
}
