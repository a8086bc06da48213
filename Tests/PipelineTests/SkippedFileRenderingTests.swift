import EnergyLabCore
import Estimation
import Foundation
import Pipeline
import Reporting
import Testing
import Tracks

/// What a command notices while it computes (a file it skips, the
/// warnings an error points at) is part of the value it returns, never
/// printed on the way: its rendering holds a warning block per file
/// skipped, ahead of the diagnostics and the tables, and printing that
/// rendering gives the standard error the command line has always shown.
/// The notes below are written out as the command line prints them (the
/// end-to-end test `batchSkipsAndLogs` checks the same wording on the
/// built program).
struct SkippedFileRenderingTests {
  /// Output and notes in the order they were written: `out` is standard
  /// output, `err` standard error (the command line's warning sink).
  final class Log {
    var events: [(stream: String, text: String)] = []
    var notes: [String] { events.filter { $0.stream == "err" }.map(\.text) }
    var out: String { events.filter { $0.stream == "out" }.map(\.text).joined() }
  }

  /// A driver printing as the command line does (no terminal: every
  /// column printed) into `log`.
  static func driver() -> (Driver, Log) {
    let log = Log()
    let context = CommandContext(
      sink: { log.events.append(("out", $0)) }, warningSink: { log.events.append(("err", $0)) })
    return (Driver(printer: Printer(context: context, defaultFormat: .table)), log)
  }

