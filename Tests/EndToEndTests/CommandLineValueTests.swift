import Foundation
import TestSupport
import Testing

/// Values typed at the command line: units required where a bare number is
/// ambiguous, negatives in every form, names with "did you mean", factor
/// sets that never swap a mode silently, and shipped data found from
/// anywhere.
struct CommandLineValueTests {
  static func json(_ text: String) throws -> [String: Any] {
    let parsed = try JSONSerialization.jsonObject(with: Data(text.utf8))
    if let rows = parsed as? [[String: Any]], let first = rows.first { return first }
    return try #require(parsed as? [String: Any])
  }

  /// ACSM walking at 3 mph (80.4672 m/min) down a 10 % grade, by hand:
  /// the equation gives 3.5 + 0.1 x 80.4672 + 1.8 x 80.4672 x -0.10 =
  /// -2.93738 mL/kg/min (x 70 / 1000 x 5 = -1.028083 kcal/min), below zero;
  /// the descent is costed as level ground, 3.5 + 8.04672 = 11.54672.
  @Test(arguments: [["--grade", "-10%"], ["--grade=-10%"], ["--grade", "-0.1"]])
  func negativeGradesParseInEveryForm(grade: [String]) throws {
    let folder = try scratchFolder()
    let out = try energylab(
      ["models", "eval", "acsm-walking", "--speed", "3mph", "--mass", "70kg", "--format", "json"] + grade,
      in: folder)
    #expect(out.status == 0, "\(out.stderr)")
    // The bare fraction is the documented exception, and says how it was read.
    #expect(out.stderr.contains("read as a fraction, -10%") == (grade.last == "-0.1"), "\(out.stderr)")
    let json = try Self.json(out.stdout)
    let vo2 = try #require(json["vo2_ml_kg_min"] as? Double)
    expectClose(vo2, 3.5 + 0.1 * 80.4672, tolerance: 1e-3)
    #expect(json["treatment"] as? String == "downhill-as-level")
    let equation = try #require(json["equation_kcal_per_min"] as? Double)
    let equationVO2: Double = 3.5 + 0.1 * 80.4672 - 1.8 * 80.4672 * 0.10
    expectClose(equation, equationVO2 * 70 / 1000 * 5, tolerance: 1e-3)
  }

  @Test(arguments: [
    (["--grade", "5"], "expected a unit, as 5% or 0.05"),
    (["--speed", "5"], "expected a unit, as 1.34mps"),
    (["--mass", "150"], "expected a unit, as 70kg or 154lb"),
    (["--grade", "150%"], "a grade must be within -100% and 100%; got 150%"),
    (["--mass", "-70kg"], "a mass must be above 0; got -70kg"),
  ])
  func bareAndImpossibleValuesAreUsageErrors(option: [String], message: String) throws {
    var arguments = ["models", "eval", "acsm-walking", "--speed", "3mph", "--grade", "0", "--mass", "70kg"]
    if let k = arguments.firstIndex(of: option[0]) { arguments.removeSubrange(k...(k + 1)) }
    let out = try energylab(arguments + option, in: try scratchFolder())
    #expect(out.status == 64)
    #expect(out.stderr.contains(message), "\(out.stderr)")
  }

