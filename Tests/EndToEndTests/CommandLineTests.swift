import Foundation
import TestSupport
import Testing

/// The built `energylab`, run as a user would: ENERGYLAB_BIN or the debug build.
let binary = ProcessInfo.processInfo.environment["ENERGYLAB_BIN"] ?? "\(packageRoot)/.build/debug/energylab"

struct Outcome {
  var status: Int32
  var stdout: String
  var stderr: String
}

/// Runs energylab in `folder`; with `stdin`, those bytes are piped to its
/// standard input and the pipe closed.
func energylab(_ arguments: [String], in folder: String, stdin: Data? = nil) throws -> Outcome {
  try run([URL(fileURLWithPath: binary).path] + arguments, in: folder, stdin: stdin)
}

/// Runs any program (`arguments[0]`) in `folder`.
func run(_ arguments: [String], in folder: String, stdin: Data? = nil) throws -> Outcome {
  let process = Process()
  process.executableURL = URL(fileURLWithPath: arguments[0])
  process.arguments = Array(arguments.dropFirst())
  process.currentDirectoryURL = URL(fileURLWithPath: folder)
  let out = Pipe()
  let err = Pipe()
  let input = Pipe()
  process.standardOutput = out
  process.standardError = err
  if stdin != nil { process.standardInput = input }
  try process.run()
  if let stdin {
    input.fileHandleForWriting.write(stdin)
    try input.fileHandleForWriting.close()
  }
  let stdout = out.fileHandleForReading.readDataToEndOfFile()
  let stderr = err.fileHandleForReading.readDataToEndOfFile()
  process.waitUntilExit()
  return Outcome(
    status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
    stderr: String(decoding: stderr, as: UTF8.self))
}

func scratchFolder() throws -> String {
  let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
    "energylab-e2e-\(UUID().uuidString)"
  ).path
  try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
  return folder
}

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
    #expect(inputs.stdout.hasPrefix("run_id,path,size_bytes,sha256\n1,walk.gpx,"))
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

struct ModelsCommandLineTests {
  /// `models list --format json` is an array of objects with `id`.
  @Test func listAsJSON() throws {
    let out = try energylab(["models", "list", "--format", "json"], in: packageRoot)
    let rows = try #require(JSONSerialization.jsonObject(with: Data(out.stdout.utf8)) as? [[String: Any]])
    let ids = rows.compactMap { $0["id"] as? String }
    #expect(ids.contains("acsm-walking"))
    #expect(ids.contains("keytel-2005"))
    #expect(ids.count == rows.count)
  }

  /// Units on the command line: 154lb = 69.853 kg, 3mph = 80.4672 m/min.
  /// ACSM walking: 0.1 x 80.4672 + 3.5 = 11.54672 mL/kg/min; x 69.853 x 5/1000
  /// = 4.0329 kcal/min; over 1 mi at 3 mph (20 min) 80.66 kcal.
  @Test func evalWithUnits() throws {
    let out = try energylab(
      [
        "models", "eval", "acsm-walking", "--speed", "3mph", "--grade", "0%", "--mass", "154lb", "--distance",
        "1mi", "--format", "json",
      ],
      in: packageRoot)
    #expect(out.status == 0, "\(out.stderr)")
    let object = try #require(JSONSerialization.jsonObject(with: Data(out.stdout.utf8)) as? [String: Any])
    expectClose(object["vo2_ml_kg_min"] as? Double, 11.54672, tolerance: 1e-9, "vo2_ml_kg_min")
    let perMinute = 11.54672 * 154 * 0.45359237 * 5 / 1000
    expectClose(object["kcal_per_min"] as? Double, perMinute, tolerance: 1e-9, "kcal_per_min")
    #expect(abs((object["energy_kcal"] as? Double ?? 0) - perMinute * 20) < 1e-6)
  }

  /// A model without VO2 prints null; the MET table is found by activity code.
  @Test func metByActivityHasVO2AndHeartRateModelHasNone() throws {
    let met = try energylab(
      [
        "models", "eval", "met", "--activity", "17190", "--mass", "70kg", "--minutes", "30", "--format",
        "json",
      ], in: packageRoot)
    let metObject = try #require(JSONSerialization.jsonObject(with: Data(met.stdout.utf8)) as? [String: Any])
    expectClose(metObject["energy_kcal"] as? Double, 122.5, tolerance: 1e-9, "energy_kcal")
    let hr = try energylab(
      [
        "models", "eval", "keytel-2005", "--heart-rate", "140bpm", "--mass", "65kg", "--age", "30", "--sex",
        "female", "--minutes", "30", "--format", "json",
      ],
      in: packageRoot)
    let hrObject = try #require(JSONSerialization.jsonObject(with: Data(hr.stdout.utf8)) as? [String: Any])
    #expect(hrObject["vo2_ml_kg_min"] is NSNull)
    expectClose(hrObject["energy_kcal"] as? Double, 259.68, tolerance: 0.01, "energy_kcal")
  }

  @Test func missingInputIsAUsageError() throws {
    let out = try energylab(["models", "eval", "keytel-2005", "--mass", "65kg"], in: packageRoot)
    #expect(out.status == 64)
    #expect(out.stderr == "energylab: model keytel-2005 needs --heart-rate\n")
  }
}

