import Foundation
import TestSupport
import Testing

/// The results store as a researcher uses it from the command line: one
/// run per input however its path is typed, many writers at once, runs
/// stored whatever happens to standard output, read-only inspection, and
/// nothing left behind by an interrupted run.
struct StoreCommandTests {
  static let track = "\(packageRoot)/Datasets/pem-walk/walk-2.9mph-2pct.gpx"

  func runs(_ db: String, in folder: String) throws -> Int? {
    let info = try energylab(["db", "info", "--db", db, "--format", "csv"], in: folder)
    let line = info.stdout.split(separator: "\n").first { $0.hasPrefix("runs,") }
    return line.flatMap { Int($0.dropFirst("runs,".count)) }
  }

  /// A study of 4 tracks, 1 recording and 1 survey, without the broken file.
  func study() throws -> String {
    let folder = try BatchCommandTests.study()
    try FileManager.default.removeItem(atPath: folder + "/study/recordings/broken.csv")
    return folder
  }

  @Test func aStudyTypedThreeWaysIsStoredOnce() throws {
    let folder = try study()
    for root in ["study", "./study", folder + "/study", "study/"] {
      let out = try energylab(["batch", root, "--db", "s.sqlite", "--quiet"], in: folder)
      #expect(out.status == 0, "\(root): \(out.stderr)")
    }
    #expect(try runs("s.sqlite", in: folder) == 6)
    // Stored under the file's one name (absolute, links resolved), not the
    // path as typed.
    let inputs = try energylab(
      ["db", "export", "--table", "inputs", "--db", "s.sqlite", "--format", "csv"], in: folder)
    #expect(inputs.stdout.contains(",\(CanonicalName.resolved(folder))/study/tracks/walk-1.gpx,"))
    #expect(!inputs.stdout.contains(",study/"))
    // A changed file adds a run; the same again replaces it.
    try FileManager.default.removeItem(atPath: folder + "/study/tracks/walk-1.gpx")
    _ = try energylab(
      ["track", "synth", "-o", "study/tracks/walk-1.gpx", "--duration", "2min", "--seed", "9"], in: folder)
    for _ in 0..<2 { _ = try energylab(["batch", "study", "--db", "s.sqlite", "--quiet"], in: folder) }
    #expect(try runs("s.sqlite", in: folder) == 7)
    // So does another body mass (it changes the tracks' and the recording's energy).
    _ = try energylab(["batch", "study", "--db", "s.sqlite", "--quiet", "--mass", "80kg"], in: folder)
    #expect(try runs("s.sqlite", in: folder) == 12)
  }

  @Test func oneInputTypedThreeWaysIsOneRun() throws {
    let folder = try scratchFolder()
    try FileManager.default.copyItem(atPath: Self.track, toPath: folder + "/walk.gpx")
    for path in ["walk.gpx", "./walk.gpx", folder + "/walk.gpx"] {
      let out = try energylab(
        ["energy", path, "--model", "acsm-walking", "--mass", "70kg", "--db", "e.sqlite"], in: folder)
      #expect(out.status == 0, "\(out.stderr)")
    }
    #expect(try runs("e.sqlite", in: folder) == 1)
  }

  @Test func manyWritersOnOneDatabaseAllSucceed() throws {
    let folder = try study()
    try FileManager.default.copyItem(atPath: Self.track, toPath: folder + "/walk.gpx")
    var processes: [(Process, String)] = []
    func start(_ arguments: [String]) throws {
      let process = Process()
      process.executableURL = URL(fileURLWithPath: binary)
      process.arguments = arguments
      process.currentDirectoryURL = URL(fileURLWithPath: folder)
      let err = URL(fileURLWithPath: folder).appendingPathComponent("w-\(processes.count).err")
      _ = FileManager.default.createFile(atPath: err.path, contents: nil)
      process.standardOutput = FileHandle.nullDevice
      process.standardError = try FileHandle(forWritingTo: err)
      try process.run()
      processes.append((process, err.path))
    }
    // Three batches (each a different body mass: 5 runs each, the survey's
    // run shared) and eight single runs, all at once.
    for mass in [60, 61, 62] {
      try start(["batch", "study", "--db", "shared.sqlite", "--mass", "\(mass)kg", "--jobs", "2", "--quiet"])
    }
    for mass in 70..<78 {
      try start([
        "energy", "walk.gpx", "--model", "acsm-walking", "--mass", "\(mass)kg", "--db", "shared.sqlite",
      ])
    }
    for (process, err) in processes {
      process.waitUntilExit()
      let message = (try? String(contentsOfFile: err, encoding: .utf8)) ?? ""
      #expect(process.terminationStatus == 0, "\(process.arguments ?? []): \(message)")
    }
    #expect(try runs("shared.sqlite", in: folder) == 3 * 5 + 1 + 8)
    #expect(try energylab(["db", "check", "--db", "shared.sqlite"], in: folder).status == 0)
  }

