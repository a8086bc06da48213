import EnergyLabCore
import Foundation

/// Writes files atomically: into a temporary file beside the target, then
/// renamed over it, so a reader never sees half a file.
public enum AtomicFile {
  public static func write(_ text: String, to path: String) throws {
    try write(Data(text.utf8), to: path)
  }

  public static func write(_ data: Data, to path: String) throws {
    do {
      try data.write(to: URL(fileURLWithPath: path), options: .atomic)
    } catch {
      throw RuntimeError("\(path): cannot write file (\((error as NSError).localizedDescription))")
    }
  }
}

extension AtomicFile {
  /// Streams a large file into a temporary file beside `path`, renamed over
  /// it only when `body` returns: an interrupted or failed write leaves any
  /// previous file whole.
  public static func stream(to path: String, _ body: (_ write: ([UInt8]) throws -> Void) throws -> Void)
    throws
  {
    let url = URL(fileURLWithPath: path)
    let temporary = url.deletingLastPathComponent().appendingPathComponent(
      ".\(url.lastPathComponent).partial-\(getpid())")
    guard FileManager.default.createFile(atPath: temporary.path, contents: nil),
      let handle = try? FileHandle(forWritingTo: temporary)
    else { throw RuntimeError("\(path): cannot write file") }
    do {
      try body { bytes in
        do { try handle.write(contentsOf: bytes) } catch {
          throw RuntimeError("\(path): cannot write file (\((error as NSError).localizedDescription))")
        }
      }
      try handle.close()
      guard rename(temporary.path, path) == 0 else {
        throw RuntimeError("\(path): cannot write file (rename failed, errno \(errno))")
      }
    } catch {
      try? handle.close()
      try? FileManager.default.removeItem(at: temporary)
      throw error
    }
  }
}
