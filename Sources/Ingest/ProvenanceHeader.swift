import Foundation

/// The `# key: value` lines that open EnergyLab's data tables, split from
/// the CSV body that follows them.
struct ProvenanceHeader {
  var fields: [String: String]
  /// The CSV after the header lines (a view of the text, not a copy).
  var body: Substring
  /// How many lines the header took (the body's first line is `lines + 1`).
  var lines: Int

  /// Reads the leading `#` lines only; the body is the text after them,
  /// taken without splitting the whole file into lines.
  init(splitting text: String) {
    var fields: [String: String] = [:]
    var count = 0
    var rest = Substring(text)
    while rest.utf8.first == UInt8(ascii: "#") {
      let end = rest.utf8.firstIndex(of: UInt8(ascii: "\n")) ?? rest.endIndex
      let line = rest[rest.index(after: rest.startIndex)..<end]
      if let colon = line.firstIndex(of: ":") {
        fields[line[..<colon].trimmingCharacters(in: .whitespaces)] =
          line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
      }
      count += 1
      rest = end < rest.endIndex ? rest[rest.index(after: end)...] : rest[end...]
    }
    self.fields = fields
    body = rest
    lines = count
  }

  /// The same over UTF-8 bytes: the fields, the bytes after the header
  /// lines and how many lines it took.
  static func split(bytes: UnsafeBufferPointer<UInt8>) -> (
    fields: [String: String], body: UnsafeBufferPointer<UInt8>, lines: Int
  ) {
    var start = 0
    var count = 0
    while start < bytes.count, bytes[start] == UInt8(ascii: "#") {
      var end = start
      while end < bytes.count, bytes[end] != 0x0A { end += 1 }
      count += 1
      start = min(bytes.count, end + 1)
    }
    let header = String(decoding: UnsafeBufferPointer(rebasing: bytes[0..<start]), as: UTF8.self)
    return (
      ProvenanceHeader(splitting: header).fields, UnsafeBufferPointer(rebasing: bytes[start...]), count
    )
  }
}
