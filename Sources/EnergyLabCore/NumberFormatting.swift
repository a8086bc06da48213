import Foundation

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
    let text = String(format: "%.\(max(0, digits))f", locale: nil, value)
    if text.hasPrefix("-"), text.dropFirst().allSatisfy({ $0 == "0" || $0 == "." }) {
      return String(text.dropFirst())
    }
    return text
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
