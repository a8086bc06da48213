import Foundation

/// A file used by a run, fingerprinted.
public struct InputFingerprint: Sendable, Hashable {
  public init(path: String, sizeBytes: Int, sha256: String) {
    self.path = path
    self.sizeBytes = sizeBytes
    self.sha256 = sha256
  }

  public var path: String
  public var sizeBytes: Int
  public var sha256: String

  /// The file at `path` with its size and SHA-256, under `path` as given.
  /// Standard input (`-`) is fingerprinted from what its reader read.
  public static func of(path: String) throws -> InputFingerprint {
    if path == StandardInput.name {
      guard let read = StandardInput.fingerprint else {
        throw InputError(
          .unreadable, SourceLocation(file: path), "standard input was not read",
          expected: "a command that reads standard input")
      }
      return read
    }
    return InputFingerprint(
      path: path, sizeBytes: FileStatus.size(path), sha256: try SHA256.hex(fileAt: path))
  }

  /// The file at `path` as the results store records it: its size and
  /// SHA-256 under its stored name (`CanonicalPath.stored`), so it is
  /// keyed by where it is and by what it holds.
  public static func stored(path: String) throws -> InputFingerprint {
    var fingerprint = try of(path: path)
    fingerprint.path = path == StandardInput.name ? path : CanonicalPath.stored(path)
    return fingerprint
  }
}
