import EnergyLabCore
import Foundation

/// Writes a track as GPX 1.1 with one `<trk>` and one `<trkseg>`, with
/// coordinates to 8 decimal places (about 1 mm), elevation to 0.001 m and
/// times in UTC with milliseconds.
public enum GPXWriter {
  public static func gpx(_ track: Track, creator: String) -> String {
    let hasHeartRate = track.points.contains { $0.heartRateBeatsPerMinute != nil }
    let namespaces =
      hasHeartRate ? " xmlns:gpxtpx=\"http://www.garmin.com/xmlschemas/TrackPointExtension/v1\"" : ""
    var out = """
      <?xml version="1.0" encoding="UTF-8"?>
      <gpx version="1.1" creator="\(escape(creator))" xmlns="http://www.topografix.com/GPX/1/1"\(namespaces)>

      """
    out += "  <trk>\n"
    if let name = track.name { out += "    <name>\(escape(name))</name>\n" }
    out += "    <trkseg>\n"
    for p in track.points {
      out +=
        "      <trkpt lat=\"\(Fixed.format(p.latitudeDegrees, digits: 8))\" lon=\"\(Fixed.format(p.longitudeDegrees, digits: 8))\">"
      if let ele = p.elevationMeters { out += "<ele>\(Fixed.format(ele, digits: 3))</ele>" }
      if let t = p.timeSecondsSince1970 { out += "<time>\(ISO8601.formatUTC(t, fractionDigits: 3))</time>" }
      if let hr = p.heartRateBeatsPerMinute {
        out +=
          "<extensions><gpxtpx:TrackPointExtension><gpxtpx:hr>\(Fixed.shortest(hr.rounded()))</gpxtpx:hr></gpxtpx:TrackPointExtension></extensions>"
      }
      out += "</trkpt>\n"
    }
    out += "    </trkseg>\n  </trk>\n</gpx>\n"
    return out
  }

  static func escape(_ text: String) -> String {
    text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
      .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
  }
}
