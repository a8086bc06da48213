import Foundation
import TestSupport
import Testing

/// The real device files shipped in the repository.
private let devices = packageRoot + "/Datasets/device-files"

struct DeviceFileCommandTests {
  /// `accel convert` writes the AX3 file's 17,400 samples (the count
  /// actfast and scikit-digital-health give) as CSV; its first row is
  /// actfast's first sample (1551178506.000488281 s, 0.328125, 0.984375,
  /// 0.203125 g; 258 raw = 25.5859 °C); `accel summary` reads the CSV
  /// back to the same samples, span and ENMO as the .cwa itself.
  @Test func convertAndSummaryOfACWA() throws {
    let folder = try scratchFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let cwa = devices + "/ax3_testfile.cwa"
    let converted = try energylab(["accel", "convert", cwa, "-o", "ax3.csv"], in: folder)
    #expect(converted.status == 0, "\(converted.stderr)")
    #expect(converted.stdout.contains("17400 samples at 100 Hz"))
    #expect(converted.stderr.contains("[local-time-as-utc]"))
    let text = try String(contentsOfFile: folder + "/ax3.csv", encoding: .utf8)
    let lines = text.split(separator: "\n")
    #expect(lines.count == 17_401)
    #expect(lines[0] == "time,x,y,z,temperature")
    #expect(lines[1] == "2019-02-26T10:55:06.000488Z,0.328125,0.984375,0.203125,25.585938")

    let summary = try energylab(
      ["accel", "summary", cwa, "ax3.csv", "--format", "json"], in: folder)
    #expect(summary.status == 0, "\(summary.stderr)")
    let rows = try #require(
      try JSONSerialization.jsonObject(with: Data(summary.stdout.utf8)) as? [[String: Any]])
    #expect(rows.count == 2)
    #expect(rows[0]["format"] as? String == "axivity-cwa")
    for row in rows {
      #expect(row["samples"] as? Int == 17_400)
      #expect(row["start_time"] as? String == "2019-02-26T10:55:06Z")
    }
    expectClose(
      rows[1]["enmo_mean_mg"] as? Double, try #require(rows[0]["enmo_mean_mg"] as? Double), tolerance: 0.01,
      "ENMO of the CSV against the .cwa")
  }

  /// A corrupt block is reported, not fatal: 16,680 samples, exit 0.
  @Test func summaryOfTheCorruptFile() throws {
    let folder = try scratchFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let out = try energylab(
      [
        "accel", "summary", devices + "/ax3_testfile_corrupt_blocks_0_13_14_142_143_144.cwa", "--format",
        "json",
      ],
      in: folder)
    #expect(out.status == 0, "\(out.stderr)")
    let rows = try #require(try JSONSerialization.jsonObject(with: Data(out.stdout.utf8)) as? [[String: Any]])
    #expect(rows.first?["samples"] as? Int == 16_680)
    let diagnostics = try #require(rows.first?["diagnostics"] as? [String])
    #expect(diagnostics.contains { $0.hasSuffix("[corrupt-blocks]") && $0.contains("at byte 1024") })
  }

  /// Broken device files through the command: each skipped with an error
  /// naming the file, the byte and what was expected, and exit 1. A file
  /// named .cwa whose first bytes are not "MD" is read as a CWA, so the
  /// error names the missing header instead of calling it "not text".
  @Test func brokenFilesNameWhatTheyLack() throws {
    let folder = try scratchFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    var cwa = [UInt8](try Data(contentsOf: URL(fileURLWithPath: devices + "/ax3_testfile.cwa")))
    cwa[0] = 0x58
    try Data(cwa).write(to: URL(fileURLWithPath: folder + "/magic.cwa"))
    let gt3x = [UInt8](try Data(contentsOf: URL(fileURLWithPath: devices + "/actigraph_testfile.gt3x")))
    try Data(gt3x.prefix(40_000)).write(to: URL(fileURLWithPath: folder + "/cut.gt3x"))
    let cases = [
      ("magic.cwa", "magic.cwa at byte 0: no CWA header; expected an Axivity .cwa file starting \"MD\""),
      ("cut.gt3x", "cut.gt3x at byte 40000: no end of central directory"),
    ]
    for (name, message) in cases {
      let out = try energylab(["accel", "summary", name], in: folder)
      #expect(out.status == 1, "\(name)")
      #expect(out.stderr.contains(message), "\(out.stderr)")
    }
  }
}

/// Wear per day on the shipped three days whose wear is known by
/// construction (Datasets/accelerometer/README.md, scripts/make-wear-days):
/// worn 24 h, 12 h (off 07:00-19:00) and 22 h (off 08:00-10:00).
struct WearPerDayChartTests {
  @Test func plotWithNonWearChartsWearPerDay() throws {
    let folder = try scratchFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let out = try energylab(
      [
        "accel", "plot", packageRoot + "/Datasets/accelerometer/wear-3-days-10hz.csv.gz", "--start",
        "2026-03-02T00:00:00Z", "--sample-rate", "10", "--non-wear", "--charts", "charts",
      ], in: folder)
    #expect(out.status == 0, "\(out.stderr)")
    let data = try String(contentsOfFile: folder + "/charts/wear-3-days-10hz-wear.dat", encoding: .utf8)
    let rows = data.split(separator: "\n").filter { !$0.hasPrefix("#") }.map { $0.split(separator: " ") }
    let expected: [(String, Double, Double)] = [
      ("\"2026-03-02\"", 24, 0), ("\"2026-03-03\"", 12, 12), ("\"2026-03-04\"", 22, 2),
    ]
    #expect(rows.count == expected.count)
    for (row, (date, worn, notWorn)) in zip(rows, expected) {
      #expect(String(row[0]) == date)
      expectClose(Double(row[1]), worn, tolerance: 1e-6, "\(date) worn")
      expectClose(Double(row[2]), notWorn, tolerance: 1e-6, "\(date) not worn")
    }
    let script = try String(contentsOfFile: folder + "/charts/wear-3-days-10hz-wear.gp", encoding: .utf8)
    #expect(script.contains("16 with lines ls 10 title 'valid day: 16 h of wear'"))
  }
}
