import Foundation
import TestSupport
import Testing

/// A run killed at any moment (SIGKILL) leaves a database that passes
/// `PRAGMA integrity_check`, keeps every run committed before, and lets the
/// next run complete.
struct KillSafetyTests {
  @Test func killedRunsLeaveASoundStore() throws {
    let folder = try scratchFolder()
    _ = try energylab(
      ["track", "synth", "-o", "w.gpx", "--speed", "1.3mps", "--duration", "30min"], in: folder)
    let first = try energylab(
      ["energy", "w.gpx", "--mass", "70kg", "--db", "r.sqlite", "--format", "csv"], in: folder)
    #expect(first.status == 0, "\(first.stderr)")
    for attempt in 0..<8 {
      let process = Process()
      process.executableURL = URL(fileURLWithPath: binary)
      process.arguments = [
        "evaluate", "--models", "acsm-walking,cameron-walking,looney-2019,minetti-2002-walking",
        "--reference",
        "\(packageRoot)/Datasets/reference/stanford-walking.csv", "--assume", "speed=\(3 + attempt)mph",
        "grade=0",
        "--db", "r.sqlite",
      ]
      process.currentDirectoryURL = URL(fileURLWithPath: folder)
      process.standardOutput = FileHandle.nullDevice
      process.standardError = FileHandle.nullDevice
      try process.run()
      usleep(useconds_t(attempt * 9_000))
      kill(process.processIdentifier, SIGKILL)
      process.waitUntilExit()
      let check = try energylab(["db", "check", "--db", "r.sqlite"], in: folder)
      #expect(check.status == 0, "attempt \(attempt): \(check.stdout) \(check.stderr)")
      #expect(check.stdout.hasSuffix(": ok\n"))
    }
    // The run stored before the kills is still there, and a new run completes.
    let runs = try energylab(
      ["db", "export", "--db", "r.sqlite", "--table", "runs", "--format", "csv"], in: folder)
    #expect(runs.stdout.contains("energy --model acsm-walking"))
    let next = try energylab(
      [
        "evaluate", "--models", "acsm-walking", "--reference",
        "\(packageRoot)/Datasets/reference/stanford-walking.csv",
        "--assume", "speed=3mph", "--db", "r.sqlite",
      ], in: folder)
    #expect(next.status == 0, "\(next.stderr)")
  }
}

/// A batch killed part-way (SIGKILL) leaves every file stored before it
/// whole and the store sound; the same batch run again completes it.
struct BatchKillSafetyTests {
  @Test func killedBatchesKeepStoredFiles() throws {
    let folder = try scratchFolder()
    try FileManager.default.createDirectory(atPath: folder + "/study", withIntermediateDirectories: true)
    _ = try energylab(["track", "synth", "-o", "study/a.gpx", "--duration", "2min"], in: folder)
    let first = try energylab(["batch", "study", "--db", "s.sqlite"], in: folder)
    #expect(first.status == 0, "\(first.stderr)")
    let before = try energylab(
      ["db", "export", "--db", "s.sqlite", "--table", "results", "--format", "csv"], in: folder)
    for k in 0..<3 {
      _ = try energylab(
        [
          "accel", "synth", "-o", "study/r\(k).csv", "--leg", "walk,30min", "--rate", "100", "--seed", "\(k)",
        ], in: folder)
    }
    for attempt in 0..<5 {
      let process = Process()
      process.executableURL = URL(fileURLWithPath: binary)
      process.arguments = ["batch", "study", "--db", "s.sqlite", "--jobs", "2", "--quiet"]
      process.currentDirectoryURL = URL(fileURLWithPath: folder)
      process.standardOutput = FileHandle.nullDevice
      process.standardError = FileHandle.nullDevice
      try process.run()
      usleep(useconds_t(100_000 + attempt * 150_000))
      kill(process.processIdentifier, SIGKILL)
      process.waitUntilExit()
      let check = try energylab(["db", "check", "--db", "s.sqlite"], in: folder)
      #expect(check.stdout.hasSuffix(": ok\n"), "attempt \(attempt): \(check.stdout) \(check.stderr)")
      let results = try energylab(
        ["db", "export", "--db", "s.sqlite", "--table", "results", "--format", "csv"], in: folder)
      // The track's rows are all still there, whatever else was stored.
      for line in before.stdout.split(separator: "\n").dropFirst() {
        let fields = line.split(separator: ",", omittingEmptySubsequences: false).dropFirst()
        #expect(results.stdout.contains(fields.joined(separator: ",")))
      }
    }
    // The rerun does what the kills left undone (the track at least was
    // stored before them) and ends where one whole run ends.
    let again = try energylab(["batch", "study", "--db", "s.sqlite", "--quiet"], in: folder)
    #expect(again.status == 0, "\(again.stderr)")
    #expect(again.stdout.contains(" already stored"), "\(again.stdout)")
    let whole = try energylab(["batch", "study", "--db", "whole.sqlite", "--quiet"], in: folder)
    #expect(whole.stdout.contains("1 tracks, 3 accelerometer recordings"), "\(whole.stdout)")
    let compared = try energylab(["db", "compare", "whole.sqlite", "s.sqlite"], in: folder)
    #expect(compared.status == 0, "\(compared.stdout) \(compared.stderr)")
  }
}
