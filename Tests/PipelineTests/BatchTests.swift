import EnergyLabCore
import Foundation
import Ingest
import Store
import Synchronization
import TestSupport
import Testing
import Tracks

@testable import Pipeline

struct ShardTests {
  /// Shard = 1 + (first 8 bytes of SHA-256 of the relative path, as an
  /// unsigned big-endian integer) mod N; the expected shards are from
  /// Python's hashlib: int(sha256(p).hexdigest()[:16], 16) % N + 1.
  @Test func shardsComeFromTheHashOfTheRelativePath() {
    #expect(BatchCommand.Shard.of(relativePath: "tracks/a.gpx", count: 8) == 5)
    #expect(BatchCommand.Shard.of(relativePath: "tracks/b.gpx", count: 8) == 6)
    #expect(BatchCommand.Shard.of(relativePath: "walk-2.gpx", count: 8) == 8)
    #expect(BatchCommand.Shard.of(relativePath: "tracks/a.gpx", count: 2) == 1)
    #expect(BatchCommand.Shard.of(relativePath: "surveys/demo.csv", count: 2) == 2)
  }

  @Test func shardOptionIsChecked() throws {
    #expect(try BatchCommand.Shard(parsing: "2/8") == BatchCommand.Shard(index: 2, count: 8))
    for bad in ["0/8", "9/8", "2", "a/b", "1/0"] {
      #expect(throws: (any Error).self) { try BatchCommand.Shard(parsing: bad) }
    }
  }
}

struct ProgressLineTests {
  /// 31.2 of 88 MB after 2 s: 35.5 % of the bar (8 of 24 cells), 15.6 MB/s,
  /// and 2 s / 0.3545 - 2 s = 3.64 s, so 0:04 left.
  @Test func progressLineByHand() {
    let line = ProgressBar.line(
      label: "batch", files: 412, totalFiles: 1000, bytes: 31_200_000, totalBytes: 88_000_000, elapsed: 2)
    #expect(line == "batch [########................] 412/1000 files  31.2/88.0 MB  15.6 MB/s  0:04 left")
  }

  /// The bar is drawn when the last file is done, and `end` clears its
  /// line so the next output starts clean.
  @Test func drawsTheLastFileAndClearsAtTheEnd() {
    final class Lines: @unchecked Sendable {
      var text: [String] = []
    }
    let lines = Lines()
    let bar = ProgressBar(
      label: "x", files: ["/nonexistent/a", "/nonexistent/b"], sink: { lines.text.append($0) })
    bar.finished(file: 0)
    bar.finished(file: 1)
    bar.end()
    #expect(lines.text.last == "\r\u{1B}[K")
    #expect(lines.text.dropLast().last?.contains("2/2 files") == true, "\(lines.text)")
  }
}

/// Without a terminal (a Slurm task's log) progress is a plain line at an
/// interval: the time, files done and failed, rate and time left; no
/// escape codes, nothing to clear at the end.
struct ProgressLogTests {
  @Test func aLogLineSaysFilesDoneAndFailed() {
    final class Lines: @unchecked Sendable {
      var text: [String] = []
    }
    let lines = Lines()
    let bar = ProgressBar(
      label: "batch", files: ["/nonexistent/a", "/nonexistent/b", "/nonexistent/c"],
      display: .log({ lines.text.append($0) }, every: 0))
    bar.finished(file: 0)
    bar.finished(file: 1, failed: true)
    bar.end()
    #expect(lines.text.count == 2, "\(lines.text)")
    let last = lines.text.last ?? ""
    #expect(
      last.contains(" batch [") && last.contains("2/3 files (1 failed)") && last.hasSuffix("\n"), "\(last)")
    #expect(last.hasPrefix("20") && !last.contains("\u{1B}"))
    // A long interval: nothing until the last file, which is always said.
    let quiet = Lines()
    let slow = ProgressBar(
      label: "batch", files: ["/nonexistent/a", "/nonexistent/b"],
      display: .log({ quiet.text.append($0) }, every: 3600))
    slow.finished(file: 0)
    #expect(quiet.text.isEmpty)
    slow.finished(file: 1)
    #expect(quiet.text.count == 1 && quiet.text[0].contains("2/2 files"))
  }
}

