import EnergyLabCore
import Foundation
import TestSupport
import Testing

@testable import Ingest

let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")
  .path

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
    // Line 2 is 77 characters up to "</gpx>", then three spaces: "junk" starts at column 81.
    ("text-after-root.gpx", "text-after-root.gpx:2:81: text after the root element"),
    ("unreadable-time.gpx", "unreadable-time.gpx:2:"),
    ("empty.gpx", "empty.gpx:1:1: empty file; expected a GPX document"),
    ("missing.gpx", "missing.gpx: no such file; expected a readable GPX or TCX file"),
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

struct StreamingReaderTests {
  /// Plain end tags and start tags without attributes are read on a fast
  /// path; the same tags written with a space before '>' take the general
  /// one. Both must give the same fixes, and a closing tag that drops the
  /// prefix must still be refused.
  @Test func fastAndGeneralTagPathsReadAlike() throws {
    let compact = """
      <?xml version="1.0"?><gpx version="1.1"><trk><trkseg>\
      <trkpt lat="51.5" lon="-0.1"><ele>12.5</ele><time>2020-01-01T10:00:00Z</time>\
      <extensions><gpxtpx:TrackPointExtension><gpxtpx:hr>130</gpxtpx:hr></gpxtpx:TrackPointExtension></extensions>\
      </trkpt><trkpt lat="51.6" lon="-0.2"><ele>13</ele></trkpt></trkseg></trk></gpx>
      """
    let spaced = compact.replacingOccurrences(
      of: "([A-Za-z0-9\"])>", with: "$1 >", options: .regularExpression)
    #expect(spaced.contains("<ele >12.5</ele >"))
    let a = try GPXReader().read(data: Data(compact.utf8), source: "compact.gpx")
    let b = try GPXReader().read(data: Data(spaced.utf8), source: "spaced.gpx")
    #expect(a.points.count == 2)
    #expect(a.points[0].heartRateBeatsPerMinute == 130)
    #expect(a.points[0].elevationMeters == 12.5)
    #expect(a.points[1].latitudeDegrees == 51.6)
    #expect(a.points == b.points)
    let dropped = compact.replacingOccurrences(of: "</gpxtpx:hr>", with: "</hr>")
    let error = #expect(throws: InputError.self) {
      try GPXReader().read(data: Data(dropped.utf8), source: "dropped.gpx")
    }
    #expect(error?.problem == "closing tag </hr> does not match <gpxtpx:hr>")
    // A quote in a name passes the general path when the quotes pair up
    // within the start tag; in the end tag it opens a value that never
    // closes, whichever path the tag would otherwise take.
    let quoted = "<gpx><trk><trkseg><trk' a'=\"1\"></trk'><trkpt lat=\"1\" lon=\"2\"/></trkseg></trk></gpx>"
    let quoteError = #expect(throws: InputError.self) {
      try GPXReader().read(data: Data(quoted.utf8), source: "quoted.gpx")
    }
    #expect(quoteError?.description == "quoted.gpx:1:32: file ends inside a tag; expected '>'")
  }

  /// TCX multisport: running then biking; a trackpoint without a position is
  /// left out with a diagnostic; heart rate, cadence, speed and power read.
  @Test func tcxMultisport() throws {
    let track = try GPXReader().read(path: "\(fixtures)/multisport.tcx")
    #expect(track.points.count == 3)
    #expect(track.points[0].heartRateBeatsPerMinute == 140)
    #expect(track.points[0].cadencePerMinute == 85)
    #expect(track.points[0].reportedSpeedMetersPerSecond == 3.1)
    #expect(track.points[0].powerWatts == 250)
    #expect(track.points[0].elevationMeters == 20.5)
    #expect(track.points[1].latitudeDegrees == 51.5003)
    // The time-only trackpoint's +01:00 puts it an hour before the next
    // fix: a time gap, so the running activity's path pauses there.
    #expect(track.diagnostics.map(\.code) == ["trackpoint-without-position", "tcx-tracks-joined"])
    #expect(track.diagnostics.last?.message.contains("1 pauses") == true)
    #expect(track.points.map(\.segment) == [0, 1, 2])
    #expect(track.declaredSportBySegment == [0: "Running", 1: "Running", 2: "Biking"])
    var sports: [String] = []
    let header = try GPXReader().stream(path: "\(fixtures)/multisport.tcx") { _ in }
    sports = header.sports
    #expect(sports == ["Running", "Biking"])
    #expect(header.format == "tcx")
  }

  /// GPX 1.0 with speed and hdop, comments everywhere, single-quoted and
  /// spaced attributes in reverse order, entities in the name, extensions in
  /// other namespaces, route points and waypoints.
  @Test func gpx10Variants() throws {
    let track = try GPXReader().read(path: "\(fixtures)/gpx10-speed-and-extensions.gpx")
    #expect(track.name == "Café & back")
    // The path is the two track points; the route point and the waypoint
    // are kept apart.
    #expect(track.points.count == 2)
    #expect(track.waypoints.map(\.latitudeDegrees) == [51.7])
    #expect(track.structure.routes == 1 && track.structure.routePoints == 1)
    #expect(track.structure.tracks == 1 && track.structure.segments == 1 && track.structure.waypoints == 1)
    let p = track.points[0]
    #expect(p.latitudeDegrees == 51.5 && p.longitudeDegrees == -0.1)
    #expect(p.reportedSpeedMetersPerSecond == 1.25)
    #expect(p.horizontalDilution == 1.5)
    #expect(p.powerWatts == 180)
    #expect(p.temperatureCelsius == 21.5)
    #expect(p.heartRateBeatsPerMinute == 120)
    #expect(p.cadencePerMinute == 80)
    #expect(p.sourceLine == 7)
  }

  @Test func mismatchedClosingTag() {
    let error = #expect(throws: InputError.self) {
      try GPXReader().read(path: "\(fixtures)/mismatched-closing-tag.gpx")
    }
    #expect(
      error?.description.hasSuffix(
        "mismatched-closing-tag.gpx:1:42: closing tag </trkseg> does not match <trkpt>; expected </trkpt>")
        == true)
  }

  /// Nesting deeper than the limit (256) is refused, not followed.
  @Test func deepNestingIsBounded() {
    let error = #expect(throws: InputError.self) {
      try GPXReader().read(path: "\(fixtures)/deeply-nested.gpx")
    }
    #expect(error?.problem.contains("nested deeper than 256") == true)
  }

  /// Numbers straight from bytes agree with the standard library.
  @Test(arguments: ["51.5", "-0.0873", "  12 ", "1e3", "-1.5E-2", "123456789.123456789", "0", "+7"])
  func numbers(text: String) {
    let parsed = Array(text.utf8).withUnsafeBufferPointer { NumberScanner.double($0) }
    #expect(parsed == Double(text.trimmingCharacters(in: .whitespaces)))
  }

  @Test(arguments: ["", "abc", "1.2.3", "--1", "1,5"])
  func notNumbers(text: String) {
    #expect(Array(text.utf8).withUnsafeBufferPointer { NumberScanner.double($0) } == nil)
  }
}