/// `energy --by-mode` on a walk, bus ride and walk, 65 kg. By hand:
/// walking 1.3 m/s = 78 m/min: ACSM 0.1 x 78 + 3.5 = 11.3 mL/kg/min,
/// x 65 x 5 / 1000 = 3.6725 kcal/min, x 15 min = 55.0875 kcal; the ride at
/// VO2rest 3.5: 1.1375 kcal/min x 10 min = 11.375 kcal; total 66.4625 kcal.
struct EnergyByModeTests {
  @Test func walkBusWalk() throws {
    let folder = try scratchFolder()
    let synth = try energylab(
      [
        "track", "synth", "-o", "j.gpx", "--leg", "1.3mps,0,10min", "--leg", "10mps,0,10min", "--leg",
        "1.3mps,0,5min",
      ],
      in: folder)
    #expect(synth.status == 0, "\(synth.stderr)")
    let out = try energylab(
      ["energy", "j.gpx", "--by-mode", "--mass", "65kg", "--format", "json"], in: folder)
    #expect(out.status == 0, "\(out.stderr)")
    let rows = try #require(JSONSerialization.jsonObject(with: Data(out.stdout.utf8)) as? [[String: Any]])
    #expect(rows.compactMap { $0["mode"] as? String } == ["walk", "bus", "walk"])
    #expect(
      rows.compactMap { $0["model"] as? String } == ["acsm-walking", "resting", "acsm-walking", "by mode"])
    let total = try #require(rows.last)
    // Coordinates are written to 1e-8 degrees, so speeds are good to about 1e-3 m/s.
    expectClose(total["energy_kcal"] as? Double, 66.4625, tolerance: 0.05, "energy_kcal")
    #expect(abs((rows[1]["energy_kcal"] as? Double ?? 0) - 11.375) < 1e-6)
  }

  @Test func perFixRowsSumToTheTotal() throws {
    let folder = try scratchFolder()
    _ = try energylab(
      ["track", "synth", "-o", "w.gpx", "--speed", "1.3mps", "--duration", "2min"], in: folder)
    let out = try energylab(
      ["energy", "w.gpx", "--per-fix", "--mass", "65kg", "--format", "json"], in: folder)
    let rows = try #require(JSONSerialization.jsonObject(with: Data(out.stdout.utf8)) as? [[String: Any]])
    #expect(rows.count == 120)
    let sum = rows.reduce(0.0) { $0 + ($1["energy_kcal"] as? Double ?? 0) }
    // 3.6725 kcal/min x 2 min.
    #expect(abs(sum - 7.345) < 0.01)
    #expect(abs((rows.last?["cumulative_kcal"] as? Double ?? 0) - sum) < 1e-9)
  }
}

/// GPS noise makes the kinetic model count phantom accelerations: a steady
/// 1.3 m/s walk has, by construction, only the start-up energy
/// 1/2 x 70 x 1.3^2 = 59.15 J = 0.0141 kcal. Smoothing speeds must bring a
/// noisy copy much closer to that than the raw fixes do.
struct KineticSmoothingTests {
  @Test func smoothingTamesNoise() throws {
    let folder = try scratchFolder()
    _ = try energylab(
      [
        "track", "synth", "-o", "n.gpx", "--speed", "1.3mps", "--duration", "5min", "--noise", "1", "--seed",
        "7",
      ], in: folder)
    func kcal(_ extra: [String]) throws -> Double {
      let out = try energylab(
        ["energy", "n.gpx", "--model", "kinetic-hay", "--mass", "70kg", "--format", "json"] + extra,
        in: folder)
      let rows = try #require(JSONSerialization.jsonObject(with: Data(out.stdout.utf8)) as? [[String: Any]])
      return try #require(rows.first?["energy_kcal"] as? Double)
    }
    let raw = try kcal([])
    let smoothed = try kcal(["--speed-smoothing", "15"])
    #expect(raw > 10 * smoothed)
    #expect(smoothed > 0.0141 * 0.5)
  }
}

struct EvaluationCommandLineTests {
  /// `stats agreement` on Bland and Altman's (Lancet 1986) peak-flow data:
  /// mean difference -2.1 l/min, SD 38.8 (published); limits with 1.96 SD:
  /// -2.1176 -/+ 1.96 x 38.7651 = -78.10 and 73.86.
  @Test func statsAgreementOnPeakFlow() throws {
    let folder = try scratchFolder()
    let wright = [494, 395, 516, 434, 476, 557, 413, 442, 650, 433, 417, 656, 267, 478, 178, 423, 427]
    let mini = [512, 430, 520, 428, 500, 600, 364, 380, 658, 445, 432, 626, 260, 477, 259, 350, 451]
    var csv = "subject,wright,mini\n"
    for (i, (a, b)) in zip(wright, mini).enumerated() { csv += "\(i + 1),\(a),\(b)\n" }
    csv += "18,,500\n"
    try csv.write(toFile: "\(folder)/pefr.csv", atomically: true, encoding: .utf8)
    let out = try energylab(
      [
        "stats", "agreement", "pefr.csv", "--a", "wright", "--b", "mini", "--unit", "l_per_min", "--charts",
        "charts", "--format", "json",
      ], in: folder)
    #expect(out.status == 0, "\(out.stderr)")
    let o = try #require(JSONSerialization.jsonObject(with: Data(out.stdout.utf8)) as? [String: Any])
    for key in [
      "n", "bias_l_per_min", "sd_diff_l_per_min", "loa_lower_l_per_min", "loa_upper_l_per_min",
      "mae_l_per_min",
      "rmse_l_per_min", "mape_pct", "pearson_r", "ccc", "within_20pct_share",
    ] {
      #expect(o[key] != nil, "missing \(key)")
    }
    #expect(o["n"] as? Int == 17)
    #expect(o["dropped_pairs"] as? Int == 1)
    #expect(out.stderr.contains("1 rows with a missing wright or mini"), "\(out.stderr)")
    expectClose(o["bias_l_per_min"] as? Double, -2.1, tolerance: 0.05, "bias_l_per_min")
    expectClose(o["sd_diff_l_per_min"] as? Double, 38.8, tolerance: 0.05, "sd_diff_l_per_min")
    expectClose(o["loa_lower_l_per_min"] as? Double, -78.10, tolerance: 0.01, "loa_lower_l_per_min")
    expectClose(o["loa_upper_l_per_min"] as? Double, 73.86, tolerance: 0.01, "loa_upper_l_per_min")
    // No proportional bias: scipy.stats.linregress of the differences on
    // the means gives slope 0.02869, p = 0.7495.
    expectClose(o["slope"] as? Double, 0.0287, tolerance: 1e-4, "slope")
    expectClose(o["slope_p"] as? Double, 0.7495, tolerance: 1e-4, "slope_p")
    #expect(o["limits_form"] as? String == "absolute")
    #expect(out.stderr.contains("energylab: wrote charts/pefr-wright-mini-bland-altman.png"), "\(out.stderr)")
    #expect(!out.stderr.contains("bland-altman-percent"))
    let script = try String(
      contentsOfFile: "\(folder)/charts/pefr-wright-mini-bland-altman.gp", encoding: .utf8)
    #expect(script.contains("set xlabel 'mean of wright and mini (l/min)'"))
    #expect(script.contains("set ylabel 'wright minus mini (l/min)'"))
    let bad = try energylab(
      ["stats", "agreement", "pefr.csv", "--a", "wright", "--b", "mini", "--unit", "l/min"], in: folder)
    #expect(bad.status == 64)
  }

  @Test func statsAgreementNamesTheBadCell() throws {
    let folder = try scratchFolder()
    try "a,b\n1,2\n3,\"4,5\"\n".write(toFile: "\(folder)/x.csv", atomically: true, encoding: .utf8)
    let out = try energylab(["stats", "agreement", "x.csv", "--a", "a", "--b", "b"], in: folder)
    #expect(out.status == 1)
    #expect(out.stderr.hasPrefix("energylab: x.csv:3:2: cannot read b \"4,5\" as a number"))
  }

