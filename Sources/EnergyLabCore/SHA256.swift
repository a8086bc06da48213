import Crypto
import Foundation

/// SHA-256 (FIPS 180-4), used to fingerprint every input of a run: swift-
/// crypto's (BoringSSL on Linux, CryptoKit on Apple platforms) behind the
/// small API the project uses. Tests check it against the FIPS 180-4
/// example vectors.
public struct SHA256 {
  private var hasher = Crypto.SHA256()

  public init() {}

  /// Adds bytes to the message.
  public mutating func update(_ bytes: some Sequence<UInt8>) {
    let array = Array(bytes)
    array.withUnsafeBytes { hasher.update(bufferPointer: $0) }
  }

  /// Adds bytes to the message.
  public mutating func update(buffer: UnsafeRawBufferPointer) {
    hasher.update(bufferPointer: buffer)
  }

  /// The digest as 64 lower-case hexadecimal digits.
  public mutating func finalizeHex() -> String {
    hasher.finalize().map { String(format: "%02x", $0) }.joined()
  }

  public static func hex(_ bytes: some Sequence<UInt8>) -> String {
    var hasher = SHA256()
    hasher.update(bytes)
    return hasher.finalizeHex()
  }

  /// The digest of a file's contents, read in chunks.
  public static func hex(fileAt path: String) throws -> String {
    guard let handle = FileHandle(forReadingAtPath: path) else {
      throw InputError(
        .unreadable, SourceLocation(file: path), "cannot open file", expected: "a readable file")
    }
    defer { try? handle.close() }
    var hasher = SHA256()
    while let chunk = try handle.read(upToCount: 1 << 20), !chunk.isEmpty {
      chunk.withUnsafeBytes { hasher.update(buffer: $0) }
    }
    return hasher.finalizeHex()
  }
}
