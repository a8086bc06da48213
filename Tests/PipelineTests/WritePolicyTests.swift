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