  /// The bias of ACSM walking against the Stanford table is linear in speed,
  /// so its zero is exact: mean reference R over the grid equals
  /// VO2 x (mean kg) x (mean minutes) x 5/1000 at VO2 = 0.1 v + 3.5, i.e.
  /// v = (R / (81.6466 x 40 x 0.005) - 3.5) / 0.1 m/min, about 5.60 mph, far
  /// outside the walking range.
  @Test func sweepBreakEvenOfACSMAgainstStanford() throws {
    let out = try energylab(
      [
        "sweep", "--models", "acsm-walking", "--reference", "stanford-walking", "--vary", "speed", "--from",
        "2mph", "--to",
        "7mph", "--step", "0.25mph", "--assume", "grade=0", "--format", "json",
      ], in: packageRoot)
    #expect(out.status == 0, "\(out.stderr)")
    let o = try #require(JSONSerialization.jsonObject(with: Data(out.stdout.utf8)) as? [String: Any])
    let breakEven = try #require((o["break_even"] as? [[String: Any]])?.first)
    let table = try String(
      contentsOfFile: "\(packageRoot)/Datasets/reference/stanford-walking.csv", encoding: .utf8)
    let cells = table.split(separator: "\n").filter { !$0.hasPrefix("#") }.dropFirst()
      .flatMap { $0.split(separator: ",").dropFirst().map { Double($0)! } }
    let meanReference = cells.reduce(0, +) / Double(cells.count)
    let metersPerMinute = (meanReference / (180 * 0.45359237 * 40 * 0.005) - 3.5) / 0.1
    let mph = metersPerMinute * 60 / 1609.344
    expectClose(breakEven["break_even_speed_mph"] as? Double, mph, tolerance: 1e-6, "break_even_speed_mph")
    #expect(breakEven["inside_valid_range"] as? Bool == false)
  }

  /// Two models over a 20-minute track in 60 s epochs: 20 pairs each.
  @Test func modelAgreementCountsEpochs() throws {
    let folder = try scratchFolder()
    _ = try energylab(
      [
        "track", "synth", "-o", "h.gpx", "--speed", "1.3mps", "--duration", "20min", "--heart-rate", "120bpm",
      ], in: folder)
    let out = try energylab(
      [
        "agreement", "h.gpx", "--models", "acsm-walking,keytel-2005,resting", "--mass", "70kg", "--age", "30",
        "--sex", "male", "--format", "json", "--db", "a.sqlite", "--charts", "charts",
      ],
      in: folder)
    #expect(out.status == 0, "\(out.stderr)")
    let rows = try #require(JSONSerialization.jsonObject(with: Data(out.stdout.utf8)) as? [[String: Any]])
    #expect(rows.count == 3)
    #expect(rows.allSatisfy { $0["n"] as? Int == 20 })
    // ACSM 1.3 m/s level (11.3 mL/kg/min) minus resting (3.5): 7.8 x 70 x 5/1000 = 2.73 kcal/min.
    let acsmResting = try #require(
      rows.first { $0["a"] as? String == "acsm-walking" && $0["b"] as? String == "resting" })
    expectClose(acsmResting["bias_kcal_per_min"] as? Double, 2.73, tolerance: 0.01, "bias_kcal_per_min")
    // One Bland-Altman chart per pair, and the statistics stored.
    for pair in ["acsm-walking-keytel-2005", "acsm-walking-resting", "keytel-2005-resting"] {
      #expect(out.stderr.contains("wrote charts/agreement-\(pair)-bland-altman.png"), "\(out.stderr)")
    }
    let stored = try energylab(
      ["db", "export", "--db", "a.sqlite", "--table", "error_summaries", "--format", "json"], in: folder)
    let summaries = try #require(
      JSONSerialization.jsonObject(with: Data(stored.stdout.utf8)) as? [[String: Any]], "\(stored.stderr)")
    let bias = try #require(
      summaries.first {
        $0["model"] as? String == "acsm-walking" && $0["reference"] as? String == "resting"
          && $0["statistic"] as? String == "bias_kcal_per_min"
      })
    expectClose(bias["value"] as? Double, 2.73, tolerance: 0.01, "value")
  }

  /// ACSM walking at 6 mph is outside its 1.9-3.7 mph range: `agreement`
  /// says so, as `energy` does.
  @Test func agreementReportsModelsOutsideTheirRange() throws {
    let folder = try scratchFolder()
    _ = try energylab(
      ["track", "synth", "-o", "run.gpx", "--speed", "6mph", "--duration", "5min"], in: folder)
    let out = try energylab(
      ["agreement", "run.gpx", "--models", "acsm-walking,acsm-running", "--mass", "70kg"], in: folder)
    #expect(out.status == 0, "\(out.stderr)")
    #expect(
      out.stderr.contains(
        "6.00 mph is outside the walking equation's 1.9-3.7 mph [speed-outside-valid-range]"),
      "\(out.stderr)")
  }

  /// The shipped walk regenerates byte for byte from the command in its README.
  @Test func shippedWalkRegenerates() throws {
    let folder = try scratchFolder()
    let out = try energylab(
      [
        "track", "synth", "-o", "w.gpx", "--speed", "2.9mph", "--grade", "2%", "--duration", "10min",
        "--interval", "1",
        "--latitude", "50.8671", "--longitude=-0.0873", "--elevation", "50", "--azimuth", "45", "--start",
        "2012-05-08T09:00:00Z", "--noise", "0", "--seed", "1", "--name", "PEM worked-example walk",
      ], in: folder)
    #expect(out.status == 0, "\(out.stderr)")
    let fresh = try Data(contentsOf: URL(fileURLWithPath: "\(folder)/w.gpx"))
    let shipped = try Data(
      contentsOf: URL(fileURLWithPath: "\(packageRoot)/Datasets/pem-walk/walk-2.9mph-2pct.gpx"))
    #expect(fresh == shipped)
  }
}

