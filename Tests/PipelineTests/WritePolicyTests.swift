import EnergyLabCore
import Foundation
import Testing

@testable import Pipeline

/// Where a notebook may write: the project, the report folder and what
/// its header allows.
struct WritePolicyTests {
  @Test func outsidePathsNeedTheHeader() throws {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent("wp-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(
      atPath: root + "/project/Reports", withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: root) }
    let policy = WritePolicy(projectRoot: root + "/project", reportFolder: root + "/reports-elsewhere")
    #expect(policy.permits(root + "/project/out/new/file.csv"))
    #expect(policy.permits(root + "/project/Reports/../x.csv"))
    #expect(policy.permits(root + "/reports-elsewhere/data.csv"))
    #expect(!policy.permits(root + "/project/../outside.txt"))
    #expect(!policy.permits(root + "/project-2/x.csv"))
    #expect(!policy.permits("/etc/x"))
    let error = #expect(throws: UsageError.self) { try policy.check(root + "/project/../outside.txt") }
    #expect(error?.message.contains("allow-write") == true)
    let allowing = WritePolicy(
      projectRoot: root + "/project", reportFolder: root + "/r", allowed: [root + "/outside.txt"])
    #expect(allowing.permits(root + "/project/../outside.txt"))
    #expect(!allowing.permits(root + "/outside.txt.bak"))
  }

  /// A link whose target does not exist yet was taken for a new file
  /// inside the project, and SQLite, opening `--db dangling.sqlite`,
  /// created the target outside (reliability probe S4-2).
  @Test func danglingLinksAreFollowed() throws {
    let fm = FileManager.default
    let root = fm.temporaryDirectory.appendingPathComponent("wp-\(UUID().uuidString)").path
    try fm.createDirectory(atPath: root + "/project/sub", withIntermediateDirectories: true)
    try fm.createDirectory(atPath: root + "/outside", withIntermediateDirectories: true)
    defer { try? fm.removeItem(atPath: root) }
    let project = root + "/project"
    try fm.createSymbolicLink(
      atPath: project + "/out.sqlite", withDestinationPath: root + "/outside/new.sqlite")
    try fm.createSymbolicLink(atPath: project + "/rel.sqlite", withDestinationPath: "../outside/new2.sqlite")
    try fm.createSymbolicLink(atPath: project + "/in.sqlite", withDestinationPath: "sub/new.sqlite")
    try fm.createSymbolicLink(atPath: project + "/chain.sqlite", withDestinationPath: "rel.sqlite")
    try fm.createSymbolicLink(
      atPath: project + "/gone", withDestinationPath: root + "/outside/not-yet/deeper")
    try fm.createSymbolicLink(atPath: project + "/sub/up", withDestinationPath: root + "/outside")
    try fm.createSymbolicLink(atPath: project + "/loop", withDestinationPath: "loop")
    let policy = WritePolicy(projectRoot: project, reportFolder: project + "/Reports/n")
    #expect(
      WritePolicy.canonical(project + "/out.sqlite") == CanonicalPath.resolved(root) + "/outside/new.sqlite")
    #expect(!policy.permits(project + "/out.sqlite"))
    #expect(!policy.permits(project + "/rel.sqlite"))
    #expect(!policy.permits(project + "/chain.sqlite"))
    #expect(!policy.permits(project + "/gone/x.csv"))
    #expect(policy.permits(project + "/in.sqlite"))
    #expect(policy.permits(project + "/new/folder/x.csv"))
    // `..` after a link is the parent of the link's target, as for the system.
    #expect(!policy.permits(project + "/sub/up/../x.csv"))
    #expect(policy.permits(project + "/loop"))
    let error = #expect(throws: UsageError.self) { try policy.check(project + "/out.sqlite") }
    #expect(
      error?.message.hasPrefix(
        "\(project)/out.sqlite (\(CanonicalPath.resolved(root))/outside/new.sqlite) is outside the project")
        == true)
  }

  /// A notebook read `/etc/passwd` into its report (probe S4-24): reads
  /// outside the project need the header's `allow-read`, as writes need
  /// `allow-write`; what may be written may be read.
  @Test func outsideReadsNeedTheHeader() throws {
    let fm = FileManager.default
    let root = fm.temporaryDirectory.appendingPathComponent("wp-\(UUID().uuidString)").path
    try fm.createDirectory(atPath: root + "/project/data", withIntermediateDirectories: true)
    try fm.createDirectory(atPath: root + "/study", withIntermediateDirectories: true)
    defer { try? fm.removeItem(atPath: root) }
    try fm.createSymbolicLink(atPath: root + "/project/data/p.csv", withDestinationPath: "/etc/passwd")
    let policy = WritePolicy(projectRoot: root + "/project", reportFolder: root + "/project/Reports/n")
    #expect(policy.permitsReading(root + "/project/data/new.csv"))
    #expect(!policy.permitsReading("/etc/passwd"))
    #expect(!policy.permitsReading(root + "/project/data/p.csv"))
    #expect(!policy.permitsReading(root + "/study/a.gpx"))
    let error = #expect(throws: UsageError.self) { try policy.checkReading("/etc/passwd") }
    #expect(
      error?.message
        == "/etc/passwd (/etc/passwd) is outside the project (\(CanonicalPath.resolved(root))/project) and the report folder; a notebook reads there only when its header allows it: allow-read = /etc/passwd in an energylab-parameters block before the first command"
    )
    let allowing = WritePolicy(
      projectRoot: root + "/project", reportFolder: root + "/r", allowed: [root + "/out.csv"],
      allowedReads: [root + "/study"])
    #expect(allowing.permitsReading(root + "/study/a.gpx"))
    #expect(allowing.permitsReading(root + "/out.csv"))
    #expect(!allowing.permits(root + "/study/a.gpx"))
  }

  @Test func allowReadBelongsToTheHeader() throws {
    let header = try Notebook.parse(
      "```energylab-parameters\nallow-read = ../study\nallow-write = x.txt\n```\n\n```energylab\nmodels list\n```\n",
      path: "n.md")
    #expect(header.allowedReads == ["../study"])
    #expect(header.allowedWrites == ["x.txt"])
    let late = #expect(throws: InputError.self) {
      try Notebook.parse(
        "```energylab\nmodels list\n```\n\n```energylab-parameters\nallow-read = /etc\n```\n", path: "n.md")
    }
    #expect(
      late?.description
        == "n.md:6: allow-read after the first command; expected allow-read lines in the notebook's header, before any energylab block"
    )
  }

  @Test func allowWriteBelongsToTheHeader() throws {
    let header = try Notebook.parse(
      "# N\n\n```energylab-parameters\nallow-write = ../out.txt\n```\n\n```energylab\nmodels list\n```\n",
      path: "n.md")
    #expect(header.allowedWrites == ["../out.txt"])
    let late = #expect(throws: InputError.self) {
      try Notebook.parse(
        "```energylab\nmodels list\n```\n\n```energylab-parameters\nallow-write = ../out.txt\n```\n",
        path: "n.md")
    }
    #expect(late?.location.line == 6)
  }
}
