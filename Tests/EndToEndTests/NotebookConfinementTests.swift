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

  /// A dangling link in the project whose target lies outside: `--db`
  /// through it created the target (reliability probe S4-2). Now refused
  /// like any outside path, and nothing is created; a dangling link to a
  /// new file inside the project still works.
  @Test func aDanglingLinkOutIsRefused() throws {
    let root = try scratchFolder()
    let project = root + "/project"
    let fm = FileManager.default
    try fm.createDirectory(atPath: project + "/data", withIntermediateDirectories: true)
    try fm.createDirectory(atPath: root + "/outside-dir", withIntermediateDirectories: true)
    try fm.copyItem(
      atPath: packageRoot + "/Datasets/pem-walk/walk-2.9mph-2pct.gpx", toPath: project + "/data/one.gpx")
    try fm.createSymbolicLink(
      atPath: project + "/dangling.sqlite", withDestinationPath: root + "/outside-dir/created-by-db.sqlite")
    try
      "# t\n\n```energylab\nenergy data/one.gpx --model acsm-walking --mass 70kg --db dangling.sqlite\n```\n"
      .write(toFile: project + "/t21.md", atomically: true, encoding: .utf8)
    let out = try energylab(["run", "t21.md", "--quiet"], in: project)
    #expect(out.status == 1)
    #expect(
      out.stderr.contains(
        "t21.md:4: command failed: dangling.sqlite (\(CanonicalName.resolved(root))/outside-dir/created-by-db.sqlite) is outside the project"
      ), "\(out.stderr)")
    #expect(!fm.fileExists(atPath: root + "/outside-dir/created-by-db.sqlite"))

    try fm.createSymbolicLink(atPath: project + "/inside.sqlite", withDestinationPath: "data/new.sqlite")
    try "```energylab\nenergy data/one.gpx --model acsm-walking --mass 70kg --db inside.sqlite\n```\n"
      .write(toFile: project + "/t22.md", atomically: true, encoding: .utf8)
    let inside = try energylab(["run", "t22.md", "--quiet"], in: project)
    #expect(inside.status == 0, "\(inside.stderr)")
    #expect(fm.fileExists(atPath: project + "/data/new.sqlite"))
  }

  /// `survey summary /etc/passwd` put every line of it in the shared
  /// report (probe S4-24). Reads outside the project need `allow-read`,
  /// whether named, reached through a link in the project, or followed by
  /// `batch --follow-links`.
  @Test func anOutsideReadIsRefusedNamingTheLine() throws {
    let project = try scratchFolder()
    let fm = FileManager.default
    try fm.createDirectory(atPath: project + "/data", withIntermediateDirectories: true)
    try fm.createSymbolicLink(atPath: project + "/data/users.csv", withDestinationPath: "/etc/passwd")
    for (command, named) in [
      ("survey summary /etc/passwd --dialect plain", "/etc/passwd"),
      ("survey summary data/users.csv --dialect plain", "data/users.csv"),
      ("survey summary --dialect=plain --missing=x /etc/passwd", "/etc/passwd"),
    ] {
      try "# R\n\n```energylab\n\(command)\n```\n".write(
        toFile: project + "/r.md", atomically: true, encoding: .utf8)
      let out = try energylab(["run", "r.md", "--quiet"], in: project)
      #expect(out.status == 1)
      #expect(
        out.stderr.contains("r.md:4: command failed: \(named) (/etc/passwd) is outside the project"),
        "\(out.stderr)")
      #expect(out.stderr.contains("allow-read = \(named)"))
      #expect(!fm.fileExists(atPath: project + "/Reports/r"))
    }
    try "```energylab\nbatch data --follow-links --db s.sqlite\n```\n".write(
      toFile: project + "/b.md", atomically: true, encoding: .utf8)
    let follow = try energylab(["run", "b.md", "--quiet"], in: project)
    #expect(follow.status == 1)
    #expect(follow.stderr.contains("--follow-links cannot be used in a notebook"), "\(follow.stderr)")

    try
      "```energylab-parameters\nallow-read = /etc/passwd\n```\n\n```energylab\nsurvey summary /etc/passwd --dialect plain\n```\n"
      .write(toFile: project + "/r.md", atomically: true, encoding: .utf8)
    let allowed = try energylab(["run", "r.md", "--quiet"], in: project)
    #expect(allowed.status == 0, "\(allowed.stderr)")
  }

  /// `--charts mycharts` in a notebook wrote the charts there and linked
  /// `![Q1](survey-q1.png)` beside the report, where nothing was; into
  /// `Reports/d/figures` they went into the old report and were lost with
  /// it (probe S4-13). Every image the report links now exists beside it,
  /// and the named folder holds a copy.
  @Test(arguments: ["mycharts", "Reports/d/figures"])
  func chartsOfACommandsOwnFolderAreLinked(_ charts: String) throws {
    let project = try scratchFolder()
    let fm = FileManager.default
    try fm.copyItem(
      atPath: packageRoot + "/Datasets/surveys/nudge-feedback.csv", toPath: project + "/survey.csv")
    try fm.copyItem(
      atPath: packageRoot + "/Datasets/pem-walk/walk-2.9mph-2pct.gpx", toPath: project + "/day1.gpx")
    let notebook =
      "# d\n\n```energylab\nsurvey summary survey.csv --charts \(charts)\ntrack plot day1.gpx --charts \(charts)\n```\n"
    try notebook.write(toFile: project + "/d.md", atomically: true, encoding: .utf8)
    // Twice, so the second run replaces a report whose folder is named.
    for _ in 0..<2 {
      let out = try energylab(["run", "d.md", "--quiet", "--reproducible"], in: project)
      #expect(out.status == 0, "\(out.stderr)")
    }
    let report = try String(contentsOfFile: project + "/Reports/d/report.md", encoding: .utf8)
    let links = try NSRegularExpression(pattern: #"!\[[^\]]*\]\(([^)]+)\)"#)
      .matches(in: report, range: NSRange(report.startIndex..., in: report))
      .map { String(report[Range($0.range(at: 1), in: report)!]) }
    #expect(links.contains("figures/day1-speed.png"), "\(links)")
    #expect(links.count >= 3)
    for link in links {
      #expect(fm.fileExists(atPath: project + "/Reports/d/" + link), "\(link) is linked but missing")
    }
    #expect(fm.fileExists(atPath: project + "/\(charts)/day1-speed.png"))
    #expect(fm.fileExists(atPath: project + "/\(charts)/day1-speed.gp"))
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
