import Foundation
import TestSupport
import Testing

/// Runs `program` with `environment` added, killed after `timeout` seconds
/// (a hang is a failure, not a stuck test run).
func runWithEnvironment(
  _ arguments: [String], in folder: String, environment: [String: String], timeout: TimeInterval = 120
) throws -> Outcome {
  let process = Process()
  process.executableURL = URL(fileURLWithPath: arguments[0])
  process.arguments = Array(arguments.dropFirst())
  process.currentDirectoryURL = URL(fileURLWithPath: folder)
  process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
  let out = Pipe()
  let err = Pipe()
  process.standardOutput = out
  process.standardError = err
  try process.run()
  let timer = DispatchWorkItem { process.terminate() }
  DispatchQueue.global().asyncAfter(deadline: .now() + timeout, execute: timer)
  let stdout = out.fileHandleForReading.readDataToEndOfFile()
  let stderr = err.fileHandleForReading.readDataToEndOfFile()
  process.waitUntilExit()
  timer.cancel()
  return Outcome(
    status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
    stderr: String(decoding: stderr, as: UTF8.self))
}

/// Installed use: the binary finds its shipped data and its digest through
/// the system, however it was started.
struct InstalledUseTests {
  /// A prefix laid out as `make install` writes it: PREFIX/bin/energylab
  /// (a copy of the built binary) and the shipped `data` folders in
  /// PREFIX/share/energylab/Datasets.
  static func installed(data: [String]) throws -> String {
    let prefix = try scratchFolder()
    let fm = FileManager.default
    try fm.createDirectory(atPath: prefix + "/bin", withIntermediateDirectories: true)
    try fm.createDirectory(atPath: prefix + "/share/energylab/Datasets", withIntermediateDirectories: true)
    try fm.copyItem(atPath: binary, toPath: prefix + "/bin/energylab")
    for folder in data {
      try fm.copyItem(
        atPath: packageRoot + "/Datasets/" + folder, toPath: prefix + "/share/energylab/Datasets/" + folder)
    }
    return prefix
  }

  /// By name from PATH (argv[0] is then just "energylab"), through a
  /// symbolic link, and by a relative path, from a folder without Datasets/.
  @Test func runByNameLinkOrRelativePathFindsShippedData() throws {
    let folder = try scratchFolder()
    try FileManager.default.createDirectory(atPath: folder + "/bin", withIntermediateDirectories: true)
    try FileManager.default.createSymbolicLink(atPath: folder + "/bin/energylab", withDestinationPath: binary)
    let evaluate = [
      "evaluate", "--models", "acsm-walking", "--reference", "stanford-walking", "--assume", "speed=3mph",
    ]
    for program in ["/usr/bin/env", "bin/energylab", folder + "/bin/energylab"] {
      // env runs a relative path from the folder, as a shell would.
      let prefix = program == "/usr/bin/env" ? ["/usr/bin/env", "energylab"] : ["/usr/bin/env", program]
      let environment = ["PATH": folder + "/bin:/usr/bin:/bin"]
      let version = try runWithEnvironment(prefix + ["--version"], in: folder, environment: environment)
      #expect(version.status == 0)
      #expect(version.stdout.contains("source digest"), "\(program): \(version.stdout)")
      let out = try runWithEnvironment(prefix + evaluate, in: folder, environment: environment)
      #expect(out.status == 0, "\(program): \(out.stderr)")
      #expect(out.stdout.contains("acsm-walking"))
    }
  }

  /// The installed layout: PREFIX/bin/energylab beside
  /// PREFIX/share/energylab/Datasets (what `make install` writes), run by
  /// name, with no checkout above it.
  @Test func installedLayoutFindsItsShare() throws {
    let prefix = try Self.installed(data: ["reference"])
    let work = try scratchFolder()
    let out = try runWithEnvironment(
      [
        "/usr/bin/env", "energylab", "evaluate", "--models", "acsm-walking", "--reference",
        "stanford-walking",
        "--assume", "speed=3mph",
      ],
      in: work, environment: ["PATH": prefix + "/bin:/usr/bin:/bin"])
    #expect(out.status == 0, "\(out.stderr)")
    let version = try runWithEnvironment(
      ["/usr/bin/env", "energylab", "--version"], in: work,
      environment: ["PATH": prefix + "/bin:/usr/bin:/bin"])
    #expect(version.stdout.contains("binary sha256"), "\(version.stdout)")
  }

  @Test(arguments: [
    (["enrgy"], "did you mean energy?"),
    (["survey", "sumary", "x.csv"], "did you mean summary?"),
    (["accel", "epoch", "x.csv"], "did you mean epochs?"),
  ])
  func misspeltSubcommandGetsASuggestion(arguments: [String], hint: String) throws {
    let out = try energylab(arguments, in: try scratchFolder())
    #expect(out.status == 64)
    #expect(out.stderr.contains(hint), "\(out.stderr)")
  }

  /// Every option naming a question: a slip gets the nearest question, and
  /// nothing is computed (`--multi` once ignored a name matching none).
  @Test(arguments: [
    ["crosstab", "s.csv", "--rows", "comute_mode", "--cols", "age"],
    ["compare", "s.csv", "--question", "age", "--by", "comute_mode"],
    ["summary", "s.csv", "--multi", "comute_mode"],
    ["summary", "s.csv", "--scale", "comute_mode=yesno"],
    ["summary", "s.csv", "--reverse", "comute_mode"],
  ])
  func misspeltSurveyQuestionGetsASuggestion(arguments: [String]) throws {
    let folder = try scratchFolder()
    try "id,commute_mode,age\n1,car;bus,30\n2,bus,40\n".write(
      toFile: folder + "/s.csv", atomically: true, encoding: .utf8)
    let out = try energylab(["survey"] + arguments, in: folder)
    #expect(out.status == 64)
    #expect(out.stderr.contains("did you mean \"commute_mode\"?"), "\(out.stderr)")
  }
}