/// The corpus of broken files: each with the exact error or diagnostic it
/// must produce.
struct BrokenFileCorpusTests {
  @Test(arguments: [
    (
      "binary-junk.gpx",
      "binary-junk.gpx:1:1: not XML (text before any tag); expected a document starting with <?xml or <gpx"
    ),
    (
      "huge-number-latitude.gpx",
      "huge-number-latitude.gpx:1:19: cannot read lat=\"1e400\"; expected a latitude in degrees from -90 to 90"
    ),
    (
      "nan-elevation.gpx",
      "nan-elevation.gpx:1:51: cannot read <ele>NaN</ele>; expected an elevation in metres"
    ),
    (
      "infinite-elevation.gpx",
      "infinite-elevation.gpx:1:51: cannot read <ele>inf</ele>; expected an elevation in metres"
    ),
  ])
  func errors(file: String, message: String) {
    let error = #expect(throws: InputError.self) { try GPXReader().read(path: "\(fixtures)/\(file)") }
    #expect(error?.description.replacingOccurrences(of: fixtures + "/", with: "") == message)
  }

  @Test(arguments: [
    ("wrong-encoding-declared.gpx", "encoding-not-utf8"), ("invalid-utf8-name.gpx", "invalid-utf8"),
  ])
  func diagnostics(file: String, code: String) throws {
    let track = try GPXReader().read(path: "\(fixtures)/\(file)")
    #expect(track.diagnostics.map(\.code).contains(code))
  }

  /// A comment line of a million characters is read like any other
  /// (written at test time rather than shipped).
  @Test func millionCharacterLine() throws {
    let text =
      "<gpx><!-- " + String(repeating: "x", count: 1_000_000)
      + " --><trk><trkseg><trkpt lat=\"50\" lon=\"0\"/><trkpt lat=\"50.001\" lon=\"0\"/></trkseg></trk></gpx>\n"
    let track = try GPXReader().read(data: Data(text.utf8), source: "million-character-line.gpx")
    #expect(track.points.count == 2)
  }
}

/// A heart rate of 0 is a strap without contact: missing, never 0 bpm, and
/// counted. (On the real Garmin file `nick.fit` of the fit-activities set,
/// 4 of 14,391 records are 0: the mean of the rest is 142.742 bpm, the
/// figure fitdecode 0.10 gives when the zeros are left out, where they
/// lowered it to 142.702.)
struct HeartRateDropoutTests {
  @Test func zeroHeartRateIsMissing() throws {
    func point(_ k: Int, _ hr: Int) -> String {
      """
      <trkpt lat="51.5" lon="-0.\(k)"><time>2020-01-01T10:00:0\(k)Z</time>\
      <extensions><gpxtpx:TrackPointExtension><gpxtpx:hr>\(hr)</gpxtpx:hr></gpxtpx:TrackPointExtension></extensions></trkpt>
      """
    }
    let gpx =
      "<?xml version=\"1.0\"?><gpx version=\"1.1\"><trk><trkseg>"
      + point(1, 120) + point(2, 0) + point(3, 140) + "</trkseg></trk></gpx>"
    let track = try GPXReader().read(data: Data(gpx.utf8), source: "dropout.gpx")
    #expect(track.points.map(\.heartRateBeatsPerMinute) == [120, nil, 140])
    let note = try #require(track.diagnostics.first { $0.code == "heart-rate-zero" })
    #expect(note.message.hasPrefix("1 fixes with heart rate 0"))
  }
}
