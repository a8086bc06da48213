import EnergyLabCore
import Foundation

/// The order of day, month and year in a date as devices write it:
/// `2016-05-01` (ymd), ActiGraph's `5/1/2016` (`M/d/yyyy`, mdy) or
/// `1/5/2016` (`d/M/yyyy`, dmy).
public enum DateOrder: String, Sendable, Hashable, CaseIterable {
  case ymd
  case mdy
  case dmy

  /// The order of an ActiLife `date format` pattern such as `M/d/yyyy`,
  /// `dd/MM/yyyy` or `yyyy-MM-dd`; nil when the pattern is none of these.
  public init?(pattern: String) {
    let letters = pattern.lowercased().filter { $0 == "y" || $0 == "m" || $0 == "d" }
    var order = ""
    for c in letters where order.last != c { order.append(c) }
    guard let value = DateOrder(rawValue: order) else { return nil }
    self = value
  }
}

/// A byte-level date-time reader for the hot loop of accelerometer files:
/// `<date> <time>` or `<date>T<time>` with the date in any `DateOrder`
/// (separators `-`, `/` or `.`), the time as `h:mm[:ss[.fff]]`, and an
/// optional `Z`, `+hh:mm` or `+hhmm`. The date part of the last row is
/// remembered, so a 100 Hz file parses its date once per day.
///
/// Times without an offset are local: in `timeZone` when given (daylight
/// saving included), else UTC; `sawLocalTime` records that it happened.
public struct DateTimeScanner {
  public let order: DateOrder
  public let timeZone: TimeZone?
  public internal(set) var sawLocalTime = false

  private var cachedDate: (UInt64, UInt64) = (0, 0)
  private var cachedDateLength = -1
  private var cachedDays = 0
  private var cachedHourStart = Double.nan
  private var cachedOffset = 0
  // The minute of the last row: its text up to the seconds, its instant,
  // and the text after the seconds (the offset, if any).
  private var minutePrefix: [UInt8] = []
  // The prefix as three overlapping 8-byte words (at 0, 8 and length - 8),
  // compared without a call; used when 8 <= length <= 24.
  private var prefixWords: (UInt64, UInt64, UInt64) = (0, 0, 0)
  private var minuteStart = 0.0
  private var minuteSuffix: [UInt8] = []
  private var suffixWord: UInt64 = 0
  private var minuteIsLocal = false
  /// The lengths of `minutePrefix` (0: no minute remembered) and
  /// `minuteSuffix`, read without touching the arrays.
  private var prefixLength = 0
  private var suffixLength = 0

  public init(order: DateOrder = .ymd, timeZone: TimeZone? = nil) {
    self.order = order
    self.timeZone = timeZone
  }

  /// Seconds since 1970 UTC, or nil when the bytes are not such a date-time.
  @inline(__always)
  public mutating func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> Double? {
    if prefixLength > 0, let t = sameMinute(bytes) { return t }
    return fullParse(bytes)
  }

  /// The date-time at the start of a row's first field when it shares the
  /// last row's minute and offset text: the time and the index of the
  /// delimiter that ends the field (before `end`, the line's end), read
  /// without first looking for the delimiter. Nil when the row is not so
  /// simple, for `parse` of the field to decide. No byte at or after `end`
  /// is read.
  @inline(__always)
  public mutating func leadingField(
    _ base: UnsafePointer<UInt8>, _ start: Int, _ end: Int, _ delimiter: UInt8
  ) -> (time: Double, end: Int)? {
    let length = prefixLength
    guard length >= 8 && length <= 24, start &+ length &+ 2 < end,
      prefixWordsMatch(UnsafeRawPointer(base + start))
    else { return nil }
    var i = start &+ length
    // A comma that is the delimiter ends the field; it is no decimal mark.
    guard let (second, fraction) = Self.seconds(base, &i, end, delimiter: delimiter) else { return nil }
    let rest = suffixLength
    guard rest <= 8, i &+ rest < end, rest == 0 || Self.word(base + i, rest) == suffixWord else { return nil }
    let fieldEnd = i &+ rest
    guard base[fieldEnd] == delimiter else { return nil }
    if minuteIsLocal { sawLocalTime = true }
    return (minuteStart + Double(second) + fraction, fieldEnd)
  }

