import Foundation
import TestSupport
import Testing

/// The shared real device files beside the checkout.
private let devices = (packageRoot as NSString).appendingPathComponent(
  "../shared/datasets/accelerometer-device-files")
private let haveDevices = FileManager.default.fileExists(atPath: devices + "/ax3_testfile.cwa")

@Suite(
  .enabled(if: haveDevices, "../shared/datasets/accelerometer-device-files is missing beside the checkout"))
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
}