  /// Typed values are checked as the arguments are parsed: a bad one is a
  /// usage error naming the option and what it takes, before any file is
  /// opened (none of these files exists).
  @Test(arguments: [
    (
      ["track", "segments", "t.gpx", "--classifier", "nope"],
      "'--classifier <classifier>'. Please provide one of 'epoch-hmm', 'speed-bands' or 'alter-eco'"
    ),
    (["track", "synth", "-o", "t.gpx", "--leg", "1,2"], "'--leg <leg>': expected SPEED,GRADE,DURATION"),
    (["track", "synth", "-o", "t.gpx", "--start", "noon"], "'--start <start>': expected ISO-8601"),
    (
      ["energy", "t.gpx", "--by-mode", "--model-for", "walk"],
      "'--model-for <model-for>': expected MODE=MODEL"
    ),
    (["energy", "t.gpx", "--model-for", "walk=acsm-gait"], "--model-for needs --by-mode"),
    (["energy", "t.gpx", "--model", "acsm-walkin"], "'--model <model>'. Please provide one of"),
    (["energy", "t.gpx", "--by-mode", "--model-for", "walk=acsm-gat"], "did you mean acsm-gait?"),
    (["evaluate", "--models", "acsm-walking,kytel-2005"], "did you mean keytel-2005?"),
    (["track", "summary", "t.gpx", "--tz", "Europe/Lndon"], "did you mean Europe/London?"),
    (["accel", "summary", "a.csv", "--tz", "Mars/Base"], "unknown time zone \"Mars/Base\""),
    (
      ["energy", "t.gpx", "--measured", "m.csv", "--measured-unit", "kcal/d"],
      "Please provide one of 'kcal/min', 'kcal/h', 'W' or 'vo2'"
    ),
    (["energy", "t.gpx", "--movement", "fly"], "Please provide one of 'walk', 'run', 'cycle' or 'drive'"),
    (["energy", "t.gpx", "--sex", "robot"], "Please provide one of 'male' and 'female'"),
    (["energy", "t.gpx", "--subjects", "s.csv"], "--subjects needs --subject ID"),
    (["energy", "t.gpx", "--speed-smoothing", "0"], "--speed-smoothing must be at least 1"),
    (["accel", "summary", "a.csv", "--date-order", "ydm"], "Please provide one of 'ymd', 'mdy' or 'dmy'"),
    (["accel", "summary", "a.csv", "--dialect", "fitbit"], "'--dialect <dialect>'. Please provide one of"),
    (["accel", "summary", "a.csv", "--start", "2024-03-01T08:00:00"], "expected ISO-8601 with an offset"),
    (["accel", "summary", "a.csv", "--cut-points", "nope"], "'--cut-points <cut-points>': expected one of"),
    (["accel", "summary", "a.csv", "--step-low-pass", "0.2"], "--step-low-pass must be above the 0.5 Hz"),
    (
      ["accel", "summary", "a.csv", "--step-min-interval", "1.25"],
      "--step-min-interval must be positive and below the 1.25 s that ends a bout"
    ),
    (
      ["accel", "summary", "a.csv", "--non-wear-window", "20"],
      "--non-wear-window must be a positive whole multiple of 15 minutes"
    ),
    (
      ["accel", "days", "a.csv", "--mvpa-bout-share", "1.01"],
      "--mvpa-bout-share must be above 0 and at most 1"
    ),
    (["accel", "summary", "a.csv", "--sample-rate", "0"], "--sample-rate must be positive"),
    (
      ["power", "curve", "r.fit", "--fit-from", "20min"], "--fit-from must be at least 1 s and below --fit-to"
    ),
    (["power", "load", "r.fit", "--ftp", "0"], "--ftp must be a positive number of watts"),
    (["power", "curve", "r.fit", "--grade-window", "0"], "--grade-window must be positive; got 0"),
    (["accel", "epochs", "a.csv", "--epoch", "0s"], "--epoch"),
    (
      ["accel", "synth", "-o", "a.csv", "--leg", "swim,1min"],
      "expected MOVEMENT,DURATION with MOVEMENT one of still, walk, run"
    ),
    (["footprint", "annual", "--servings", "beef"], "'--servings <servings>': expected NAME=NUMBER"),
    (["balance", "--user", "ana:2100"], "'--user <user>': expected NAME:INTAKE_KCAL:STEPS:ALLOWANCE_KCAL"),
    (["balance"], "balance needs at least one --user"),
    (["survey", "asq", "s.csv", "--task", "ease"], "'--task <task>': expected NAME=Q1,Q2,Q3"),
    (["survey", "summary", "s.csv", "--dialect", "typeform"], "expected one of plain, qualtrics"),
    (["survey", "summary", "s.csv", "--dialect", "qualtrix"], "did you mean qualtrics?"),
    (
      [
        "sweep", "--models", "acsm-walking", "--reference", "stanford-walking", "--vary", "age", "--from",
        "1", "--to", "2", "--step", "1",
      ], "Please provide one of 'speed', 'grade' or 'mass'"
    ),
    (
      [
        "sweep", "--models", "acsm-walking", "--reference", "stanford-walking", "--vary", "speed", "--from",
        "6mph",
        "--to", "2mph", "--step", "0.5mph",
      ], "sweep needs --from <= --to and a positive --step"
    ),
    (
      [
        "sweep", "--models", "acsm-walking", "--reference", "stanford-walking", "--vary", "speed", "--from",
        "2mph",
        "--to", "6mph", "--step", "0.5mph", "--assume", "speed=3mph",
      ], "speed is swept; do not also --assume it"
    ),
    (
      [
        "sweep", "--models", "acsm-walking", "--reference", "stanford-walking", "--vary", "mass", "--from",
        "50",
        "--to", "90kg", "--step", "5kg",
      ], "--from \"50\": "
    ),
    (["batch", "study", "--shard", "9/8"], "expected K/N with 1 <= K <= N"),
    (
      ["profile", "t.gpx", "--factor-fallback", "boat"],
      "'--factor-fallback <factor-fallback>'. Please provide one of"
    ),
  ])
  func typedValuesAreCheckedWhenParsed(arguments: [String], message: String) throws {
    let out = try energylab(arguments, in: try scratchFolder())
    #expect(out.status == 64, "\(out.stderr)")
    #expect(out.stderr.contains(message), "\(out.stderr)")
    #expect(!out.stderr.contains("no such file"), "checked before any file is read: \(out.stderr)")
  }

