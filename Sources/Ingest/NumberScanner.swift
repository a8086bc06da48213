import Foundation

/// Reads decimal numbers straight from bytes.
enum NumberScanner {
  private static let powers: [Double] = (0...22).map { pow(10, Double($0)) }

  /// A decimal number with optional sign, fraction and exponent, allowing
  /// surrounding white space; nil when the bytes are not one. Exact where
  /// the digits fit in 2^53 and the scale in 10^22 (Clinger's fast path),
  /// else read by the standard library.
  static func double(_ bytes: UnsafeBufferPointer<UInt8>) -> Double? {
    var i = 0
    var end = bytes.count
    while i < end && (bytes[i] == 0x20 || bytes[i] == 0x09 || bytes[i] == 0x0A || bytes[i] == 0x0D) { i += 1 }
    while end > i
      && (bytes[end - 1] == 0x20 || bytes[end - 1] == 0x09 || bytes[end - 1] == 0x0A
        || bytes[end - 1] == 0x0D)
    { end -= 1 }
    guard i < end else { return nil }
    let begin = i
    var negative = false
    if bytes[i] == 0x2D || bytes[i] == 0x2B {
      negative = bytes[i] == 0x2D
      i += 1
    }
    var mantissa: UInt64 = 0
    var digits = 0
    var scale = 0
    var sawDigit = false
    while i < end && bytes[i] >= 0x30 && bytes[i] <= 0x39 {
      if digits < 19 {
        mantissa = mantissa * 10 + UInt64(bytes[i] - 0x30); digits += mantissa > 0 ? 1 : 0
      } else {
        scale += 1
      }
      sawDigit = true
      i += 1
    }
    if i < end && bytes[i] == 0x2E {
      i += 1
      while i < end && bytes[i] >= 0x30 && bytes[i] <= 0x39 {
        if digits < 19 {
          mantissa = mantissa * 10 + UInt64(bytes[i] - 0x30)
          digits += mantissa > 0 ? 1 : 0
          scale -= 1
        }
        sawDigit = true
        i += 1
      }
    }
    guard sawDigit else { return nil }
    if i < end && (bytes[i] == 0x65 || bytes[i] == 0x45) {
      return slow(bytes, begin, end)
    }
    guard i == end else { return nil }
    if mantissa < (1 << 53) && abs(scale) <= 22 {
      let m = Double(mantissa)
      let value = scale < 0 ? m / powers[-scale] : m * powers[scale]
      return negative ? -value : value
    }
    return slow(bytes, begin, end)
  }

  private static func slow(_ bytes: UnsafeBufferPointer<UInt8>, _ begin: Int, _ end: Int) -> Double? {
    guard
      let value = Double(String(decoding: UnsafeBufferPointer(rebasing: bytes[begin..<end]), as: UTF8.self)),
      value.isFinite
    else { return nil }
    return value
  }
}
