import EnergyLabCore
import Foundation
import Signals
import Store
import Synchronization
import TestSupport
import Testing

@testable import Pipeline

/// A study rerun into the same store does only what is missing: a file
/// whose run, or failure, is stored from the same content under the same
/// options is left as it is; a killed run resumed ends as one whole run.
struct BatchResumeTests {
  /// A track, an accelerometer device file and a file no reader takes
  /// (a GPX fix at latitude 91).
  static func study() throws -> String {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "batch-resume-\(UUID().uuidString)"
    ).path
    try FileManager.default.createDirectory(atPath: "\(folder)/study/P01", withIntermediateDirectories: true)
    try FileManager.default.copyItem(
      atPath: "\(packageRoot)/Datasets/commute/2020-07-06-morning.gpx",
      toPath: "\(folder)/study/P01/morning.gpx")
    try FileManager.default.copyItem(
      atPath: "\(packageRoot)/Datasets/device-files/ax3_testfile.cwa", toPath: "\(folder)/study/P01/wrist.cwa"
    )
    try "<gpx><trk><trkseg><trkpt lat=\"91\" lon=\"0\"></trkpt></trkseg></trk></gpx>\n".write(
      toFile: "\(folder)/study/P01/broken.gpx", atomically: true, encoding: .utf8)
    return folder
  }

  static func run(
    _ folder: String, db: String, options change: (inout BatchCommand.Options) -> Void = { _ in },
    stopAfter: Int? = nil
  ) throws -> BatchCommand.Outcome {
    var options = BatchCommand.Options(folders: ["\(folder)/study"], databasePath: "\(folder)/\(db)")
    options.jobs = 1
    change(&options)
    let store = try ResultsStore(path: options.databasePath)
    let done = try store.fileRuns(
      commands: BatchCommand.resumableCommands, parameter: BatchCommand.optionsParameterName)
    let stored = Mutex(0)
    struct Killed: Error {}
    return try BatchCommand.batch(options, done: options.rerun ? [:] : done) { run in
      // A task killed after `stopAfter` runs: nothing after is stored.
      try stored.withLock { n in
        if let stopAfter, n >= stopAfter { throw Killed() }
        n += 1
      }
      try store.record(run)
    }
  }

  @Test func aKilledBatchResumedStoresWhatOneWholeRunStores() throws {
    let folder = try Self.study()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let whole = try Self.run(folder, db: "whole.db")
    #expect(whole.counts == [.track: 1, .accelerometer: 1] && whole.failures.count == 1)
    // Killed after its first run was stored.
    let killed = try Self.run(folder, db: "resumed.db", stopAfter: 1)
    #expect(killed.stop != nil)
    #expect(try ResultsStore.reading("\(folder)/resumed.db").allRuns().count == 1)
    let resumed = try Self.run(folder, db: "resumed.db")
    #expect(resumed.stop == nil)
    #expect(resumed.alreadyStored + resumed.failedBefore == 1, "the run stored before the kill is left")
    #expect(resumed.stored + resumed.failures.count == 2)
    let lines = try ResultsStore.reading("\(folder)/whole.db").canonicalLines()
    #expect(!lines.isEmpty)
    #expect(try ResultsStore.reading("\(folder)/resumed.db").canonicalLines() == lines)
    // Once more: every file is left as stored, the failure too.
    let again = try Self.run(folder, db: "resumed.db")
    #expect(
      again.alreadyStored == 2 && again.failedBefore == 1 && again.stored == 0 && again.failures.isEmpty)
    #expect(try ResultsStore.reading("\(folder)/resumed.db").canonicalLines() == lines)
  }

  @Test func aChangedFileOrOptionIsDoneAgainAndRerunDoesAll() throws {
    let folder = try Self.study()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    _ = try Self.run(folder, db: "s.db")
    // One more line in the track: a new digest, so that file is done again.
    let track = "\(folder)/study/P01/morning.gpx"
    try (try String(contentsOfFile: track, encoding: .utf8) + "\n").write(
      toFile: track, atomically: true, encoding: .utf8)
    let changedFile = try Self.run(folder, db: "s.db")
    #expect(
      changedFile.counts == [.track: 1] && changedFile.alreadyStored == 1 && changedFile.failedBefore == 1)
    // Another body mass: every file is done again, the failure tried again.
    let changedOption = try Self.run(folder, db: "s.db") { $0.energy.bodyMassKilograms = 80 }
    #expect(changedOption.counts == [.track: 1, .accelerometer: 1] && changedOption.failures.count == 1)
    #expect(changedOption.alreadyStored == 0 && changedOption.failedBefore == 0)
    let rerun = try Self.run(folder, db: "s.db") {
      $0.energy.bodyMassKilograms = 80
      $0.rerun = true
    }
    #expect(rerun.counts == [.track: 1, .accelerometer: 1] && rerun.alreadyStored == 0)
  }

  /// The failure is a run of its own: the file's digest, the options and
  /// the error as a diagnostic, so the store says why a file has no
  /// results.
  @Test func aFailureIsStoredWithItsFileAndError() throws {
    let folder = try Self.study()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    _ = try Self.run(folder, db: "s.db")
    let runs = try ResultsStore.reading("\(folder)/s.db").allRuns()
    let broken = CanonicalPath.stored("\(folder)/study/P01/broken.gpx")
    let failed = try #require(runs.first { $0.command == "batch failed \(broken)" })
    #expect(failed.inputs.map(\.path) == [broken])
    #expect(failed.inputs.first?.sha256 == (try SHA256.hex(fileAt: broken)))
    #expect(failed.parameters.map(\.name) == [BatchCommand.optionsParameterName])
    let diagnostic = try #require(failed.diagnostics.first)
    #expect(diagnostic.severity == "error" && diagnostic.location?.hasPrefix("\(broken):1") == true)
    #expect(diagnostic.message.contains("91"), "\(diagnostic.message)")
    // The other runs carry the same options digest.
    let digests = Set(runs.compactMap { $0.parameters.first { $0.name == "batch_options" }?.value })
    #expect(digests.count == 1)
  }

  /// The options digest is the same in every process for the same options
  /// (dictionaries in any order, time zones by name) and differs when any
  /// option that decides a run does.
  @Test func theOptionsDigestFollowsTheOptionsOnly() throws {
    let factors = try ShippedData.factorSetPath(ShippedData.defaultFactorSet)
    var a = BatchCommand.Options(folders: ["x"], databasePath: "a.db")
    a.modelForMode = [.walk: "pandolf-1977", .cycle: "ainsworth-cycling-leisure", .run: "acsm-running"]
    a.timeZone = try NamedTimeZone(named: "Europe/Berlin")
    var b = BatchCommand.Options(folders: ["y", "z"], databasePath: "b.db")
    for mode in [TransportMode.run, .cycle, .walk] { b.modelForMode[mode] = a.modelForMode[mode] }
    b.timeZone = try NamedTimeZone(named: "Europe/Berlin")
    b.jobs = 7
    b.shard = .init(index: 2, count: 3)
    let digest = { (o: BatchCommand.Options) in
      try BatchCommand.optionsParameter(o, factorPath: factors).value
    }
    #expect(try digest(a) == digest(b))
    var c = a
    c.timeZone = try NamedTimeZone(named: "Europe/Paris")
    var d = a
    d.accel.calibration = AutoCalibrationParameters()
    var e = a
    e.modelForMode[.walk] = "acsm-walking"
    #expect(Set([try digest(a), try digest(c), try digest(d), try digest(e)]).count == 4)
  }
}