/// A batch is a value: each file's run goes to the sink it is given (here
/// a list, not a database), and unreadable files come back with their
/// reason.
struct BatchValueTests {
  @Test func eachRunGoesToTheSinkAndFailuresComeBack() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "batch-value-\(UUID().uuidString)"
    ).path
    try FileManager.default.createDirectory(atPath: "\(folder)/tracks", withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let morning = "\(packageRoot)/Datasets/commute/2020-07-06-morning.gpx"
    try FileManager.default.copyItem(atPath: morning, toPath: "\(folder)/tracks/morning.gpx")
    try "<gpx><trk><trkseg><trkpt lat=\"91\" lon=\"0\"></trkpt></trkseg></trk></gpx>\n".write(
      toFile: "\(folder)/tracks/broken.gpx", atomically: true, encoding: .utf8)
    let runs = Mutex<[RunRecord]>([])
    let outcome = try BatchCommand.batch(
      .init(folders: [folder], databasePath: "\(folder)/unused.db"),
      record: { run in runs.withLock { $0.append(run) } })
    #expect(outcome.discovered == 2 && outcome.processed == 2)
    #expect(outcome.counts == [.track: 1] && outcome.stored == 1)
    #expect(outcome.failures.count == 1)
    #expect(outcome.failures.first?.contains("broken.gpx:1") == true, "\(outcome.failures)")
    let run = try #require(runs.withLock { $0 }.first { $0.command.hasPrefix("batch track ") })
    // Fixes in the file, counted here by the text of its <trkpt> elements.
    let fixes =
      try String(contentsOfFile: morning, encoding: .utf8).components(separatedBy: "<trkpt ").count - 1
    #expect(run.tracks.first?.points == fixes)
    #expect(!FileManager.default.fileExists(atPath: "\(folder)/unused.db"), "the sink, not the batch, stores")
  }
}

