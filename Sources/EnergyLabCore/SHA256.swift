import CLibCrypto
import Foundation

/// SHA-256 (FIPS 180-4), used to fingerprint every input of a run: the
/// system's OpenSSL libcrypto (its EVP digest interface) behind the small
/// API the project uses. Tests check it against the FIPS 180-4 example
/// vectors.
public struct SHA256 {
  /// The digest context, freed with its owner; a copy of a `SHA256` shares
  /// it, so a hasher is used by one owner from start to finish.
  private final class Context {
    let pointer: OpaquePointer?

    init() {
      pointer = EVP_MD_CTX_new()
      if let pointer { EVP_DigestInit_ex(pointer, EVP_sha256(), nil) }
    }

    deinit { EVP_MD_CTX_free(pointer) }
  }

  private let context = Context()

  public init() {}

  /// Adds bytes to the message.
  public mutating func update(_ bytes: some Sequence<UInt8>) {
    let array = Array(bytes)
    array.withUnsafeBytes { update(buffer: $0) }
  }

  /// Adds bytes to the message.
  public mutating func update(buffer: UnsafeRawBufferPointer) {
    guard let base = buffer.baseAddress, buffer.count > 0 else { return }
    EVP_DigestUpdate(context.pointer, base, buffer.count)
  }

  /// The digest as 64 lower-case hexadecimal digits.
  public mutating func finalizeHex() -> String {
    var digest = [UInt8](repeating: 0, count: 32)
    var length: UInt32 = 0
    digest.withUnsafeMutableBufferPointer { _ = EVP_DigestFinal_ex(context.pointer, $0.baseAddress, &length) }
    let hex: [UInt8] = Array("0123456789abcdef".utf8)
    var text = [UInt8]()
    text.reserveCapacity(64)
    for byte in digest.prefix(Int(length)) {
      text.append(hex[Int(byte >> 4)])
      text.append(hex[Int(byte & 0x0F)])
    }
    return String(decoding: text, as: UTF8.self)
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
