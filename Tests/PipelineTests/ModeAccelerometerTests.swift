import EnergyLabCore
import Foundation
import Testing

@testable import Pipeline
@testable import Tracks

/// An accelerometer recording of the same person joins the epoch model:
/// modes known by construction. The track walks at 1.4 m/s for 20 min,
/// then drives at 12 m/s for 10 min; the accelerometer (10 Hz, 1 g on z)
/// swings for the first 10 min only (ENMO about 250 mg, light or above by
/// the default wrist cut-points) and lies still after. Speed alone calls
/// the first 20 min walking; with the accelerometer, the still 10 min at a
/// walking speed are a crawling vehicle, as P(still | walk) = 0.05 against
/// P(still | vehicle) = 0.9 outweighs the speed bin's odds (1.0-1.5 m/s:
/// walk (523 + 1) / (1368 + 19) against vehicle (63 + 1) / (1794 + 19)
/// with the pseudocount, log ratio 2.37 < log(0.9 / 0.05) = 2.89).
struct ModeAccelerometerTests {
  static func files() throws -> (track: String, accel: String, folder: URL) {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "energylab-mode-accel-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let start = 1_714_982_400.0  // 2024-05-06T08:00:00Z
    var gpx = """
      <?xml version="1.0"?><gpx version="1.1" creator="t" xmlns="http://www.topografix.com/GPX/1/1"><trk><trkseg>

      """
    var latitude = 52.0
    for s in stride(from: 0, to: 1800, by: 5) {
      gpx +=
        "<trkpt lat=\"\(latitude)\" lon=\"0\"><time>\(ISO8601.formatUTC(start + Double(s)))</time></trkpt>\n"
      latitude += (s < 1200 ? 1.4 : 12.0) * 5 / 111_320
    }
    gpx += "</trkseg></trk></gpx>\n"
    let track = folder.appendingPathComponent("track.gpx").path
    try gpx.write(toFile: track, atomically: true, encoding: .utf8)
    var csv = "timestamp,x,y,z\n"
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = TimeZone(identifier: "UTC")
    formatter.dateFormat = "yyyy-MM-dd HH:mm:ss.SSS"
    for i in 0..<18_000 {
      let s = Double(i) / 10
      let moving = s < 600
      let z = moving ? 1 + 0.4 * sin(2 * Double.pi * 2 * s) : 1
      let x = moving ? 0.2 * sin(2 * Double.pi * s) : 0
      csv += "\(formatter.string(from: Date(timeIntervalSince1970: start + s))),\(x),0,\(z)\n"
    }
    let accel = folder.appendingPathComponent("accel.csv").path
    try csv.write(toFile: accel, atomically: true, encoding: .utf8)
    return (track, accel, folder)
  }

  static func minutes(_ s: TrackCommands.Segmentation) throws -> [(TransportMode, Double)] {
    guard case .modes(let found) = s.activities else { throw CancellationError() }
    return found.map { ($0.activity.mode, $0.activity.durationSeconds / 60) }
  }

  @Test func aStillAccelerometerTurnsCrawlingIntoAVehicle() throws {
    let (track, accel, folder) = try Self.files()
    defer { try? FileManager.default.removeItem(at: folder) }
    let alone = try Self.minutes(
      TrackCommands.segmentation(file: track, parameters: TrackAnalysisParameters()))
    #expect(alone.map(\.0) == [.walk, .vehicle])
    #expect(abs(alone[0].1 - 20) < 0.6)
    let utc = TimeZone(identifier: "UTC")
    var p = ModeModelParameters()
    let (states, _) = try TrackCommands.accelerometerStates(accel, epochSeconds: 30, timeZone: utc)
    // 30 min of 30 s epochs, 20 of them moving.
    #expect(states.count == 60)
    #expect(states.values.filter { $0 }.count == 20)
    p.accelerometerMoving = states
    let joined = try TrackCommands.segmentation(
      file: track, parameters: TrackAnalysisParameters(), inference: .epochModel(p))
    let withAccel = try Self.minutes(joined)
    #expect(withAccel.map(\.0) == [.walk, .vehicle])
    #expect(abs(withAccel[0].1 - 10) < 0.6)
    #expect(joined.diagnostics.contains { $0.code == "accel-joined" && $0.message.contains("60 of 60") })
    #expect(p.described.contains { $0.name == "mode_accel_p_moving" })
    #expect(!ModeModelParameters().described.contains { $0.name == "mode_accel_p_moving" })
    // A recording of another day changes nothing, and says so.
    var elsewhere = ModeModelParameters()
    elsewhere.accelerometerMoving = [0: true]
    let apart = try TrackCommands.segmentation(
      file: track, parameters: TrackAnalysisParameters(), inference: .epochModel(elsewhere))
    #expect(try Self.minutes(apart).map(\.0) == alone.map(\.0))
    #expect(apart.diagnostics.contains { $0.code == "accel-no-overlap" && $0.severity == .warning })
  }
}