  /// 10^-k for k in 1...15.
  @inline(__always)
  static func tenths(_ k: Int) -> Double {
    switch k {
    case 1: return 1e-1
    case 2: return 1e-2
    case 3: return 1e-3
    case 4: return 1e-4
    case 5: return 1e-5
    case 6: return 1e-6
    case 7: return 1e-7
    case 8: return 1e-8
    case 9: return 1e-9
    case 10: return 1e-10
    case 11: return 1e-11
    case 12: return 1e-12
    case 13: return 1e-13
    case 14: return 1e-14
    default: return 1e-15
    }
  }

  /// The fast path: the row shares the last row's minute and offset text,
  /// so only the seconds are read.
  @inline(__always)
  private mutating func sameMinute(_ bytes: UnsafeBufferPointer<UInt8>) -> Double? {
    let n = bytes.count
    let length = prefixLength
    guard n >= length &+ 2, let p = bytes.baseAddress else { return nil }
    let raw = UnsafeRawPointer(p)
    if length >= 8 && length <= 24 {
      guard prefixWordsMatch(raw) else { return nil }
    } else {
      guard memcmp(minutePrefix, raw, length) == 0 else {
        return nil
      }
    }
    var i = length
    guard let (second, fraction) = Self.seconds(p, &i, n, delimiter: nil) else { return nil }
    let rest = n &- i
    guard rest == suffixLength else { return nil }
    if rest > 8 {
      guard memcmp(minuteSuffix, raw + i, rest) == 0 else {
        return nil
      }
    } else if rest > 0 {
      guard Self.word(p + i, rest) == suffixWord else { return nil }
    }
    if minuteIsLocal { sawLocalTime = true }
    return minuteStart + Double(second) + fraction
  }

