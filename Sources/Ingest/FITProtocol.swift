import EnergyLabCore
import Foundation

/// The 16-bit cyclic redundancy check of the FIT protocol: CRC-16/ARC
/// (reflected polynomial 0xA001, initial value 0, no final XOR).
///
/// ```
/// for each byte b:
///   crc = (crc >> 8) XOR T[(crc XOR b) AND 0xFF]
/// T[i] = i shifted right eight times through the polynomial 0xA001
/// ```
///
/// The protocol document gives the same CRC four bits at a time (a
/// 16-entry table, low nibble then high nibble); a byte at a time takes
/// half the steps.
///
/// A FIT file carries it twice: over the 12 bytes of a 14-byte header
/// (bytes 12-13; 0 means not computed) and over header and data (the two
/// bytes after the data). The CRC of a block followed by its own CRC,
/// little endian, is 0. Check value: the CRC of the ASCII text `123456789`
/// is 0xBB3D.
///
/// Source: Garmin, "Flexible and Interoperable Data Transfer (FIT)
/// Protocol", section 3.3.2 (File CRC).
public struct FITCRC: Sendable, Hashable {
  /// The CRC of the bytes added so far.
  public private(set) var value: UInt16 = 0

  public init() {}

  /// The CRC of each of the 256 byte values, by the polynomial.
  static let byteTable: [UInt16] = (0..<256).map { byte in
    var crc = UInt16(byte)
    for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xA001 : crc >> 1 }
    return crc
  }

  public mutating func add(_ byte: UInt8) {
    value = (value >> 8) ^ Self.byteTable[Int(UInt8(truncatingIfNeeded: value) ^ byte)]
  }

  public mutating func add(_ bytes: UnsafeRawBufferPointer) {
    var crc = value
    Self.byteTable.withUnsafeBufferPointer { table in
      for b in bytes { crc = (crc >> 8) ^ table[Int(UInt8(truncatingIfNeeded: crc) ^ b)] }
    }
    value = crc
  }

  public mutating func add<S: Sequence>(_ bytes: S) where S.Element == UInt8 {
    for b in bytes { add(b) }
  }

  /// The CRC of `bytes`.
  public static func of<S: Sequence>(_ bytes: S) -> UInt16 where S.Element == UInt8 {
    var crc = FITCRC()
    crc.add(bytes)
    return crc.value
  }
}

/// The header of one FIT file (a chained file holds several, each followed
/// by its data and its CRC).
///
/// Layout (little endian): byte 0 header size (12 or 14), byte 1 protocol
/// version (major in the high nibble), bytes 2-3 profile version (major *
/// 100 + minor, or * 1000 from profile 21), bytes 4-7 size of the data
/// that follows, without header and CRC, bytes 8-11 the ASCII text `.FIT`,
/// bytes 12-13 (14-byte headers only) the CRC of bytes 0-11, 0 when not
/// computed.
public struct FITFileHeader: Sendable, Hashable {
  /// Byte offset of the header in the stream read (0 for the first file).
  public var offsetBytes: Int
  public var headerSizeBytes: Int
  public var protocolVersion: UInt8
  public var profileVersion: UInt16
  public var dataSizeBytes: Int
  /// The header CRC as written; nil for a 12-byte header, 0 when the
  /// writer did not compute it.
  public var headerCRC: UInt16?

  /// Whether bytes 8-11 of `bytes` (at least 12 of them) read `.FIT`:
  /// how a FIT file is told from a GPX or TCX one by its content.
  public static func hasSignature<C: Collection>(_ bytes: C) -> Bool
  where C.Element == UInt8, C.Index == Int {
    guard bytes.count >= 12 else { return false }
    let s = bytes.startIndex
    return bytes[s + 8] == 0x2E && bytes[s + 9] == 0x46 && bytes[s + 10] == 0x49 && bytes[s + 11] == 0x54
  }

  /// Whether the file at `path` starts with a FIT header (`.FIT` at bytes
  /// 8-11); false when it cannot be read or is shorter.
  public static func isFIT(path: String) -> Bool {
    guard path != "-", let handle = FileHandle(forReadingAtPath: path) else { return false }
    defer { try? handle.close() }
    guard let data = try? handle.read(upToCount: 12) else { return false }
    return hasSignature([UInt8](data))
  }
}

/// FIT base types: how a field's bytes are read and which value marks it
/// invalid (missing).
///
/// The base type byte carries the type number in its low 5 bits (bit 7
/// says whether the type has an endianness). Invalid values: all bits set
/// for unsigned types, enums, `byte` and floats; the largest positive
/// value (0x7F, 0x7FFF, ...) for signed types; 0 for the `z` types
/// (`uint8z`, `uint16z`, `uint32z`, `uint64z`); an empty string. An array
/// of `byte` is invalid when every byte is 0xFF.
///
/// Source: Garmin, FIT Protocol, section 4.2.1.4 (Base Type), table 7.
enum FITBaseType: UInt8, Sendable {
  case enumeration = 0
  case sint8 = 1
  case uint8 = 2
  case sint16 = 3
  case uint16 = 4
  case sint32 = 5
  case uint32 = 6
  case string = 7
  case float32 = 8
  case float64 = 9
  case uint8z = 10
  case uint16z = 11
  case uint32z = 12
  case byte = 13
  case sint64 = 14
  case uint64 = 15
  case uint64z = 16

