import Foundation

/// What a reader took from standard input (`-`), fingerprinted as it was
/// read: the run that read it stores its size and SHA-256 like any file's,
/// under the name `-`, since the bytes cannot be read a second time.
public enum StandardInput {
  /// The name standard input goes by among a command's files.
  public static let name = "-"

  private static let lock = NSLock()
  nonisolated(unsafe) private static var read: (sizeBytes: Int, sha256: String)?

  /// Records what was read from standard input, once it is read whole.
  public static func record(sizeBytes: Int, sha256: String) {
    lock.lock()
    defer { lock.unlock() }
    read = (sizeBytes, sha256)
  }

  /// The size and SHA-256 of what was read from standard input; nil before
  /// a reader has read it.
  public static var fingerprint: InputFingerprint? {
    lock.lock()
    defer { lock.unlock() }
    return read.map { InputFingerprint(path: name, sizeBytes: $0.sizeBytes, sha256: $0.sha256) }
  }
}
