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

  public static func of(path: String) throws -> InputFingerprint {
    InputFingerprint(path: path, sizeBytes: FileStatus.size(path), sha256: try SHA256.hex(fileAt: path))
  }
}
