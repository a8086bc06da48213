import Foundation
import TestSupport
import Testing

struct CommandLineTests {
  @Test func helpVersionAndUsageErrors() throws {
    let folder = try scratchFolder()
    let version = try energylab(["--version"], in: folder)
    #expect(version.status == 0)
    #expect(version.stdout.hasPrefix("energylab 0.1.0 ("))
    #expect(try energylab(["--help"], in: folder).stdout.contains("SUBCOMMANDS"))
    #expect(try energylab(["models", "eval", "--help"], in: folder).stdout.contains("--speed"))
    #expect(try energylab(["no-such-command"], in: folder).status == 64)
    #expect(try energylab(["models", "eval", "acsm-walking", "--format", "yaml"], in: folder).status == 64)
    let unknown = try energylab(["models", "eval", "nope", "--speed", "3mph", "--mass", "70kg"], in: folder)
    #expect(unknown.status == 64)
    #expect(unknown.stderr.contains("unknown model \"nope\""))
  }

  /// Synthesise the PEM worked-example walk, then energy under ACSM:
  /// 14.0788 mL/kg/min at exactly 2.9 mph (77.785 m/min) and 2 %, x 65 kg x 5
  /// / 1000 = 4.5756 kcal/min, 45.76 kcal over 10 min.
  @Test func synthThenEnergyAsJSON() throws {
    let folder = try scratchFolder()
    let synth = try energylab(
      ["track", "synth", "-o", "walk.gpx", "--speed", "2.9mph", "--grade", "2%", "--duration", "10min"],
      in: folder)
    #expect(synth.status == 0, "\(synth.stderr)")
    let result = try energylab(
      [
        "energy", "walk.gpx", "--model", "acsm-walking", "--mass", "65kg", "--format", "json", "--db",
        "r.sqlite",
      ], in: folder)
    #expect(result.status == 0, "\(result.stderr)")
    let rows = try #require(JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])
    #expect(rows.count == 1)
    let row = rows[0]
    expectClose(row["vo2_ml_kg_min"] as? Double, 14.0788, tolerance: 0.002, "vo2_ml_kg_min")
    expectClose(row["kcal_per_min"] as? Double, 4.5756, tolerance: 0.001, "kcal_per_min")
    expectClose(row["energy_kcal"] as? Double, 45.756, tolerance: 0.01, "energy_kcal")
    expectClose(row["duration_s"] as? Double, 600, tolerance: 1e-9, "duration_s")
    expectClose(row["distance_m"] as? Double, 777.85, tolerance: 0.01, "distance_m")
    let info = try energylab(["db", "info", "--db", "r.sqlite", "--format", "json"], in: folder)
    #expect(info.stdout.contains("\"table\": \"runs\",\n    \"rows\": 1"))
    let inputs = try energylab(
      ["db", "export", "--db", "r.sqlite", "--table", "inputs", "--format", "csv"], in: folder)
    // Stored by its absolute path, links resolved.
    #expect(
      inputs.stdout.hasPrefix("run_id,path,size_bytes,sha256\n1,\(CanonicalName.resolved(folder))/walk.gpx,"))
  }

  @Test func missingFileAndNonXMLAreOneLineErrorsWithExitOne() throws {
    let folder = try scratchFolder()
    let missing = try energylab(["energy", "nothere.gpx", "--mass", "60kg"], in: folder)
    #expect(missing.status == 1)
    #expect(missing.stderr == "energylab: nothere.gpx: no such file; expected a readable GPX or TCX file\n")
    try "lat,lon\n1,2\n".write(toFile: "\(folder)/bad.gpx", atomically: true, encoding: .utf8)
    let bad = try energylab(["energy", "bad.gpx", "--mass", "60kg"], in: folder)
    #expect(bad.status == 1)
    #expect(bad.stderr.hasPrefix("energylab: bad.gpx:1:1: not XML"))
    #expect(bad.stderr.contains("; expected a document starting with <?xml or <gpx"))
    #expect(bad.stderr.split(separator: "\n").count == 1)
    #expect(bad.stdout.isEmpty)
  }

  /// The libraries name the setting that would resolve an error; the
  /// command line words it as its option.
  @Test func errorsNameTheOptionThatResolvesThem() throws {
    let folder = try scratchFolder()
    try "a,b,c\n1,2,3\n".write(toFile: "\(folder)/noaxes.csv", atomically: true, encoding: .utf8)
    let axes = try energylab(["accel", "summary", "noaxes.csv"], in: folder)
    #expect(axes.status == 1)
    #expect(
      axes.stderr.contains(
        "noaxes.csv:1: no x, y and z columns among a, b, c; expected columns named x, y, z (or ax, acc_x, gFx, Acceleration x ...), or --x/--y/--z"
      ), "\(axes.stderr)")
    let unstated = try energylab(
      ["evaluate", "--models", "acsm-walking", "--reference", "stanford-walking"], in: folder)
    #expect(unstated.status == 64)
    #expect(
      unstated.stderr.hasSuffix("give the rest as assumed values (use --assume NAME=VALUE)\n"),
      "\(unstated.stderr)")
  }

  /// A notebook over a bad file fails with exit 1 and leaves the earlier
  /// report exactly as it was, with no temporary folders behind.
  @Test func notebookRunIsAtomic() throws {
    let folder = try scratchFolder()
    _ = try energylab(
      ["track", "synth", "-o", "walk.gpx", "--speed", "1.2mps", "--duration", "2min"], in: folder)
    try FileManager.default.createDirectory(atPath: "\(folder)/Notebooks", withIntermediateDirectories: true)
    try "# W\n\n```energylab\nenergy walk.gpx --mass 70kg\n```\n".write(
      toFile: "\(folder)/Notebooks/w.md", atomically: true, encoding: .utf8)
    let first = try energylab(["run", "--reproducible"], in: folder)
    #expect(first.status == 0, "\(first.stderr)")
    let report = try String(contentsOfFile: "\(folder)/Reports/w/report.md", encoding: .utf8)
    #expect(report.contains("| walk.gpx | acsm-walking | 70.0 | 120.0 |"))
    #expect(FileManager.default.fileExists(atPath: "\(folder)/Reports/w/results.sqlite"))
    #expect(FileManager.default.fileExists(atPath: "\(folder)/Reports/w/data/01-energy.csv"))

    try "<gpx><trk><trkseg><trkpt lat=\"1\" lon=\"2\">".write(
      toFile: "\(folder)/walk.gpx", atomically: true, encoding: .utf8)
    let second = try energylab(["run", "--reproducible"], in: folder)
    #expect(second.status == 1)
    #expect(second.stderr.contains("Notebooks/w.md:4: command failed: walk.gpx:1:"))
    #expect(try String(contentsOfFile: "\(folder)/Reports/w/report.md", encoding: .utf8) == report)
    #expect(try FileManager.default.contentsOfDirectory(atPath: "\(folder)/Reports") == ["w"])
  }

  @Test func brokenPipeExitsQuietly() throws {
    let folder = try scratchFolder()
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/sh")
    process.arguments = [
      "-c", "'\(binary)' models list --format json | head -c 1 >/dev/null; echo ${PIPESTATUS:-0}",
    ]
    process.currentDirectoryURL = URL(fileURLWithPath: folder)
    let err = Pipe()
    process.standardError = err
    process.standardOutput = FileHandle.nullDevice
    try process.run()
    let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    #expect(!stderr.contains("Fatal error"))
    #expect(!stderr.contains("Broken pipe"))
  }
}

