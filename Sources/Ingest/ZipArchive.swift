import CZlib
import EnergyLabCore
import Foundation

/// The entries of a ZIP archive, from its central directory (PKWARE
/// APPNOTE.TXT 6.3.9, sections 4.3.12 and 4.3.16); stored and deflated
/// entries are read, ZIP64 and encryption are not.
struct ZipArchive {
  struct Entry {
    var name: String
    /// 0 stored, 8 deflated.
    var method: Int
    var compressedBytes: Int
    var uncompressedBytes: Int
    /// Offset of the entry's local header.
    var localHeaderOffset: Int
    var flags: Int
  }

  let path: String
  let size: Int
  let entries: [Entry]
  /// Where the central directory starts, for errors about it.
  let directoryOffset: Int

  init(path: String) throws {
    var file = try ChunkedFile(path: path)
    defer { file.close() }
    self.path = path
    size = file.size
    // The end-of-central-directory record: 22 bytes and a comment of up
    // to 65535 bytes at the very end.
    let tailStart = max(0, size - 22 - 65535)
    let tail = try file.read(at: tailStart, size - tailStart)
    var end: Int?
    var i = tail.count - 22
    while i >= 0 {
      if tail[i] == 0x50, tail[i + 1] == 0x4B, tail[i + 2] == 0x05, tail[i + 3] == 0x06 {
        end = i
        break
      }
      i -= 1
    }
    guard let end else {
      throw InputError(
        .malformed, SourceLocation(file: path, byteOffset: size),
        "no end of central directory (the ZIP archive is cut off or not one)",
        expected: "a complete ZIP archive ending in its central directory")
    }
    let count = tail.u16(end + 10)
    let directoryBytes = tail.u32(end + 12)
    let directoryOffset = tail.u32(end + 16)
    self.directoryOffset = directoryOffset
    guard count != 0xFFFF, directoryOffset != 0xFFFF_FFFF else {
      throw InputError(
        .malformed, SourceLocation(file: path, byteOffset: tailStart + end), "a ZIP64 archive",
        expected: "a ZIP archive under 4 GB (as devices write)")
    }
    guard directoryOffset + directoryBytes <= size else {
      throw InputError(
        .malformed, SourceLocation(file: path, byteOffset: tailStart + end + 16),
        "central directory at byte \(directoryOffset) (\(directoryBytes) bytes) beyond the end of the file (\(size) bytes)",
        expected: "a complete ZIP archive")
    }
    let directory = try file.read(at: directoryOffset, directoryBytes)
    var entries: [Entry] = []
    var o = 0
    for _ in 0..<count {
      guard o + 46 <= directory.count, directory.u32(o) == 0x0201_4B50 else {
        throw InputError(
          .malformed, SourceLocation(file: path, byteOffset: directoryOffset + o),
          "a broken central directory entry",
          expected: "a central directory file header (PK 1 2)")
      }
      let nameBytes = directory.u16(o + 28)
      let next = o + 46 + nameBytes + directory.u16(o + 30) + directory.u16(o + 32)
      guard next <= directory.count else {
        throw InputError(
          .malformed, SourceLocation(file: path, byteOffset: directoryOffset + o),
          "a central directory entry cut off",
          expected: "a complete central directory")
      }
      entries.append(
        Entry(
          name: String(decoding: directory[(o + 46)..<(o + 46 + nameBytes)], as: UTF8.self),
          method: directory.u16(o + 10), compressedBytes: directory.u32(o + 20),
          uncompressedBytes: directory.u32(o + 24), localHeaderOffset: directory.u32(o + 42),
          flags: directory.u16(o + 8)))
      o = next
    }
    self.entries = entries
  }

  /// The entry named `name` (case-insensitive, in any folder).
  func entry(named name: String) -> Entry? {
    entries.first { ($0.name.split(separator: "/").last.map(String.init) ?? $0.name).lowercased() == name }
  }

  /// Streams an entry's uncompressed bytes in chunks.
  final class EntryReader {
    let path: String
    let entry: Entry
    private var file: ChunkedFile
    private var remaining: Int
    private var stream = z_stream()
    private var inflating = false
    private var input: [UInt8] = []
    private var finished = false
    /// Uncompressed bytes handed out so far.
    private(set) var produced = 0
    /// Offset in the archive of the compressed data read so far.
    var archiveOffset: Int { file.offset }

