import EnergyLabCore
import Foundation
import Testing

@testable import Ingest

/// The survey reader's row limit. Limits are set small here so that a "too long" row is a few
/// hundred bytes, not gigabytes.
struct SurveyRowLimitTests {
  /// A plain export whose third line is `length` bytes long.
  static func export(longAnswer length: Int) -> String {
    "id,comment\n1,short\n2," + String(repeating: "x", count: length - 2) + "\n3,short\n"
  }

  @Test func aRowOverTheLimitIsRefusedNamingItsLine() throws {
    let reader = SurveyReader(maximumRowBytes: 100)
    #expect(throws: Never.self) { try reader.parse(Self.export(longAnswer: 100), source: "s.csv", name: "s") }
    let error = #expect(throws: InputError.self) {
      try reader.parse(Self.export(longAnswer: 101), source: "s.csv", name: "s")
    }
    #expect(error?.location.line == 3)
    #expect(error?.problem == "a row longer than 100 bytes")
  }

  /// A quoted answer with line breaks is one row: its length counts whole,
  /// so an unclosed quote cannot hide a huge row among short lines.
  @Test func aRowAcrossLinesCountsWhole() throws {
    let lines = Array(repeating: String(repeating: "y", count: 30), count: 5).joined(separator: "\n")
    let text = "id,comment\n1,\"\(lines)\"\n"
    let reader = SurveyReader(maximumRowBytes: 100)
    let error = #expect(throws: InputError.self) { try reader.parse(text, source: "s.csv", name: "s") }
    #expect(error?.location.line == 2)
    // 5 x 30 + 4 breaks + 2 quotes + "1," = 158 bytes: within a limit of 200.
    #expect(throws: Never.self) {
      try SurveyReader(maximumRowBytes: 200).parse(text, source: "s.csv", name: "s")
    }
  }

  /// From a file, the limit is checked block by block before the file is
  /// read whole (a 3 MiB line, refused at a 1 MiB limit).
  @Test func aLongLineInAFileIsRefusedBeforeReading() throws {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("long-\(UUID().uuidString).csv")
      .path
    defer { try? FileManager.default.removeItem(atPath: path) }
    try Self.export(longAnswer: 3 << 20).write(toFile: path, atomically: true, encoding: .utf8)
    let error = #expect(throws: InputError.self) {
      try SurveyReader(maximumRowBytes: 1 << 20).read(path: path)
    }
    #expect(error?.location.line == 3)
    #expect(try SurveyReader().read(path: path).respondents == 3)
  }

  @Test func theDefaultLimitIsTheAccelerometerReaders() {
    #expect(SurveyReader().maximumRowBytes == 4 * 1024 * 1024)
    #expect(SurveyReader.defaultMaximumRowBytes == LineChunks.defaultMaximumLineBytes)
  }
}