/// The curated reports in Reports/ are what the notebooks produce now:
/// every notebook is rerun into a scratch folder and its text outputs
/// (report, data, chart scripts and data) compared byte for byte. Images
/// depend on the installed gnuplot and are not compared.
struct CuratedReportsTests {
  @Test func committedReportsAreCurrent() throws {
    let scratch = try scratchFolder()
    let run = try energylab(
      ["run", "--reproducible", "--quiet", "--reports-dir", scratch], in: packageRoot)
    #expect(run.status == 0, "\(run.stderr)")
    let fm = FileManager.default
    let notebooks = try fm.contentsOfDirectory(atPath: "\(packageRoot)/Notebooks").filter {
      $0.hasSuffix(".md")
    }
    #expect(!notebooks.isEmpty)
    for notebook in notebooks {
      let name = String(notebook.dropLast(3))
      let fresh = "\(scratch)/\(name)"
      let committed = "\(packageRoot)/Reports/\(name)"
      let files = try #require(fm.subpathsOfDirectory(atPath: fresh) as [String]?)
        .filter { $0.hasSuffix(".md") || $0.hasSuffix(".csv") || $0.hasSuffix(".gp") || $0.hasSuffix(".dat") }
      #expect(files.contains("report.md"))
      for file in files.sorted() {
        let expected = try? String(contentsOfFile: "\(committed)/\(file)", encoding: .utf8)
        let actual = try String(contentsOfFile: "\(fresh)/\(file)", encoding: .utf8)
        #expect(expected == actual, "Reports/\(name)/\(file) is stale: run `make reproduce` and commit")
      }
    }
  }
}

