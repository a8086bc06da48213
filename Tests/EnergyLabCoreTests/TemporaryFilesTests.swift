import EnergyLabCore
import Foundation
import Testing

struct TemporaryFilesTests {
  /// The id of a process that has ended.
  func deadProcessID() throws -> Int32 {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/true")
    try process.run()
    process.waitUntilExit()
    return process.processIdentifier
  }

  @Test func temporaryNamesAreParsed() throws {
    let parsed = try #require(TemporaryFiles.parse(".walk.gpx.partial-4242"))
    #expect(parsed.target == "walk.gpx")
    #expect(parsed.kind == "partial")
    #expect(parsed.pid == 4242)
    #expect(TemporaryFiles.parse(".alter-eco.tmp-17")?.target == "alter-eco")
    #expect(TemporaryFiles.parse("walk.gpx.partial-12") == nil, "not hidden")
    #expect(TemporaryFiles.parse(".walk.gpx.backup-12") == nil, "not a temporary kind")
    #expect(TemporaryFiles.parse(".walk-2.gpx") == nil, "no process id")
    #expect(TemporaryFiles.name(for: "a/b/c.csv", kind: "partial") == "a/b/.c.csv.partial-\(getpid())")
  }

  @Test func leftoversOfEndedProcessesAreRemovedAndLiveOnesKept() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "energylab-temp-\(UUID().uuidString)"
    ).path
    try FileManager.default.createDirectory(
      atPath: folder + "/.r.tmp-\(try deadProcessID())/figures",
      withIntermediateDirectories: true)
    let dead = try deadProcessID()
    for name in [".a.csv.partial-\(dead)", ".b.csv.partial-\(getpid())", ".c.csv.partial-1", "d.csv"] {
      #expect(FileManager.default.createFile(atPath: folder + "/" + name, contents: Data("x".utf8)))
    }
    let removed = TemporaryFiles.removeStale(in: folder, kinds: ["partial", "tmp"])
    #expect(removed.count == 2)
    // Our own file and one of a running process (pid 1) stay.
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: folder).sorted() == [
        ".b.csv.partial-\(getpid())", ".c.csv.partial-1", "d.csv",
      ])
  }
}