  @Test func unknownNamesGetTheClosestOne() throws {
    let folder = try scratchFolder()
    let model = try energylab(
      ["models", "eval", "acsm-walkin", "--speed", "3mph", "--mass", "70kg"], in: folder)
    #expect(model.status == 64)
    #expect(model.stderr.contains("did you mean acsm-walking?"))
    let table = try energylab(
      ["evaluate", "--models", "acsm-walking", "--reference", "stanford-walkin", "--assume", "speed=3mph"],
      in: folder)
    #expect(table.stderr.contains("did you mean stanford-walking?"), "\(table.stderr)")
    let zone = try energylab(["accel", "summary", "x.csv", "--tz", "Europe/Londn"], in: folder)
    #expect(zone.stderr.contains("did you mean Europe/London?"), "\(zone.stderr)")
  }

  /// A bus at 10 m/s for 10 minutes (6 km), declared a bus in the file
  /// (GPS speeds alone give a vehicle): Alter Eco's factors have no bus,
  /// so the leg is an error unless a fallback is named; then car's 0.175
  /// kg/km gives 6 x 0.175 = 1.05 kg, with a warning.
  @Test func aModeWithoutAFactorIsNeverSwappedSilently() throws {
    let folder = try scratchFolder()
    _ = try energylab(
      ["track", "synth", "-o", "bus.gpx", "--speed", "10mps", "--duration", "10min"], in: folder)
    let undeclared = try String(contentsOfFile: folder + "/bus.gpx", encoding: .utf8)
    try undeclared.replacingOccurrences(
      of: "<name>synthetic walk</name>", with: "<name>synthetic walk</name><type>bus</type>"
    ).write(toFile: folder + "/bus.gpx", atomically: true, encoding: .utf8)
    let refused = try energylab(["profile", "bus.gpx"], in: folder)
    #expect(refused.status == 1)
    #expect(refused.stderr.contains("a bus activity"), "\(refused.stderr)")
    #expect(refused.stderr.contains("has no bus factor"))
    let fallback = try energylab(
      ["profile", "bus.gpx", "--factor-fallback", "car", "--format", "json"], in: folder)
    #expect(fallback.status == 0, "\(fallback.stderr)")
    #expect(fallback.stderr.contains("took the car factor"))
    let row = try Self.json(fallback.stdout)
    #expect(row["mode"] as? String == "bus")
    expectClose((row["co2_kg"] as? Double ?? 0), 1.05, tolerance: 1e-3)
    // A batch says it too, naming the file.
    try FileManager.default.createDirectory(atPath: folder + "/study", withIntermediateDirectories: true)
    try FileManager.default.copyItem(atPath: folder + "/bus.gpx", toPath: folder + "/study/bus.gpx")
    let batch = try energylab(
      ["batch", "study", "--db", "b.sqlite", "--factor-fallback", "car", "--quiet"], in: folder)
    #expect(batch.status == 0, "\(batch.stderr)")
    #expect(
      batch.stderr.contains("took the car factor") && batch.stderr.contains("bus.gpx"), "\(batch.stderr)")
  }

  /// The UK average belongs to Alter Eco's factors and appears only with them.
  @Test func comparisonsBelongToTheirFactorSet() throws {
    let folder = try scratchFolder()
    _ = try energylab(["track", "synth", "-o", "walk.gpx", "--duration", "10min"], in: folder)
    let alterEco = try energylab(["profile", "walk.gpx"], in: folder)
    #expect(alterEco.stdout.contains("UK average 13.7 kg/day"))
    let carbonTrust = try energylab(
      ["profile", "walk.gpx", "--factors", "pem-carbon-trust-2012"], in: folder)
    #expect(carbonTrust.status == 0, "\(carbonTrust.stderr)")
    #expect(!carbonTrust.stdout.contains("UK average"))
  }

  @Test func aCustomFactorFileNamesEveryMissingKeyAtOnce() throws {
    let folder = try scratchFolder()
    try "# source: a test\nmode,factor,unit,note\ncar,0.2,kgCO2e/km,x\n".write(
      toFile: folder + "/mine.csv", atomically: true, encoding: .utf8)
    _ = try energylab(["track", "synth", "-o", "walk.gpx", "--duration", "10min"], in: folder)
    let out = try energylab(["profile", "walk.gpx", "--factors", "mine.csv"], in: folder)
    #expect(out.status == 1)
    #expect(
      out.stderr.contains("lacks \"version\", \"units\", \"transcribed\", \"licence\""), "\(out.stderr)")
  }

  /// The layout `make install PREFIX=...` writes, used from a folder
  /// without Datasets/: the binary finds its data in PREFIX/share/energylab;
  /// a bare binary finds it through $ENERGYLAB_DATA, or says where it looked.
  @Test func shippedDataIsFoundFromAnywhere() throws {
    let prefix = try scratchFolder()
    try FileManager.default.createDirectory(atPath: prefix + "/bin", withIntermediateDirectories: true)
    try FileManager.default.copyItem(atPath: binary, toPath: prefix + "/bin/energylab")
    for data in ["reference", "met", "factors", "airports"] {
      try FileManager.default.createDirectory(
        atPath: prefix + "/share/energylab/Datasets", withIntermediateDirectories: true)
      try FileManager.default.copyItem(
        atPath: "\(packageRoot)/Datasets/\(data)", toPath: "\(prefix)/share/energylab/Datasets/\(data)")
    }
    let elsewhere = try scratchFolder()
    let installed = prefix + "/bin/energylab"
    let commands: [[String]] = [
      [
        "evaluate", "--models", "acsm-walking", "--reference", "stanford-walking", "--assume", "speed=3mph",
        "grade=0",
      ],
      ["models", "eval", "met", "--activity", "17190", "--mass", "70kg", "--minutes", "30"],
      ["footprint", "flights", "STN-CAG:return"],
    ]
    for command in commands {
      let out = try run([installed] + command, in: elsewhere)
      #expect(out.status == 0, "\(command): \(out.stderr)")
    }
    // A bare binary: nothing beside it, so the data comes from $ENERGYLAB_DATA.
    let bare = try scratchFolder()
    try FileManager.default.copyItem(atPath: binary, toPath: bare + "/energylab")
    let lost = try run([bare + "/energylab"] + commands[1], in: elsewhere)
    #expect(lost.status == 1)
    #expect(lost.stderr.contains("ENERGYLAB_DATA"), "\(lost.stderr)")
    let process = Process()
    process.executableURL = URL(fileURLWithPath: bare + "/energylab")
    process.arguments = commands[1]
    process.currentDirectoryURL = URL(fileURLWithPath: elsewhere)
    process.environment = ProcessInfo.processInfo.environment.merging(
      ["ENERGYLAB_DATA": prefix + "/share/energylab"]) { $1 }
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    process.waitUntilExit()
    #expect(process.terminationStatus == 0)
    // `run` with no notebooks leaves no Reports/ behind.
    _ = try run([installed, "run"], in: elsewhere)
    #expect(!FileManager.default.fileExists(atPath: elsewhere + "/Reports"))
  }
}

