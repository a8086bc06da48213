import CLibCSV
import EnergyLabCore
import Foundation

/// The formats every command that prints results accepts.
package enum OutputFormat: String, Sendable, Hashable, CaseIterable {
  case table
  case csv
  case json
  case markdown
}

/// Renders a `ResultTable` in any `OutputFormat`.
package enum ResultRenderer {
  /// `width`: the terminal's width in characters; a wider table keeps the
  /// columns that fit (long text cells shortened) and names the others.
  package static func render(_ table: ResultTable, as format: OutputFormat, width: Int? = nil) -> String {
    switch format {
    case .table:
      guard let width else { return plainTable(table) }
      return narrowTable(table, width: width)
    case .csv: return csv(table)
    case .json: return json(table)
    case .markdown: return markdown(table)
    }
  }

  /// Aligned columns for a terminal: numbers right-aligned.
  static func plainTable(_ table: ResultTable) -> String {
    // `table.columns` walks every row: taken once, so the table is linear
    // in its rows.
    let keys = table.columns
    let columns = keys.map(PrintableText.clean)
    let cells = table.rows.map { row in
      keys.map { PrintableText.clean(text(row[$0] ?? .null, fixed: true)) }
    }
    let numeric = columns.indices.map { c in
      table.rows.allSatisfy { row in
        switch row[keys[c]] ?? .null {
        case .number, .integer, .null: return true
        default: return false
        }
      }
    }
    let widths = columns.indices.map { c in
      max(columns[c].count, cells.map { $0[c].count }.max() ?? 0)
    }
    func line(_ values: [String]) -> String {
      values.indices.map { c in
        let padding = String(repeating: " ", count: widths[c] - values[c].count)
        return numeric[c] ? padding + values[c] : values[c] + padding
      }.joined(separator: "  ").trimmingTrailingSpaces()
    }
    var out = line(columns) + "\n"
    out += widths.map { String(repeating: "-", count: $0) }.joined(separator: "  ") + "\n"
    for row in cells { out += line(row) + "\n" }
    return out
  }

  /// The columns that fit in `width`: the key columns first, then the
  /// others from the left, shown in the table's order, text cells cut to 40
  /// characters; a last line names the columns left out.
  static func narrowTable(_ table: ResultTable, width: Int) -> String {
    let limit = 40
    var short = table
    short.rows = table.rows.map { row in
      var out = ResultRecord()
      for (key, value) in row.fields {
        if case .string(let text) = value, text.count > limit {
          out[key] = .string(String(text.prefix(limit - 3)) + "...")
        } else {
          out[key] = value
        }
      }
      return out
    }
    let columns = short.columns
    var kept: Set<String> = []
    var used = 0
    func take(_ c: String) -> Bool {
      let cellWidth = short.rows.map { text($0[c] ?? .null, fixed: true).count }.max() ?? 0
      let w = max(c.count, cellWidth) + (kept.isEmpty ? 0 : 2)
      if !kept.isEmpty && used + w > width { return false }
      kept.insert(c)
      used += w
      return true
    }
    for c in table.keyColumns where columns.contains(c) { _ = take(c) }
    for c in columns where !kept.contains(c) { if !take(c) { break } }
    guard kept.count < columns.count else { return plainTable(short) }
    let left = columns.filter { !kept.contains($0) }
    return plainTable(short.selecting(columns.filter(kept.contains)))
      + "(\(left.count) more column\(left.count == 1 ? "" : "s"): \(left.joined(separator: ", ")); choose with \(Remedy(.columns).text), or \(Remedy(.outputFormat, value: "csv").text) or json for all)\n"
  }

  /// RFC 4180 CSV (fields quoted by libcsv where needed); numbers in their
  /// shortest exact form.
  /// CSV text: formulas neutralised, and control characters other than
  /// line breaks and tabs made spaces (as on a terminal), so a data file
  /// holds no escape sequence or invisible character from the data.
  package static func csv(_ table: ResultTable) -> String {
    let columns = table.columns
    var out =
      columns.map { csvField(neutralised(PrintableText.cleanLines($0))) }.joined(separator: ",") + "\n"
    for row in table.rows {
      out +=
        columns.map { c -> String in
          let value = row[c] ?? .null
          let cell = PrintableText.cleanLines(text(value, fixed: false))
          if case .string = value { return csvField(neutralised(cell)) }
          return csvField(cell)
        }.joined(separator: ",") + "\n"
    }
    return out
  }

  /// A text cell a spreadsheet would run as a formula (starting with `=`,
  /// `+`, `-`, `@`, tab or carriage return; OWASP's CSV injection rule) gets
  /// a leading apostrophe; numbers, as values or as text, stay numbers.
  package static func neutralised(_ cell: String) -> String {
    // A lone "-" (standard input, a missing mark) is no formula, nor is a
    // signed number written as text ("-2" as a survey answer).
    guard cell != "-", Double(cell) == nil, let first = cell.unicodeScalars.first,
      "=+-@\t\r".unicodeScalars.contains(first)
    else { return cell }
    return "'" + cell
  }

  static func csvField(_ field: String) -> String {
    guard
      field.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) || field.hasPrefix(" ")
    else { return field }
    let source = Array(field.utf8)
    var buffer = [UInt8](repeating: 0, count: source.count * 2 + 2)
    let written = buffer.withUnsafeMutableBytes { dest in
      source.withUnsafeBytes { src in csv_write(dest.baseAddress, dest.count, src.baseAddress, src.count) }
    }
    return String(decoding: buffer[0..<written], as: UTF8.self)
  }

  /// JSON: an array of objects, or one object for single-result commands;
  /// keys in their record order.
  package static func json(_ table: ResultTable) -> String {
    if table.isSingleObject, let row = table.rows.first {
      return JSONText.encode(.record(row)) + "\n"
    }
    return JSONText.encode(.array(table.rows.map { .record($0) })) + "\n"
  }

  /// A Markdown pipe table with data-derived text escaped; a table with
  /// no columns (no rows) is no text, since a pipe table needs a header.
  package static func markdown(_ table: ResultTable) -> String {
    let columns = table.columns
    guard !columns.isEmpty else { return "" }
    var out = "| " + columns.map(Markdown.escapeTableCell).joined(separator: " | ") + " |\n"
    out += "|" + columns.map { _ in " --- |" }.joined() + "\n"
    for row in table.rows {
      out +=
        "| "
        + columns.map { Markdown.escapeTableCell(text(row[$0] ?? .null, fixed: true)) }.joined(
          separator: " | ") + " |\n"
    }
    return out
  }

  /// The text of a value in a cell: fixed digits for display, shortest
  /// exact form for data.
  package static func text(_ value: ResultValue, fixed: Bool) -> String {
    switch value {
    case .null: return ""
    case .bool(let b): return b ? "true" : "false"
    case .integer(let i): return String(i)
    case .number(let x, let digits): return fixed ? Fixed.format(x, digits: digits) : Fixed.shortest(x)
    case .string(let s): return s
    case .array(let items): return items.map { text($0, fixed: fixed) }.joined(separator: "; ")
    case .record(let record):
      return record.fields.map { "\($0.key)=\(text($0.value, fixed: fixed))" }.joined(separator: " ")
    }
  }
}