  @Test func runsAreStoredWhateverHappensToStandardOutput() throws {
    let folder = try scratchFolder()
    func energy(mass: Int, stdout: FileHandle?, closeReader: Pipe? = nil) throws -> (Int32, String) {
      let process = Process()
      process.executableURL = URL(fileURLWithPath: binary)
      process.arguments = [
        "energy", Self.track, "--model", "acsm-walking", "--mass", "\(mass)kg", "--db", "o.sqlite",
        "--per-fix",
      ]
      process.currentDirectoryURL = URL(fileURLWithPath: folder)
      let err = Pipe()
      process.standardError = err
      if let closeReader {
        process.standardOutput = closeReader
      } else if let stdout {
        process.standardOutput = stdout
      }
      try process.run()
      // The reader goes away at once, as `| head -1` does after one line.
      if let closeReader { try closeReader.fileHandleForReading.close() }
      let message = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
      process.waitUntilExit()
      return (process.terminationStatus, message)
    }
    // A full disk: exit 1 with a message, the run stored.
    let full = try #require(FileHandle(forWritingAtPath: "/dev/full"))
    let (fullStatus, fullMessage) = try energy(mass: 70, stdout: full)
    #expect(fullStatus == 1)
    #expect(fullMessage.contains("cannot write standard output: No space left on device"))
    #expect(try runs("o.sqlite", in: folder) == 1)
    // A closed pipe: exit 0, quietly, the run stored.
    let (pipeStatus, pipeMessage) = try energy(mass: 71, stdout: nil, closeReader: Pipe())
    #expect(pipeStatus == 0, "\(pipeMessage)")
    #expect(pipeMessage.isEmpty)
    #expect(try runs("o.sqlite", in: folder) == 2)
  }

  @Test func readingCommandsWorkOnAReadOnlyDatabaseAndChangeNothing() throws {
    let folder = try scratchFolder()
    _ = try energylab(
      ["energy", Self.track, "--model", "acsm-walking", "--mass", "70kg", "--db", "w.sqlite"], in: folder)
    let locked = folder + "/locked"
    try FileManager.default.createDirectory(atPath: locked, withIntermediateDirectories: true)
    try FileManager.default.copyItem(atPath: folder + "/w.sqlite", toPath: locked + "/w.sqlite")
    try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: locked + "/w.sqlite")
    try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: locked)
    defer { try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: locked) }
    // As root, permissions do not bind: the commands run as nobody instead,
    // from a copy of the program nobody may run wherever the checkout is.
    let asRoot = getuid() == 0
    let asOther = asRoot ? ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"] : []
    let program = asRoot ? folder + "/energylab" : URL(fileURLWithPath: binary).path
    if asRoot { try FileManager.default.copyItem(atPath: binary, toPath: program) }
    for command in [["db", "info"], ["db", "check"], ["db", "export", "--table", "runs"]] {
      let out = try run(asOther + [program] + command + ["--db", "locked/w.sqlite"], in: folder)
      #expect(out.status == 0, "\(command): \(out.stderr)")
    }
    #expect(try FileManager.default.contentsOfDirectory(atPath: locked) == ["w.sqlite"])
    let compare = try run(asOther + [program, "db", "compare", "w.sqlite", "locked/w.sqlite"], in: folder)
    #expect(compare.status == 0, "\(compare.stderr)")
    // A file that is no database: exit 1, named.
    try "runs\n".write(toFile: folder + "/notes.sqlite", atomically: true, encoding: .utf8)
    let info = try energylab(["db", "info", "--db", "notes.sqlite"], in: folder)
    #expect(info.status == 1)
    #expect(info.stderr.contains("notes.sqlite: not an SQLite database"))
  }

  @Test func anInterruptedNotebookLeavesNothingBehind() throws {
    let folder = try scratchFolder()
    try FileManager.default.createDirectory(atPath: folder + "/Reports", withIntermediateDirectories: true)
    try """
    # Slow

    ```energylab
    accel synth -o big.csv --leg walk,240min --rate 100
    ```
    """.write(toFile: folder + "/slow.md", atomically: true, encoding: .utf8)
    let process = Process()
    process.executableURL = URL(fileURLWithPath: binary)
    process.arguments = ["run", "slow.md", "--quiet"]
    process.currentDirectoryURL = URL(fileURLWithPath: folder)
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    let temporary = folder + "/Reports/.slow.tmp-\(process.processIdentifier)"
    let partial = folder + "/.big.csv.partial-\(process.processIdentifier)"
    let deadline = Date().addingTimeInterval(60)
    while !FileManager.default.fileExists(atPath: partial) && process.isRunning && Date() < deadline {
      usleep(10_000)
    }
    #expect(FileManager.default.fileExists(atPath: temporary), "the report is being built")
    process.terminate()  // SIGTERM
    process.waitUntilExit()
    #expect(process.terminationReason == .uncaughtSignal, "exit \(process.terminationStatus)")
    #expect(process.terminationStatus == SIGTERM)
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder + "/Reports") == [])
    #expect(!FileManager.default.fileExists(atPath: partial))
  }
}