struct CarbonCommandLineTests {
  /// Walk 10 min at 1.3 m/s, drive 40 min at 20 m/s, walk 10 min, starting
  /// 23:30 BST on 4 July 2020: the drive (48 km) is split 20/20 min over the
  /// two days, 24 km x 0.175 = 4.2 kg CO2e each (Alter Eco factors).
  @Test func profileByDayInLondon() throws {
    let folder = try scratchFolder()
    _ = try energylab(
      [
        "track", "synth", "-o", "d.gpx", "--start", "2020-07-04T22:30:00Z", "--leg", "1.3mps,0,10min",
        "--leg", "20mps,0,40min", "--leg", "1.3mps,0,10min",
      ],
      in: folder)
    try FileManager.default.createDirectory(atPath: "\(folder)/Datasets", withIntermediateDirectories: true)
    try FileManager.default.createSymbolicLink(
      atPath: "\(folder)/Datasets/factors", withDestinationPath: "\(packageRoot)/Datasets/factors")
    let out = try energylab(
      ["profile", "d.gpx", "--by", "day", "--tz", "Europe/London", "--format", "json"], in: folder)
    #expect(out.status == 0, "\(out.stderr)")
    let rows = try #require(JSONSerialization.jsonObject(with: Data(out.stdout.utf8)) as? [[String: Any]])
    #expect(
      rows.map { $0["bin_start"] as? String ?? "" } == [
        "2020-07-04T00:00:00+01:00", "2020-07-04T00:00:00+01:00", "2020-07-05T00:00:00+01:00",
        "2020-07-05T00:00:00+01:00",
      ])
    let cars = rows.filter { $0["mode"] as? String == "car" }
    #expect(cars.allSatisfy { abs(($0["co2_kg"] as? Double ?? 0) - 4.2) < 1e-3 })
    #expect(
      rows.allSatisfy {
        $0["factor_set"] as? String == "alter-eco-2020" && $0["body_mass_kg"] as? Double == 70
      })
    for key in ["bin_start", "mode", "distance_m", "duration_s", "energy_kcal", "co2_kg"] {
      #expect(rows.allSatisfy { $0[key] != nil }, "missing \(key)")
    }
  }

  /// Alter Eco flight check (thesis Fig 5.4, L803-806): STN-CAG and STN-TFS
  /// returns. Haversine (R = 6371 km): 1560.88 and 2996.70 km one way, 9115.16
  /// km flown; x 0.200 = 1.823 t with the app's factor, against 1.58 t and
  /// 1.4 t from two web calculators.
  @Test func alterEcoFlightCheck() throws {
    let out = try energylab(
      [
        "footprint", "flights", "STN-CAG:return", "STN-TFS:return", "--factors", "alter-eco-2020", "--format",
        "json",
      ],
      in: packageRoot)
    #expect(out.status == 0, "\(out.stderr)")
    let rows = try #require(JSONSerialization.jsonObject(with: Data(out.stdout.utf8)) as? [[String: Any]])
    let total = try #require(rows.last)
    expectClose(total["flown_km"] as? Double, 9115.16, tolerance: 0.01, "flown_km")
    #expect(abs((total["co2_kg_alter-eco-2020"] as? Double ?? 0) - 1823.03) < 0.01)
  }

  @Test func unknownAirportIsAUsageError() throws {
    let out = try energylab(["footprint", "flights", "STN-XYZ"], in: packageRoot)
    #expect(out.status == 64)
    #expect(out.stderr.contains("unknown airport XYZ"))
  }
}

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
    let again = try energylab(["batch", "study", "--db", "s.sqlite", "--quiet"], in: folder)
    #expect(again.status == 0, "\(again.stderr)")
    #expect(again.stdout.contains("1 tracks, 3 accelerometer recordings"))
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

struct SurveyCommandLineTests {
  let fixtures = "\(packageRoot)/Tests/SurveysTests/Fixtures"

  @Test func summaryJSONKeys() throws {
    let out = try energylab(
      ["survey", "summary", "\(fixtures)/google-forms.csv", "--format", "json"], in: packageRoot)
    #expect(out.status == 0, "\(out.stderr)")
    let rows = try #require(JSONSerialization.jsonObject(with: Data(out.stdout.utf8)) as? [[String: Any]])
    let first = try #require(rows.first)
    for key in ["question", "n", "counts", "percentages", "median", "iqr"] {
      #expect(first[key] != nil, "missing \(key)")
    }
    #expect((first["counts"] as? [String: Any])?["Agree"] as? Int == 2)
    #expect(first["median"] as? Double == 4)
  }

