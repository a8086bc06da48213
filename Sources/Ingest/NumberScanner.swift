import Foundation

/// Reads decimal numbers straight from bytes.
enum NumberScanner {
  /// 10^k for k in 0...22, each exact in a double; a switch, not a lazily
  /// initialised table, in the per-number path.
  @inline(__always)
  static func power(_ k: Int) -> Double {
    switch k {
    case 0: return 1
    case 1: return 1e1
    case 2: return 1e2
    case 3: return 1e3
    case 4: return 1e4
    case 5: return 1e5
    case 6: return 1e6
    case 7: return 1e7
    case 8: return 1e8
    case 9: return 1e9
    case 10: return 1e10
    case 11: return 1e11
    case 12: return 1e12
    case 13: return 1e13
    case 14: return 1e14
    case 15: return 1e15
    case 16: return 1e16
    case 17: return 1e17
    case 18: return 1e18
    case 19: return 1e19
    case 20: return 1e20
    case 21: return 1e21
    default: return 1e22
    }
  }

  /// A decimal number with optional sign, fraction and exponent, allowing
  /// surrounding white space; nil when the bytes are not one. Exact where
  /// the digits fit in 2^53 and the scale in 10^22 (Clinger's fast path),
  /// else read by the standard library.
  /// `decimal` is the byte before the fraction (`,` in decimal-comma files).
  static func double(_ bytes: UnsafeBufferPointer<UInt8>, decimal: UInt8 = 0x2E) -> Double? {
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
    if i < end && bytes[i] == decimal {
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
      return slow(bytes, begin, end, decimal)
    }
    guard i == end else { return nil }
    if mantissa < (1 << 53) && abs(scale) <= 22 {
      let m = Double(mantissa)
      let value = scale < 0 ? m / power(-scale) : m * power(scale)
      return negative ? -value : value
    }
    return slow(bytes, begin, end, decimal)
  }

  private static func slow(_ bytes: UnsafeBufferPointer<UInt8>, _ begin: Int, _ end: Int, _ decimal: UInt8)
    -> Double?
  {
    var text = String(decoding: UnsafeBufferPointer(rebasing: bytes[begin..<end]), as: UTF8.self)
    // Read with the decimal point the standard library knows. (A point
    // can only come after the exponent's `e` here, which no number has.)
    if decimal != 0x2E { text = text.replacingOccurrences(of: String(UnicodeScalar(decimal)), with: ".") }
    guard let value = Double(text), value.isFinite else { return nil }
    return value
  }
}
