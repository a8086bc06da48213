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
      guard let data else { return }
      let state = Unmanaged<TokenizerState>.fromOpaque(data).takeUnretainedValue()
      if state.fields.isEmpty { state.rowLine = state.currentLine }
      if let field, length > 0 {
        let buffer = UnsafeRawBufferPointer(start: field, count: length)
        state.fields.append(String(decoding: buffer, as: UTF8.self))
      } else {
        state.fields.append("")
      }
    }
    let rowCallback: @convention(c) (Int32, UnsafeMutableRawPointer?) -> Void = { _, data in
      guard let data else { return }
      let state = Unmanaged<TokenizerState>.fromOpaque(data).takeUnretainedValue()
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
      while start < buffer.count, let base = buffer.baseAddress {
        var end = start
        while end < buffer.count, buffer[end] != 0x0A { end += 1 }
        // A last line without a newline stays its own line: its row is
        // completed by csv_fini below and is on this line, not the next.
        let endsLine = end < buffer.count
        if endsLine { end += 1 }
        let length = end - start
        let consumed = csv_parse(
          &parser, base + start, length, fieldCallback, rowCallback, context)
        if consumed != length {
          throw malformedLine(&parser, source: source, line: state.currentLine)
        }
        if endsLine { state.currentLine += 1 }
        start = end
        try deliver()
      }
    }
    if csv_fini(&parser, fieldCallback, rowCallback, context) != 0 {
      throw unclosedQuote(source: source, line: state.rowLine)
    }
    try deliver()
  }
}

extension CSVTokenizer {
  /// The same rows with their fields as UTF-8 bytes, for readers that
  /// look cells up rather than keep them: no `String` is made per cell.
  /// `body` gets the row's line and fields; both are valid only during
  /// the call.
  ///
  /// A line that starts outside a quoted field and holds no quote, no
  /// carriage return before its end and no field with spaces or tabs at
  /// either end is split at the delimiter in place (libcsv would give
  /// the same fields: it trims only those spaces and tabs, and only
  /// quotes and line ends change its state); any other line goes through
  /// libcsv as in `forEachRow(bytes:)`, with the same rows and errors.
  static func forEachRawRow(
    bytes buffer: UnsafeBufferPointer<UInt8>, source: String, firstLine: Int = 1, delimiter: UInt8 = 0x2C,
    skipByteOrderMark: Bool = true,
    _ body: (Int, [UnsafeBufferPointer<UInt8>]) throws -> Void
  ) throws {
    var parser = csv_parser()
    guard csv_init(&parser, UInt8(CSV_STRICT | CSV_STRICT_FINI | CSV_APPEND_NULL)) == 0 else {
      throw RuntimeError("libcsv could not be initialised")
    }
    defer { csv_free(&parser) }
    csv_set_delim(&parser, delimiter)
    let state = RawTokenizerState(firstLine: firstLine)
    let context = Unmanaged.passUnretained(state).toOpaque()
    let fieldCallback: @convention(c) (UnsafeMutableRawPointer?, Int, UnsafeMutableRawPointer?) -> Void = {
      field, length, data in
      guard let data else { return }
      let state = Unmanaged<RawTokenizerState>.fromOpaque(data).takeUnretainedValue()
      if state.ends.isEmpty { state.rowLine = state.currentLine }
      if let field, length > 0 {
        state.bytes.append(contentsOf: UnsafeRawBufferPointer(start: field, count: length))
      }
      state.ends.append(state.bytes.count)
    }
    let rowCallback: @convention(c) (Int32, UnsafeMutableRawPointer?) -> Void = { _, data in
      guard let data else { return }
      let state = Unmanaged<RawTokenizerState>.fromOpaque(data).takeUnretainedValue()
      state.rows.append((state.rowLine, state.bytes, state.ends))
      state.bytes.removeAll(keepingCapacity: true)
      state.ends.removeAll(keepingCapacity: true)
    }
    var fields: [UnsafeBufferPointer<UInt8>] = []
    func deliver() throws {
      for (line, bytes, ends) in state.rows {
        try bytes.withUnsafeBufferPointer { all in
          fields.removeAll(keepingCapacity: true)
          var start = 0
          for end in ends {
            fields.append(UnsafeBufferPointer(rebasing: all[start..<end]))
            start = end
          }
          try body(line, fields)
        }
      }
      state.rows.removeAll(keepingCapacity: true)
    }
    func blankOrTab(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 }
    guard let base = buffer.baseAddress else { return }
    var start = skipByteOrderMark && buffer.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
    while start < buffer.count {
      var end = start
      var plain = true
      while end < buffer.count {
        let b = buffer[end]
        if b == 0x0A { break }
        if b == 0x22 || b == 0x0D { plain = false }
        end += 1
      }
      let endsLine = end < buffer.count
      // In place: libcsv is between rows (state 0, its ROW_NOT_BEGUN).
      if parser.pstate == 0 && state.ends.isEmpty {
        var content = end
        if !plain && content > start && buffer[content - 1] == 0x0D {
          content -= 1
          plain = !UnsafeBufferPointer(rebasing: buffer[start..<content]).contains {
            $0 == 0x22 || $0 == 0x0D
          }
        }
        if plain && content == start {
          // An empty line is no row to libcsv either.
          if endsLine { state.currentLine += 1 }
          start = endsLine ? end + 1 : end
          continue
        }
        if plain {
          fields.removeAll(keepingCapacity: true)
          var from = start
          var k = start
          while true {
            if k == content || buffer[k] == delimiter {
              if k > from && (blankOrTab(buffer[from]) || blankOrTab(buffer[k - 1])) {
                plain = false
                break
              }
              fields.append(UnsafeBufferPointer(start: base + from, count: k - from))
              if k == content { break }
              from = k + 1
            }
            k += 1
          }
          if plain {
            // As libcsv's field callback would: the line of the last row
            // begun, which its end-of-file error names.
            state.rowLine = state.currentLine
            try body(state.currentLine, fields)
            if endsLine { state.currentLine += 1 }
            start = endsLine ? end + 1 : end
            continue
          }
        }
      }
      let stop = endsLine ? end + 1 : end
      let length = stop - start
      let consumed = csv_parse(&parser, base + start, length, fieldCallback, rowCallback, context)
      if consumed != length {
        throw malformedLine(&parser, source: source, line: state.currentLine)
      }
      if endsLine { state.currentLine += 1 }
      start = stop
      try deliver()
    }
    if csv_fini(&parser, fieldCallback, rowCallback, context) != 0 {
      throw unclosedQuote(source: source, line: state.rowLine)
    }
    try deliver()
  }
}

private final class RawTokenizerState {
  var rows: [(line: Int, bytes: [UInt8], ends: [Int])] = []
  var bytes: [UInt8] = []
  var ends: [Int] = []
  var currentLine: Int
  var rowLine: Int
  init(firstLine: Int) {
    currentLine = firstLine
    rowLine = firstLine
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

extension CSVTokenizer {
  /// libcsv's complaint about a line it could not take whole.
  fileprivate static func malformedLine(_ parser: inout csv_parser, source: String, line: Int) -> InputError {
    InputError(
      .malformed,
      SourceLocation(file: source, line: line),
      "malformed CSV (\(String(cString: csv_strerror(csv_error(&parser)))))",
      expected: "RFC 4180 fields; a quote inside a quoted field is doubled")
  }

  /// A file that ends inside a quoted field opened on `line`.
  fileprivate static func unclosedQuote(source: String, line: Int) -> InputError {
    InputError(
      .malformed, SourceLocation(file: source, line: line), "file ends inside a quoted field",
      expected: "a closing quote")
  }
}