  /// The fixture's four respondents by hand: all 3s = 50; 5,1,5,1,... = 100;
  /// 4,2,4,1,5,2,4,2,4,2 = 80; 2,4,2,4,... = (5 x 1 + 5 x 1) x 2.5 = 25.
  /// Mean 63.75.
  @Test func susFromExport() throws {
    let out = try energylab(
      [
        "survey", "sus", "\(fixtures)/sus.csv", "--items", "S1,S2,S3,S4,S5,S6,S7,S8,S9,S10", "--format",
        "json",
      ], in: packageRoot)
    #expect(out.status == 0, "\(out.stderr)")
    let object = try #require(JSONSerialization.jsonObject(with: Data(out.stdout.utf8)) as? [String: Any])
    let o = try #require(object["summary"] as? [String: Any])
    let respondents = try #require(object["respondents"] as? [[String: Any]])
    #expect(o["n"] as? Int == 4)
    #expect(respondents.compactMap { $0["score"] as? Double } == [50, 100, 80, 25])
    expectClose(o["mean"] as? Double, 63.75, tolerance: 1e-9, "mean")
    for key in ["sd", "ci95_lower", "ci95_upper"] { #expect(o[key] is Double, "missing \(key)") }
  }

  @Test func crosstabJSONKeys() throws {
    let out = try energylab(
      [
        "survey", "crosstab", "\(fixtures)/qualtrics.csv", "--rows", "Q1", "--cols", "Q2", "--format", "json",
      ], in: packageRoot)
    #expect(out.status == 0, "\(out.stderr)")
    let o = try #require(JSONSerialization.jsonObject(with: Data(out.stdout.utf8)) as? [String: Any])
    for key in ["table", "chi2", "dof", "p_value", "cramers_v"] { #expect(o[key] != nil, "missing \(key)") }
    // 3 x 2 table of 3 answers: dof = (3 - 1)(2 - 1) = 2.
    #expect(o["dof"] as? Int == 2)
  }

  /// Hostile text from data stays text: Markdown cells are escaped and the
  /// gnuplot scripts quote it so backquotes never run.
  @Test func hostileTextIsEscaped() throws {
    let folder = try scratchFolder()
    try? FileManager.default.removeItem(atPath: "/tmp/energylab-survey-injection")
    let md = try energylab(
      ["survey", "summary", "\(fixtures)/hostile.csv", "--format", "markdown", "--charts", "charts"],
      in: folder)
    #expect(md.status == 0, "\(md.stderr)")
    #expect(md.stdout.contains("Yes \\| \\*really\\*"))
    #expect(md.stdout.contains("&lt;b&gt;this&lt;/b&gt;"))
    #expect(!FileManager.default.fileExists(atPath: "/tmp/energylab-survey-injection"))
    let script = try String(contentsOfFile: "\(folder)/charts/hostile-h1.gp", encoding: .utf8)
    #expect(script.contains("'Do you like `touch /tmp/energylab-survey-injection` | <b>this</b>?'"))
  }

  @Test func compareGroups() throws {
    let out = try energylab(
      [
        "survey", "compare", "\(fixtures)/sus.csv", "--question", "S1", "--by", "Group", "--scale",
        "S1=points5", "--format", "json",
      ],
      in: packageRoot)
    #expect(out.status == 0, "\(out.stderr)")
    let o = try #require(JSONSerialization.jsonObject(with: Data(out.stdout.utf8)) as? [String: Any])
    #expect(o["test"] as? String == "Mann-Whitney U")
    #expect(o["p_value"] is Double)
  }
}

struct TrackCommandLineTests {
  /// A batch reports each bad file, summarises the others, and exits 1 with
  /// a summary line; --fail-fast stops at the first.
  @Test func batchSkipsAndLogs() throws {
    let folder = try scratchFolder()
    _ = try energylab(["track", "synth", "-o", "a.gpx", "--duration", "1min"], in: folder)
    _ = try energylab(["track", "synth", "-o", "c.gpx", "--duration", "2min"], in: folder)
    try "<gpx><trk>".write(toFile: "\(folder)/b.gpx", atomically: true, encoding: .utf8)
    let out = try energylab(["track", "summary", "a.gpx", "b.gpx", "c.gpx", "--format", "json"], in: folder)
    #expect(out.status == 1)
    let rows = try #require(JSONSerialization.jsonObject(with: Data(out.stdout.utf8)) as? [[String: Any]])
    #expect(rows.compactMap { $0["file"] as? String } == ["a.gpx", "c.gpx"])
    #expect(out.stderr.contains("energylab: b.gpx:1:11: file ends inside <trk>; expected </trk> (skipped)"))
    #expect(out.stderr.contains("energylab: 1 of 3 files could not be read; 2 summarised"))
    let fast = try energylab(["track", "summary", "a.gpx", "b.gpx", "c.gpx", "--fail-fast"], in: folder)
    #expect(fast.status == 1)
    #expect(fast.stdout.isEmpty)
  }

  /// Long file lists are parsed with their tails folded (see
  /// LongArgumentLists); every file must still arrive once, in order, around
  /// options written between them, with a bad one skipped as usual.
  @Test func longFileListsKeepEveryFileInOrder() throws {
    let folder = try scratchFolder()
    _ = try energylab(["track", "synth", "-o", "walk.gpx", "--duration", "30s"], in: folder)
    let names = (0..<300).map { String(format: "t%03d.gpx", $0) }
    for name in names where name != "t150.gpx" {
      try FileManager.default.copyItem(atPath: "\(folder)/walk.gpx", toPath: "\(folder)/\(name)")
    }
    try "<gpx><trk>".write(toFile: "\(folder)/t150.gpx", atomically: true, encoding: .utf8)
    let arguments =
      ["track", "summary", "--format", "json"] + names[..<100] + ["--movement", "walk"] + names[100...]
    let out = try energylab(arguments, in: folder)
    #expect(out.status == 1)
    let rows = try #require(JSONSerialization.jsonObject(with: Data(out.stdout.utf8)) as? [[String: Any]])
    #expect(rows.compactMap { $0["file"] as? String } == names.filter { $0 != "t150.gpx" })
    #expect(out.stderr.contains("energylab: 1 of 300 files could not be read; 299 summarised"))
    // A long list that is not a file list parses as written: `db merge`
    // takes the output first, so nothing is folded into it.
    let shards = (0..<80).map { "missing-\($0).sqlite" }
    let merge = try energylab(["db", "merge", "merged.sqlite"] + shards, in: folder)
    #expect(merge.status != 0)
    #expect(merge.stderr.contains("missing-0.sqlite"), "\(merge.stderr)")
  }

  /// `-` reads the track from standard input (a pipe): the same figures as
  /// the file, named `-`; an empty pipe is an error naming `-`.
  @Test func trackSummaryReadsStandardInput() throws {
    let folder = try scratchFolder()
    let file = "\(packageRoot)/Tests/PipelineTests/Fixtures/track-structure/gpslogger-paused-segments.gpx"
    func run(stdin: String?) throws -> Outcome {
      try energylab(
        ["track", "summary", stdin == nil ? file : "-", "--format", "csv"], in: folder,
        stdin: stdin.map { FileManager.default.contents(atPath: $0) ?? Data() })
    }
    let piped = try run(stdin: file)
    let direct = try run(stdin: nil)
    #expect(piped.status == 0, "\(piped.stderr)")
    #expect(piped.stdout.split(separator: "\n").last?.hasPrefix("-,gpx-1.0,tracks,1,3,0,0,450,") == true)
    #expect(piped.stdout == direct.stdout.replacingOccurrences(of: file, with: "-"))
    try "".write(toFile: "\(folder)/empty", atomically: true, encoding: .utf8)
    let empty = try run(stdin: "\(folder)/empty")
    #expect(empty.status == 1)
    #expect(empty.stderr.contains("energylab: -:1:1:"))
  }

  /// A start-up fix 7 km off, 5 s before a walk: the impossible-fix rule
  /// (1,400 m/s) leaves it out by default; with impossible fixes kept,
  /// --drop-startup-jumps 500 drops it and the distance is the walk's alone
  /// (1.3 m/s x 120 s = 156 m).
  @Test func startupJumpsAreDropped() throws {
    let folder = try scratchFolder()
    var text = "<gpx version=\"1.1\"><trk><trkseg>\n"
    text += "<trkpt lat=\"50.8\" lon=\"-0.1\"><time>2020-07-01T08:00:00Z</time></trkpt>\n"
    _ = try energylab(
      [
        "track", "synth", "-o", "w.gpx", "--speed", "1.3mps", "--duration", "2min", "--start",
        "2020-07-01T08:00:05Z",
      ], in: folder)
    let walk = try String(contentsOfFile: "\(folder)/w.gpx", encoding: .utf8)
    let points = walk.split(separator: "\n").filter { $0.contains("<trkpt") }.joined(separator: "\n")
    text += points + "\n</trkseg></trk></gpx>\n"
    try text.write(toFile: "\(folder)/jump.gpx", atomically: true, encoding: .utf8)
    let byDefault = try energylab(["track", "summary", "jump.gpx", "--format", "json"], in: folder)
    let defaultRow = try #require(
      (JSONSerialization.jsonObject(with: Data(byDefault.stdout.utf8)) as? [[String: Any]])?.first)
    expectClose(defaultRow["distance_2d_m"] as? Double, 156, tolerance: 0.05, "distance_2d_m")
    #expect(
      (defaultRow["diagnostics"] as? [String])?.contains {
        $0.contains("left out 1 impossible fix") && $0.contains("line 2 (50.8, -0.1)")
      } == true)
    let raw = try energylab(
      ["track", "summary", "jump.gpx", "--keep-impossible-fixes", "--format", "json"], in: folder)
    let cleaned = try energylab(
      [
        "track", "summary", "jump.gpx", "--keep-impossible-fixes", "--drop-startup-jumps", "500", "--format",
        "json",
      ], in: folder)
    let rawRow = try #require(
      (JSONSerialization.jsonObject(with: Data(raw.stdout.utf8)) as? [[String: Any]])?.first)
    let cleanRow = try #require(
      (JSONSerialization.jsonObject(with: Data(cleaned.stdout.utf8)) as? [[String: Any]])?.first)
    #expect((rawRow["distance_2d_m"] as? Double ?? 0) > 7000)
    expectClose(cleanRow["distance_2d_m"] as? Double, 156, tolerance: 0.05, "distance_2d_m")
    #expect(
      (cleanRow["diagnostics"] as? [String])?.contains {
        $0.contains("cleaning dropped 1 fixes (startup-jump rule)")
      } == true)
  }

  /// Times without an offset read in --tz: 09:00 in London in July is 08:00Z.
  @Test func timesWithoutOffsetInATimeZone() throws {
    let folder = try scratchFolder()
    try
      "<gpx><trk><trkseg><trkpt lat=\"50\" lon=\"0\"><time>2020-07-01T09:00:00</time></trkpt><trkpt lat=\"50.001\" lon=\"0\"><time>2020-07-01T09:01:00</time></trkpt></trkseg></trk></gpx>"
      .write(toFile: "\(folder)/local.gpx", atomically: true, encoding: .utf8)
    let out = try energylab(
      ["track", "summary", "local.gpx", "--tz", "Europe/London", "--format", "json"], in: folder)
    let row = try #require(
      (JSONSerialization.jsonObject(with: Data(out.stdout.utf8)) as? [[String: Any]])?.first)
    #expect(row["start_time"] as? String == "2020-07-01T08:00:00Z")
    let utc = try energylab(["track", "summary", "local.gpx", "--format", "json"], in: folder)
    let utcRow = try #require(
      (JSONSerialization.jsonObject(with: Data(utc.stdout.utf8)) as? [[String: Any]])?.first)
    #expect(utcRow["start_time"] as? String == "2020-07-01T09:00:00Z")
    #expect((utcRow["diagnostics"] as? [String])?.first?.contains("read as UTC") == true)
  }

  @Test func segmentsOfAJourney() throws {
    let folder = try scratchFolder()
    _ = try energylab(
      ["track", "synth", "-o", "j.gpx", "--leg", "1.3mps,0,5min", "--leg", "10mps,0,5min"], in: folder)
    let out = try energylab(["track", "segments", "j.gpx", "--format", "json"], in: folder)
    let rows = try #require(JSONSerialization.jsonObject(with: Data(out.stdout.utf8)) as? [[String: Any]])
    #expect(rows.compactMap { $0["mode"] as? String } == ["walk", "bus"])
    #expect(rows.compactMap { $0["duration_s"] as? Double } == [300, 300])
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
    "db info", "db export",
    "db check", "db merge", "db compare", "batch", "accel summary", "accel epochs", "accel days",
    "accel energy", "accel synth",
  ])
  func helpWorks(command: String) throws {
    let out = try energylab(command.split(separator: " ").map(String.init) + ["--help"], in: packageRoot)
    #expect(out.status == 0, "\(command): \(out.stderr)")
    #expect(out.stdout.contains("USAGE"))
  }
}

