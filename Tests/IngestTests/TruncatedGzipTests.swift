import EnergyLabCore
import Foundation
import Testing

@testable import Ingest

/// A gzip stream cut before its trailer is an error naming the file and
/// the compressed byte where it stops, never a shorter recording.
struct TruncatedGzipTests {
  static func gzip(_ text: String) throws -> [UInt8] {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("gz-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    try text.write(toFile: folder + "/a.csv", atomically: true, encoding: .utf8)
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["gzip", "-n", folder + "/a.csv"]
    try process.run()
    process.waitUntilExit()
    return Array(try Data(contentsOf: URL(fileURLWithPath: folder + "/a.csv.gz")))
  }

  static func readAll(_ path: String) throws -> Int {
    let chunks = try LineChunks(path: path)
    var total = 0
    while let chunk = try chunks.next(size: 1 << 12) { total += chunk.count }
    return total
  }

  @Test(arguments: [8, 4, 1])  // bytes cut off the end: the trailer, part of it, its last byte
  func cutStreamIsAnError(cut: Int) throws {
    // Text that does not compress to nothing: numbered lines.
    let text = (1...5000).map { "\($0),\($0 * 7 % 13),\($0 * 3 % 11)\n" }.joined()
    let whole = try Self.gzip(text)
    let path = FileManager.default.temporaryDirectory.appendingPathComponent(
      "cut-\(UUID().uuidString).csv.gz"
    ).path
    defer { try? FileManager.default.removeItem(atPath: path) }
    try Data(whole).write(to: URL(fileURLWithPath: path))
    #expect(try Self.readAll(path) == text.utf8.count)

    try Data(whole.dropLast(cut)).write(to: URL(fileURLWithPath: path))
    let error = #expect(throws: InputError.self) { try Self.readAll(path) }
    #expect(error?.location.file == path)
    #expect(error?.location.byteOffset == whole.count - cut)
    #expect(error?.problem.contains("cut off") == true)

    try Data(whole.prefix(whole.count / 2)).write(to: URL(fileURLWithPath: path))
    let half = #expect(throws: InputError.self) { try Self.readAll(path) }
    #expect(half?.location.byteOffset == whole.count / 2)
  }
}
