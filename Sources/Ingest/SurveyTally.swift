import EnergyLabCore
import Foundation

extension SurveyReader {
  /// Exports larger than this are tallied a window of about this many
  /// bytes at a time (the first window holds the header rows, each at
  /// most `maximumRowBytes`).
  public static let tallyWindowBytes = 16 << 20

  /// An export read for its counts only, in memory that does not grow with
  /// its respondents: a single-column export (Google Forms, Microsoft
  /// Forms, Qualtrics, a plain CSV) larger than `tallyWindowBytes` is read
  /// a window at a time, each question keeping how many respondents gave
  /// each distinct answer (`ResponseColumn.isTallied`) instead of each
  /// respondent's answer. A question whose answers may be mostly distinct
  /// (an open question, whose answers are listed) keeps its answers, read
  /// in a second pass over the file. Standard input, smaller files and the
  /// other dialects are read whole by `read(path:)`; so are files that are
  /// not UTF-8, for its encoding rules and errors. Rows are checked
  /// against the row limit over the whole file first, as `read` does, so
  /// errors are the same; a file is not held to
  /// `FileInput.Limits.maximumBytes`, since it is not held.
  /// `windowBytes`: the window (tests read small files in small ones).
  public func tally(path: String, windowBytes: Int = SurveyReader.tallyWindowBytes) throws -> Survey {
    guard path != StandardInput.name,
      let attributes = try? FileManager.default.attributesOfItem(atPath: path),
      attributes[.type] as? FileAttributeType == .typeRegular,
      let size = attributes[.size] as? Int, size > windowBytes
    else { return try read(path: path) }
    let limit = min(maximumRowBytes, FileInput.limits.maximumRowBytes)
    guard let windows = try ExportWindows(path: path, windowBytes: windowBytes),
      try windows.checkRowsAndEncoding(limit: limit)
    else { return try read(path: path) }
    let name = URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent
    let head = try windows.head()
    do {
      return try head.withUnsafeBufferPointer {
        try parse(bytes: $0, source: path, name: name, rowsChecked: true, rest: windows)
      }
    } catch is NeedsWholeFile {
      return try read(path: path)
    }
  }

  /// Line feeds in `bytes`.
  static func lineFeeds(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
    guard let base = bytes.baseAddress else { return 0 }
    var count = 0
    var p = base
    let end = base + bytes.count
    while p < end, let hit = memchr(p, 0x0A, end - p) {
      count += 1
      p = UnsafePointer(hit.assumingMemoryBound(to: UInt8.self)) + 1
    }
    return count
  }
}

/// A CSV file read in windows of whole rows: each window ends after the
/// last line feed outside quotes (a quote toggles, as in
/// `RowLengthCheck`), so a row never spans two windows.
final class ExportWindows {
  let path: String
  let windowBytes: Int
  private let fd: Int32
  /// Where the windows after the head start.
  private var restOffset: Int64 = 0

  /// Nil when the file cannot be opened (`read(path:)` then says why).
  init?(path: String, windowBytes: Int) throws {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { return nil }
    self.fd = fd
    self.path = path
    self.windowBytes = windowBytes
  }

  deinit { close(fd) }

  /// Reads up to `count` bytes at `offset` onto the end of `buffer`; the
  /// bytes read, 0 at the end of the file.
  private func read(into buffer: inout [UInt8], at offset: Int64, count: Int) throws -> Int {
    let old = buffer.count
    buffer.append(contentsOf: repeatElement(0, count: count))
    while true {
      let n = buffer.withUnsafeMutableBytes { raw in
        raw.baseAddress.map { pread(fd, $0 + old, count, off_t(offset)) } ?? 0
      }
      if n < 0 && errno == EINTR { continue }
      guard n >= 0 else {
        throw InputError(
          .unreadable, SourceLocation(file: path), "read failed (\(String(cString: strerror(errno))))",
          expected: "a survey export (CSV)")
      }
      buffer.removeLast(count - n)
      return n
    }
  }

