import Foundation
import TestSupport
import Testing

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
    expectClose(energy["met-intensity"]!, 13.3 * 70 / 60, tolerance: 1e-9)
    expectClose(energy["steps-stepmyhealth"]!, 102, tolerance: 1e-9)
    expectClose(energy["steps-birdsley-2005"]!, 255 * 0.0507, tolerance: 1e-9)
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

  /// An ActiLife export of 1 s epochs from 2023-11-14 12:00:00 UTC, axis 1
  /// as given (axes 2 and 3 and steps 0).
  static func oneSecondCounts(_ axis1: [Int], in folder: String, name: String = "counts-1s.csv") throws {
    var text = """
      ------------ Data File Created By ActiGraph GT3X+ ActiLife v6.13.3 Firmware v3.2.1 date format M/d/yyyy Filter Normal -----------
      Serial Number: SYNTHETIC0002
      Start Time 12:00:00
      Start Date 11/14/2023
      Epoch Period (hh:mm:ss) 00:00:01
      Download Time 13:00:00
      Download Date 11/14/2023
      Current Memory Address: 0
      Current Battery Voltage: 4.10     Mode = 61
      --------------------------------------------------
      Date,Time,Axis1,Axis2,Axis3,Steps,Lux,Inclinometer Off,Inclinometer Standing,Inclinometer Sitting,Inclinometer Lying,Vector Magnitude

      """
    for (k, counts) in axis1.enumerated() {
      let time = String(format: "12:%02d:%02d", k / 60, k % 60)
      text += "11/14/2023,\(time),\(counts),0,0,0,0,0,0,0,0,\(counts)\n"
    }
    try text.write(toFile: "\(folder)/\(name)", atomically: true, encoding: .utf8)
  }

  /// Three minutes of 1 s counts summing to 50, 3000 and 6000 a minute:
  /// 50 in the first second; 300 in each of the next minute's first ten
  /// seconds; 100 in every second of the third.
  static let threeMinutes =
    [50] + Array(repeating: 0, count: 59) + Array(repeating: 300, count: 10) + Array(repeating: 0, count: 50)
    + Array(repeating: 100, count: 60)

  /// Freedson's cut-points classify whole minutes of counts (by hand: 50
  /// counts/min sedentary, below 100; 3000 moderate, 1952-5724; 6000
  /// vigorous, 5725 and above), and every format names the cut-points and
  /// the 60 s epoch the minutes come from. Before, 5 s blocks x 12 gave
  /// 1.75 sedentary, 0.08 light, 0 moderate and 1.17 vigorous minutes.
  @Test(arguments: OutputFormatCase.allCases)
  func intensityMinutesNameTheirEpochAndCutPoints(format: OutputFormatCase) throws {
    let folder = try scratchFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    try Self.oneSecondCounts(Self.threeMinutes, in: folder)
    let out = try energylab(
      ["accel", "summary", "counts-1s.csv", "--format", format.rawValue, "--columns", format.columns],
      in: folder)
    #expect(out.status == 0, "\(out.stderr)")
    #expect(out.stdout == format.expected, "\(out.stdout)")
    // No wear location and no cut-points: the default is said.
    #expect(
      out.stderr.contains(
        "note: no cut-points given: freedson-1998 (axis-1 counts/min on 60 s epochs), the default for counts whatever the wear location [cut-points-default]"
      ), "\(out.stderr)")
  }

  enum OutputFormatCase: String, CaseIterable, Sendable {
    case table, csv, json, markdown

    var columns: String { "cut_points,intensity_epoch_s,sedentary_min,light_min,moderate_min,vigorous_min" }

    var expected: String {
      switch self {
      case .table:
        """
        cut_points     intensity_epoch_s  sedentary_min  light_min  moderate_min  vigorous_min
        -------------  -----------------  -------------  ---------  ------------  ------------
        freedson-1998                 60            1.0        0.0           1.0           1.0

        """
      case .csv:
        """
        cut_points,intensity_epoch_s,sedentary_min,light_min,moderate_min,vigorous_min
        freedson-1998,60,1,0,1,1

        """
      case .json:
        """
        [
          {
            "cut_points": "freedson-1998",
            "intensity_epoch_s": 60,
            "sedentary_min": 1,
            "light_min": 0,
            "moderate_min": 1,
            "vigorous_min": 1
          }
        ]

        """
      case .markdown:
        """
        | cut_points | intensity_epoch_s | sedentary_min | light_min | moderate_min | vigorous_min |
        | --- | --- | --- | --- | --- | --- |
        | freedson-1998 | 60 | 1.0 | 0.0 | 1.0 | 1.0 |

        """
      }
    }
  }

  /// Days and energy name them too: the met-intensity total is, by hand,
  /// (1.3 + 4 + 8) MET x 70 kg x 1/60 h = 15.52 kcal for the sedentary,
  /// moderate and vigorous minutes.
  @Test func daysAndEnergyNameTheEpochAndCutPoints() throws {
    let folder = try scratchFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    try Self.oneSecondCounts(Self.threeMinutes, in: folder)
    let days = try energylab(
      [
        "accel", "days", "counts-1s.csv", "--format", "csv", "--columns",
        "date,cut_points,intensity_epoch_s,sedentary_min,light_min,moderate_min,vigorous_min",
      ], in: folder)
    #expect(days.status == 0, "\(days.stderr)")
    #expect(
      days.stdout
        == "date,cut_points,intensity_epoch_s,sedentary_min,light_min,moderate_min,vigorous_min\n2023-11-14,freedson-1998,60,1,0,1,1\n"
    )
    let energy = try energylab(
      ["accel", "energy", "counts-1s.csv", "--mass", "70kg", "--format", "json"], in: folder)
    #expect(energy.status == 0, "\(energy.stderr)")
    let rows = try #require(JSONSerialization.jsonObject(with: Data(energy.stdout.utf8)) as? [[String: Any]])
    let met = try #require(rows.first { $0["model"] as? String == "met-intensity" })
    expectClose(met["energy_kcal"] as? Double, 13.3 * 70 / 60, tolerance: 1e-9, "met-intensity")
    #expect(
      met["basis"] as? String
        == "intensity class MET x body mass x recorded time (freedson-1998 on 60 s epochs)")
  }

  /// 150 s of counts: two whole minutes (6000 and 0 counts, vigorous and
  /// sedentary) and 30 s left over, left out of the minutes and said.
  @Test func aPartMinuteIsLeftOutAndSaid() throws {
    let folder = try scratchFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    try Self.oneSecondCounts(
      Array(repeating: 100, count: 60) + Array(repeating: 0, count: 60) + Array(repeating: 100, count: 30),
      in: folder)
    let out = try energylab(
      [
        "accel", "summary", "counts-1s.csv", "--format", "csv", "--columns",
        "duration_s,sedentary_min,light_min,moderate_min,vigorous_min",
      ], in: folder)
    #expect(out.status == 0, "\(out.stderr)")
    #expect(out.stdout == "duration_s,sedentary_min,light_min,moderate_min,vigorous_min\n150,1,0,0,1\n")
    #expect(
      out.stderr.contains(
        "note: 1 epoch(s) with fewer than 60 s of counts left out of the intensity classes and minutes (30 s at the end): freedson-1998 classifies counts summed over whole 60 s epochs, aligned to the clock [partial-epochs]"
      ), "\(out.stderr)")
  }

  /// Another epoch only when asked, with a warning: 5 s blocks x 12 give
  /// (by hand, see `intensityMinutesNameTheirEpochAndCutPoints`) 21
  /// sedentary blocks, 1 light and 14 vigorous. Without asking, a table of
  /// 5 s epochs has no classes and a note says how to ask.
  @Test func anotherEpochOnlyWhenAsked() throws {
    let folder = try scratchFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    try Self.oneSecondCounts(Self.threeMinutes, in: folder)
    let asked = try energylab(
      ["accel", "summary", "counts-1s.csv", "--intensity-epoch", "5s", "--format", "json"], in: folder)
    #expect(asked.status == 0, "\(asked.stderr)")
    let row = try #require(
      (try JSONSerialization.jsonObject(with: Data(asked.stdout.utf8)) as? [[String: Any]])?.first)
    #expect(row["intensity_epoch_s"] as? Double == 5)
    expectClose(row["sedentary_min"] as? Double, 21.0 * 5 / 60, tolerance: 1e-9, "sedentary")
    expectClose(row["light_min"] as? Double, 5.0 / 60, tolerance: 1e-9, "light")
    expectClose(row["moderate_min"] as? Double, 0, tolerance: 1e-9, "moderate")
    expectClose(row["vigorous_min"] as? Double, 14.0 * 5 / 60, tolerance: 1e-9, "vigorous")
    // JSON with its diagnostics column holds the warning.
    let diagnostics = try #require(row["diagnostics"] as? [String])
    #expect(
      diagnostics.contains {
        $0.hasSuffix(
          "counts-1s.csv: warning: freedson-1998 cut-points were published for 60 s epochs and are applied to 5 s epochs, as asked: counts per minute are each epoch's counts x 12; the classes and minutes are not those of the published method [cut-points-epoch]"
        )
      }, "\(diagnostics)")
    let epochs = try energylab(
      ["accel", "epochs", "counts-1s.csv", "--epoch", "5s", "--format", "csv", "--columns", "intensity"],
      in: folder)
    #expect(epochs.status == 0, "\(epochs.stderr)")
    let classes = epochs.stdout.split(separator: "\n").dropFirst()
    #expect(classes.isEmpty, "36 epochs, no class: \(classes)")
    #expect(
      epochs.stderr.contains(
        "no intensity classes: freedson-1998 cut-points were published for 60 s epochs and the epochs analysed are 5 s; --intensity-epoch 5s applies them to 5 s epochs anyway [intensity-epoch]"
      ), "\(epochs.stderr)")
  }

  /// Two minutes lying still on one face give 12 still windows, all on one
  /// side of the sphere: no correction can be fitted, so the offsets and
  /// scales are unknown (null in JSON, empty in CSV, not stored), never the
  /// identity printed as if fitted; the error before stays, `calibrated`
  /// is false and the diagnostics say why.
  @Test func anUnfittedCalibrationHasUnknownOffsetsAndScales() throws {
    let folder = try scratchFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let synth = try energylab(["accel", "synth", "-o", "still.csv", "--leg", "still,2min"], in: folder)
    #expect(synth.status == 0, "\(synth.stderr)")
    let json = try energylab(
      ["accel", "summary", "still.csv", "--calibrate", "--db", "c.sqlite", "--format", "json"], in: folder)
    #expect(json.status == 0, "\(json.stderr)")
    let rows = try #require(JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])
    let row = try #require(rows.first)
    #expect(row["calibrated"] as? Bool == false)
    #expect(row["calibration_still_points"] as? Int == 12)
    #expect(row["calibration_error_before_mg"] is Double, "\(row)")
    #expect(row["calibration_error_after_mg"] is NSNull, "\(row)")
    for axis in ["x", "y", "z"] {
      #expect(row["calibration_offset_\(axis)_g"] is NSNull, "offset \(axis): \(row)")
      #expect(row["calibration_scale_\(axis)"] is NSNull, "scale \(axis): \(row)")
    }
    #expect("\(row["diagnostics"] ?? "")".contains("left uncalibrated"), "\(row)")
    let csv = try energylab(
      [
        "accel", "summary", "still.csv", "--calibrate", "--format", "csv", "--columns",
        "calibrated,calibration_offset_x_g,calibration_scale_x,calibration_scale_z",
      ], in: folder)
    #expect(csv.status == 0, "\(csv.stderr)")
    #expect(csv.stdout.split(separator: "\n").last == "false,,,", "\(csv.stdout)")
    let export = try energylab(
      ["db", "export", "--db", "c.sqlite", "--table", "results", "--format", "json"], in: folder)
    let stored = try #require(
      JSONSerialization.jsonObject(with: Data(export.stdout.utf8)) as? [[String: Any]])
    let metrics = Set(stored.compactMap { $0["metric"] as? String })
    #expect(metrics.contains("calibration_still_points") && metrics.contains("calibration_error_before"))
    #expect(!metrics.contains { $0.hasPrefix("calibration_offset") || $0.hasPrefix("calibration_scale") })
  }

  /// `accel days` prints two tables: `--columns` picks from each the
  /// names it has, and warns only of a name neither table has.
  @Test func daysColumnsApplyToTheTablesThatHaveThem() throws {
    let folder = try scratchFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let synth = try energylab(
      ["accel", "synth", "-o", "day.csv", "--leg", "still,2min", "--leg", "walk,1min"], in: folder)
    #expect(synth.status == 0, "\(synth.stderr)")
    let out = try energylab(
      ["accel", "days", "day.csv", "--columns", "date,steps,valid_days", "--format", "json"], in: folder)
    #expect(out.status == 0, "\(out.stderr)")
    #expect(!out.stderr.contains("no column"), "\(out.stderr)")
    let o = try #require(JSONSerialization.jsonObject(with: Data(out.stdout.utf8)) as? [String: Any])
    let days = try #require(o["accel-days"] as? [[String: Any]], "\(o)")
    #expect(days.first.map { Set($0.keys) } == ["date", "steps"])
    let valid = try #require(o["accel-valid-days"] as? [[String: Any]], "\(o)")
    #expect(valid.first.map { Set($0.keys) } == ["valid_days"])
    let unknown = try energylab(
      ["accel", "days", "day.csv", "--columns", "date,valid_days,nonsense", "--format", "csv"], in: folder)
    #expect(unknown.status == 0, "\(unknown.stderr)")
    let warnings = unknown.stderr.split(separator: "\n").filter { $0.contains("warning: no column") }
    #expect(warnings.count == 1, "\(unknown.stderr)")
    #expect(
      warnings.first?.hasPrefix("energylab: warning: no column nonsense in accel-days or accel-valid-days;")
        == true,
      "\(unknown.stderr)")
  }

  /// The stored run holds the epoch and the cut-points with the minutes.
  @Test func theStoredRunNamesTheEpochAndCutPoints() throws {
    let folder = try scratchFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    try FileManager.default.createDirectory(atPath: "\(folder)/study", withIntermediateDirectories: true)
    try Self.oneSecondCounts(Self.threeMinutes, in: "\(folder)/study")
    let out = try energylab(["batch", "study", "--db", "b.sqlite", "--quiet"], in: folder)
    #expect(out.status == 0, "\(out.stderr)")
    func table(_ name: String) throws -> [[String: Any]] {
      let export = try energylab(
        ["db", "export", "--db", "b.sqlite", "--table", name, "--format", "json"], in: folder)
      return try #require(JSONSerialization.jsonObject(with: Data(export.stdout.utf8)) as? [[String: Any]])
    }
    let results = try table("results")
    func result(_ metric: String) -> Double? {
      results.first { $0["metric"] as? String == metric }?["value"] as? Double
    }
    #expect(result("intensity_epoch") == 60)
    #expect(result("sedentary") == 1 && result("moderate") == 1 && result("vigorous") == 1)
    let parameters = try table("parameters")
    func parameter(_ name: String) -> String? {
      parameters.first { $0["name"] as? String == name }.map { "\($0["value"] ?? "")" }
    }
    #expect(parameter("intensity_epoch_s") == "60")
    #expect(
      parameter("cut_points")
        == "freedson-1998: light 100, moderate 1952, vigorous 5725 axis-1 counts/min, published for 60 s epochs"
    )
  }
}
