import EnergyLabCore
import Foundation
import Ingest
import Testing

@testable import Pipeline

/// A notebook is read whole, so it has the limits of every text read
/// whole: a line over the limit is refused naming the notebook and the
/// line. Its lines are counted one by one: a lone `"` in the prose (a
/// quotation, an inch mark) does not join lines into one CSV row.
struct NotebookLimitTests {
  @Test func aLongLineIsRefusedNamingItsLine() throws {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("nb-\(UUID().uuidString).md")
      .path
    defer { try? FileManager.default.removeItem(atPath: path) }
    let small = FileInput.Limits(maximumRowBytes: 64, maximumBytes: 4096)
    let prose = "# A 12\" screen\n\n" + String(repeating: "word ", count: 10) + "\n"
    try (prose + "```energylab\nmodels list\n```\n").write(toFile: path, atomically: true, encoding: .utf8)
    _ = try FileInput.$limits.withValue(small) { try Notebook.read(path: path) }
    try (prose + String(repeating: "x", count: 200) + "\n").write(
      toFile: path, atomically: true, encoding: .utf8)
    let error = FileInput.$limits.withValue(small) {
      #expect(throws: InputError.self) { try Notebook.read(path: path) }
    }
    #expect(error?.location.file == path && error?.location.line == 4)
    #expect(error?.problem == "a line longer than 64 bytes")
  }
}
