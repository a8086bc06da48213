import EnergyLabCore
import Foundation
import Ingest
import Testing

let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")
  .path
let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
  .deletingLastPathComponent().path

struct GPXReaderTests {
  @Test func namespacedFileWithGarminHeartRateCommentsAndSpacedAttributes() throws {
    let track = try GPXReader().read(path: "\(fixtures)/namespaced-garmin-hr.gpx")
    #expect(track.name == "Falmer loop")
    #expect(track.points.count == 3)
    #expect(track.points[0].latitudeDegrees == 50.8671)
    #expect(track.points[0].longitudeDegrees == -0.0873)
    #expect(track.points[0].heartRateBeatsPerMinute == 100)
    #expect(track.points[1].heartRateBeatsPerMinute == 110)
    #expect(track.points[2].elevationMeters == nil)
    // 09:00:10.500+00:00 and 10:00:20+0100 are 10.5 s and 20 s after 09:00:00Z.
    let t0 = try #require(track.points[0].timeSecondsSince1970)
    #expect(try #require(track.points[1].timeSecondsSince1970) - t0 == 10.5)
    #expect(try #require(track.points[2].timeSecondsSince1970) - t0 == 20)
    #expect(track.diagnostics.isEmpty)
  }

  @Test func byteOrderMarkBareRootGPX10WithoutElevationOrTime() throws {
    let track = try GPXReader().read(path: "\(fixtures)/bom-bare-gpx10-no-ele-no-time.gpx")
    #expect(track.points.count == 2)
    #expect(track.points.allSatisfy { $0.elevationMeters == nil && $0.timeSecondsSince1970 == nil })
  }

  @Test func timesWithoutOffsetAreUTCWithADiagnostic() throws {
    let track = try GPXReader().read(path: "\(fixtures)/times-without-offset.gpx")
    #expect(track.points[0].timeSecondsSince1970 == 1_336_467_600)
    #expect(track.diagnostics.map(\.code) == ["time-without-offset"])
  }

  /// Each broken file and the exact error it must produce.
  @Test(arguments: [
    ("not-xml.gpx", "not-xml.gpx:1:1: not XML"),
    ("truncated-inside-trkpt.gpx", "truncated-inside-trkpt.gpx:"),
    ("latitude-out-of-range.gpx", "latitude-out-of-range.gpx:5:"),
    ("root-is-not-gpx.gpx", "root-is-not-gpx.gpx:2:"),
    ("unreadable-time.gpx", "unreadable-time.gpx:2:"),
    ("empty.gpx", "empty.gpx:1:1: empty file; expected a GPX document"),
    ("missing.gpx", "missing.gpx: no such file; expected a readable GPX file"),
  ])
  func brokenFilesNameFileLineAndExpectation(file: String, prefix: String) {
    let path = "\(fixtures)/\(file)"
    do {
      _ = try GPXReader().read(path: path)
      Issue.record("\(file) was read without error")
    } catch let error as InputError {
      let text = error.description.replacingOccurrences(of: fixtures + "/", with: "")
      #expect(text.hasPrefix(prefix), "\(text)")
      #expect(text.contains("; expected "))
      #expect(!text.contains("\n"))
    } catch {
      Issue.record("unexpected error \(error)")
    }
  }

  @Test func truncatedFileSaysWhichElementIsOpen() throws {
    let error = try #require(throws: InputError.self) {
      try GPXReader().read(path: "\(fixtures)/truncated-inside-trkpt.gpx")
    }
    #expect(error.problem.contains("<trkpt>") || error.expected.contains("</trkpt>"))
  }
}
