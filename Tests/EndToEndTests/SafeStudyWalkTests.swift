import Foundation
import TestSupport
import Testing

/// Study folders are safe to walk.
struct SafeStudyWalkTests {
  @Test func batchSkipsFIFOsDevicesAndOutsideLinks() throws {
    let folder = try scratchFolder()
    try FileManager.default.createDirectory(atPath: folder + "/study", withIntermediateDirectories: true)
    _ = try energylab(
      ["track", "synth", "-o", "study/walk.gpx", "--speed", "1.2mps", "--duration", "2min"], in: folder)
    #expect(mkfifo(folder + "/study/pipe.csv", 0o600) == 0)
    try FileManager.default.createSymbolicLink(
      atPath: folder + "/study/zero.csv", withDestinationPath: "/dev/zero")
    try FileManager.default.createSymbolicLink(
      atPath: folder + "/study/passwd.csv", withDestinationPath: "/etc/passwd")
    let out = try runWithEnvironment(
      [binary, "batch", "study", "--db", "s.sqlite", "--quiet"], in: folder, environment: [:], timeout: 120)
    #expect(out.status == 0, "\(out.stderr)")
    #expect(out.stdout.contains("1 tracks") && out.stdout.contains("3 not taken"), "\(out.stdout)")
    #expect(out.stderr.contains("study/pipe.csv: warning: a FIFO (named pipe); skipped without opening it"))
    #expect(out.stderr.contains("study/passwd.csv: warning: symbolic link leading out of the study folder"))
    let followed = try runWithEnvironment(
      [binary, "batch", "study", "--db", "f.sqlite", "--quiet", "--follow-links"], in: folder,
      environment: [:],
      timeout: 120)
    #expect(
      followed.stderr.contains("study/zero.csv: warning: a character device; skipped without opening it"))
  }
}