/// Tables that fit: `--columns` for any table, the terminal table cut to
/// the terminal's width, and `--version` naming the code.
struct TableWidthTests {
  @Test func columnsAreChosenInEveryFormat() throws {
    let folder = try scratchFolder()
    _ = try energylab(["track", "synth", "-o", "walk.gpx", "--duration", "10min"], in: folder)
    let base = [
      "energy", "walk.gpx", "--model", "acsm-walking", "--mass", "70kg", "--columns", "file,energy_kcal",
    ]
    let csv = try energylab(base + ["--format", "csv"], in: folder)
    #expect(csv.stdout.hasPrefix("file,energy_kcal\nwalk.gpx,"), "\(csv.stdout)")
    let table = try energylab(base, in: folder)
    #expect(
      table.stdout.split(separator: "\n").first?.split(separator: " ").map(String.init) == [
        "file", "energy_kcal",
      ])
    let unknown = try energylab(base.dropLast() + ["file,nope"], in: folder)
    #expect(unknown.stderr.contains("no column nope in energy"))
  }

  /// On an 80-column terminal (a pseudo-terminal from `script`), the energy
  /// table keeps the columns that fit, the answer (energy) among them, and
  /// names the rest; piped, it is whole. The diagnostics column left out,
  /// the warnings are printed on their own.
  @Test func aTerminalTableFitsTheTerminal() throws {
    let folder = try scratchFolder()
    _ = try energylab(["track", "synth", "-o", "walk.gpx", "--duration", "10min"], in: folder)
    let command =
      "COLUMNS=80 '\(URL(fileURLWithPath: binary).path)' energy walk.gpx --model acsm-walking --mass 70kg"
    let out = try run(["/usr/bin/script", "-qec", command, "/dev/null"], in: folder)
    let lines = out.stdout.replacingOccurrences(of: "\r", with: "").split(separator: "\n")
    #expect(lines.allSatisfy { $0.count <= 80 || $0.hasPrefix("(") }, "\(out.stdout)")
    #expect(lines.last?.contains("more columns") == true, "\(out.stdout)")
    let header = lines.first?.split(separator: " ").map(String.init) ?? []
    #expect(header.first == "file" && header.contains("energy_kcal"), "\(out.stdout)")
    let jump = "\(packageRoot)/Tests/PipelineTests/Fixtures/track-structure/null-island-and-jump.gpx"
    let warned = try run(
      [
        "/usr/bin/script", "-qec",
        "COLUMNS=80 '\(URL(fileURLWithPath: binary).path)' energy '\(jump)' --model acsm-walking --mass 70kg",
        "/dev/null",
      ], in: folder)
    #expect(warned.stdout.contains("warning: left out 2 impossible fixes"), "\(warned.stdout)")
    #expect(warned.stdout.contains("diagnostics; choose with"), "the column is left out: \(warned.stdout)")
    let piped = try energylab(
      ["energy", "walk.gpx", "--model", "acsm-walking", "--mass", "70kg"], in: folder)
    #expect(piped.stdout.contains("energy_kcal"))
    #expect(!piped.stdout.contains("more columns"))
  }

  @Test func versionNamesTheCode() throws {
    let out = try energylab(["--version"], in: try scratchFolder())
    #expect(out.status == 0)
    #expect(out.stdout.hasPrefix("energylab 0.1.0 ("))
    #expect(out.stdout.contains("source digest") || out.stdout.contains("binary sha256"))
  }
}
