import Foundation
import TestSupport
import Testing

/// `batch` takes the reading options of the single commands for the files
/// they concern: each reaches the analysis (batch stores the numbers the
/// single command stores with it) and is among the run's parameters.
struct BatchReadingOptionTests {
  /// Batch over a study of one shipped file with `flags`, and the single
  /// `command` over the same file with the same flags; the results each
  /// store for the file (without batch's energy totals and days), and
  /// batch's parameters.
  static func stored(
    _ file: String, as name: String, flags: [String], command: [String]
  ) throws -> (batch: [String], single: [String], parameters: [String: String]) {
    let folder = try BatchCommandTests.study(of: file, as: name)
    let batch = try energylab(["batch", "study", "--db", "b.sqlite", "--quiet"] + flags, in: folder)
    #expect(batch.status == 0, "\(batch.stderr)")
    let single = try energylab(
      command + ["study/\(name)", "--db", "s.sqlite", "--format", "csv"] + flags, in: folder)
    #expect(single.status == 0, "\(single.stderr)")
    let batchRows = try BatchCommandTests.rowTexts("results", db: "b.sqlite", in: folder).filter {
      !$0.contains("metric=energy_") && !$0.contains("/\(name) 20")
    }
    var parameters: [String: String] = [:]
    for row in try BatchCommandTests.rows("parameters", in: folder) {
      if let name = row["name"] as? String { parameters[name] = "\(row["value"] ?? "")" }
    }
    return (batchRows, try BatchCommandTests.rowTexts("results", db: "s.sqlite", in: folder), parameters)
  }

  static let gt3x = "Datasets/device-files/actigraph_testfile.gt3x"

  /// The shipped GT3X file calibrated (batch stores the offsets and scales
  /// `accel summary --calibrate` fits) or with its non-wear found
  /// (`--non-wear`): each flag reaches the stored summary and parameters.
  @Test(arguments: [
    ("--calibrate", "calibration_scale_x", "calibrate"),
    ("--non-wear", "non_wear", "non_wear_window_min"),
  ])
  func accelerometerReadingOptionsReachTheStoredRuns(_ flag: String, _ metric: String, _ parameter: String)
    throws
  {
    let stored = try Self.stored(Self.gt3x, as: "a.gt3x", flags: [flag], command: ["accel", "summary"])
    #expect(stored.batch.contains { $0.hasPrefix("metric=\(metric) ") }, "\(stored.batch)")
    #expect(stored.batch == stored.single)
    #expect(stored.parameters[parameter] != nil, "\(stored.parameters)")
  }

  /// The shipped GT3X file slept 1,180 s in idle-sleep mode (see
  /// DeviceFileTests): by default filled as ActiLife fills them, in batch
  /// as in `accel summary`; `--idle-sleep gap` leaves them out and stores
  /// something else; the old `--fill-idle-sleep` is the default.
  @Test func idleSleepReachesTheStoredRuns() throws {
    let filled = try Self.stored(Self.gt3x, as: "a.gt3x", flags: [], command: ["accel", "summary"])
    #expect(filled.batch == filled.single)
    #expect(filled.parameters["idle_sleep"] == "fill")
    let old = try Self.stored(
      Self.gt3x, as: "a.gt3x", flags: ["--fill-idle-sleep"], command: ["accel", "summary"])
    func unplaced(_ rows: [String]) -> [String] {
      rows.map { $0.replacingOccurrences(of: #"subject=\S+ "#, with: "", options: .regularExpression) }
    }
    #expect(unplaced(old.batch) == unplaced(filled.batch))
    let left = try Self.stored(
      Self.gt3x, as: "a.gt3x", flags: ["--idle-sleep", "gap"], command: ["accel", "summary"])
    #expect(left.batch == left.single)
    #expect(left.parameters["idle_sleep"] == "gap")
    #expect(filled.batch != left.batch, "filling the gaps changes the summary")
  }

  /// `batch --model` stores each equation's energy as `accel energy
  /// --model` computes it: Freedson 1998 on the shipped day of 60 s counts
  /// at 70 kg is 3047.45 kcal by scripts/oracles/accel-equations.py.
  @Test func equationsReachTheStoredRuns() throws {
    let folder = try BatchCommandTests.study(of: "Datasets/accelerometer/day-counts-60s.csv", as: "day.csv")
    let batch = try energylab(
      ["batch", "study", "--db", "b.sqlite", "--quiet", "--model", "freedson-1998"], in: folder)
    #expect(batch.status == 0, "\(batch.stderr)")
    let stored = try BatchCommandTests.rows("results", in: folder).first {
      $0["metric"] as? String == "energy_freedson_1998"
    }
    expectClose((stored?["value"] as? NSNumber)?.doubleValue, 3047.4546, tolerance: 1e-3, "stored energy")
    let parameters = try BatchCommandTests.rows("parameters", in: folder)
    #expect(parameters.contains { $0["name"] as? String == "accel_equations" })
  }

  /// The FIT fixtures fitdecode reads only when told (see TrackCommandTests):
  /// without the flag batch fails the file, with it batch stores the 14
  /// fixes `track summary` reads and the flag among the parameters.
  @Test(arguments: [
    ("activity-unexpected-eof.fit", "--read-truncated", "read_truncated"),
    ("activity-filecrc.fit", "--ignore-crc", "ignore_crc"),
  ])
  func damagedFITFilesAreReadWhenAsked(_ name: String, _ flag: String, _ parameter: String) throws {
    let file = "Tests/IngestTests/Fixtures/fit/\(name)"
    let folder = try BatchCommandTests.study(of: file, as: name)
    let refused = try energylab(["batch", "study", "--db", "r.sqlite", "--quiet"], in: folder)
    #expect(refused.status == 1)
    #expect(refused.stdout.contains("0 tracks") && refused.stdout.contains("1 failed"), "\(refused.stdout)")
    let stored = try Self.stored(file, as: name, flags: [flag], command: ["track", "summary"])
    #expect(
      stored.batch.contains { $0.hasPrefix("metric=points ") && $0.hasSuffix(" value=14") }, "\(stored.batch)"
    )
    #expect(stored.batch == stored.single)
    #expect(stored.parameters[parameter] == "on", "\(stored.parameters)")
  }
}