/// The same summaries, in the same order, whether files are read one at a
/// time or two at a time.
struct ParallelSummaryTests {
  @Test func jobsDoNotChangeResults() throws {
    let folder = try scratchFolder()
    var files: [String] = []
    for k in 0..<6 {
      _ = try energylab(
        [
          "track", "synth", "-o", "t\(k).gpx", "--duration", "\(k + 1)min", "--noise", "1", "--seed",
          "\(k + 1)",
        ], in: folder)
      files.append("t\(k).gpx")
    }
    let one = try energylab(["track", "summary", "--jobs", "1", "--format", "csv"] + files, in: folder)
    let two = try energylab(["track", "summary", "--jobs", "2", "--format", "csv"] + files, in: folder)
    #expect(one.status == 0 && two.status == 0)
    #expect(one.stdout == two.stdout)
    #expect(one.stdout.split(separator: "\n").count == 7)
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

/// `accel` commands on recordings whose answers are known by construction.
struct AccelCommandTests {
  static let fixtures = "\(packageRoot)/Tests/IngestTests/Fixtures/accel"

  /// Two minutes still, one walking at 2 steps/s, 30 s running at 2.8:
  /// 120 + 84 = 204 steps.
  @Test func summaryJSONHasTheIssueKeys() throws {
    let folder = try scratchFolder()
    let synth = try energylab(
      ["accel", "synth", "-o", "day.csv", "--leg", "still,2min", "--leg", "walk,1min", "--leg", "run,30s"],
      in: folder)
    #expect(synth.status == 0, "\(synth.stderr)")
    #expect(synth.stdout.contains("204 steps by construction"))
    let out = try energylab(["accel", "summary", "day.csv", "--format", "json"], in: folder)
    #expect(out.status == 0, "\(out.stderr)")
    let rows = try #require(JSONSerialization.jsonObject(with: Data(out.stdout.utf8)) as? [[String: Any]])
    let row = try #require(rows.first)
    for key in [
      "file", "format", "samples", "sample_rate_hz", "start_time", "end_time", "duration_s", "steps",
      "enmo_mean_mg",
      "diagnostics",
    ] {
      #expect(row[key] != nil, "missing \(key)")
    }
    #expect(row["format"] as? String == "generic")
    #expect(row["samples"] as? Int == 21_000)
    #expect(row["sample_rate_hz"] as? Double == 100)
    #expect(row["start_time"] as? String == "2026-03-02T08:00:00Z")
    #expect(row["end_time"] as? String == "2026-03-02T08:03:29.990Z")
    #expect(row["steps"] as? Int == 204)
  }

  /// A bad file among good ones: the good ones are summarised, the bad one
  /// named with its line, and the run exits 1.
  @Test func badFilesAreSkippedAndNamed() throws {
    let out = try energylab(
      [
        "accel", "summary", "ukbiobank-epoch.csv", "wrong-column-count.csv", "axivity-unix.csv", "--format",
        "csv",
      ], in: Self.fixtures)
    #expect(out.status == 1)
    #expect(out.stderr.contains("wrong-column-count.csv:3:1: 3 fields; expected 4 fields"))
    #expect(out.stdout.contains("ukbiobank-epoch.csv,ukbiobank-epoch"))
    #expect(out.stdout.contains("axivity-unix.csv,axivity"))
  }

  /// Raw 30 Hz data classified by Freedson's count cut-points: the counts
  /// of each minute are ActiGraph's (agcounts 0.2.6, 60 s epochs: x 2086,
  /// y 1713, z 3280, then x 3487, y 43411, z 7532), axis 1 is the device's
  /// y, and Freedson 1998 puts 1713 cpm in light (100-1951) and 43411 in
  /// vigorous (5725 and above).
  @Test func rawDataIsClassifiedByItsCounts() throws {
    let out = try energylab(
      [
        "accel", "epochs", "\(packageRoot)/Tests/SignalsTests/Fixtures/agcounts/synth-30hz.csv", "--epoch",
        "60s",
        "--cut-points", "freedson-1998", "--unit", "g", "--time", "time_s", "--time-format", "elapsed",
        "--start", "2024-01-01T00:00:00Z", "--format", "csv",
      ], in: Self.fixtures)
    #expect(out.status == 0, "\(out.stderr)")
    let rows = out.stdout.split(separator: "\n").map {
      $0.split(separator: ",", omittingEmptySubsequences: false)
    }
    let header = rows[0].map(String.init)
    func column(_ name: String) -> [String] {
      let k = header.firstIndex(of: name)!
      return rows.dropFirst().prefix(2).map { String($0[k]) }
    }
    #expect(column("counts_x") == ["2086", "3487"])
    #expect(column("counts_y") == ["1713", "43411"])
    #expect(column("counts_z") == ["3280", "7532"])
    #expect(column("counts_axis1") == ["1713", "43411"])
    #expect(column("intensity") == ["light", "vigorous"])
  }

  /// Three 60 s count epochs from 10:00 last until 10:03: 180 s, not the
  /// 120 s between the first and last epoch starts.
  @Test func countFilesLastToTheEndOfTheirLastEpoch() throws {
    let out = try energylab(
      ["accel", "summary", "actigraph-counts-named.csv", "--format", "json"], in: Self.fixtures)
    #expect(out.status == 0, "\(out.stderr)")
    let rows = try #require(try JSONSerialization.jsonObject(with: Data(out.stdout.utf8)) as? [[String: Any]])
    #expect(rows.first?["duration_s"] as? Double == 180)
  }

  /// The epoch table of ActiLife 60 s counts: Freedson classes by row.
  @Test func epochsOfCounts() throws {
    let out = try energylab(
      ["accel", "epochs", "actigraph-counts-named.csv", "--epoch", "60s", "--format", "csv"],
      in: Self.fixtures)
    #expect(out.status == 0, "\(out.stderr)")
    let lines = out.stdout.split(separator: "\n")
    #expect(lines.count == 4)
    // The vector magnitude of the epoch's axes, sqrt(2000^2 + 1500^2 + 900^2)
    // = sqrt(7,060,000) = 2657.066 (the file rounds it to 2657.07).
    #expect(lines[2].hasPrefix("2014-05-07T10:01:00Z,60,1,1,,,95,2000,,,,2657.066"))
    #expect(lines[2].hasSuffix(",moderate"))
    let odd = try energylab(
      ["accel", "epochs", "actigraph-counts-named.csv", "--epoch", "90s"], in: Self.fixtures)
    #expect(odd.status == 64)
    #expect(odd.stderr.contains("not a whole multiple"))
  }

  /// Energy of three one-minute count epochs for 70 kg, by hand:
  /// sedentary, moderate and vigorous minutes at 1.3, 4 and 8 MET give
  /// (1.3 + 4 + 8) x 70 / 60 = 15.52 kcal; 255 steps give 102 kcal at the
  /// StepMyHealth 0.4 kcal/step and 12.93 kcal at Birdsley's 0.0507.
  @Test func energyByModelByHand() throws {
    let out = try energylab(
      ["accel", "energy", "actigraph-counts-named.csv", "--mass", "70kg", "--format", "json"],
      in: Self.fixtures)
    #expect(out.status == 0, "\(out.stderr)")
    let first = try #require(out.stdout.components(separatedBy: "\n]\n").first.map { $0 + "\n]" })
    let rows = try #require(JSONSerialization.jsonObject(with: Data(first.utf8)) as? [[String: Any]])
    let energy = Dictionary(
      uniqueKeysWithValues: rows.map { ($0["model"] as! String, $0["energy_kcal"] as! Double) })
    #expect(abs(energy["met-intensity"]! - 13.3 * 70 / 60) < 1e-9)
    #expect(abs(energy["steps-stepmyhealth"]! - 102) < 1e-9)
    #expect(abs(energy["steps-birdsley-2005"]! - 255 * 0.0507) < 1e-9)
  }

  /// The StepMyHealth balance from a recording: 2100 kcal eaten, 255
  /// steps burn 102 kcal: balance 1998, progress 0.999 of 2000: green.
  @Test func calorieBalanceFromARecording() throws {
    let out = try energylab(
      ["accel", "energy", "actigraph-counts-named.csv", "--intake", "2100", "--format", "json"],
      in: Self.fixtures)
    #expect(out.status == 0, "\(out.stderr)")
    // One JSON document holding both tables by name.
    let document = try #require(
      try JSONSerialization.jsonObject(with: Data(out.stdout.utf8)) as? [String: Any])
    let balance = try #require((document["balance"] as? [[String: Any]])?.first)
    #expect(balance["intake_kcal"] as? Int == 2100)
    #expect(balance["steps"] as? Int == 255)
    #expect(balance["burned_kcal"] as? Double == 102)
    #expect(balance["balance_kcal"] as? Double == 1998)
    #expect(balance["progress"] as? Double == 0.999)
    #expect(balance["colour"] as? String == "green")
    #expect(document["accel-energy"] is [[String: Any]])
    // CSV holds the first table only and names the other on standard error.
    let csv = try energylab(
      ["accel", "energy", "actigraph-counts-named.csv", "--intake", "2100", "--format", "csv"],
      in: Self.fixtures)
    #expect(csv.stdout.hasPrefix("model,energy_kcal,basis\n"))
    #expect(!csv.stdout.contains("green"))
    #expect(csv.stderr.contains("table balance not printed"))
  }
}

/// `batch` over a study folder: every kind of file, skip-and-log, shards that
/// merge into exactly the unsharded results, and the same results on one
/// core or two.
struct BatchCommandTests {
  /// Runs a batch of the study stores: 4 tracks, 1 recording, 1 survey.
  static let studyRuns = 6