/// Charts of a notebook never overwrite each other, and a failing command
/// says which file failed and why.
struct NotebookChartTests {
  @Test func twoFilesOfTheSameNameKeepTheirOwnCharts() throws {
    let folder = try scratchFolder()
    for (participant, speed) in [("p01", "1.2mps"), ("p02", "3mps")] {
      try FileManager.default.createDirectory(
        atPath: "\(folder)/\(participant)", withIntermediateDirectories: true)
      _ = try energylab(
        ["track", "synth", "-o", "\(participant)/day1.gpx", "--speed", speed, "--duration", "5min"],
        in: folder)
    }
    try """
    # Two participants

    ```energylab
    track plot p01/day1.gpx
    ```

    ```energylab
    track plot p02/day1.gpx
    ```
    """.write(toFile: folder + "/two.md", atomically: true, encoding: .utf8)
    let out = try energylab(["run", "two.md", "--quiet"], in: folder)
    #expect(out.status == 0, "\(out.stderr)")
    let report = try String(contentsOfFile: folder + "/Reports/two/report.md", encoding: .utf8)
    let first = try String(contentsOfFile: folder + "/Reports/two/figures/day1-speed.dat", encoding: .utf8)
    let second = try String(contentsOfFile: folder + "/Reports/two/figures/day1-speed-2.dat", encoding: .utf8)
    #expect(first != second, "each participant's speeds in their own data file")
    // The second script draws from its own data into its own image.
    let script = try String(contentsOfFile: folder + "/Reports/two/figures/day1-speed-2.gp", encoding: .utf8)
    #expect(script.contains("'day1-speed-2.dat'") && !script.contains("'day1-speed.dat'"))
    #expect(script.contains("day1-speed-2.png"))
    if FileManager.default.isExecutableFile(atPath: "/usr/bin/gnuplot") {
      #expect(FileManager.default.fileExists(atPath: folder + "/Reports/two/figures/day1-speed-2.png"))
    }
    #expect(report.contains("(figures/day1-speed.gp)") && report.contains("(figures/day1-speed-2.gp)"))
  }

  @Test func aFailingNotebookCommandNamesTheFileAndTheReason() throws {
    let folder = try scratchFolder()
    try "<gpx><trk><trkseg><trkpt lat=\"x\" lon=\"1\"/></trkseg></trk></gpx>\n".write(
      toFile: folder + "/bad.gpx", atomically: true, encoding: .utf8)
    try "# Bad\n\n```energylab\ntrack summary bad.gpx\n```\n".write(
      toFile: folder + "/bad.md", atomically: true, encoding: .utf8)
    let out = try energylab(["run", "bad.md", "--quiet"], in: folder)
    #expect(out.status == 1)
    #expect(out.stderr.contains("bad.md:4: command failed"), "\(out.stderr)")
    #expect(out.stderr.contains("bad.gpx:1"), "the file and line of the reason: \(out.stderr)")
  }
}