/// A small JSON writer that keeps key order (Foundation's does not).
package enum JSONText {
  package static func encode(_ value: ResultValue, indent: String = "") -> String {
    let inner = indent + "  "
    switch value {
    case .null: return "null"
    case .bool(let b): return b ? "true" : "false"
    case .integer(let i): return String(i)
    case .number(let x, _): return x.isFinite ? Fixed.shortest(x) : "null"
    case .string(let s): return quote(s)
    case .array(let items):
      if items.isEmpty { return "[]" }
      return "[\n" + items.map { inner + encode($0, indent: inner) }.joined(separator: ",\n") + "\n" + indent
        + "]"
    case .record(let record):
      if record.fields.isEmpty { return "{}" }
      return "{\n"
        + record.fields.map { inner + quote($0.key) + ": " + encode($0.value, indent: inner) }.joined(
          separator: ",\n")
        + "\n" + indent + "}"
    }
  }

  package static func quote(_ s: String) -> String {
    var out = "\""
    for scalar in s.unicodeScalars {
      switch scalar {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      case "\n": out += "\\n"
      case "\r": out += "\\r"
      case "\t": out += "\\t"
      case _ where scalar.value < 0x20:
        let hex = String(scalar.value, radix: 16)
        out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
      default: out.unicodeScalars.append(scalar)
      }
    }
    return out + "\""
  }
}

/// Markdown escaping of text that comes from data.
package enum Markdown {
  /// Escapes characters with meaning in Markdown or HTML and folds line
  /// breaks, so that a data value stays one inert table cell.
  package static func escapeTableCell(_ text: String) -> String {
    var out = ""
    let characters = Array(text)
    for (i, c) in characters.enumerated() {
      switch c {
      case "|", "\\", "`", "*", "[", "]", "~": out += "\\\(c)"
      case "_":
        // Inside a word (vo2_ml_kg_min) an underscore cannot open emphasis.
        let inWord =
          i > 0 && i + 1 < characters.count && (characters[i - 1].isLetter || characters[i - 1].isNumber)
          && (characters[i + 1].isLetter || characters[i + 1].isNumber)
        out += inWord ? "_" : "\\_"
      case "<": out += "&lt;"
      case ">": out += "&gt;"
      case "&": out += "&amp;"
      case "\n", "\r", "\r\n": out += " "
      default:
        // Control characters (ESC, BEL) never reach a report.
        out += c.unicodeScalars.contains { $0.properties.generalCategory == .control } ? " " : String(c)
      }
    }
    return out
  }

  /// Escapes inline text (outside tables) the same way.
  package static func escapeInline(_ text: String) -> String { escapeTableCell(text) }
}

extension String {
  /// The string without the spaces that padding leaves at its end.
  func trimmingTrailingSpaces() -> String {
    var end = endIndex
    while end > startIndex {
      let before = index(before: end)
      guard self[before] == " " || self[before] == "\t" else { break }
      end = before
    }
    return String(self[..<end])
  }
}
