import EnergyLabCore
import Foundation

/// Reads a whole input file (`-`: standard input), turning the operating
/// system's refusal into an `InputError` that names the file and what was
/// expected.
///
/// Every table read whole (subjects, MET tables, factor sets, airports,
/// reference tables, truth labels, measured tables, scales, codebooks,
/// surveys) is held to `Limits`: a row (a line, or several inside a quoted
/// cell) of at most 4 MiB, as the accelerometer reader's lines, and a file
/// of at most 1 GiB, since it is held in memory. Both are checked block by
/// block as the file is read, so a 2 GB line or an endless device is
/// refused after 4 MiB, naming the file and the row's line.
public enum FileInput {
  public struct Limits: Sendable, Hashable {
    /// The longest row, in bytes.
    public var maximumRowBytes: Int
    /// The largest file, in bytes.
    public var maximumBytes: Int

    public init(
      maximumRowBytes: Int = LineChunks.defaultMaximumLineBytes,
      maximumBytes: Int = FileInput.defaultMaximumBytes
    ) {
      self.maximumRowBytes = maximumRowBytes
      self.maximumBytes = maximumBytes
    }
  }

  /// 1 GiB.
  public static let defaultMaximumBytes = 1 << 30

  /// The limits in force; tests set small ones with `$limits.withValue`.
  @TaskLocal public static var limits = Limits()

  /// `csvRows`: a row may run over several lines inside a quoted cell;
  /// false holds each line to the limit (Markdown, plain text).
  public static func read(_ path: String, expected: String, maximumRowBytes: Int? = nil, csvRows: Bool = true)
    throws -> Data
  {
    let fd: Int32
    if path == StandardInput.name {
      fd = try StandardInputSpool.open()
    } else {
      var isDirectory: ObjCBool = false
      guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
        throw InputError(.unreadable, SourceLocation(file: path), "no such file", expected: expected)
      }
      guard !isDirectory.boolValue else {
        throw InputError(.unreadable, SourceLocation(file: path), "is a folder", expected: expected)
      }
      fd = open(path, O_RDONLY | O_CLOEXEC)
      guard fd >= 0 else {
        throw InputError(
          .unreadable,
          SourceLocation(file: path), "cannot read file (permission denied?)", expected: expected)
      }
    }
    defer { close(fd) }
    let limits = limits
    var rows = RowLengthCheck(limit: maximumRowBytes ?? limits.maximumRowBytes, source: path)
    rows.quoted = csvRows
    var data = Data()
    var block = [UInt8](repeating: 0, count: 1 << 20)
    while true {
      let n = block.withUnsafeMutableBytes { raw in
        raw.baseAddress.map { Foundation.read(fd, $0, raw.count) } ?? 0
      }
      if n < 0 && errno == EINTR { continue }
      guard n >= 0 else {
        throw InputError(
          .unreadable, SourceLocation(file: path), "read failed (\(String(cString: strerror(errno))))",
          expected: expected)
      }
      if n == 0 { return data }
      try block.withUnsafeBufferPointer { try rows.feed(UnsafeBufferPointer(rebasing: $0[..<n])) }
      guard data.count + n <= limits.maximumBytes else {
        throw InputError(
          .malformed, SourceLocation(file: path), "a file longer than \(limits.maximumBytes) bytes",
          expected:
            "\(expected) of at most \(limits.maximumBytes) bytes (the reader's limit: it is held in memory whole)"
        )
      }
      data.append(contentsOf: block[..<n])
    }
  }
}

/// Standard input copied once into an unnamed temporary file, so that every
/// reader of `-` (and a command's first and second pass over it) reads the
/// same bytes from the start, in flat memory, and the run stores their size
/// and SHA-256 as its input `-`.
public enum StandardInputSpool {
  private static let lock = NSLock()
  nonisolated(unsafe) private static var spool: Int32 = -1

  /// A new descriptor that reads standard input's bytes from their start.
  public static func open() throws -> Int32 {
    lock.lock()
    defer { lock.unlock() }
    if spool < 0 { spool = try copyStandardInput() }
    // A descriptor of its own, at offset 0: the spool's other readers keep
    // their places.
    let fd = Foundation.open("/proc/self/fd/\(spool)", O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else {
      throw InputError(
        .unreadable, SourceLocation(file: StandardInput.name), "cannot read standard input again",
        expected: "a system with /proc")
    }
    return fd
  }

  private static func copyStandardInput() throws -> Int32 {
    var template = Array((NSTemporaryDirectory() + "/energylab-stdin-XXXXXX").utf8CString)
    let fd = template.withUnsafeMutableBufferPointer { name in name.baseAddress.map { mkstemp($0) } ?? -1 }
    guard fd >= 0 else {
      throw InputError(
        .unreadable, SourceLocation(file: StandardInput.name),
        "cannot make a temporary file to hold standard input (errno \(errno))",
        expected: "a writable temporary folder (TMPDIR)")
    }
    // Unnamed from the start: nothing is left behind, whatever ends the run.
    _ = unlink(template)
    var hasher = SHA256()
    var total = 0
    var block = [UInt8](repeating: 0, count: 1 << 20)
    while true {
      let n = block.withUnsafeMutableBytes { raw in
        raw.baseAddress.map { Foundation.read(0, $0, raw.count) } ?? 0
      }
      if n < 0 && errno == EINTR { continue }
      guard n >= 0 else {
        close(fd)
        throw InputError(
          .unreadable, SourceLocation(file: StandardInput.name),
          "cannot read standard input (errno \(errno))",
          expected: "a readable standard input")
      }
      if n == 0 { break }
      try block.withUnsafeBytes { raw in
        let chunk = UnsafeRawBufferPointer(rebasing: raw[..<n])
        hasher.update(buffer: chunk)
        var written = 0
        while written < n {
          let w = chunk.baseAddress.map { Foundation.write(fd, $0 + written, n - written) } ?? 0
          if w < 0 && errno == EINTR { continue }
          guard w > 0 else {
            close(fd)
            throw InputError(
              .unreadable, SourceLocation(file: StandardInput.name),
              "cannot hold standard input in a temporary file (\(String(cString: strerror(errno))))",
              expected: "room in the temporary folder (TMPDIR)")
          }
          written += w
        }
      }
      total += n
    }
    StandardInput.record(sizeBytes: total, sha256: hasher.finalizeHex())
    return fd
  }
}
