import EnergyLabCore
import Foundation
import TestSupport
import Testing

@testable import Ingest

/// A value inside a recording (a fix's heart rate or speed, a breath's
/// heart rate or GPS speed) outside `HumanLimits` is left out of its record
/// and counted, never used. The limits are the stated ones: heart rate
/// 20-300 bpm, speed 0-340 m/s.
struct RecordLimitsTests {
  @Test func theRecordLimitsAreStated() {
    #expect(HumanLimits.Quantity.speed.limitsText == "0-340 m/s")
    #expect(HumanLimits.Quantity.oxygenUptake.limitsText == "0-7500 mL/min")
    #expect(HumanLimits.Quantity.energyRate.limitsText == "0-40 kcal/min")
    #expect(HumanLimits.Quantity.stepRate.limitsText == "0-300 steps/min")
    // The breath filter's "above any human's" is the same statement.
    #expect(BreathFilter().highestUptakeMillilitersPerMinute == 7500)
    #expect(BreathFilter().highestKilocaloriesPerMinute == 40)
  }

  /// GPX: heart rates 120, 350 (beyond 300), 130, 10 (below 20); speeds
  /// 1.5 and 500 m/s (beyond 340). Line 1 is the declaration, line 2 opens
  /// the segment, each fix is a line from line 3.
  @Test func gpxHeartRateAndSpeedOutsideTheLimitsAreLeftOut() throws {
    func point(_ k: Int, hr: Int, speed: String? = nil) -> String {
      """
      <trkpt lat="51.5" lon="-0.\(k)"><time>2020-01-01T10:00:0\(k)Z</time>\
      <extensions><gpxtpx:TrackPointExtension><gpxtpx:hr>\(hr)</gpxtpx:hr>\
      \(speed.map { "<gpxtpx:speed>\($0)</gpxtpx:speed>" } ?? "")\
      </gpxtpx:TrackPointExtension></extensions></trkpt>\n
      """
    }
    let gpx =
      "<?xml version=\"1.0\"?>\n<gpx version=\"1.1\"><trk><trkseg>\n"
      + point(1, hr: 120, speed: "1.5") + point(2, hr: 350, speed: "500") + point(3, hr: 130)
      + point(4, hr: 10) + "</trkseg></trk></gpx>"
    let track = try GPXReader().read(data: Data(gpx.utf8), source: "hr.gpx")
    #expect(track.points.map(\.heartRateBeatsPerMinute) == [120, nil, 130, nil])
    #expect(track.points.map(\.reportedSpeedMetersPerSecond) == [1.5, nil, nil, nil])
    let hr = try #require(track.diagnostics.first { $0.code == "implausible-heart-rate" })
    #expect(hr.severity == .warning && hr.location == "hr.gpx")
    #expect(
      hr.message
        == "2 fixes with a heart rate outside the human and device limits of 20-300 bpm: left out of their records (read as missing, never used); the first 350 bpm at line 4"
    )
    let speed = try #require(track.diagnostics.first { $0.code == "implausible-speed" })
    #expect(speed.message.hasPrefix("1 fixes with a speed outside the human and device limits of 0-340 m/s"))
    #expect(speed.message.hasSuffix("the first 500 m/s at line 4"))
  }

  /// TCX: `HeartRateBpm/Value` of 400 is left out; 150 is kept.
  @Test func tcxHeartRateOutsideTheLimitsIsLeftOut() throws {
    func point(_ k: Int, _ hr: Int) -> String {
      """
      <Trackpoint><Time>2020-01-01T10:00:0\(k)Z</Time><Position><LatitudeDegrees>51.5</LatitudeDegrees>\
      <LongitudeDegrees>-0.\(k)</LongitudeDegrees></Position><HeartRateBpm><Value>\(hr)</Value></HeartRateBpm></Trackpoint>\n
      """
    }
    let tcx =
      "<?xml version=\"1.0\"?>\n<TrainingCenterDatabase><Activities><Activity Sport=\"Running\"><Lap><Track>\n"
      + point(1, 150) + point(2, 400) + "</Track></Lap></Activity></Activities></TrainingCenterDatabase>"
    let track = try GPXReader().read(data: Data(tcx.utf8), source: "hr.tcx")
    #expect(track.points.map(\.heartRateBeatsPerMinute) == [150, nil])
    #expect(
      track.diagnostics.contains { $0.code == "implausible-heart-rate" && $0.message.hasPrefix("1 fixes") })
  }

  /// FIT records: heart rate (uint8) 150, 12 (below 20), 151; speed
  /// (uint16, mm/s) 2,500 (2.5 m/s) and 60,000 (60 m/s, kept: a car on a
  /// motorway); enhanced speed (uint32, mm/s) 400,000 (400 m/s, beyond 340).
  @Test func fitRecordHeartRateAndSpeedOutsideTheLimitsAreLeftOut() throws {
    var file = FITFileBuilder()
    file.definition(
      local: 0, global: 20, bigEndian: false,
      fields: [(253, 4, 0x86), (0, 4, 0x85), (1, 4, 0x85), (3, 1, 0x02), (6, 2, 0x84)])
    file.definition(
      local: 1, global: 20, bigEndian: false,
      fields: [(253, 4, 0x86), (0, 4, 0x85), (1, 4, 0x85), (3, 1, 0x02), (73, 4, 0x86)])
    let lat = Int32(1 << 29)
    file.data(local: 0, bigEndian: false, [.u32(1_000_000_000), .s32(lat), .s32(0), .u8(150), .u16(2500)])
    file.data(local: 0, bigEndian: false, [.u32(1_000_000_001), .s32(lat), .s32(1000), .u8(12), .u16(60000)])
    file.data(
      local: 1, bigEndian: false, [.u32(1_000_000_002), .s32(lat), .s32(2000), .u8(151), .u32(400_000)])
    var fixes: [TrackPoint] = []
    let header = try FITReader().stream(data: file.bytes(), source: "limits.fit") { fixes.append($0) }
    #expect(fixes.map(\.heartRateBeatsPerMinute) == [150, nil, 151])
    #expect(fixes.map(\.reportedSpeedMetersPerSecond) == [2.5, 60, nil])
    let hr = try #require(header.diagnostics.first { $0.code == "implausible-heart-rate" })
    #expect(
      hr.message.hasPrefix("1 records with a heart rate outside the human and device limits of 20-300 bpm"))
    #expect(hr.message.hasSuffix("the first 12 bpm at record 2"))
    let speed = try #require(header.diagnostics.first { $0.code == "implausible-speed" })
    #expect(speed.message.hasSuffix("the first 400 m/s at record 3"))
  }

  /// K5: the breath at 20 s has HR 350 and GPS speed 2,000 km/h (555.6
  /// m/s): both left out, the rest of the breath (its energy) kept.
  @Test func k5HeartRateAndSpeedOutsideTheLimitsAreLeftOut() throws {
    var text = try String(
      contentsOfFile: measuredFixtures + "/cosmed-k5-side-info-hr-dropouts-dms.csv", encoding: .utf8)
    text = text.replacingOccurrences(of: "6.0,110,", with: "6.0,350,")
      .replacingOccurrences(of: ",10.8,63,", with: ",2000,63,")
    let result = try MeasuredExpenditureReader().parseCOSMED(text, source: "k5.csv")
    let last = try #require(result.samples.last)
    #expect(last.heartRateBeatsPerMinute == nil && last.speedMetersPerSecond == nil)
    #expect(last.energyKilocaloriesPerMinute == 6.0)
    let hr = try #require(result.diagnostics.first { $0.code == "implausible-heart-rate" })
    #expect(hr.message.hasPrefix("1 breaths with a heart rate outside"))
    #expect(hr.message.hasSuffix("the first 350 bpm at line 8"))
    #expect(result.diagnostics.contains { $0.code == "implausible-speed" && $0.message.contains("555.") })
  }
}
