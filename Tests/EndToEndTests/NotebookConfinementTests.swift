import Foundation
import TestSupport
import Testing

/// Notebooks write only inside the project and their report folder,
/// unless their header allows an outside path.
struct NotebookConfinementTests {
  @Test func anOutsideOutputIsRefusedNamingTheLine() throws {
    let root = try scratchFolder()
    let project = root + "/project"
    try FileManager.default.createDirectory(atPath: project, withIntermediateDirectories: true)
    try "# N\n\nText.\n\n```energylab\naccel synth -o ../outside.txt\n```\n".write(
      toFile: project + "/nb.md", atomically: true, encoding: .utf8)
    let out = try energylab(["run", "nb.md", "--quiet"], in: project)
    #expect(out.status == 1)
    #expect(out.stderr.contains("nb.md:6: command failed: ../outside.txt"), "\(out.stderr)")
    #expect(out.stderr.contains("allow-write"))
    #expect(!FileManager.default.fileExists(atPath: root + "/outside.txt"))
    #expect(!FileManager.default.fileExists(atPath: project + "/Reports/nb"))

    for (flag, path) in [("--charts", "../charts"), ("--db", "../x.sqlite")] {
      try
        "```energylab\nevaluate --models acsm-walking --reference stanford-walking --assume speed=3mph \(flag) \(path)\n```\n"
        .write(toFile: project + "/nb.md", atomically: true, encoding: .utf8)
      let refused = try energylab(["run", "nb.md", "--quiet"], in: project)
      #expect(refused.status == 1)
      #expect(refused.stderr.contains("nb.md:2: command failed: \(path)"), "\(refused.stderr)")
    }

    try
      "# N\n\n```energylab-parameters\nallow-write = ../outside.txt\n```\n\n```energylab\naccel synth -o ../outside.txt\n```\n"
      .write(toFile: project + "/nb.md", atomically: true, encoding: .utf8)
    let allowed = try energylab(["run", "nb.md", "--quiet"], in: project)
    #expect(allowed.status == 0, "\(allowed.stderr)")
    #expect(FileManager.default.fileExists(atPath: root + "/outside.txt"))
  }

  /// Control characters in survey answers reach neither the report nor
  /// its data/*.csv files, and answers that print alike are one answer.
  @Test func controlCharactersNeverReachDataFiles() throws {
    let folder = try scratchFolder()
    try "id,mode\n1,car\n2,car\u{1B}[2J\n3,bus\u{7}\n4,bus\n".write(
      toFile: folder + "/s.csv", atomically: true, encoding: .utf8)
    try "```energylab\nsurvey summary s.csv\n```\n".write(
      toFile: folder + "/nb.md", atomically: true, encoding: .utf8)
    let out = try energylab(["run", "nb.md", "--quiet", "--reproducible"], in: folder)
    #expect(out.status == 0, "\(out.stderr)")
    let data = try FileManager.default.contentsOfDirectory(atPath: folder + "/Reports/nb/data")
    #expect(!data.isEmpty)
    for file in data + ["../report.md"] {
      let text = try String(contentsOfFile: folder + "/Reports/nb/data/" + file, encoding: .utf8)
      #expect(!text.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" && $0 != "\t" }, "\(file)")
    }
    let report = try String(contentsOfFile: folder + "/Reports/nb/report.md", encoding: .utf8)
    #expect(report.contains("control characters removed from 2 distinct answers"), "\(report)")
  }
}
