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