  static func study() throws -> String {
    let folder = try scratchFolder()
    let study = folder + "/study"
    for sub in ["tracks", "recordings", "surveys", ".hidden"] {
      try FileManager.default.createDirectory(atPath: study + "/" + sub, withIntermediateDirectories: true)
    }
    for k in 1...4 {
      _ = try energylab(
        ["track", "synth", "-o", "study/tracks/walk-\(k).gpx", "--duration", "\(k)min", "--seed", "\(k)"],
        in: folder)
    }
    _ = try energylab(
      ["accel", "synth", "-o", "study/recordings/rec.csv", "--leg", "walk,1min", "--rate", "50"], in: folder)
    try FileManager.default.copyItem(
      atPath: "\(packageRoot)/Datasets/surveys/stepmyhealth-demo.csv", toPath: study + "/surveys/demo.csv")
    try FileManager.default.copyItem(
      atPath: "\(packageRoot)/Tests/IngestTests/Fixtures/accel/wrong-column-count.csv",
      toPath: study + "/recordings/broken.csv")
    try "not a study file".write(toFile: study + "/.hidden/x.csv", atomically: true, encoding: .utf8)
    try "notes".write(toFile: study + "/README.md", atomically: true, encoding: .utf8)
    return folder
  }

  @Test func aStudyIsStoredShardedAndMerged() throws {
    let folder = try Self.study()
    let all = try energylab(["batch", "study", "--db", "all.sqlite"], in: folder)
    #expect(all.status == 1)
    #expect(
      all.stdout
        == "batch: 7 files: 4 tracks, 1 accelerometer recordings, 1 surveys stored in all.sqlite; 1 failed\n")
    #expect(all.stderr.contains("study/recordings/broken.csv:3:1: 3 fields; expected 4 fields"))
    #expect(!all.stderr.contains("\u{1B}"), "no progress bar when standard error is not a terminal")
    let info = try energylab(["db", "info", "--db", "all.sqlite", "--format", "csv"], in: folder)
    #expect(info.stdout.contains("runs,6\n"))
    #expect(info.stdout.contains("tracks,4\n"))
    // Two shards, merged twice: the same results as the single run.
    for k in 1...2 {
      _ = try energylab(
        ["batch", "study", "--db", "s\(k).sqlite", "--shard", "\(k)/2", "--quiet"], in: folder)
    }
    #expect(try energylab(["db", "merge", "m.sqlite", "s1.sqlite", "s2.sqlite"], in: folder).status == 0)
    let again = try energylab(["db", "merge", "m.sqlite", "s1.sqlite", "s2.sqlite"], in: folder)
    #expect(again.stdout.hasSuffix("(6 runs)\n"))
    let same = try energylab(["db", "compare", "all.sqlite", "m.sqlite"], in: folder)
    #expect(same.status == 0, "\(same.stderr)")
    // One shard alone differs from the whole.
    let differ = try energylab(["db", "compare", "all.sqlite", "s1.sqlite"], in: folder)
    #expect(differ.status == 1)
    #expect(differ.stderr.contains("differ at line"))
  }

