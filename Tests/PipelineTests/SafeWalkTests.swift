import EnergyLabCore
import Foundation
import Testing

@testable import Pipeline

/// `batch` walks a study folder without opening what is not a regular
/// file and without leaving the folder through links unless asked.
struct SafeWalkTests {
  static func study() throws -> (root: String, study: String) {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent("walk-\(UUID().uuidString)").path
    let study = root + "/study"
    let fm = FileManager.default
    try fm.createDirectory(atPath: study + "/p01", withIntermediateDirectories: true)
    try fm.createDirectory(atPath: root + "/elsewhere", withIntermediateDirectories: true)
    try "a".write(toFile: study + "/p01/walk.gpx", atomically: true, encoding: .utf8)
    try "b".write(toFile: root + "/elsewhere/secret.csv", atomically: true, encoding: .utf8)
    #expect(mkfifo(study + "/p01/pipe.csv", 0o600) == 0)
    try fm.createSymbolicLink(atPath: study + "/zero.csv", withDestinationPath: "/dev/zero")
    try fm.createSymbolicLink(
      atPath: study + "/secret.csv", withDestinationPath: root + "/elsewhere/secret.csv")
    try fm.createSymbolicLink(atPath: study + "/outside", withDestinationPath: root + "/elsewhere")
    try fm.createSymbolicLink(atPath: study + "/again.gpx", withDestinationPath: "p01/walk.gpx")
    try fm.createSymbolicLink(atPath: study + "/loop", withDestinationPath: ".")
    try fm.createSymbolicLink(atPath: study + "/broken.csv", withDestinationPath: "nowhere.csv")
    return (root, study)
  }

  @Test func specialFilesAndOutsideLinksAreSkippedWithADiagnostic() throws {
    let (root, study) = try Self.study()
    defer { try? FileManager.default.removeItem(atPath: root) }
    let found = try BatchCommand.discover([study])
    // The link inside the study is followed; the loop is walked once.
    #expect(found.files.map(\.relativePath) == ["again.gpx", "p01/walk.gpx"])
    let skipped = Dictionary(uniqueKeysWithValues: found.skipped.map { ($0.location ?? "", $0.code) })
    #expect(
      skipped == [
        study + "/broken.csv": "broken-link",
        study + "/outside": "link-outside-study",
        study + "/p01/pipe.csv": "not-a-regular-file",
        study + "/secret.csv": "link-outside-study",
        study + "/zero.csv": "link-outside-study",
      ])
  }

  @Test func followLinksLeavesTheFolderButNeverOpensADevice() throws {
    let (root, study) = try Self.study()
    defer { try? FileManager.default.removeItem(atPath: root) }
    let found = try BatchCommand.discover([study], followLinks: true)
    #expect(
      found.files.map(\.relativePath) == ["again.gpx", "outside/secret.csv", "p01/walk.gpx", "secret.csv"])
    let codes = found.skipped.map { "\(($0.location ?? "").dropFirst(study.count + 1)) \($0.code)" }.sorted()
    #expect(
      codes == ["broken.csv broken-link", "p01/pipe.csv not-a-regular-file", "zero.csv not-a-regular-file"])
  }
}
