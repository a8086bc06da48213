import EnergyLabCore
import Foundation
import Testing

@testable import Ingest

/// UTF-8 is validated in place (RFC 3629, section 3 and 4): the cases are
/// the standard's examples of well-formed and ill-formed sequences.
struct UTF8ValidationTests {
  static func valid(_ bytes: [UInt8]) -> Bool { bytes.withUnsafeBufferPointer(UTF8Validation.isValid) }

  @Test func wellFormed() {
    #expect(Self.valid(Array("plain ASCII, Übung, € and 𝄞".utf8)))
    #expect(Self.valid([]))
    #expect(Self.valid([0xF4, 0x8F, 0xBF, 0xBF]))  // U+10FFFF
  }

  @Test(
    arguments: [
      [0xC0, 0xAF],  // overlong "/"
      [0xE0, 0x80, 0xAF],  // overlong "/"
      [0xED, 0xA0, 0x80],  // surrogate U+D800
      [0xF4, 0x90, 0x80, 0x80],  // above U+10FFFF
      [0xE2, 0x82],  // truncated "€"
      [0x41, 0x80],  // stray continuation byte
      [0xFF],  // never in UTF-8
      [0xE9, 0x74, 0xE9],  // "été" in Latin-1
    ] as [[UInt8]])
  func illFormed(bytes: [UInt8]) {
    #expect(!Self.valid(bytes))
    #expect(String(validating: bytes, as: UTF8.self) == nil)
  }

  /// A Latin-1 export is refused, naming the file; UTF-16 is still read.
  @Test func encodings() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("utf8-\(getpid())").path
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    let latin1 = "\(folder)/latin1.csv"
    try Data("Timestamp,Q\n2024,\u{E9}t\u{E9}\n".data(using: .isoLatin1)!).write(
      to: URL(fileURLWithPath: latin1))
    #expect(throws: InputError.self) { try SurveyReader().read(path: latin1) }
    let utf16 = "\(folder)/utf16.csv"
    try "Timestamp,Q\n2024,été\n2024,été\n".data(using: .utf16)!.write(to: URL(fileURLWithPath: utf16))
    let survey = try SurveyReader().read(path: utf16)
    #expect(survey.questions.first?.responses == [["été"], ["été"]])
  }
}