/// A study's participants: matched to files by folder or file name, their
/// values used by the models and stored in each run's key, defaults said.
struct BatchSubjectTests {
  /// Three copies of one 10-minute walk at 1.3 m/s down a 5 % grade, under
  /// P01 (60 kg), P02 (90 kg) and P03 (not listed). Pandolf with the
  /// Santee et al. 2001 downhill correction, by hand for W kg (L = 0):
  /// M = 1.5 W + W (1.5 x 1.69 + 0.35 x 1.3 x (-5)) = 1.76 W;
  /// CF = (-5 x W x 1.3) / 3.5 - W (-5 + 6)^2 / W + (25 - 1.69)
  ///    = -1.857143 W + 22.31;
  /// 60 kg: 105.6 + 89.1186 = 194.7186 W = 2.79233 kcal/min, 27.92 kcal in
  /// 10 min; 90 kg: 158.4 + 144.8329 = 303.2329 W, 43.48 kcal; P03 takes
  /// the default 70 kg: 123.2 + 107.69 = 230.89 W, 33.11 kcal, with a
  /// warning naming the default.
  @Test func participantsAreMatchedStoredAndTheirDefaultsSaid() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "energylab-subjects-\(UUID().uuidString)"
    ).path
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let study = folder + "/study"
    var spec = SyntheticTrackSpec()
    spec.speedMetersPerSecond = 1.3
    spec.gradeFraction = -0.05
    let gpx = GPXWriter.gpx(TrackSynthesizer.track(spec), creator: "test")
    for id in ["P01", "P02", "P03"] {
      try FileManager.default.createDirectory(atPath: "\(study)/\(id)", withIntermediateDirectories: true)
      try gpx.write(toFile: "\(study)/\(id)/walk.gpx", atomically: true, encoding: .utf8)
    }
    let subjectsPath = folder + "/subjects.csv"
    try "participant_id,body_mass_kg,age_years,sex\nP01,60,30,f\nP02,90,40,m\n".write(
      toFile: subjectsPath, atomically: true, encoding: .utf8)
    var options = BatchCommand.Options(folders: [study], databasePath: folder + "/unused.sqlite")
    options.subjects = try SubjectsReader.read(path: subjectsPath)
    options.subjectsPath = subjectsPath
    options.modelForMode = [.walk: "pandolf-1977"]
    options.jobs = 1
    let runs = Mutex<[RunRecord]>([])
    let outcome = try BatchCommand.batch(options) { run in runs.withLock { $0.append(run) } }
    #expect(outcome.failures.isEmpty)
    let byFolder = Dictionary(
      uniqueKeysWithValues: runs.withLock { $0 }.map { run in
        (run.activities.first?.trackPath.split(separator: "/").dropLast().last.map(String.init) ?? "", run)
      })
    let expected = ["P01": 27.92, "P02": 43.48, "P03": 33.11]
    for (id, kcal) in expected {
      let run = try #require(byFolder[id])
      let activity = try #require(run.activities.first)
      #expect(activity.model == "pandolf-1977")
      expectClose(activity.energyKilocalories, kcal, tolerance: kcal * 0.005)
      #expect(run.parameters.contains { $0.name == "subject_id" && $0.value == id } == (id != "P03"))
      #expect(run.inputs.contains { $0.path.hasSuffix("subjects.csv") })
    }
    #expect(
      byFolder["P01"]?.parameters.contains { $0.name == "subject_body_mass_kg" && $0.value == "60" } == true)
    #expect(
      byFolder["P03"]?.diagnostics.contains {
        $0.code == "subject-default" && $0.message.contains("70 kg (default)")
      } == true)
    #expect(byFolder["P01"]?.diagnostics.contains { $0.code == "subject-default" } == false)
  }

  @Test func participantsFileReadsHeartRatesAndRefusesTwiceListedIds() throws {
    let subjects = try SubjectsReader.parse(
      "subject_id,body_mass_lb,resting_hr_bpm,max_hr_bpm,height_cm\nA,154,58,190,172\n", source: "s.csv")
    #expect(subjects.count == 1 && subjects[0].id == "A")
    // 154 lb x 0.45359237 = 69.853 kg.
    expectClose(subjects[0].bodyMassKilograms, 69.85322498, tolerance: 1e-6)
    #expect(
      subjects[0].restingHeartRateBeatsPerMinute == 58 && subjects[0].maximumHeartRateBeatsPerMinute == 190)
    #expect(subjects[0].heightMeters == 1.72)
    let error = #expect(throws: InputError.self) {
      try SubjectsReader.parse("id,body_mass_kg\nA,70\nA,71\n", source: "s.csv")
    }
    #expect(error?.description.hasPrefix("s.csv:3:1: participant \"A\" is listed twice") == true)
  }

  @Test func filesMatchParticipantsByTheStatedRule() {
    let subjects = [Subject(id: "P1"), Subject(id: "P10"), Subject(id: "S2")]
    #expect(
      SubjectMatch.folder.matches(relativePath: "P10/day1/walk.gpx", among: subjects).map(\.id) == ["P10"])
    #expect(SubjectMatch.folder.matches(relativePath: "walk-P1.gpx", among: subjects).isEmpty)
    #expect(SubjectMatch.file.matches(relativePath: "x/P1_walk.gpx", among: subjects).map(\.id) == ["P1"])
    #expect(SubjectMatch.file.matches(relativePath: "P10-run.tcx", among: subjects).map(\.id) == ["P10"])
    #expect(SubjectMatch.file.matches(relativePath: "S2.gpx", among: subjects).map(\.id) == ["S2"])
    #expect(SubjectMatch.file.matches(relativePath: "S21.gpx", among: subjects).isEmpty)
  }
}

struct BatchWarningTests {
  /// Seven warnings of one kind over four files and one of another: the
  /// first five of the first kind are printed in order, the other two
  /// counted with the files they are in (c.gpx and d.gpx, one of them
  /// located by line), and the lone one of the second kind printed.
  @Test func manyWarningsOfOneKindAreCountedNotAllPrinted() {
    func speed(_ file: String) -> Diagnostic {
      Diagnostic(code: "speed-outside-valid-range", message: "outside", location: file)
    }
    let zone = Diagnostic(code: "time-zone-assumed", message: "UTC", location: "d.gpx")
    let warnings = [
      speed("a.gpx"), speed("a.gpx"), speed("b.gpx"), zone, speed("b.gpx"), speed("c.gpx"),
      speed("c.gpx"), speed("d.gpx:12"),
    ]
    let shown = BatchCommand.printedWarnings(warnings)
    #expect(shown.printed == Array(warnings[0..<6]))
    #expect(
      shown.more == [
        "warning: 2 more speed-outside-valid-range warnings in 2 files not printed (stored; the diagnostics table of the store lists them)"
      ])
    #expect(BatchCommand.printedWarnings(Array(warnings[0..<6])).more.isEmpty)
  }
}
