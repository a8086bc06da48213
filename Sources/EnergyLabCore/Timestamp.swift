import Foundation

/// The result of reading an ISO-8601 timestamp: the instant, and whether the
/// text carried an explicit offset (`Z`, `+hh:mm`, `+hhmm`, `+hh`).
public struct ParsedTimestamp: Sendable, Hashable {
  /// Seconds since 1970-01-01T00:00:00Z.
  public var secondsSince1970: Double
  public var hadOffset: Bool
}

/// A reader for ISO-8601 date-times as devices write them:
/// `2012-05-01T10:00:00Z`, `2012-05-01T10:00:00.123Z`,
/// `2012-05-01T10:00:00+01:00`, `2012-05-01T10:00:00+0100`,
/// `2012-05-01 10:00:00` (no offset) and any number of fractional digits.
///
/// Written as a scanner rather than one `ISO8601DateFormatter`
/// configuration, because no single configuration accepts all of these.
public enum ISO8601 {
  /// Parses `text`; a timestamp without an offset is read in
  /// `defaultOffsetSeconds` (UTC unless told) and reported through
  /// `hadOffset == false`. Returns nil when the text is not a timestamp.
  public static func parse(_ text: some StringProtocol, defaultOffsetSeconds: Int = 0) -> ParsedTimestamp? {
    var bytes = Array(text.utf8)
    while let last = bytes.last, last == 0x20 || last == 0x09 || last == 0x0A || last == 0x0D {
      bytes.removeLast()
    }
    var start = 0
    while start < bytes.count, bytes[start] == 0x20 || bytes[start] == 0x09 || bytes[start] == 0x0A {
      start += 1
    }
    return bytes.withUnsafeBufferPointer {
      parse(bytes: UnsafeBufferPointer(rebasing: $0[start...]), defaultOffsetSeconds: defaultOffsetSeconds)
    }
  }

  /// Byte-level form of `parse(_:)` for readers that hold raw UTF-8.
  public static func parse(bytes: UnsafeBufferPointer<UInt8>, defaultOffsetSeconds: Int = 0)
    -> ParsedTimestamp?
  {
    var i = bytes.startIndex
    let end = bytes.endIndex
    func digits(_ count: Int) -> Int? {
      guard i + count <= end else { return nil }
      var value = 0
      for k in 0..<count {
        let b = bytes[i + k]
        guard b >= 0x30, b <= 0x39 else { return nil }
        value = value * 10 + Int(b - 0x30)
      }
      i += count
      return value
    }
    func expect(_ byte: UInt8) -> Bool {
      guard i < end, bytes[i] == byte else { return false }
      i += 1
      return true
    }
    guard let year = digits(4), expect(0x2D), let month = digits(2), expect(0x2D), let day = digits(2)
    else { return nil }
    guard i < end, bytes[i] == 0x54 || bytes[i] == 0x20 || bytes[i] == 0x74 else { return nil }
    i += 1
    guard let hour = digits(2), expect(0x3A), let minute = digits(2) else { return nil }
    var second = 0
    var fraction = 0.0
    if expect(0x3A) {
      guard let s = digits(2) else { return nil }
      second = s
      if i < end, bytes[i] == 0x2E || bytes[i] == 0x2C {
        i += 1
        var scale = 0.1
        var any = false
        while i < end, bytes[i] >= 0x30, bytes[i] <= 0x39 {
          fraction += Double(bytes[i] - 0x30) * scale
          scale /= 10
          i += 1
          any = true
        }
        guard any else { return nil }
      }
    }
    guard (1...12).contains(month), (1...daysInMonth(year: year, month: month)).contains(day),
      hour <= 24, minute <= 59, second <= 60
    else { return nil }
    var offsetSeconds = defaultOffsetSeconds
    var hadOffset = false
    if i < end {
      if bytes[i] == 0x5A || bytes[i] == 0x7A {  // Z
        i += 1
        offsetSeconds = 0
        hadOffset = true
      } else if bytes[i] == 0x2B || bytes[i] == 0x2D {  // + or -
        let sign = bytes[i] == 0x2D ? -1 : 1
        i += 1
        guard let oh = digits(2), oh <= 23 else { return nil }
        var om = 0
        if i < end {
          _ = expect(0x3A)
          guard let m = digits(2), m <= 59 else { return nil }
          om = m
        }
        offsetSeconds = sign * (oh * 3600 + om * 60)
        hadOffset = true
      }
    }
    guard i == end else { return nil }
    let days = daysFromCivil(year: year, month: month, day: day)
    let seconds = Double(days * 86400 + hour * 3600 + minute * 60 + second - offsetSeconds) + fraction
    return ParsedTimestamp(secondsSince1970: seconds, hadOffset: hadOffset)
  }