  /// A readable track (a synthetic 20-minute walk and ride) and an
  /// unreadable one, cut off inside its `<trk>`, in a scratch folder.
  static func goodAndBad() throws -> (folder: String, good: String, bad: String) {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "energylab-skipped-\(UUID().uuidString)"
    ).path
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    let good = "\(folder)/a.gpx"
    try FileManager.default.moveItem(atPath: try TrackCommandResultTests.twoLegTrack(), toPath: good)
    let bad = "\(folder)/b.gpx"
    try "<gpx><trk>".write(toFile: bad, atomically: true, encoding: .utf8)
    return (folder, good, bad)
  }

  /// The note the command line prints for `b.gpx` (line 1, column 11 is
  /// the end of the ten bytes `<gpx><trk>`).
  static func truncatedNote(_ bad: String) -> String {
    "energylab: \(bad):1:11: file ends inside <trk>; expected </trk> (skipped)"
  }

  /// The warning blocks of a rendering, in order.
  static func warnings(_ rendering: Rendering) -> [String] {
    rendering.blocks.compactMap {
      if case .warning(let text) = $0 { return text }
      return nil
    }
  }

  /// `track summary` over a good and an unreadable file: the value holds
  /// the note, its rendering starts with it, and printing the rendering
  /// writes it on standard error before the table (which lists the good
  /// file only).
  @Test func trackSummaryHoldsItsSkippedFile() throws {
    let (folder, good, bad) = try Self.goodAndBad()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let outcome = try TrackCommands.summaryOutcome(
      files: [good, bad], parameters: TrackAnalysisParameters(), jobs: 1, format: .csv)
    #expect(outcome.skipped == [Self.truncatedNote(bad)])
    #expect(outcome.inputs == [good])
    let rendering = try outcome.rendering(for: RenderRequest())
    #expect(rendering.blocks.first == .warning(Self.truncatedNote(bad)))
    #expect(Self.warnings(rendering) == [Self.truncatedNote(bad)])

    let (driver, log) = Self.driver()
    driver.printer.beginCommand(format: .csv)
    try driver.print(rendering)
    #expect(log.notes == [Self.truncatedNote(bad)])
    #expect(log.events.first?.stream == "err", "the note comes before the table")
    let lines = log.out.split(separator: "\n")
    #expect(lines.count == 2, "a header and the good file's row")
    #expect(lines.last?.hasPrefix("\(good),") == true)
  }

  /// Run through a driver, the note is printed once (from the value) and
  /// the command then fails with the count; in a notebook (no warning
  /// sink) it is the report's skipped list.
  @Test func trackSummaryPrintsTheNoteOnceThenFails() throws {
    let (folder, good, bad) = try Self.goodAndBad()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let (driver, log) = Self.driver()
    #expect {
      try TrackCommands.summary(
        files: [good, bad], parameters: TrackAnalysisParameters(), jobs: 1, format: .csv, driver: driver)
    } throws: {
      "\($0)" == "1 of 2 files could not be read; 1 summarised"
    }
    #expect(log.notes == [Self.truncatedNote(bad)])

    let (notebook, _) = Driver.buffered(defaultFormat: .markdown)
    #expect(throws: RuntimeError.self) {
      try TrackCommands.summary(
        files: [good, bad], parameters: TrackAnalysisParameters(), jobs: 1, format: nil, driver: notebook)
    }
    #expect(notebook.recorder.provenance.skipped == [Self.truncatedNote(bad)])
  }

  /// A run that cannot be stored still says which files it skipped,
  /// before the store's error (the database's folder is a file).
  @Test func aStoreFailureStillSaysWhatWasSkipped() throws {
    let (folder, good, bad) = try Self.goodAndBad()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let (driver, log) = Self.driver()
    #expect(throws: (any Error).self) {
      try TrackCommands.summary(
        files: [good, bad], parameters: TrackAnalysisParameters(), jobs: 1,
        databasePath: "\(good)/results.sqlite", format: .csv, driver: driver)
    }
    #expect(log.notes == [Self.truncatedNote(bad)])
    #expect(log.out.isEmpty, "nothing is printed of a run that was not stored")
  }

  /// `--fail-fast` stops at the unreadable file: its error, no value.
  @Test func failFastThrowsTheFilesError() throws {
    let (folder, good, bad) = try Self.goodAndBad()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    #expect(throws: InputError.self) {
      try TrackCommands.summaryOutcome(
        files: [good, bad], parameters: TrackAnalysisParameters(), failFast: true, jobs: 1, format: nil)
    }
  }

  /// `track segments` and `track trips`: the same note, first in the
  /// rendering.
  @Test func segmentsAndTripsHoldTheirSkippedFile() throws {
    let (folder, good, bad) = try Self.goodAndBad()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let segments = try TrackCommands.segmentsOutcome(
      files: [good, bad], parameters: TrackAnalysisParameters(), jobs: 1, format: nil)
    let segmented = try segments.rendering(for: RenderRequest())
    #expect(segmented.blocks.first == .warning(Self.truncatedNote(bad)))
    #expect(Self.warnings(segmented) == [Self.truncatedNote(bad)])

    let trips = try TrackCommands.tripsOutcome(
      files: [bad, good], parameters: TrackAnalysisParameters(), jobs: 1, format: nil)
    let tripped = try trips.rendering(for: RenderRequest())
    #expect(tripped.blocks.first == .warning(Self.truncatedNote(bad)))
    #expect(Self.warnings(tripped) == [Self.truncatedNote(bad)])
  }

  /// `track power`: the note, then the good file's diagnostic (a GPX
  /// without power), then the table; printed in that order on standard
  /// error.
  @Test func powerPrintsTheSkippedFileBeforeTheDiagnostics() throws {
    let (folder, good, bad) = try Self.goodAndBad()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let outcome = try PowerCommand.outcome(
      files: [good, bad], parameters: PowerParameters(), ftpWatts: nil,
      trackParameters: TrackAnalysisParameters(), defaultTimeZone: nil, failFast: false, format: nil)
    let rendering = try outcome.rendering(for: RenderRequest())
    #expect(rendering.blocks.first == .warning(Self.truncatedNote(bad)))
    let (driver, log) = Self.driver()
    try driver.print(rendering)
    #expect(
      log.notes == [
        Self.truncatedNote(bad),
        "energylab: \(good): warning: no record carries power: every power figure is unknown [no-power]",
      ])
  }

  /// `accel summary` over a synthetic walking minute and a missing file.
  @Test func accelSummaryHoldsItsSkippedFile() throws {
    let good = try AccelCommandResultTests.walkingMinute()
    defer { try? FileManager.default.removeItem(atPath: good) }
    let missing = good + ".missing"
    let outcome = try AccelCommands.summaryOutcome(
      files: [good, missing], options: AccelOptions(), jobs: 1, format: nil)
    let note = "energylab: \(missing): no such file; expected a readable file (skipped)"
    #expect(outcome.skipped == [note])
    let rendering = try outcome.rendering(for: RenderRequest())
    #expect(rendering.blocks.first == .warning(note))
    #expect(Self.warnings(rendering) == [note])
  }

  /// `accel energy` on a recording without gravity (a phone's linear
  /// acceleration: |a| about 0.02 g) has no step count and no intensity
  /// classes, so no model applies; the error says "see its warnings", and
  /// those warnings are printed before it, from a value, once each.
  @Test func accelEnergyPrintsWhatItNoticedBeforeItsError() throws {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent(
      "energylab-linear-\(UUID().uuidString).csv"
    ).path
    defer { try? FileManager.default.removeItem(atPath: path) }
    var csv = "time,x,y,z\n"
    for i in 0..<3000 {
      let t = 1_772_438_400 + Double(i) / 50
      let x = 0.02 * sin(Double(i) / 5)
      let y = 0.01 * cos(Double(i) / 7)
      let z = 0.015 * sin(Double(i) / 3)
      csv += "\(ISO8601.formatUTC(t, fractionDigits: 3)),\(x),\(y),\(z)\n"
    }
    try csv.write(toFile: path, atomically: true, encoding: .utf8)
    let (driver, log) = Self.driver()
    #expect {
      try AccelCommands.energy(
        file: path, options: AccelOptions(), energy: AccelEnergyOptions(), intakeKilocalories: nil,
        allowanceKilocalories: nil, format: nil, driver: driver)
    } throws: {
      "\($0)".hasSuffix(
        "no energy model applies: the recording gives neither steps nor intensity classes (see its warnings)")
    }
    #expect(log.out.isEmpty)
    #expect(log.notes.count == 3)
    #expect(log.notes.allSatisfy { $0.hasPrefix("energylab: \(path): ") })
    #expect(
      log.notes.map { $0.components(separatedBy: " [").last ?? "" } == [
        "unit-inferred]", "gravity-missing]", "cut-points-default]",
      ])
  }
}
