import Foundation
import TestSupport
import Testing

/// Nothing written is silently incomplete.
struct WholeOutputTests {
  /// gnuplot does not check its writes: on a full disk it leaves a cut
  /// image and exits 0. A stand-in gnuplot does the same here; the chart
  /// is an error naming the image, and no image is left behind.
  @Test func aCutImageIsAnErrorAndNotKept() throws {
    let folder = try scratchFolder()
    _ = try energylab(
      ["track", "synth", "-o", "walk.gpx", "--speed", "1.2mps", "--duration", "2min"], in: folder)
    try FileManager.default.createDirectory(atPath: folder + "/fake", withIntermediateDirectories: true)
    try """
    #!/bin/sh
    printf '\\211PNG\\r\\n\\032\\n\\000\\000' > "$(basename "$1" .gp).png"
    printf '<svg xmlns="http://www.w3.org/2000/svg">' > "$(basename "$1" .gp).svg"
    exit 0
    """.write(toFile: folder + "/fake/gnuplot", atomically: true, encoding: .utf8)
    chmod(folder + "/fake/gnuplot", 0o755)
    let out = try runWithEnvironment(
      [binary, "track", "plot", "walk.gpx", "--charts", "charts"], in: folder,
      environment: ["PATH": folder + "/fake:/usr/bin:/bin"])
    #expect(out.status == 1)
    #expect(out.stderr.contains("charts/walk-speed.png: cannot write file"), "\(out.stderr)")
    #expect(!out.stderr.contains("wrote"))
    let left = try FileManager.default.contentsOfDirectory(atPath: folder + "/charts")
    #expect(!left.contains { $0.hasSuffix(".png") || $0.hasSuffix(".svg") || $0.hasPrefix(".") }, "\(left)")
  }

  /// A folder that cannot be made (its parent is a file) and an output
  /// file that cannot be written: exit 1 naming the path.
  @Test func failedWritesNameTheFile() throws {
    let folder = try scratchFolder()
    _ = try energylab(
      ["track", "synth", "-o", "walk.gpx", "--speed", "1.2mps", "--duration", "2min"], in: folder)
    try "x".write(toFile: folder + "/file", atomically: true, encoding: .utf8)
    let charts = try energylab(["track", "plot", "walk.gpx", "--charts", "file/charts"], in: folder)
    #expect(charts.status == 1)
    #expect(charts.stderr.contains("file/charts: cannot write file (cannot create folder: Not a directory)"))
    let synth = try energylab(["accel", "synth", "-o", "file/rec.csv"], in: folder)
    #expect(synth.status == 1)
    #expect(synth.stderr.contains("file/rec.csv: cannot write file (Not a directory)"), "\(synth.stderr)")
  }

  @Test func aCutGzipRecordingIsAnError() throws {
    let folder = try scratchFolder()
    _ = try energylab(["accel", "synth", "-o", "rec.csv", "--leg", "walk,1min"], in: folder)
    _ = try run(["/usr/bin/env", "gzip", "-n", "rec.csv"], in: folder)
    let whole = try Data(contentsOf: URL(fileURLWithPath: folder + "/rec.csv.gz"))
    #expect(try energylab(["accel", "summary", "rec.csv.gz"], in: folder).status == 0)
    try whole.prefix(whole.count / 2).write(to: URL(fileURLWithPath: folder + "/rec.csv.gz"))
    let out = try energylab(["accel", "summary", "rec.csv.gz"], in: folder)
    #expect(out.status == 1)
    #expect(
      out.stderr.contains("rec.csv.gz at byte \(whole.count / 2): gzip stream cut off"), "\(out.stderr)")
  }
}
