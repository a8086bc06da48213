import Foundation

/// The `# key: value` lines that open EnergyLab's data tables, split from
/// the CSV body that follows them.
struct ProvenanceHeader {
  var fields: [String: String]
  /// The CSV after the header lines.
  var body: String
  /// How many lines the header took (the body's first line is `lines + 1`).
  var lines: Int

  init(splitting text: String) {
    var rest = text.split(separator: "\n", omittingEmptySubsequences: false)
    var fields: [String: String] = [:]
    var count = 0
    while let first = rest.first, first.hasPrefix("#") {
      let line = first.dropFirst()
      if let colon = line.firstIndex(of: ":") {
        fields[line[..<colon].trimmingCharacters(in: .whitespaces)] =
          line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
      }
      rest.removeFirst()
      count += 1
    }
    self.fields = fields
    body = rest.joined(separator: "\n")
    lines = count
  }
}
