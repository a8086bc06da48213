import EnergyLabCore
import Foundation
import Reporting
import Testing

/// An image gnuplot wrote is taken only when whole: a PNG ends with the
/// IEND chunk (PNG specification, section 11.2.5: length 0, type "IEND",
/// CRC AE 42 60 82), an SVG with its closing tag.
struct ImageCheckTests {
  static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
  static let iend: [UInt8] = [0, 0, 0, 0, 0x49, 0x45, 0x4E, 0x44, 0xAE, 0x42, 0x60, 0x82]

  @Test func wholeImagesPass() {
    #expect(ImageCheck.problem(Self.signature + [1, 2, 3] + Self.iend, svg: false) == nil)
    #expect(ImageCheck.problem(Array("<svg>\n</svg>\n\n".utf8), svg: true) == nil)
  }

  @Test func cutImagesFail() {
    #expect(ImageCheck.problem([], svg: false) == "empty")
    #expect(ImageCheck.problem(Self.signature + [1, 2, 3], svg: false) != nil)
    #expect(ImageCheck.problem(Self.signature + Self.iend.dropLast(), svg: false) != nil)
    #expect(ImageCheck.problem(Array("GIF89a".utf8) + Self.iend, svg: false) == "no PNG signature")
    #expect(ImageCheck.problem(Array("<svg><g></g>".utf8), svg: true) != nil)
  }
}

/// A failed write names the file and leaves nothing behind.
struct FailedWriteTests {
  @Test func aFileWhoseParentIsAFileIsAnOutputError() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("w-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    try "x".write(toFile: folder + "/file", atomically: true, encoding: .utf8)
    let error = #expect(throws: OutputError.self) {
      try AtomicFile.write("data", to: folder + "/file/out.csv")
    }
    #expect(error?.target == folder + "/file/out.csv")
    #expect(error?.reason == "Not a directory")
    let folderError = #expect(throws: OutputError.self) {
      try AtomicFile.createFolder(folder + "/file/charts")
    }
    #expect(
      folderError?.description
        == "\(folder)/file/charts: cannot write file (cannot create folder: Not a directory)")
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["file"])
  }
}

/// Control characters from data never reach a CSV file: an escape
/// sequence, a BEL and a NUL become spaces; line breaks and tabs inside a
/// quoted field stay.
struct CSVControlCharacterTests {
  @Test func controlCharactersBecomeSpaces() {
    let table = ResultTable(
      name: "t",
      rows: [
        ResultRecord(["answer": .string("\u{1B}[31mred\u{7}\u{0}"), "n": .integer(1)]),
        ResultRecord(["answer": .string("two\nlines"), "n": .integer(2)]),
      ])
    #expect(ResultRenderer.csv(table) == "answer,n\n\" [31mred  \",1\n\"two\nlines\",2\n")
  }
}