  /// The whole file's rows held to `limit` bytes (the error names the
  /// first longer one, as `FileInput.read`'s) and whether it is all UTF-8.
  func checkRowsAndEncoding(limit: Int) throws -> Bool {
    var rows = RowLengthCheck(limit: limit, source: path)
    var pending: [UInt8] = []
    var offset: Int64 = 0
    var valid = true
    while true {
      let before = pending.count
      let n = try read(into: &pending, at: offset, count: 1 << 20)
      offset += Int64(n)
      try pending.withUnsafeBufferPointer { try rows.feed(UnsafeBufferPointer(rebasing: $0[before...])) }
      if n == 0 {
        if valid { valid = pending.withUnsafeBufferPointer { UTF8Validation.isValid($0) } }
        return valid
      }
      // Lines end at a line feed, never inside a character.
      guard let last = pending.lastIndex(of: 0x0A) else { continue }
      if valid {
        valid = pending.withUnsafeBufferPointer {
          UTF8Validation.isValid(UnsafeBufferPointer(rebasing: $0[...last]))
        }
      }
      pending.removeFirst(last + 1)
    }
  }

  /// The end of the last whole row of `bytes` (just after its line feed),
  /// reading from `from`, a row's start: the last line feed with an even
  /// number of quotes before it.
  static func lastRowEnd(_ bytes: UnsafeBufferPointer<UInt8>, from: Int) -> Int? {
    var quotes = 0
    for i in from..<bytes.count where bytes[i] == 0x22 { quotes += 1 }
    var p = bytes.count - 1
    while p >= from {
      let b = bytes[p]
      if b == 0x22 {
        quotes -= 1
      } else if b == 0x0A && quotes % 2 == 0 {
        return p + 1
      }
      p -= 1
    }
    return nil
  }

  /// Rows ended (line feeds outside quotes after a line holding more than
  /// white space) in `bytes` from `from`, a row's start.
  static func rowEnds(_ bytes: UnsafeBufferPointer<UInt8>, from: Int) -> Int {
    var ends = 0
    var inQuotes = false
    var filled = false
    for i in from..<bytes.count {
      let b = bytes[i]
      if b == 0x22 { inQuotes.toggle() }
      if b == 0x0A && !inQuotes {
        if filled { ends += 1 }
        filled = false
      } else if b != 0x20 && b != 0x09 && b != 0x0D && b != 0x0A {
        filled = true
      }
    }
    return ends
  }

  /// The file's first window, ending at a row's end (or the whole file),
  /// with at least four rows (the header rows, up to three).
  func head() throws -> [UInt8] {
    var buffer: [UInt8] = []
    var offset: Int64 = 0
    while true {
      let n = try read(into: &buffer, at: offset, count: windowBytes)
      offset += Int64(n)
      // Quotes count from the header row on: after a byte-order mark and
      // the provenance lines (`#`), which are no CSV.
      var from = buffer.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
      while from < buffer.count && buffer[from] == UInt8(ascii: "#") {
        from = (buffer[from...].firstIndex(of: 0x0A) ?? buffer.count - 1) + 1
      }
      if n == 0 {
        restOffset = offset
        return buffer
      }
      guard buffer.withUnsafeBufferPointer({ Self.rowEnds($0, from: from) }) >= 4 else { continue }
      if let end = buffer.withUnsafeBufferPointer({ Self.lastRowEnd($0, from: from) }) {
        buffer.removeLast(buffer.count - end)
        restOffset = Int64(end)
        return buffer
      }
    }
  }

  /// Calls `body` with each window after the head, in order; may run
  /// again (a second pass).
  func forEachWindow(_ body: (UnsafeBufferPointer<UInt8>) throws -> Void) throws {
    var buffer: [UInt8] = []
    buffer.reserveCapacity(windowBytes + windowBytes / 4)
    var offset = restOffset
    while true {
      let n = try read(into: &buffer, at: offset, count: windowBytes)
      offset += Int64(n)
      if n == 0 {
        if !buffer.isEmpty { try buffer.withUnsafeBufferPointer(body) }
        return
      }
      guard let end = buffer.withUnsafeBufferPointer({ Self.lastRowEnd($0, from: 0) }) else { continue }
      try buffer.withUnsafeBufferPointer { try body(UnsafeBufferPointer(rebasing: $0[..<end])) }
      buffer.removeFirst(end)
    }
  }
}