  @Test func oneCoreOrTwoStoreTheSameResults() throws {
    let folder = try Self.study()
    let one = try energylab(["batch", "study", "--db", "one.sqlite", "--jobs", "1"], in: folder)
    let two = try energylab(["batch", "study", "--db", "two.sqlite", "--jobs", "2"], in: folder)
    // The study's broken recording fails the batch (exit 1) in both.
    #expect(one.status == 1 && two.status == 1, "\(one.stderr)\n\(two.stderr)")
    #expect(one.stdout == two.stdout.replacingOccurrences(of: "two.sqlite", with: "one.sqlite"))
    let compared = try energylab(["db", "compare", "one.sqlite", "two.sqlite"], in: folder)
    #expect(compared.status == 0, "\(compared.stderr)")
    // Both hold every run of the study, not two empty stores.
    for store in ["one.sqlite", "two.sqlite"] {
      let runs = try energylab(
        ["db", "export", "--db", store, "--table", "runs", "--format", "json"], in: folder)
      let rows = try #require(JSONSerialization.jsonObject(with: Data(runs.stdout.utf8)) as? [[String: Any]])
      #expect(rows.count == Self.studyRuns, "\(store): \(rows.count) runs")
    }
  }
}

/// The lowest and highest 20 m grade per activity (the PEM thesis keeps
/// both per period, L1292): the hilly trip was built (Datasets/hilly-trip
/// README) with a first walk of 5 min up +5 % and 5 min down -3 %, and a
/// last walk up +2 %.
struct GradeRangeTests {
  @Test func lowestAndHighestGradePerActivity() throws {
    let out = try energylab(
      ["energy", "Datasets/hilly-trip/hilly-trip.gpx", "--by-mode", "--mass", "65kg", "--format", "json"],
      in: packageRoot)
    #expect(out.status == 0, "\(out.stderr)")
    let rows = try #require(JSONSerialization.jsonObject(with: Data(out.stdout.utf8)) as? [[String: Any]])
    let walks = rows.filter { $0["mode"] as? String == "walk" }
    #expect(walks.count == 2)
    guard walks.count == 2 else { return }
    #expect(abs((walks[0]["grade_min_pct"] as? Double ?? 0) - -3) < 0.05, "\(walks[0])")
    #expect(abs((walks[0]["grade_max_pct"] as? Double ?? 0) - 5) < 0.05, "\(walks[0])")
    #expect(abs((walks[1]["grade_max_pct"] as? Double ?? 0) - 2) < 0.1, "\(walks[1])")
  }
}