/// Every command's help prints and exits 0: option groups that clash (two
/// options of one name) would fail here rather than in a user's hands.
struct HelpTests {
  @Test(arguments: [
    "run", "energy", "evaluate", "sweep", "agreement", "stats agreement", "profile", "footprint flights",
    "footprint annual",
    "survey summary", "survey sus", "survey asq", "survey crosstab", "survey compare", "balance", "duration",
    "models list",
    "models explain", "models eval", "track synth", "track summary", "track segments", "track plot",
    "track power", "power curve", "power load", "db info", "db export",
    "db check", "db merge", "db compare", "batch", "accel summary", "accel epochs", "accel days",
    "accel energy", "accel synth",
  ])
  func helpWorks(command: String) throws {
    let out = try energylab(command.split(separator: " ").map(String.init) + ["--help"], in: packageRoot)
    #expect(out.status == 0, "\(command): \(out.stderr)")
    #expect(out.stdout.contains("USAGE"))
  }
}

/// Without gnuplot the scripts and data are still written and the report
/// says what was skipped.
struct WithoutGnuplotTests {
  @Test func scriptsAndDataStillWritten() throws {
    let folder = try scratchFolder()
    try FileManager.default.createDirectory(atPath: "\(folder)/Notebooks", withIntermediateDirectories: true)
    try
      "# C\n\n```energylab\nevaluate --models acsm-walking --reference \(packageRoot)/Datasets/reference/fenton-walking-speed.csv --assume grade=0\n```\n"
      .write(toFile: "\(folder)/Notebooks/c.md", atomically: true, encoding: .utf8)
    let process = Process()
    process.executableURL = URL(fileURLWithPath: binary)
    process.arguments = ["run", "--reproducible", "--quiet"]
    process.currentDirectoryURL = URL(fileURLWithPath: folder)
    process.environment = ["PATH": "/nonexistent"]
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    process.waitUntilExit()
    #expect(process.terminationStatus == 0)
    let figures = try FileManager.default.contentsOfDirectory(atPath: "\(folder)/Reports/c/figures")
    #expect(figures.contains("fenton-walking-speed-predicted-vs-reference.gp"))
    #expect(figures.contains("fenton-walking-speed-predicted-vs-reference.dat"))
    #expect(!figures.contains { $0.hasSuffix(".png") })
    let report = try String(contentsOfFile: "\(folder)/Reports/c/report.md", encoding: .utf8)
    #expect(report.contains("Skipped:"))
    #expect(report.contains("gnuplot not installed"))
  }
}

/// `--store` writes to the default database: $ENERGYLAB_DB when set.
struct DefaultDatabaseTests {
  @Test func storeUsesTheDefaultPath() throws {
    let folder = try scratchFolder()
    _ = try energylab(["track", "synth", "-o", "w.gpx", "--duration", "1min"], in: folder)
    let process = Process()
    process.executableURL = URL(fileURLWithPath: binary)
    process.arguments = ["energy", "w.gpx", "--mass", "70kg", "--store"]
    process.currentDirectoryURL = URL(fileURLWithPath: folder)
    process.environment = ["ENERGYLAB_DB": "\(folder)/study.sqlite"]
    process.standardOutput = FileHandle.nullDevice
    try process.run()
    process.waitUntilExit()
    #expect(process.terminationStatus == 0)
    #expect(FileManager.default.fileExists(atPath: "\(folder)/study.sqlite"))
    let plain = try energylab(["energy", "w.gpx", "--mass", "70kg", "--store"], in: folder)
    #expect(plain.status == 0)
    let info = try energylab(["db", "info", "--format", "json"], in: folder)
    #expect(info.stdout.contains("\"table\": \"runs\",\n    \"rows\": 1"))
  }
}
