import EnergyLabCore
import Foundation

/// The rows of one chunk, parsed into columns.
struct ParsedRows {
  /// Seconds since 1970 UTC; for `.implicit` times, the row's index within
  /// the chunk (the reader adds the start and the rows before).
  var time: [Double] = []
  /// Values row after row, `kind.width` per row.
  var values: [Double] = []
  /// Line of each row, counted from the chunk's first line (0-based).
  var lineOffsets: [Int32] = []
  /// Lines in the chunk, including skipped and blank ones.
  var lines = 0
  var blankLines = 0
  var firstBlankLine: Int?
  /// The first bad row: its line offset, byte column, problem, expectation.
  var error: (kind: InputError.Kind, line: Int, column: Int, problem: String, expected: String)?
  /// The line offset of an unterminated, unreadable last line.
  var truncatedLine: Int?
  var sawLocalTime = false
}

/// Parses the data rows of a chunk with a hand-written scanner: the
/// numeric hot path of accelerometer files (libcsv plus strtod is several
/// times slower; see BENCHMARKS.md).
struct AccelRowParser: Sendable {
  let layout: AccelLayout
  let timeZone: TimeZone?

  /// What each field of a row is for: -1 ignored, -2 time, -3 date, k >= 0
  /// value slot k.
  private let roles: [Int]
  private let timeLabel: String

  init(layout: AccelLayout, timeZone: TimeZone?) {
    self.layout = layout
    self.timeZone = timeZone
    var roles = [Int](repeating: -1, count: layout.columnCount)
    for (slot, column) in layout.valueColumns.enumerated() where column >= 0 && column < roles.count {
      roles[column] = slot
    }
    switch layout.time {
    case .dateTime(let c, _), .number(let c, _, _): if c < roles.count { roles[c] = -2 }
    case .dateAndTime(let d, let t, _):
      if d < roles.count { roles[d] = -3 }
      if t < roles.count { roles[t] = -2 }
    case .implicit: break
    }
    self.roles = roles
    switch layout.time {
    case .dateTime(_, let order), .dateAndTime(_, _, let order):
      timeLabel = "a date-time (\(order.rawValue) date order)"
    case .number: timeLabel = "a number of seconds"
    case .implicit: timeLabel = ""
    }
  }

  private func name(_ column: Int) -> String {
    column < layout.columnNames.count && !layout.columnNames[column].isEmpty
      ? "column \(column + 1) (\(layout.columnNames[column]))" : "column \(column + 1)"
  }

  func parse(_ chunk: [UInt8], skipLines: Int, isLast: Bool) -> ParsedRows {
    chunk.withUnsafeBufferPointer { parse($0, skipLines: skipLines, isLast: isLast) }
  }