/// Store behaviour the reliability probe found wrong: an all-failed summary
/// stored an empty run, standard input could not be stored, and integers
/// printed with four decimals.
struct StoreProbeTests {
  /// `accel summary missing.csv --db` and `track summary missing.gpx
  /// old.gpx --db` stored a run of 0 inputs; with no file read, nothing is
  /// stored (not even an empty database); with one read, one run is.
  @Test func aSummaryWhoseFilesAllFailStoresNoRun() throws {
    let folder = try scratchFolder()
    try FileManager.default.copyItem(atPath: StoreCommandTests.track, toPath: folder + "/walk.gpx")
    let accel = try energylab(["accel", "summary", "missing.csv", "--db", "f.sqlite"], in: folder)
    #expect(accel.status == 1 && accel.stderr.contains("0 summarised"))
    let tracks = try energylab(
      ["track", "summary", "missing.gpx", "old.gpx", "--db", "f.sqlite"], in: folder)
    #expect(tracks.status == 1)
    #expect(!FileManager.default.fileExists(atPath: folder + "/f.sqlite"))
    let one = try energylab(["track", "summary", "missing.gpx", "walk.gpx", "--db", "f.sqlite"], in: folder)
    #expect(one.status == 1)
    #expect(try StoreCommandTests().runs("f.sqlite", in: folder) == 1)
  }