  /// Formats seconds since 1970 as `YYYY-MM-DDThh:mm:ssZ` in UTC, with
  /// `fractionDigits` digits of fractional seconds when asked.
  public static func formatUTC(_ secondsSince1970: Double, fractionDigits: Int = 0) -> String {
    let scale = pow(10.0, Double(fractionDigits))
    let scaled = (secondsSince1970 * scale).rounded()
    let whole = Int64((scaled / scale).rounded(.down))
    let fractional = Int64(scaled - Double(whole) * scale)
    var days = whole / 86400
    var secondsOfDay = whole % 86400
    if secondsOfDay < 0 {
      secondsOfDay += 86400
      days -= 1
    }
    let (y, m, d) = civilFromDays(Int(days))
    let text =
      pad(y, 4) + "-" + pad(m, 2) + "-" + pad(d, 2) + "T" + pad(Int(secondsOfDay / 3600), 2) + ":"
      + pad(Int(secondsOfDay % 3600 / 60), 2) + ":" + pad(Int(secondsOfDay % 60), 2)
    if fractionDigits > 0 {
      return text + "." + pad(Int(fractional), fractionDigits) + "Z"
    }
    return text + "Z"
  }

  /// Formats an instant as local time with its offset,
  /// `YYYY-MM-DDThh:mm:ss+hh:mm` (`Z` is never used, so the offset is
  /// always explicit).
  public static func formatWithOffset(_ secondsSince1970: Double, offsetSeconds: Int) -> String {
    let local = formatUTC(secondsSince1970 + Double(offsetSeconds)).dropLast()
    let sign = offsetSeconds < 0 ? "-" : "+"
    let magnitude = abs(offsetSeconds)
    return local + sign + pad(magnitude / 3600, 2) + ":" + pad(magnitude % 3600 / 60, 2)
  }

  private static func pad(_ value: Int, _ width: Int) -> String {
    let text = String(value)
    return text.count >= width ? text : String(repeating: "0", count: width - text.count) + text
  }

  public static func daysInMonth(year: Int, month: Int) -> Int {
    switch month {
    case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
    case 4, 6, 9, 11: return 30
    default: return 31
    }
  }

  /// Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's
  /// days_from_civil algorithm).
  public static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
    let y = month <= 2 ? year - 1 : year
    let era = (y >= 0 ? y : y - 399) / 400
    let yoe = y - era * 400
    let mp = (month + 9) % 12
    let doy = (153 * mp + 2) / 5 + day - 1
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
    return era * 146097 + doe - 719468
  }

  /// The inverse of `daysFromCivil`.
  public static func civilFromDays(_ days: Int) -> (Int, Int, Int) {
    let z = days + 719468
    let era = (z >= 0 ? z : z - 146096) / 146097
    let doe = z - era * 146097
    let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
    let mp = (5 * doy + 2) / 153
    let d = doy - (153 * mp + 2) / 5 + 1
    let m = mp < 10 ? mp + 3 : mp - 9
    return (yoe + era * 400 + (m <= 2 ? 1 : 0), m, d)
  }
}
