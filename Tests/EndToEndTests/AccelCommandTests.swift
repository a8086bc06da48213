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
}