  init?(byte: UInt8) { self.init(rawValue: byte & 0x1F) }

  var sizeBytes: Int {
    switch self {
    case .enumeration, .sint8, .uint8, .string, .uint8z, .byte: 1
    case .sint16, .uint16, .uint16z: 2
    case .sint32, .uint32, .float32, .uint32z: 4
    case .float64, .sint64, .uint64, .uint64z: 8
    }
  }

  /// The value of one element at `bytes[at..<at + sizeBytes]`, or nil when
  /// it is the type's invalid value. Strings and bytes are read elsewhere.
  func number(_ bytes: UnsafeRawBufferPointer, at i: Int, bigEndian: Bool) -> Double? {
    func unsigned(_ n: Int) -> UInt64 {
      switch n {
      case 2:
        let v = bytes.loadUnaligned(fromByteOffset: i, as: UInt16.self)
        return UInt64(bigEndian ? UInt16(bigEndian: v) : UInt16(littleEndian: v))
      case 4:
        let v = bytes.loadUnaligned(fromByteOffset: i, as: UInt32.self)
        return UInt64(bigEndian ? UInt32(bigEndian: v) : UInt32(littleEndian: v))
      default:
        let v = bytes.loadUnaligned(fromByteOffset: i, as: UInt64.self)
        return bigEndian ? UInt64(bigEndian: v) : UInt64(littleEndian: v)
      }
    }
    switch self {
    case .enumeration, .uint8, .byte:
      let v = bytes[i]
      return v == 0xFF ? nil : Double(v)
    case .uint8z, .string:
      let v = bytes[i]
      return v == 0 ? nil : Double(v)
    case .sint8:
      let v = Int8(bitPattern: bytes[i])
      return v == Int8.max ? nil : Double(v)
    case .uint16:
      let v = UInt16(truncatingIfNeeded: unsigned(2))
      return v == UInt16.max ? nil : Double(v)
    case .uint16z:
      let v = UInt16(truncatingIfNeeded: unsigned(2))
      return v == 0 ? nil : Double(v)
    case .sint16:
      let v = Int16(bitPattern: UInt16(truncatingIfNeeded: unsigned(2)))
      return v == Int16.max ? nil : Double(v)
    case .uint32:
      let v = UInt32(truncatingIfNeeded: unsigned(4))
      return v == UInt32.max ? nil : Double(v)
    case .uint32z:
      let v = UInt32(truncatingIfNeeded: unsigned(4))
      return v == 0 ? nil : Double(v)
    case .sint32:
      let v = Int32(bitPattern: UInt32(truncatingIfNeeded: unsigned(4)))
      return v == Int32.max ? nil : Double(v)
    case .float32:
      let v = UInt32(truncatingIfNeeded: unsigned(4))
      let f = Float(bitPattern: v)
      return v == UInt32.max || !f.isFinite ? nil : Double(f)
    case .float64:
      let v = unsigned(8)
      let f = Double(bitPattern: v)
      return v == UInt64.max || !f.isFinite ? nil : f
    case .sint64:
      let v = Int64(bitPattern: unsigned(8))
      return v == Int64.max ? nil : Double(v)
    case .uint64:
      let v = unsigned(8)
      return v == UInt64.max ? nil : Double(v)
    case .uint64z:
      let v = unsigned(8)
      return v == 0 ? nil : Double(v)
    }
  }
}

/// Times in FIT: `date_time` is seconds since 1989-12-31T00:00:00Z, a
/// uint32; values below 0x10000000 are device time (seconds since the
/// device was switched on), not a date.
enum FITTime {
  /// 1989-12-31T00:00:00Z in seconds since 1970-01-01T00:00:00Z.
  static let epochSecondsSince1970 = 631_065_600.0
  /// The smallest `date_time` that is a date rather than device time.
  static let smallestDate: UInt32 = 0x1000_0000

  static func secondsSince1970(_ fitSeconds: UInt32) -> Double {
    Double(fitSeconds) + epochSecondsSince1970
  }

  /// A field's number as a `date_time`: nil unless it is a whole number
  /// of seconds a uint32 holds (a damaged file may declare a time field
  /// as a signed or floating-point type).
  static func dateTime(_ value: Double) -> UInt32? {
    value >= 0 && value <= Double(UInt32.max) && value == value.rounded(.towardZero) ? UInt32(value) : nil
  }

  /// A field's number as an integer (an enumeration, a product or serial
  /// number): nil unless it is whole and within ±2^53.
  static func integer(_ value: Double) -> Int? {
    abs(value) <= 9_007_199_254_740_992 && value == value.rounded(.towardZero) ? Int(value) : nil
  }
}
