import EnergyLabCore
import Foundation

/// A mode label at an instant: an observer's second or a tool's epoch.
public struct TimedLabel: Sendable, Hashable {
  public var secondsSince1970: Double
  /// The label as the file writes it (`Walk`, `Some Movement/Walk`,
  /// `pedestrian`), trimmed.
  public var label: String
  /// The 1-based line it was read from.
  public var line: Int
}

/// Readers of observed transport modes and of another tool's modes, in the
/// layouts of the PALMS validation study (MD2K, BSD 3-clause).
public enum ModeTruthReader {
  /// An observer's log, one row per second: `Date` (M/D/YYYY), `Time`
  /// (H:MM:SS) in local time of `timeZone`, and `Mode`. Text fields are
  /// Latin-1 (Windows-1252); only these three columns are read.
  public static func observedSeconds(path: String, timeZone: TimeZone) throws -> [TimedLabel] {
    let rows = try latin1Rows(path: path, expected: "a truth CSV with Date, Time and Mode columns")
    guard let header = rows.first else {
      throw InputError(
        .empty, SourceLocation(file: path), "no rows", expected: "a header with Date, Time, Mode")
    }
    let columns = try columnIndices(["Date", "Time", "Mode"], header: header, path: path)
    var clock = LocalClock(timeZone: timeZone)
    var out: [TimedLabel] = []
    out.reserveCapacity(rows.count)
    for row in rows.dropFirst() {
      if row.fields.count == 1 && row.fields[0].isEmpty { continue }
      guard columns.allSatisfy({ $0 < row.fields.count }) else {
        throw InputError(
          .malformed, SourceLocation(file: path, line: row.line), "\(row.fields.count) fields",
          expected: "at least \(columns.max()! + 1) fields, as the header")
      }
      let date = row.fields[columns[0]].split(separator: "/")
      let time = row.fields[columns[1]].split(separator: ":")
      guard date.count == 3, time.count == 3, let month = Int(date[0]), let day = Int(date[1]),
        let year = Int(date[2]), let hour = Int(time[0]), let minute = Int(time[1]),
        let second = Int(time[2]),
        (1...12).contains(month), (1...31).contains(day), (0...23).contains(hour), (0...59).contains(minute),
        (0...60).contains(second)
      else {
        throw InputError(
          .value, SourceLocation(file: path, line: row.line, column: columns[0] + 1),
          "cannot read \"\(row.fields[columns[0]]) \(row.fields[columns[1]])\" as a date and time",
          expected: "M/D/YYYY and H:MM:SS")
      }
      out.append(
        TimedLabel(
          secondsSince1970: clock.utc(
            year: year, month: month, day: day, secondOfDay: hour * 3600 + minute * 60 + second),
          label: row.fields[columns[2]].trimmingCharacters(in: .whitespaces), line: row.line))
    }
    return out
  }

  /// PALMS's own output, one row per epoch: `dateTime`
  /// (`2011-02-21 09:54:00.0`) in local time of `timeZone`, and `tripMode`.
  public static func palmsEpochs(path: String, timeZone: TimeZone) throws -> [TimedLabel] {
    let rows = try latin1Rows(path: path, expected: "a PALMS output CSV with dateTime and tripMode columns")
    guard let header = rows.first else {
      throw InputError(
        .empty, SourceLocation(file: path), "no rows", expected: "a header with dateTime, tripMode")
    }
    let columns = try columnIndices(["dateTime", "tripMode"], header: header, path: path)
    var clock = LocalClock(timeZone: timeZone)
    var out: [TimedLabel] = []
    for row in rows.dropFirst() {
      if row.fields.count == 1 && row.fields[0].isEmpty { continue }
      guard columns.allSatisfy({ $0 < row.fields.count }) else {
        throw InputError(
          .malformed, SourceLocation(file: path, line: row.line), "\(row.fields.count) fields",
          expected: "at least \(columns.max()! + 1) fields, as the header")
      }
      let text = row.fields[columns[0]]
      let parts = text.split(whereSeparator: { " -:".contains($0) })
      guard parts.count >= 6, let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]),
        let hour = Int(parts[3]), let minute = Int(parts[4]), let seconds = Double(parts[5]),
        (1...12).contains(month), (1...31).contains(day), (0...23).contains(hour), (0...59).contains(minute)
      else {
        throw InputError(
          .value, SourceLocation(file: path, line: row.line, column: columns[0] + 1),
          "cannot read \"\(text)\" as a date and time", expected: "YYYY-MM-DD HH:MM:SS.s")
      }
      out.append(
        TimedLabel(
          secondsSince1970: clock.utc(
            year: year, month: month, day: day, secondOfDay: hour * 3600 + minute * 60)
            + seconds, label: row.fields[columns[1]].trimmingCharacters(in: .whitespaces), line: row.line))
    }
    return out
  }

  static func latin1Rows(path: String, expected: String) throws -> [CSVRow] {
    let data = try FileInput.read(path, expected: expected)
    // Latin-1 maps every byte to a character: it never fails.
    var text = String(data: data, encoding: .isoLatin1) ?? ""
    if text.hasPrefix("\u{EF}\u{BB}\u{BF}") { text.removeFirst(3) }
    return try CSVTokenizer.rows(text, source: path)
  }

  static func columnIndices(_ names: [String], header: CSVRow, path: String) throws -> [Int] {
    try names.map { name in
      guard let k = header.fields.firstIndex(where: { $0.trimmingCharacters(in: .whitespaces) == name })
      else {
        throw InputError(
          .malformed, SourceLocation(file: path, line: header.line), "no \(name) column",
          expected: "columns \(names.joined(separator: ", "))")
      }
      return k
    }
  }
}

/// Local wall-clock times of one time zone to UTC, the offset looked up
/// once per local hour.
struct LocalClock {
  var timeZone: TimeZone
  var offsets: [Int: Int] = [:]

  init(timeZone: TimeZone) { self.timeZone = timeZone }

  /// Seconds since 1970 (UTC) of a local date and second of the day. A
  /// local time that occurs twice (autumn) is read as its first
  /// occurrence; one that never occurs (spring) with the offset before.
  mutating func utc(year: Int, month: Int, day: Int, secondOfDay: Int) -> Double {
    let local = ISO8601.daysFromCivil(year: year, month: month, day: day) * 86_400 + secondOfDay
    let hourKey = local / 3600
    let offset: Int
    if let known = offsets[hourKey] {
      offset = known
    } else {
      // The offset at the instant the local time would be under the offset
      // one day earlier, then corrected once.
      let guess = timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(hourKey * 3600 - 86_400)))
      let first = timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(hourKey * 3600 - guess)))
      offsets[hourKey] = first
      offset = first
    }
    return Double(local - offset)
  }
}