    init(archive: ZipArchive, entry: Entry) throws {
      path = archive.path
      self.entry = entry
      file = try ChunkedFile(path: archive.path)
      let local = try file.read(at: entry.localHeaderOffset, 30)
      guard local.count == 30, local.u32(0) == 0x0403_4B50 else {
        throw InputError(
          .malformed, SourceLocation(file: archive.path, byteOffset: entry.localHeaderOffset),
          "no local header for \(entry.name)", expected: "a local file header (PK 3 4)")
      }
      guard entry.flags & 1 == 0 else {
        throw InputError(
          .unreadable, SourceLocation(file: archive.path, byteOffset: entry.localHeaderOffset),
          "\(entry.name) is encrypted", expected: "an unencrypted entry")
      }
      let dataOffset = entry.localHeaderOffset + 30 + local.u16(26) + local.u16(28)
      guard dataOffset + entry.compressedBytes <= archive.size else {
        throw InputError(
          .malformed, SourceLocation(file: archive.path, byteOffset: archive.size),
          "\(entry.name) runs past the end of the file", expected: "a complete ZIP archive")
      }
      _ = try file.read(at: dataOffset, 0)
      remaining = entry.compressedBytes
      switch entry.method {
      case 0: break
      case 8:
        let status = inflateInit2_(&stream, -15, zlibVersion(), Int32(MemoryLayout<z_stream>.size))
        guard status == Z_OK else {
          throw RuntimeError("zlib could not start inflating \(entry.name) (code \(status))")
        }
        inflating = true
      default:
        throw InputError(
          .unreadable, SourceLocation(file: archive.path, byteOffset: entry.localHeaderOffset + 8),
          "\(entry.name) is compressed with method \(entry.method)", expected: "stored (0) or deflated (8)")
      }
    }

    /// The next bytes of the entry; nil at its end.
    func next() throws -> [UInt8]? {
      guard !finished else { return nil }
      if !inflating {
        guard remaining > 0 else {
          finished = true
          return nil
        }
        let chunk = try file.read(min(remaining, 1 << 20))
        guard !chunk.isEmpty else {
          throw InputError(
            .malformed, SourceLocation(file: path, byteOffset: file.offset), "\(entry.name) ends early",
            expected: "\(entry.compressedBytes) bytes")
        }
        remaining -= chunk.count
        produced += chunk.count
        return chunk
      }
      var output = [UInt8](repeating: 0, count: 1 << 20)
      var written = 0
      while written < output.count {
        if stream.avail_in == 0 && remaining > 0 {
          input = try file.read(min(remaining, 1 << 18))
          remaining -= input.count
        }
        let status: Int32 = input.withUnsafeMutableBufferPointer { inBuffer in
          output.withUnsafeMutableBufferPointer { outBuffer in
            if stream.avail_in == 0 {
              stream.next_in = inBuffer.baseAddress
              stream.avail_in = UInt32(inBuffer.count)
            } else {
              // Resume where zlib stopped in the same input chunk.
              stream.next_in = inBuffer.baseAddress.map { $0 + (inBuffer.count - Int(stream.avail_in)) }
            }
            stream.next_out = outBuffer.baseAddress.map { $0 + written }
            stream.avail_out = UInt32(outBuffer.count - written)
            let status = CZlib.inflate(&stream, Z_NO_FLUSH)
            written = outBuffer.count - Int(stream.avail_out)
            return status
          }
        }
        if status == Z_STREAM_END {
          inflateEnd(&stream)
          inflating = false
          remaining = 0
          finished = true
          break
        }
        guard status == Z_OK || (status == Z_BUF_ERROR && (remaining > 0 || stream.avail_in > 0)) else {
          inflateEnd(&stream)
          inflating = false
          finished = true
          throw InputError(
            .encoding, SourceLocation(file: path, byteOffset: file.offset),
            "\(entry.name): broken deflate stream (zlib code \(status))",
            expected: "a complete deflated entry")
        }
        if remaining == 0 && stream.avail_in == 0 && status == Z_BUF_ERROR { break }
      }
      if finished && written == 0 { return nil }
      if written == 0 && remaining == 0 && stream.avail_in == 0 {
        throw InputError(
          .encoding, SourceLocation(file: path, byteOffset: file.offset), "\(entry.name) ends early",
          expected: "a complete deflated entry")
      }
      output.removeLast(output.count - written)
      produced += written
      return output
    }

    deinit {
      if inflating { inflateEnd(&stream) }
      file.close()
    }
  }
}