  /// The field `start..<end` without the double quotes around it, if any.
  @inline(__always)
  static func unquoted(_ buffer: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> Range<Int> {
    guard end > start && buffer[start] == 0x22 else { return start..<end }
    return (start + 1)..<(end > start + 1 && buffer[end - 1] == 0x22 ? end - 1 : end)
  }

  /// The rows of `text`, which ends just after a line break (or at the end
  /// of the file when `isLast`).
  func parse(_ buffer: UnsafeBufferPointer<UInt8>, skipLines: Int, isLast: Bool) -> ParsedRows {
    guard let base = buffer.baseAddress, !buffer.isEmpty else { return ParsedRows() }
    let slots = layout.valueColumns.count
    var out = ParsedRows()
    var scanner: DateTimeScanner
    var numberScale = 1.0
    var numberStart = 0.0
    var dateAndTime = false
    var implicit = false
    var isNumberTime = false
    switch layout.time {
    case .dateTime(_, let order): scanner = DateTimeScanner(order: order, timeZone: timeZone)
    case .dateAndTime(_, _, let order):
      scanner = DateTimeScanner(order: order, timeZone: timeZone)
      dateAndTime = true
    case .number(_, let scale, let start):
      scanner = DateTimeScanner()
      numberScale = scale
      numberStart = start
      isNumberTime = true
    case .implicit:
      scanner = DateTimeScanner()
      implicit = true
    }
    let delimiter = layout.delimiter
    let decimal = layout.decimalSeparator
    let columnCount = layout.columnCount
    let scale = layout.kind == .raw ? layout.scale : 1
    // Rows write their values in place; slots no column fills are NaN.
    let everySlotRead = (0..<slots).allSatisfy { self.roles.contains($0) }
    // The common shape, a date-time then the values in slot order, has a
    // path of its own with no per-field dispatch; any row it cannot read
    // whole goes through the general reader.
    // (Decimal-comma files take the general reader, which holds a point
    // in their numbers for an error: `1.234` may be a thousands separator.)
    var timeThenValues = false
    if case .dateTime(0, _) = layout.time, slots > 0, columnCount == slots + 1, decimal == 0x2E {
      timeThenValues = (0..<slots).allSatisfy { self.roles[$0 + 1] == $0 }
    }

    let n = buffer.count
    // Rows are written straight into buffers: a row of k fields takes at
    // least 2k bytes with its line break, which bounds the row count
    // (pages never written are never touched).
    let capacity = n / (2 * max(columnCount, 1)) + 2
    let roles = UnsafeMutablePointer<Int>.allocate(capacity: max(columnCount, 1))
    let powers = UnsafeMutablePointer<Double>.allocate(capacity: 16)
    let integerPowers = UnsafeMutablePointer<UInt64>.allocate(capacity: 8)
    defer {
      roles.deallocate()
      powers.deallocate()
      integerPowers.deallocate()
    }
    for k in 0..<columnCount { roles[k] = self.roles[k] }
    for k in 0..<16 { powers[k] = NumberScanner.power(k) }
    for k in 0..<8 { integerPowers[k] = UInt64(NumberScanner.power(k)) }
    var p = 0
    var line = 0
    var rowIndex = 0
    // The rows go straight into the arrays handed on (no copy): their
    // capacity is the bound, and pages never written are never touched.
    var valueArray: [Double] = []
    var offsetArray: [Int32] = []
    let timeArray = [Double](unsafeUninitializedCapacity: capacity) { timeBuffer, timeCount in
      valueArray = [Double](unsafeUninitializedCapacity: capacity * max(slots, 1)) {
        valueBuffer, valueCount in
        offsetArray = [Int32](unsafeUninitializedCapacity: capacity) { offsetBuffer, offsetCount in
          // Each holds at least two rows (`capacity`), so each has an address.
          guard let times = timeBuffer.baseAddress, let values = valueBuffer.baseAddress,
            let lineOffsets = offsetBuffer.baseAddress
          else { return }
          // Skip header lines.
          while line < skipLines && p < n {
            p = Self.lineEnd(base, p, n) + 1
            line += 1
          }
          lineLoop: while p < n {
            // A row that is dropped (a line cut off mid-write) must not leave
            // its time's lack of an offset behind.
            let localBefore = scanner.sawLocalTime
            if timeThenValues,
              let next = Self.timeThenValues(
                base, p, n, delimiter, slots, scale, &scanner, times + rowIndex, values + rowIndex * slots,
                powers,
                integerPowers)
            {
              lineOffsets[rowIndex] = Int32(truncatingIfNeeded: line)
              rowIndex += 1
              line += 1
              p = next
              continue
            }
            let lineStart = p
            let lineEnd = Self.lineEnd(base, p, n)
            let terminated = lineEnd < n
            var contentEnd = lineEnd
            if contentEnd > lineStart && buffer[contentEnd - 1] == 0x0D { contentEnd -= 1 }
            defer {
              p = lineEnd + 1
              line += 1
            }
            if contentEnd == lineStart {
              out.blankLines += 1
              if out.firstBlankLine == nil { out.firstBlankLine = line }
              continue
            }
            func fail(_ kind: InputError.Kind, _ column: Int, _ problem: String, _ expected: String) {
              scanner.sawLocalTime = localBefore
              if isLast && !terminated {
                out.truncatedLine = line
              } else {
                out.error = (kind, line, column - lineStart + 1, problem, expected)
              }
            }
            var field = 0
            var timeValue = Double.nan
            var dateStart = -1
            let rowValues = values + rowIndex * slots
            if !everySlotRead { for k in 0..<slots { rowValues[k] = .nan } }
            var q = lineStart
            while true {
              let fieldStart = q
              let role = field < columnCount ? roles[field] : -1
              if role >= 0 {
                // The hot path: a plain decimal number read in the same pass
                // that finds the end of the field.
                if decimal == 0x2E,
                  let v = Self.plainNumber(base, &q, contentEnd, n, delimiter, powers, integerPowers)
                {
                  rowValues[role] = v * scale
                } else {
                  while q < contentEnd && buffer[q] != delimiter { q += 1 }
                  let cell = UnsafeBufferPointer(rebasing: buffer[Self.unquoted(buffer, fieldStart, q)])
                  guard let v = NumberScanner.double(cell, decimal: decimal) else {
                    let text = AccelDetector.printable(String(decoding: cell.prefix(40), as: UTF8.self))
                    fail(
                      .value, fieldStart, "cell \"\(text)\" in \(name(field)) is not a finite number",
                      decimal == 0x2E ? "a number" : "a number with a decimal comma, as the file's first rows"
                    )
                    break lineLoop
                  }
                  rowValues[role] = v * scale
                }
              } else {
                q = Self.find(delimiter, base, q, contentEnd)
                if role != -1 {
                  let range = Self.unquoted(buffer, fieldStart, q)
                  if role == -3 {
                    dateStart = range.lowerBound
                  } else {
                    // The time: a number, or a date-time (with the date column
                    // before it when the two are apart).
                    let span = UnsafeBufferPointer(
                      rebasing: buffer[
                        (!isNumberTime && dateAndTime && dateStart >= 0 ? dateStart : range.lowerBound)..<range
                          .upperBound])
                    let parsed =
                      isNumberTime
                      ? NumberScanner.double(span, decimal: decimal).map { numberStart + $0 * numberScale }
                      : scanner.parse(span)
                    guard let t = parsed else {
                      fail(
                        .value, fieldStart,
                        "time \"\(AccelDetector.printable(String(decoding: span.prefix(40), as: UTF8.self)))\" in \(name(field))",
                        timeLabel)
                      break lineLoop
                    }
                    timeValue = t
                  }
                }
              }
              field += 1
              if q >= contentEnd { break }
              q += 1  // past the delimiter
            }
            guard field == columnCount else {
              fail(
                .malformed, lineStart, "\(field) fields",
                "\(columnCount) fields separated by \"\(Character(Unicode.Scalar(delimiter)))\"")
              break lineLoop
            }
            times[rowIndex] = implicit ? Double(rowIndex) : timeValue
            lineOffsets[rowIndex] = Int32(truncatingIfNeeded: line)
            rowIndex += 1
          }
          // Count the remaining lines (after an error, for the line base).
          while p < n {
            p = Self.lineEnd(base, p, n) + 1
            line += 1
          }
          offsetCount = rowIndex
        }
        valueCount = rowIndex * slots
      }
      timeCount = rowIndex
    }
    out.lines = line
    out.time = timeArray
    out.values = valueArray
    out.lineOffsets = offsetArray
    out.sawLocalTime = scanner.sawLocalTime
    return out
  }

  /// The index of the next `byte` in `from..<end`, or `end`; eight bytes
  /// at a time (the has-zero-byte test of Anderson's bit hacks).
  @inline(__always)
  static func find(_ byte: UInt8, _ base: UnsafePointer<UInt8>, _ from: Int, _ end: Int) -> Int {
    let pattern = UInt64(byte) &* 0x0101_0101_0101_0101
    var i = from
    let raw = UnsafeRawPointer(base)
    while i + 8 <= end {
      let x = raw.loadUnaligned(fromByteOffset: i, as: UInt64.self) ^ pattern
      let found = (x &- 0x0101_0101_0101_0101) & ~x & 0x8080_8080_8080_8080
      if found != 0 { return i + found.trailingZeroBitCount / 8 }
      i += 8
    }
    while i < end && base[i] != byte { i += 1 }
    return i
  }

  /// The index of the next line feed at or after `from`, or `n`.
  @inline(__always)
  static func lineEnd(_ base: UnsafePointer<UInt8>, _ from: Int, _ n: Int) -> Int {
    guard let hit = memchr(base + from, 0x0A, n - from) else { return n }
    return base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
  }

  /// One row of a date-time and `slots` plain numbers from `start`,
  /// ending in a line break: writes the time and values and returns the
  /// start of the next line, or nil (writing nothing that counts) for
  /// anything else. The row's fields are read in one pass; no search for
  /// the line's end comes first. Bytes up to `n` may be read.
  @inline(__always)
  static func timeThenValues(
    _ base: UnsafePointer<UInt8>, _ start: Int, _ n: Int, _ delimiter: UInt8, _ slots: Int, _ scale: Double,
    _ scanner: inout DateTimeScanner, _ time: UnsafeMutablePointer<Double>,
    _ row: UnsafeMutablePointer<Double>,
    _ powers: UnsafePointer<Double>, _ integerPowers: UnsafePointer<UInt64>
  ) -> Int? {
    let t: Double
    let timeEnd: Int
    if let field = scanner.leadingField(base, start, n, delimiter) {
      (t, timeEnd) = field
    } else {
      // A new minute (or anything unusual): the field as the general
      // reader takes it, within its line.
      let end = lineEnd(base, start, n)
      timeEnd = find(delimiter, base, start, end)
      guard timeEnd < end, base[start] != 0x22,
        let parsed = scanner.parse(UnsafeBufferPointer(start: base + start, count: timeEnd - start))
      else { return nil }
      t = parsed
    }
    var q = timeEnd + 1
    for k in 0..<slots {
      // A number stops at the line break, which is no digit.
      guard let v = scanNumber(base, &q, n, n, powers, integerPowers) else { return nil }
      row[k] = v * scale
      if k + 1 < slots {
        guard q < n, base[q] == delimiter else { return nil }
        q += 1
      }
    }
    time.pointee = t
    if q < n && base[q] == 0x0A { return q + 1 }
    if q + 1 < n && base[q] == 0x0D && base[q + 1] == 0x0A { return q + 2 }
    return nil
  }

  /// `[-]digits[.digits]` ending at a delimiter or the line end, with at
  /// most 15 significant digits (exact by Clinger's fast path); nil, with
  /// `q` unchanged, for anything else (the general reader takes over).
  /// `powers` holds 10^0 ... 10^15 and `integerPowers` 10^0 ... 10^7;
  /// `limit` is the end of the readable bytes (at or after `end`).
  @inline(__always)
  static func plainNumber(
    _ base: UnsafePointer<UInt8>, _ q: inout Int, _ end: Int, _ limit: Int, _ delimiter: UInt8,
    _ powers: UnsafePointer<Double>, _ integerPowers: UnsafePointer<UInt64>
  ) -> Double? {
    var i = q
    guard let value = scanNumber(base, &i, end, limit, powers, integerPowers),
      i == end || base[i] == delimiter
    else { return nil }
    q = i
    return value
  }

  /// `[-]digits[.digits]` with at most 15 significant digits at `q`,
  /// which moves past it; nil, with `q` unchanged, for anything else.
  /// What follows the number is for the caller to check.
  @inline(__always)
  static func scanNumber(
    _ base: UnsafePointer<UInt8>, _ q: inout Int, _ end: Int, _ limit: Int, _ powers: UnsafePointer<Double>,
    _ integerPowers: UnsafePointer<UInt64>
  ) -> Double? {
    var i = q
    let negative = i < end && base[i] == 0x2D
    if negative { i &+= 1 }
    // Eight bytes at a time while both digit runs fit in a word: a digit
    // run cannot pass `end`, where a line break, a carriage return or the
    // end of the text stops it.
    if i &+ 16 <= limit {
      let raw = UnsafeRawPointer(base)
      let word = raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)
      let integerDigits = leadingDigits(word)
      if integerDigits < 8 {
        // One integer digit (most readings in g) needs no combining.
        var mantissa =
          integerDigits == 1
          ? (word & 0xFF) &- 0x30 : integerDigits > 0 ? digitsValue(word, integerDigits) : 0
        var j = i &+ integerDigits
        var fractionDigits = 0
        if base[j] == 0x2E {
          j &+= 1
          let fraction = raw.loadUnaligned(fromByteOffset: j, as: UInt64.self)
          fractionDigits = leadingDigits(fraction)
          if fractionDigits > 0 && fractionDigits < 8 {
            mantissa = mantissa &* integerPowers[fractionDigits] &+ digitsValue(fraction, fractionDigits)
          }
          j &+= fractionDigits
        }
        if fractionDigits < 8 {
          guard integerDigits &+ fractionDigits > 0 else { return nil }
          q = j
          let value = Double(Int64(bitPattern: mantissa)) / powers[fractionDigits]
          return negative ? -value : value
        }
      }
    }
    var mantissa: Int64 = 0
    let integerStart = i
    while i < end {
      let d = base[i] &- 0x30
      guard d < 10 else { break }
      mantissa = mantissa &* 10 &+ Int64(d)
      i &+= 1
    }
    var digits = i &- integerStart
    var fractionDigits = 0
    if i < end && base[i] == 0x2E {
      i &+= 1
      let fractionStart = i
      while i < end {
        let d = base[i] &- 0x30
        guard d < 10 else { break }
        mantissa = mantissa &* 10 &+ Int64(d)
        i &+= 1
      }
      fractionDigits = i &- fractionStart
      digits &+= fractionDigits
    }
    guard digits > 0, digits <= 15 else { return nil }
    q = i
    // Exact: both operands are exact doubles, so the quotient is the
    // correctly rounded value of the decimal (Clinger's fast path).
    let value = Double(mantissa) / powers[fractionDigits]
    return negative ? -value : value
  }

