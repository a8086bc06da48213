import CFixedFormat

/// The one number formatter of reports, tables and golden files: fixed
/// precision, `.` as decimal separator whatever the locale, no grouping,
/// and no negative zero.
public enum Fixed {
  /// A p-value as reported: three decimals, or `< 0.001`.
  public static func pValue(_ p: Double) -> String {
    p.isFinite && p < 0.001 ? "< 0.001" : "= " + format(p, digits: 3)
  }

  /// `value` with exactly `digits` digits after the decimal point
  /// (`Fixed.format(1.2345, digits: 2)` is `"1.23"`); NaN and infinities
  /// print as `nan`, `inf` and `-inf`.
  public static func format(_ value: Double, digits: Int) -> String {
    guard value.isFinite else { return value.isNaN ? "nan" : (value < 0 ? "-inf" : "inf") }
    let text = printf(value, digits: digits)
    if text.hasPrefix("-"),
      text.utf8.dropFirst().allSatisfy({ $0 == UInt8(ascii: "0") || $0 == UInt8(ascii: ".") })
    {
      return String(text.dropFirst())
    }
    return text
  }

  /// Exactly what C's `printf("%.*f", digits, value)` prints (the same
  /// text as Foundation's `String(format:)`): the binary value rounded half
  /// to even on its exact decimal expansion, `-0.00` for a small negative,
  /// `nan`, `-nan`, `inf`, `-inf`, and every integer digit of a large one.
  ///
  /// C's `snprintf` is called through a non-variadic C function:
  /// `String(format:)` and `withVaList` reach the same routine, but cast
  /// each argument at run time, and those casts contend in the Swift
  /// runtime's conformance cache between threads (batch workers word a
  /// diagnostic per out-of-range step). The process never calls
  /// `setlocale`, so the C locale's `.` is the decimal separator, as with
  /// `String(format:)`.
  public static func printf(_ value: Double, digits: Int) -> String {
    let precision = CInt(clamping: max(0, digits))
    let capacity = 64
    return withUnsafeTemporaryAllocation(of: CChar.self, capacity: capacity) { buffer -> String in
      let count = energylab_format_fixed(buffer.baseAddress, capacity, value, precision)
      if count >= 0, Int(count) < capacity, let base = buffer.baseAddress { return String(cString: base) }
      // A large magnitude or precision: again, with room for every digit.
      let size = max(0, Int(count)) + 1
      return withUnsafeTemporaryAllocation(of: CChar.self, capacity: size) { large -> String in
        let written = energylab_format_fixed(large.baseAddress, size, value, precision)
        return String(
          decoding: large.prefix(max(0, Int(written))).map { UInt8(bitPattern: $0) }, as: UTF8.self)
      }
    }
  }

  /// The shortest text that reads back as the same Double (`0.1`, `14.0697`);
  /// integers print without a fraction (`600`, not `600.0`).
  public static func shortest(_ value: Double) -> String {
    guard value.isFinite else { return value.isNaN ? "nan" : (value < 0 ? "-inf" : "inf") }
    if value == value.rounded(), abs(value) < 1e15 {
      let integer = Int64(value)
      return integer == 0 ? "0" : String(integer)
    }
    return "\(value)"
  }
}

/// Text from data made safe to print: control characters (ESC, BEL, ...,
/// line breaks included) become spaces, so a terminal is not driven by a
/// file's content and XML (SVG) stays valid; other Unicode is kept.
public enum PrintableText {
  public static func clean(_ text: String) -> String {
    guard text.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
      return text
    }
    return String(
      String.UnicodeScalarView(
        text.unicodeScalars.map { $0.properties.generalCategory == .control ? " " : $0 }))
  }

  /// The same for text of several lines (what a command prints): line feeds
  /// and tabs stay, every other control character becomes a space.
  public static func cleanLines(_ text: String) -> String {
    func isStray(_ s: Unicode.Scalar) -> Bool {
      s.properties.generalCategory == .control && s != "\n" && s != "\t"
    }
    guard text.unicodeScalars.contains(where: isStray) else { return text }
    return String(String.UnicodeScalarView(text.unicodeScalars.map { isStray($0) ? " " : $0 }))
  }
}
