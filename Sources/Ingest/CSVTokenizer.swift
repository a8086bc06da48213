import CLibCSV
import EnergyLabCore
import Foundation

/// An RFC 4180 CSV row with the 1-based line it starts on.
public struct CSVRow: Sendable, Hashable {
  public var line: Int
  public var fields: [String]
}

/// Splits CSV text into rows with libcsv (strict mode: a stray quote is an
/// error), keeping the line number of every row for error messages.
public enum CSVTokenizer {
  /// Tokenises `text`; `firstLine` is the line number of its first line in
  /// the file (so that a caller who stripped a header can still report real
  /// line numbers).
  public static func rows(
    _ text: some StringProtocol, source: String, firstLine: Int = 1, delimiter: UInt8 = 0x2C
  ) throws
    -> [CSVRow]
  {
    var rows: [CSVRow] = []
    try forEachRow(text, source: source, firstLine: firstLine, delimiter: delimiter) { rows.append($0) }
    return rows
  }

  /// Tokenises `text`, handing each row to `body` as it is complete, so a
  /// caller that keeps less than the rows needs no more memory than that.
  public static func forEachRow(
    _ text: some StringProtocol, source: String, firstLine: Int = 1, delimiter: UInt8 = 0x2C,
    _ body: (CSVRow) throws -> Void
  ) throws {
    // The text's own UTF-8 is read in place (a copy only for text that is
    // not stored contiguously).
    let inPlace: Void? = try text.utf8.withContiguousStorageIfAvailable {
      try forEachRow(bytes: $0, source: source, firstLine: firstLine, delimiter: delimiter, body)
    }
    if inPlace == nil {
      try Array(text.utf8).withUnsafeBufferPointer {
        try forEachRow(bytes: $0, source: source, firstLine: firstLine, delimiter: delimiter, body)
      }
    }
  }

  /// The same over UTF-8 bytes (valid UTF-8: fields are decoded as such).
  public static func forEachRow(
    bytes buffer: UnsafeBufferPointer<UInt8>, source: String, firstLine: Int = 1, delimiter: UInt8 = 0x2C,
    _ body: (CSVRow) throws -> Void
  ) throws {
    var parser = csv_parser()
    guard csv_init(&parser, UInt8(CSV_STRICT | CSV_STRICT_FINI | CSV_APPEND_NULL)) == 0 else {
      throw RuntimeError("libcsv could not be initialised")
    }
    defer { csv_free(&parser) }
    csv_set_delim(&parser, delimiter)
    let state = TokenizerState(firstLine: firstLine)
    let context = Unmanaged.passUnretained(state).toOpaque()
    let fieldCallback: @convention(c) (UnsafeMutableRawPointer?, Int, UnsafeMutableRawPointer?) -> Void = {
      field, length, data in
      let state = Unmanaged<TokenizerState>.fromOpaque(data!).takeUnretainedValue()
      if state.fields.isEmpty { state.rowLine = state.currentLine }
      if let field, length > 0 {
        let buffer = UnsafeRawBufferPointer(start: field, count: length)
        state.fields.append(String(decoding: buffer, as: UTF8.self))
      } else {
        state.fields.append("")
      }
    }
    let rowCallback: @convention(c) (Int32, UnsafeMutableRawPointer?) -> Void = { _, data in
      let state = Unmanaged<TokenizerState>.fromOpaque(data!).takeUnretainedValue()
      state.rows.append(CSVRow(line: state.rowLine, fields: state.fields))
      state.fields.removeAll(keepingCapacity: true)
    }
    // Rows completed by a physical line go to `body` before the next line.
    func deliver() throws {
      for row in state.rows { try body(row) }
      state.rows.removeAll(keepingCapacity: true)
    }
    // Feed one physical line at a time so every row knows its line.
    do {
      var start = buffer.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
      while start < buffer.count {
        var end = start
        while end < buffer.count, buffer[end] != 0x0A { end += 1 }
        // A last line without a newline stays its own line: its row is
        // completed by csv_fini below and is on this line, not the next.
        let endsLine = end < buffer.count
        if endsLine { end += 1 }
        let length = end - start
        let consumed = csv_parse(
          &parser, buffer.baseAddress! + start, length, fieldCallback, rowCallback, context)
        if consumed != length {
          throw InputError(
            .malformed,
            SourceLocation(file: source, line: state.currentLine),
            "malformed CSV (\(String(cString: csv_strerror(csv_error(&parser)))))",
            expected: "RFC 4180 fields; a quote inside a quoted field is doubled")
        }
        if endsLine { state.currentLine += 1 }
        start = end
        try deliver()
      }
    }
    if csv_fini(&parser, fieldCallback, rowCallback, context) != 0 {
      throw InputError(
        .malformed,
        SourceLocation(file: source, line: state.rowLine), "file ends inside a quoted field",
        expected: "a closing quote")
    }
    try deliver()
  }
}

private final class TokenizerState {
  var rows: [CSVRow] = []
  var fields: [String] = []
  var currentLine: Int
  var rowLine: Int
  init(firstLine: Int) {
    currentLine = firstLine
    rowLine = firstLine
  }
}