  /// Whether the text at `raw` starts with the remembered minute, compared
  /// as three overlapping words (8 <= prefix length <= 24).
  @inline(__always)
  private func prefixWordsMatch(_ raw: UnsafeRawPointer) -> Bool {
    let length = prefixLength
    return raw.loadUnaligned(as: UInt64.self) == prefixWords.0
      && raw.loadUnaligned(fromByteOffset: length &- 8, as: UInt64.self) == prefixWords.2
      && (length <= 16 || raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self) == prefixWords.1)
  }

  /// Two-digit seconds at `i`, then a fraction after `.` or `,`, or three
  /// digits of milliseconds after `:` (GENEActiv), unless that byte is
  /// `delimiter`, all before `end`; `i` moves past them.
  @inline(__always)
  private static func seconds(_ p: UnsafePointer<UInt8>, _ i: inout Int, _ end: Int, delimiter: UInt8?) -> (
    Int, Double
  )? {
    let d1 = p[i] &- 0x30
    let d2 = p[i &+ 1] &- 0x30
    guard d1 < 6 || (d1 == 6 && d2 == 0), d2 < 10 else { return nil }
    i &+= 2
    var fraction = 0.0
    if i < end && p[i] != delimiter && (p[i] == 0x2E || p[i] == 0x2C || p[i] == 0x3A) {
      let colon = p[i] == 0x3A
      i &+= 1
      let fractionStart = i
      var digits: UInt64 = 0
      while i < end {
        let d = p[i] &- 0x30
        guard d < 10 else { break }
        if i &- fractionStart < 15 { digits = digits &* 10 &+ UInt64(d) }
        i &+= 1
      }
      let count = min(i &- fractionStart, 15)
      guard count > 0, !colon || i &- fractionStart == 3 else { return nil }
      // A product, not a quotient: the instant is kept to about 0.2 us
      // anyway, far coarser than the product's rounding.
      fraction = Double(digits) * Self.tenths(count)
    }
    return (Int(d1) &* 10 &+ Int(d2), fraction)
  }

  /// The `count` (1...8) bytes at `p` as a little-endian word.
  @inline(__always)
  private static func word(_ p: UnsafePointer<UInt8>, _ count: Int) -> UInt64 {
    var word: UInt64 = 0
    for j in 0..<count { word |= UInt64(p[j]) << (8 &* UInt64(j)) }
    return word
  }

  private mutating func fullParse(_ bytes: UnsafeBufferPointer<UInt8>) -> Double? {
    var start = bytes.startIndex
    var end = bytes.endIndex
    while start < end && (bytes[start] == 0x20 || bytes[start] == 0x22) { start += 1 }
    while end > start && (bytes[end - 1] == 0x20 || bytes[end - 1] == 0x22 || bytes[end - 1] == 0x0D) {
      end -= 1
    }
    // The date ends at the first space or T (or a field delimiter, for
    // files that keep date and time in neighbouring columns).
    var dateEnd = start
    while dateEnd < end {
      let b = bytes[dateEnd]
      if b == 0x20 || b == 0x54 || b == 0x74 || b == 0x2C || b == 0x3B || b == 0x09 { break }
      dateEnd += 1
    }
    guard dateEnd < end, dateEnd - start <= 16, dateEnd - start >= 6 else { return nil }
    var key: (UInt64, UInt64) = (0, 0)
    withUnsafeMutableBytes(of: &key) { k in
      for j in 0..<(dateEnd - start) { k[j] = bytes[start + j] }
    }
    let days: Int
    if dateEnd - start == cachedDateLength && key == cachedDate {
      days = cachedDays
    } else {
      guard let d = Self.days(bytes, start, dateEnd, order) else { return nil }
      cachedDate = key
      cachedDateLength = dateEnd - start
      cachedDays = d
      days = d
    }
    var i = dateEnd + 1
    while i < end && (bytes[i] == 0x20 || bytes[i] == 0x22) { i += 1 }
    func number(_ maxDigits: Int) -> Int? {
      var value = 0
      var count = 0
      while i < end && count < maxDigits && bytes[i] >= 0x30 && bytes[i] <= 0x39 {
        value = value * 10 + Int(bytes[i] - 0x30)
        i += 1
        count += 1
      }
      return count > 0 ? value : nil
    }
    guard let hour = number(2), hour <= 24, i < end, bytes[i] == 0x3A else { return nil }
    i += 1
    guard let minute = number(2), minute <= 59 else { return nil }
    var second = 0
    var fraction = 0.0
    var secondsAt = -1
    if i < end && bytes[i] == 0x3A {
      i += 1
      secondsAt = i
      guard let s = number(2), s <= 60 else { return nil }
      second = s
      // A fraction after `.` or `,`; GENEActiv writes milliseconds after
      // a colon (`10:00:00:250`), always three digits.
      if i < end && (bytes[i] == 0x2E || bytes[i] == 0x2C || bytes[i] == 0x3A) {
        let colon = bytes[i] == 0x3A
        i += 1
        let digitsAt = i
        var digits: UInt64 = 0
        var count = 0
        while i < end && bytes[i] >= 0x30 && bytes[i] <= 0x39 {
          if count < 15 {
            digits = digits * 10 + UInt64(bytes[i] - 0x30)
            count += 1
          }
          i += 1
        }
        guard count > 0, !colon || i - digitsAt == 3 else { return nil }
        fraction = Double(digits) * Self.tenths(count)
      }
    }
    let local = Double(days * 86400 + hour * 3600 + minute * 60 + second)
    let suffixAt = i
    if i == end {
      sawLocalTime = true
      let utc = local - Double(offset(local: local))
      remember(bytes, start, secondsAt, suffixAt, end, utc - Double(second), isLocal: true)
      return utc + fraction
    }
    var offset = 0
    // SensorLog writes one space before the offset (`14:25:03.000 +0200`).
    if bytes[i] == 0x20 && i + 1 < end && (bytes[i + 1] == 0x2B || bytes[i + 1] == 0x2D) { i += 1 }
    if bytes[i] == 0x5A || bytes[i] == 0x7A {
      i += 1
    } else if bytes[i] == 0x2B || bytes[i] == 0x2D {
      let sign = bytes[i] == 0x2D ? -1 : 1
      i += 1
      guard let oh = number(2), oh <= 23 else { return nil }
      var om = 0
      if i < end {
        if bytes[i] == 0x3A { i += 1 }
        guard let m = number(2), m <= 59 else { return nil }
        om = m
      }
      offset = sign * (oh * 3600 + om * 60)
    } else {
      return nil
    }
    guard i == end else { return nil }
    remember(bytes, start, secondsAt, suffixAt, end, local - Double(offset) - Double(second), isLocal: false)
    return local - Double(offset) + fraction
  }

  private mutating func remember(
    _ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ secondsAt: Int, _ suffixAt: Int, _ end: Int,
    _ minute: Double, isLocal: Bool
  ) {
    // Only rows without leading padding and with two-digit seconds.
    guard secondsAt > 0, start == bytes.startIndex, end == bytes.endIndex else {
      minutePrefix = []
      prefixLength = 0
      return
    }
    minutePrefix = Array(bytes[start..<secondsAt])
    let length = minutePrefix.count
    prefixLength = length
    if length >= 8 && length <= 24 {
      minutePrefix.withUnsafeBytes { p in
        prefixWords = (
          p.loadUnaligned(as: UInt64.self),
          length > 16 ? p.loadUnaligned(fromByteOffset: 8, as: UInt64.self) : 0,
          p.loadUnaligned(fromByteOffset: length - 8, as: UInt64.self)
        )
      }
    }
    minuteSuffix = Array(bytes[suffixAt..<end])
    suffixLength = minuteSuffix.count
    suffixWord = 0
    for (j, b) in minuteSuffix.prefix(8).enumerated() { suffixWord |= UInt64(b) << (8 * UInt64(j)) }
    minuteStart = minute
    minuteIsLocal = isLocal
  }

  /// The zone's offset at a local time, remembered per local hour.
  private mutating func offset(local: Double) -> Int {
    guard let timeZone else { return 0 }
    let hourStart = (local / 3600).rounded(.down) * 3600
    if hourStart != cachedHourStart {
      let guess = timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: hourStart))
      cachedOffset = timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: hourStart - Double(guess)))
      cachedHourStart = hourStart
    }
    return cachedOffset
  }

  private static func days(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int, _ order: DateOrder)
    -> Int?
  {
    var parts = [0, 0, 0]
    var widths = [0, 0, 0]
    var k = 0
    for i in start..<end {
      let b = bytes[i]
      if b >= 0x30 && b <= 0x39 {
        parts[k] = parts[k] * 10 + Int(b - 0x30)
        widths[k] += 1
        guard widths[k] <= 4 else { return nil }
      } else if b == 0x2D || b == 0x2F || b == 0x2E {
        k += 1
        guard k < 3 else { return nil }
      } else {
        return nil
      }
    }
    guard k == 2, widths.allSatisfy({ $0 > 0 }) else { return nil }
    let (year, month, day): (Int, Int, Int)
    // A four-digit first part is a year whatever the declared order: an
    // ActiGraph Link file that declares dd/MM/yyyy writes 2017-09-12T15:00:00Z.
    switch widths[0] == 4 ? .ymd : order {
    case .ymd: (year, month, day) = (parts[0], parts[1], parts[2])
    case .mdy: (year, month, day) = (parts[2], parts[0], parts[1])
    case .dmy: (year, month, day) = (parts[2], parts[1], parts[0])
    }
    guard year >= 1000, (1...12).contains(month),
      (1...ISO8601.daysInMonth(year: year, month: month)).contains(day)
    else { return nil }
    return ISO8601.daysFromCivil(year: year, month: month, day: day)
  }
}
