import EnergyLabCore
import Foundation

/// Writes files atomically: into `.NAME.partial-PID` beside the target,
/// then renamed over it, so a reader never sees half a file. The partial
/// file is removed on failure and on SIGINT or SIGTERM; one left by a killed
/// process is removed by the next write into the same folder.
package enum AtomicFile {
  /// Creates `folder` and any missing parents; a failure is an
  /// `OutputError` naming the folder and the system's reason ("Not a
  /// directory" where a parent is a file).
  package static func createFolder(_ folder: String) throws {
    var current = folder.hasPrefix("/") ? "/" : ""
    for component in folder.split(separator: "/") {
      current += (current.isEmpty || current.hasSuffix("/") ? "" : "/") + component
      if mkdir(current, 0o755) != 0 && errno != EEXIST {
        throw OutputError(.file, folder, reason: "cannot create folder: \(String(cString: strerror(errno)))")
      }
    }
    var info = stat()
    guard stat(folder, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR else {
      throw OutputError(.file, folder, reason: "cannot create folder: \(String(cString: strerror(ENOTDIR)))")
    }
  }

  package static func write(_ text: String, to path: String) throws {
    try write(Data(text.utf8), to: path)
  }

  package static func write(_ data: Data, to path: String) throws {
    try stream(to: path) { write in try write([UInt8](data)) }
  }

  /// Streams a large file into a temporary file beside `path`, renamed over
  /// it only when `body` returns: an interrupted or failed write leaves any
  /// previous file whole.
  package static func stream(to path: String, _ body: (_ write: ([UInt8]) throws -> Void) throws -> Void)
    throws
  {
    let temporary = TemporaryFiles.name(for: path, kind: "partial")
    TemporaryFiles.removeStale(in: (path as NSString).deletingLastPathComponent, kinds: ["partial"])
    TemporaryFiles.register(temporary)
    defer { TemporaryFiles.unregister(temporary) }
    func failure(_ why: String) -> OutputError { OutputError(.file, path, reason: why) }
    let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
    guard fd >= 0 else { throw failure(String(cString: strerror(errno))) }
    var isOpen = true
    do {
      try body { bytes in
        var offset = 0
        while offset < bytes.count {
          let n = bytes.withUnsafeBytes { raw in
            raw.baseAddress.map { Foundation.write(fd, $0 + offset, bytes.count - offset) } ?? 0
          }
          if n < 0 && errno == EINTR { continue }
          guard n > 0 else { throw failure(String(cString: strerror(n < 0 ? errno : EIO))) }
          offset += n
        }
      }
      isOpen = false
      guard close(fd) == 0 else { throw failure(String(cString: strerror(errno))) }
      guard rename(temporary, path) == 0 else {
        throw failure("rename failed: \(String(cString: strerror(errno)))")
      }
    } catch {
      if isOpen { close(fd) }
      try? FileManager.default.removeItem(atPath: temporary)
      throw error
    }
  }
}
