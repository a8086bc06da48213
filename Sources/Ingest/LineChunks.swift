import CZlib
import EnergyLabCore
import Foundation

/// Reads a text file (`-`: standard input), plain or gzip-compressed (told apart by the gzip
/// magic bytes, not by the name), in chunks that end at a line break, so
/// that each chunk can be parsed on its own thread.
///
/// A line may not be longer than `maximumLineBytes` (4 MiB by default);
/// a longer one is an `InputError` rather than unbounded memory. A gzip
/// stream that ends before its trailer is an `InputError` naming the
/// compressed byte where it stops.
public final class LineChunks {
  public static let defaultMaximumLineBytes = 4 << 20

  public let path: String
  public let compressed: Bool
  private let maximumLineBytes: Int
  private var fd: Int32 = -1
  private var gz: gzFile?
  private var carry: [UInt8] = []
  private var atEnd = false
  /// Bytes of (uncompressed) text handed out so far.
  public private(set) var bytesRead = 0
  /// Bytes inflated from a gzip stream so far.
  private var inflatedBytes = 0

  private var memory: [UInt8]?
  private var memoryOffset = 0

  /// Bytes already in memory (tests and fuzzing), named `source` in errors.
  public init(bytes: [UInt8], source: String, maximumLineBytes: Int = LineChunks.defaultMaximumLineBytes) {
    path = source
    self.maximumLineBytes = maximumLineBytes
    compressed = false
    memory = bytes
  }

  public init(path: String, maximumLineBytes: Int = LineChunks.defaultMaximumLineBytes) throws {
    self.path = path
    self.maximumLineBytes = maximumLineBytes
    if path == StandardInput.name {
      fd = try StandardInputSpool.open()
    } else {
      var isDirectory: ObjCBool = false
      guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
        throw InputError(.unreadable, SourceLocation(file: path), "no such file", expected: "a readable file")
      }
      guard !isDirectory.boolValue else {
        throw InputError(.unreadable, SourceLocation(file: path), "is a folder", expected: "a file")
      }
      fd = open(path, O_RDONLY)
    }
    guard fd >= 0 else {
      throw InputError(
        .unreadable,
        SourceLocation(file: path), "cannot read file (permission denied?)", expected: "a readable file")
    }
    var magic: [UInt8] = [0, 0]
    let n = pread(fd, &magic, 2, 0)
    // A pipe cannot be peeked at: zlib reads it, inflating a gzip stream
    // and passing anything else through as it is.
    let pipe = n < 0 && errno == ESPIPE
    let gzipMagic = n == 2 && magic[0] == 0x1F && magic[1] == 0x8B
    if gzipMagic || pipe {
      let dupFD = dup(fd)
      close(fd)
      fd = -1
      gz = gzdopen(dupFD, "rb")
      guard gz != nil else {
        close(dupFD)
        throw InputError(
          .encoding, SourceLocation(file: path), "cannot open gzip stream", expected: "a gzip file")
      }
      gzbuffer(gz, 1 << 17)
      compressed = gzipMagic || gzdirect(gz) == 0
    } else {
      compressed = false
    }
  }

  deinit {
    if let gz { gzclose(gz) }
    if fd >= 0 { close(fd) }
  }

  /// Fills `buffer` from the file; returns the number of bytes read (0 at
  /// the end).
  private func fill(_ buffer: UnsafeMutableRawPointer, _ count: Int) throws -> Int {
    if let memory {
      let n = min(count, memory.count - memoryOffset)
      memory.withUnsafeBytes { raw in
        if let base = raw.baseAddress, n > 0 { buffer.copyMemory(from: base + memoryOffset, byteCount: n) }
      }
      memoryOffset += n
      return n
    }
    if let gz {
      let n = gzread(gz, buffer, UInt32(count))
      if n < 0 {
        var code: Int32 = 0
        let message = gzerror(gz, &code).map { String(cString: $0) } ?? "unknown"
        throw InputError(
          .encoding,
          SourceLocation(file: path), "broken gzip stream (\(message))",
          expected: "a complete gzip file")
      }
      // zlib hands out what it inflated and flags, rather than reports, a
      // stream cut off before its trailer (Z_BUF_ERROR): half a recording
      // must not read as a whole one.
      var code: Int32 = 0
      _ = gzerror(gz, &code)
      if code == Z_BUF_ERROR {
        throw InputError(
          .encoding,
          SourceLocation(file: path, byteOffset: Int(gzoffset(gz))),
          "gzip stream cut off before its end (\(inflatedBytes + Int(n)) bytes of text inflated)",
          expected: "a complete gzip file (ending with its CRC and length trailer)")
      }
      if n == 0 && gzeof(gz) == 0 {
        throw InputError(
          .encoding,
          SourceLocation(file: path), "gzip stream ends early", expected: "a complete gzip file")
      }
      inflatedBytes += Int(n)
      return Int(n)
    }
    var n: Int
    repeat { n = read(fd, buffer, count) } while n < 0 && errno == EINTR
    guard n >= 0 else {
      throw InputError(
        .unreadable,
        SourceLocation(file: path), "read failed (errno \(errno))", expected: "a readable file")
    }
    return n
  }

  /// The next chunk of about `size` bytes ending just after a line break,
  /// or the rest of the file (which may lack the final line break); nil at
  /// the end.
  public func next(size: Int = 4 << 20) throws -> [UInt8]? {
    var chunk = carry
    carry = []
    var searchFrom = 0
    while true {
      while !atEnd && chunk.count < size { try append(to: &chunk, max(size - chunk.count, 1 << 16)) }
      if atEnd {
        guard !chunk.isEmpty else { return nil }
        bytesRead += chunk.count
        return chunk
      }
      if let cut = lastLineBreak(in: chunk, from: searchFrom) {
        carry = Array(chunk[(cut + 1)...])
        chunk.removeSubrange((cut + 1)...)
        bytesRead += chunk.count
        return chunk
      }
      guard chunk.count <= maximumLineBytes else {
        throw InputError(
          .malformed,
          SourceLocation(file: path), "a line longer than \(maximumLineBytes) bytes",
          expected: "lines of at most \(maximumLineBytes) bytes (the reader's limit)")
      }
      // No line break yet: read on, but never past the limit.
      searchFrom = chunk.count
      try append(to: &chunk, min(1 << 20, maximumLineBytes + 1 - chunk.count))
    }
  }

  private func append(to chunk: inout [UInt8], _ want: Int) throws {
    let old = chunk.count
    if chunk.capacity - old < want {
      // Grow into fresh, uninitialised storage: the old bytes, then the read.
      var failure: Error?
      var read = 0
      let grown = [UInt8](unsafeUninitializedCapacity: old + want) { buffer, count in
        guard let target = buffer.baseAddress else { return }
        if old > 0 {
          chunk.withUnsafeBufferPointer {
            if let source = $0.baseAddress { target.update(from: source, count: old) }
          }
        }
        do { read = try fill(target + old, want) } catch { failure = error }
        count = old + read
      }
      if let failure { throw failure }
      chunk = grown
      if read == 0 { atEnd = true }
      return
    }
    chunk.append(contentsOf: [UInt8](repeating: 0, count: want))
    let n = try chunk.withUnsafeMutableBytes { raw in
      try raw.baseAddress.map { try fill($0 + old, want) } ?? 0
    }
    chunk.removeLast(want - n)
    if n == 0 { atEnd = true }
  }

  private func lastLineBreak(in bytes: [UInt8], from: Int) -> Int? {
    var i = bytes.count - 1
    while i >= from {
      if bytes[i] == 0x0A { return i }
      i -= 1
    }
    return nil
  }
}