  /// `cat walk.gpx | energylab energy - --db x.sqlite` said "-: cannot
  /// open file". The input is stored as `-` with the size and SHA-256 of
  /// the bytes piped in (those of the file, as `sha256sum` gives them).
  @Test func standardInputIsStoredWithItsDigest() throws {
    let folder = try scratchFolder()
    let bytes = try Data(contentsOf: URL(fileURLWithPath: StoreCommandTests.track))
    for command in [
      ["energy", "-", "--model", "acsm-walking", "--mass", "70kg"], ["track", "summary", "-"],
    ] {
      let out = try energylab(command + ["--db", "x.sqlite"], in: folder, stdin: bytes)
      #expect(out.status == 0, "\(out.stderr)")
    }
    let inputs = try energylab(
      ["db", "export", "--table", "inputs", "--db", "x.sqlite", "--format", "csv"], in: folder)
    let digest = try run(["/usr/bin/sha256sum", StoreCommandTests.track], in: folder).stdout.prefix(64)
    #expect(
      inputs.stdout.split(separator: "\n").filter { $0.hasSuffix(",-,\(bytes.count),\(digest)") }.count == 2)
  }

  /// `accel summary -` and `survey summary -` said "-: no such file". They
  /// read standard input (a gzipped recording too) and store it as `-`
  /// with the size and SHA-256 of the bytes piped in, as `sha256sum` gives
  /// them; a first pass (non-wear) reads the same bytes again.
  @Test(arguments: [
    (["accel", "summary", "-"], "Datasets/accelerometer/day-counts-60s.csv"),
    (["accel", "summary", "-", "--non-wear"], "Datasets/accelerometer/walk-run-50hz.csv.gz"),
    (["accel", "epochs", "-"], "Datasets/accelerometer/walk-run-50hz.csv.gz"),
    (["survey", "summary", "-"], "Datasets/surveys/alter-eco-beta.csv"),
    (["accel", "days", "-"], "Datasets/accelerometer/day-counts-60s.csv"),
  ])
  func accelAndSurveyCommandsStoreStandardInput(command: [String], file: String) throws {
    let folder = try scratchFolder()
    let path = "\(packageRoot)/\(file)"
    let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
    let out = try energylab(command + ["--db", "x.sqlite", "--format", "csv"], in: folder, stdin: bytes)
    #expect(out.status == 0, "\(out.stderr)")
    #expect(!out.stdout.isEmpty)
    let inputs = try energylab(
      ["db", "export", "--table", "inputs", "--db", "x.sqlite", "--format", "csv"], in: folder)
    let digest = try run(["/usr/bin/sha256sum", path], in: folder).stdout.prefix(64)
    #expect(
      inputs.stdout.split(separator: "\n").filter { $0.hasSuffix(",-,\(bytes.count),\(digest)") }.count == 1,
      "\(inputs.stdout)")
    // The stored command names standard input as `-`, not as a file `-` in
    // the working folder (which would key the run by where it was typed).
    let runs = try energylab(
      ["db", "export", "--table", "runs", "--db", "x.sqlite", "--format", "csv"], in: folder)
    #expect(!runs.stdout.contains(folder) && !runs.stdout.contains("/-"), "\(runs.stdout)")
    // The same command on the file itself prints the same table, but for
    // the file's name.
    let direct = try energylab(command.map { $0 == "-" ? path : $0 } + ["--format", "csv"], in: folder)
    #expect(direct.status == 0)
    #expect(
      direct.stdout.replacingOccurrences(of: path, with: "-")
        .replacingOccurrences(
          of: URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent, with: "-")
        == out.stdout, "\(direct.stdout)\n\(out.stdout)")
  }

  /// A store left read-only by its owner: another user's write is refused
  /// naming the cause, and leaves no `-wal` or `-shm` file (the probe's
  /// left files owned by that user, mode 444, which blocked everyone once
  /// the store was writable again); a third user then writes it. As root
  /// the two users are uid 65534 and 1001 (`setpriv`); otherwise the
  /// test's own user plays both.
  @Test func aReadOnlyStoreIsRefusedAndLeftClean() throws {
    let folder = try scratchFolder()
    let shared = folder + "/shared"
    try FileManager.default.createDirectory(atPath: shared, withIntermediateDirectories: true)
    try FileManager.default.copyItem(atPath: StoreCommandTests.track, toPath: shared + "/walk.gpx")
    for path in [folder, shared] { chmod(path, 0o777) }
    chmod(shared + "/walk.gpx", 0o644)
    func energy(_ mass: Int, as uid: Int?) throws -> Outcome {
      let arguments = [
        "energy", "shared/walk.gpx", "--model", "acsm-walking", "--mass", "\(mass)kg", "--db",
        "shared/s.sqlite",
      ]
      guard let uid, getuid() == 0 else { return try energylab(arguments, in: folder) }
      return try run(
        ["/usr/bin/setpriv", "--reuid=\(uid)", "--regid=\(uid)", "--clear-groups", binary] + arguments,
        in: folder)
    }
    #expect(try energy(70, as: nil).status == 0)
    let store = shared + "/s.sqlite"
    chmod(store, 0o444)
    if getuid() == 0 {
      let refused = try energy(71, as: 65534)
      #expect(refused.status == 1)
      #expect(
        refused.stderr.contains(
          "shared/s.sqlite: cannot open results database: the database file is read-only for this user; nothing was written to it"
        ), "\(refused.stderr)")
    }
    for suffix in ["-wal", "-shm"] { #expect(!FileManager.default.fileExists(atPath: store + suffix)) }
    chmod(store, 0o666)
    let written = try energy(72, as: 1001)
    #expect(written.status == 0, "\(written.stderr)")
    #expect(try StoreCommandTests().runs("shared/s.sqlite", in: folder) == 2)
  }

  /// A store in a folder that does not exist is named as such (SQLite says
  /// "unable to open database file"), exit 1, and nothing is created.
  @Test func aStoreInAMissingFolderIsNamed() throws {
    let folder = try scratchFolder()
    let out = try energylab(
      [
        "energy", StoreCommandTests.track, "--model", "acsm-walking", "--mass", "70kg", "--db",
        "absent/s.sqlite",
      ],
      in: folder)
    #expect(out.status == 1)
    #expect(out.stderr.contains("absent/s.sqlite: cannot open results database: the folder"), "\(out.stderr)")
    #expect(out.stderr.contains("absent does not exist; nothing was written to it"), "\(out.stderr)")
    #expect(!FileManager.default.fileExists(atPath: folder + "/absent"))
  }

  /// `run_id`, `points` and `size_bytes` printed as 1.0000, 601.0000 and
  /// 67534.0000 in table and Markdown form; integers print as integers.
  @Test func exportPrintsIntegersAsIntegers() throws {
    let folder = try scratchFolder()
    try FileManager.default.copyItem(atPath: StoreCommandTests.track, toPath: folder + "/walk.gpx")
    _ = try energylab(["track", "summary", "walk.gpx", "--db", "t.sqlite"], in: folder)
    let size = try #require(
      FileManager.default.attributesOfItem(atPath: folder + "/walk.gpx")[.size] as? Int)
    for format in ["markdown", "table"] {
      let out = try energylab(
        ["db", "export", "--table", "inputs", "--db", "t.sqlite", "--format", format], in: folder)
      #expect(out.stdout.contains(" \(size) ") && !out.stdout.contains("\(size).0000"), "\(out.stdout)")
      #expect(!out.stdout.contains("1.0000"))
    }
  }
}