  /// How many of the eight bytes of `word` (first byte lowest) are ASCII
  /// digits before the first that is not; 8 when all are.
  @inline(__always)
  static func leadingDigits(_ word: UInt64) -> Int {
    // Digits become 0...9; adding 0x76 to the low seven bits sets a
    // byte's top bit from 10 up, with no carry between bytes.
    let x = word ^ 0x3030_3030_3030_3030
    let nonDigit = (((x & 0x7F7F_7F7F_7F7F_7F7F) &+ 0x7676_7676_7676_7676) | x) & 0x8080_8080_8080_8080
    return nonDigit.trailingZeroBitCount &>> 3
  }

  /// The decimal value of the first `count` (1...8) bytes of `word`, all
  /// ASCII digits: pairs of digits, then pairs of pairs, combined by
  /// multiplication within the word (Lemire's eight-digit method).
  @inline(__always)
  static func digitsValue(_ word: UInt64, _ count: Int) -> UInt64 {
    // The digits move to the top bytes; the zero bytes below them read as
    // leading zeros.
    var v = (word ^ 0x3030_3030_3030_3030) &<< UInt64(64 &- 8 &* count)
    v = (v &* 10) &+ (v &>> 8)
    let pairs = 0x0000_00FF_0000_00FF as UInt64
    v = ((v & pairs) &* (100 &+ (1_000_000 &<< 32)) &+ ((v &>> 16) & pairs) &* (1 &+ (10_000 &<< 32))) &>> 32
    return v
  }

}
