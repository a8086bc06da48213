import EnergyLabCore
import Foundation

/// Reads FIT activity files (Garmin's Flexible and Interoperable Data
/// Transfer protocol, as watches, bike computers and apps write them) as a
/// stream: bytes are read in chunks and fixes are handed over one at a time,
/// so memory stays bounded whatever the file's length.
///
/// Protocol: a 12- or 14-byte file header (`FITFileHeader`), definition and
/// data messages for local message types 0-15, little- and big-endian
/// definitions, compressed timestamp headers, developer data fields
/// (skipped by their declared size and counted), chained files (several
/// FIT files one after another, read in order), base types with their
/// invalid values read as missing, strings and arrays. The header CRC and
/// each file's CRC are checked (`FITCRC`); a mismatch is an error naming the
/// byte offset unless `ignoreCRC` is set, which reads on and says so in a
/// diagnostic.
///
/// A file that ends before the data its header declares (a download or a
/// recording cut short) is an error naming the byte where it ends, unless
/// `readTruncated` is set: the messages up to the last whole one are read
/// and a diagnostic (`fit-truncated`) says where the file ends, how many
/// bytes are missing against the header's data size and how many records
/// were read.
///
/// Each `record` with a position becomes a `.track` fix (time, elevation,
/// heart rate, cadence, power, temperature, reported speed); one with a time
/// but no position a `.timeOnly` fix, as TCX trackpoints without a position.
/// Positions are semicircles:
///
/// ```
/// degrees = semicircles * 180 / 2^31
/// ```
///
/// `enhanced_altitude` and `enhanced_speed` are preferred to `altitude` and
/// `speed` when both are written. A timer restart after a stop (`event`
/// timer, `event_type` start after stop, stop_all, stop_disable or
/// stop_disable_all), a `session` message and a new chained file each
/// begin a new path segment for the fixes that follow. Each session
/// declares its sport (`running`, `cycling/indoor_cycling`) for the segments
/// that begin within its time span; the device's distance is the sum of the
/// sessions' `total_distance`.
///
/// Source: Garmin, "Flexible and Interoperable Data Transfer (FIT)
/// Protocol" (rev. 2.3) and the FIT SDK Profile (`FITProfile`).
public struct FITReader: Sendable {
  /// Reads on past a header or file CRC that does not match, with a
  /// diagnostic, instead of refusing the file.
  public var ignoreCRC: Bool
  /// Reads a file that ends early up to its last whole message, with a
  /// diagnostic, instead of refusing it. Its file CRC cannot be checked.
  public var readTruncated: Bool
  /// Size of the chunks read from a file, bytes.
  public var chunkSizeBytes: Int

  public init(ignoreCRC: Bool = false, readTruncated: Bool = false, chunkSizeBytes: Int = 1 << 16) {
    self.ignoreCRC = ignoreCRC
    self.readTruncated = readTruncated
    self.chunkSizeBytes = max(16, chunkSizeBytes)
  }

  /// Reads a whole file into a `Track`, its segments split where the
  /// session changes (`FITSummary.splittingSegmentsBySession`).
  public func read(path: String) throws -> Track {
    var assembler = TrackAssembler()
    let header = try stream(path: path) { assembler.add($0) }
    return Self.track(assembler, header: header, source: path)
  }

  /// Reads FIT bytes in memory into a `Track`.
  public func read(data: Data, source: String) throws -> Track {
    var assembler = TrackAssembler()
    let header = try stream(data: data, source: source) { assembler.add($0) }
    return Self.track(assembler, header: header, source: source)
  }

  static func track(_ assembler: TrackAssembler, header: TrackHeader, source: String) -> Track {
    let track = assembler.track(
      name: header.name, source: source, structure: header.structure,
      deviceDistanceMeters: header.deviceDistanceMeters,
      declaredSportBySegment: header.declaredSportBySegment, diagnostics: header.diagnostics)
    return header.fit?.splittingSegmentsBySession(track) ?? track
  }

  /// Streams the fixes of FIT bytes in memory to `onPoint`, in file order;
  /// the header carries the file's own account (`TrackHeader.fit`).
  @discardableResult
  public func stream(data: Data, source: String, onPoint: @escaping (TrackPoint) throws -> Void) throws
    -> TrackHeader
  {
    var next = data.startIndex
    let size = chunkSizeBytes
    let bytes = FITByteReader(source: source) {
      guard next < data.endIndex else { return nil }
      let end = min(data.endIndex, next + size)
      defer { next = end }
      return [UInt8](data[next..<end])
    }
    var decoder = FITDecoder(
      source: source, ignoreCRC: ignoreCRC, readTruncated: readTruncated, bytes: bytes, onPoint: onPoint)
    return try decoder.run()
  }

  /// Streams the fixes of a FIT file to `onPoint`, in file order.
  @discardableResult
  public func stream(path: String, onPoint: @escaping (TrackPoint) throws -> Void) throws -> TrackHeader {
    guard let status = FileStatus.of(path) else {
      throw InputError(
        .unreadable, SourceLocation(file: path), "no such file", expected: "a readable FIT file")
    }
    guard !status.isDirectory else {
      throw InputError(.unreadable, SourceLocation(file: path), "is a folder", expected: "a FIT file")
    }
    guard let handle = FileHandle(forReadingAtPath: path) else {
      throw InputError(
        .unreadable, SourceLocation(file: path), "cannot open file (permission denied?)",
        expected: "a readable FIT file")
    }
    defer { try? handle.close() }
    let size = chunkSizeBytes
    let bytes = FITByteReader(source: path) {
      do {
        guard let chunk = try handle.read(upToCount: size), !chunk.isEmpty else { return nil }
        return [UInt8](chunk)
      } catch {
        throw InputError(
          .unreadable, SourceLocation(file: path), "cannot read file: \(error.localizedDescription)",
          expected: "a readable FIT file")
      }
    }
    var decoder = FITDecoder(
      source: path, ignoreCRC: ignoreCRC, readTruncated: readTruncated, bytes: bytes, onPoint: onPoint)
    return try decoder.run()
  }
}

/// The bytes of a FIT stream, read in chunks, with their absolute offset
/// and the running CRC of the bytes taken since the last `resetCRC`.
struct FITByteReader {
  let source: String
  private let nextChunk: () throws -> [UInt8]?
  private var buffer: [UInt8] = []
  private var position = 0
  /// Offset of the next byte from the start of the stream.
  private(set) var offset = 0
  private(set) var crc = FITCRC()

  init(source: String, nextChunk: @escaping () throws -> [UInt8]?) {
    self.source = source
    self.nextChunk = nextChunk
  }

  /// Bytes read from the file and not yet taken.
  var available: Int { buffer.count - position }

  /// Whether `count` more bytes can be taken.
  mutating func has(_ count: Int) throws -> Bool {
    while buffer.count - position < count {
      guard let more = try nextChunk() else { return false }
      buffer.removeFirst(position)
      position = 0
      buffer.append(contentsOf: more)
    }
    return true
  }

  mutating func resetCRC() { crc = FITCRC() }

  /// Takes `count` bytes, adding them to the CRC, and reads them with
  /// `body`; a stream that ends first is an error naming `what` was being
  /// read.
  mutating func take<R>(
    _ count: Int, _ what: @autoclosure () -> String, _ body: (UnsafeRawBufferPointer) throws -> R
  )
    throws -> R
  {
    guard try has(count) else {
      let left = buffer.count - position
      throw FITEndOfData(endOffset: offset + left, what: what(), present: left, needed: count)
    }
    let start = position
    position += count
    offset += count
    var crc = self.crc
    let result = try buffer.withUnsafeBytes { raw in
      let slice = UnsafeRawBufferPointer(rebasing: raw[start..<(start + count)])
      crc.add(slice)
      return try body(slice)
    }
    self.crc = crc
    return result
  }

  mutating func byte(_ what: @autoclosure () -> String) throws -> UInt8 {
    try take(1, what()) { $0[0] }
  }
}

/// The stream ended inside something being read: the file ends early.
struct FITEndOfData: Error {
  /// Offset just past the last byte of the stream.
  var endOffset: Int
  var what: String
  /// Bytes of it that are there, and bytes it needs.
  var present: Int
  var needed: Int
  /// Where the message being read would end, when it runs past the data
  /// its file header declares.
  var overrunEndOffset: Int?

  func inputError(source: String) -> InputError {
    InputError(
      .malformed, SourceLocation(file: source, byteOffset: endOffset),
      "the file ends inside \(what) (\(present) of its \(needed) bytes are there)",
      expected:
        "the rest of the message; the file may have been cut short (\(Remedy.slot) reads it up to here)",
      remedy: Remedy(.readTruncated))
  }
}

/// A field of a definition message.
struct FITFieldDefinition: Sendable {
  var number: UInt8
  var sizeBytes: Int
  /// Nil for a base type the protocol does not define: its bytes are skipped.
  var baseType: FITBaseType?
  /// Offset of the field in a data message, header byte excluded.
  var offsetBytes = 0
}

/// A definition message: the layout of the data messages of one local type,
/// reduced once to what the reader reads of each of them.
struct FITDefinition: Sendable {
  var globalNumber: UInt16
  var bigEndian: Bool
  /// Whether the reader uses the message's fields (`FITDecoder.decoded`).
  var decoded: Bool
  /// The fields read, in message order: the timestamp and, for decoded
  /// messages, the fields the reader uses (of `record`, only those a fix
  /// holds). Each has a known base type and a size that is a multiple of
  /// it.
  var fields: [FITFieldDefinition]
  var developerFieldCount: Int
  /// Fields of each data message whose size is not a multiple of their
  /// base type's, and fields of a base type the protocol does not define.
  var misalignedFields: Int
  var unknownBaseTypes: Int
  /// Size of one data message of this layout, header byte excluded.
  var sizeBytes: Int

  /// The layout of `fields`, all of them as the definition lists them.
  init(
    globalNumber: UInt16, bigEndian: Bool, decoded: Bool, used: ((UInt8) -> Bool)?,
    fields all: [FITFieldDefinition], developerFieldCount: Int, developerBytes: Int
  ) {
    self.globalNumber = globalNumber
    self.bigEndian = bigEndian
    self.decoded = decoded
    self.developerFieldCount = developerFieldCount
    var fields: [FITFieldDefinition] = []
    var misaligned = 0
    var unknown = 0
    var at = 0
    for var field in all {
      field.offsetBytes = at
      at += field.sizeBytes
      guard let type = field.baseType else {
        unknown += 1
        continue
      }
      guard field.sizeBytes > 0, field.sizeBytes % type.sizeBytes == 0 else {
        misaligned += 1
        continue
      }
      let isTimestamp =
        field.number == FITProfile.timestampField && field.sizeBytes == 4 && type.sizeBytes == 4
      if isTimestamp || (decoded && used?(field.number) ?? true) { fields.append(field) }
    }
    self.fields = fields
    misalignedFields = misaligned
    unknownBaseTypes = unknown
    sizeBytes = at + developerBytes
  }
}

/// The values of one data message the reader uses: numbers by field number
/// (arrays by their elements, strings apart); invalid values are absent.
/// One is kept for the whole stream and cleared for each message, so
/// reading a message allocates nothing.
struct FITMessage {
  /// Numbers by field number; NaN where the message holds no valid value
  /// (`FITBaseType.number` never gives NaN).
  private var values: [Double]
  /// The field numbers set in `values`, to clear.
  private var setFields: [UInt8] = []
  var strings: [(field: UInt8, value: String)] = []
  /// Fields of base type `byte` holding more than one byte, unless all are
  /// 0xFF (invalid).
  var byteArrays: [(field: UInt8, value: [UInt8])] = []
  var timestamp: UInt32?

  init() { values = Array(repeating: .nan, count: 256) }

  private init(unallocated: Void) { values = [] }

  /// A message without storage, to swap with the one in use.
  static var placeholder: FITMessage { FITMessage(unallocated: ()) }

  func number(_ field: UInt8) -> Double? {
    let v = values[Int(field)]
    return v.isNaN ? nil : v
  }
  func string(_ field: UInt8) -> String? { strings.first { $0.field == field }?.value }
  func byteArray(_ field: UInt8) -> [UInt8]? { byteArrays.first { $0.field == field }?.value }

  /// `raw / scale - offset`: the Profile's conversion to the field's unit.
  func scaled(_ field: UInt8, scale: Double, offset: Double = 0) -> Double? {
    number(field).map { $0 / scale - offset }
  }

  /// Sets a field's number unless the message already has one (the first
  /// of a field listed twice counts).
  mutating func set(_ field: UInt8, _ value: Double) {
    guard values[Int(field)].isNaN else { return }
    values[Int(field)] = value
    setFields.append(field)
  }

  mutating func clear() {
    for f in setFields { values[Int(f)] = .nan }
    setFields.removeAll(keepingCapacity: true)
    if !strings.isEmpty { strings.removeAll() }
    if !byteArrays.isEmpty { byteArrays.removeAll() }
    timestamp = nil
  }

  /// Reads the fields of `definition` from the bytes of one data message.
  mutating func decode(_ raw: UnsafeRawBufferPointer, _ definition: FITDefinition) {
    let bigEndian = definition.bigEndian
    for field in definition.fields {
      // Fields hold a known type and a multiple of its size.
      let type = field.baseType.unsafelyUnwrapped
      let at = field.offsetBytes
      if field.number == FITProfile.timestampField, field.sizeBytes == 4, type.sizeBytes == 4 {
        if let v = type.number(raw, at: at, bigEndian: bigEndian) { timestamp = FITTime.dateTime(v) }
      } else if type == .string {
        let text = raw[at..<(at + field.sizeBytes)].prefix { $0 != 0 }
        if !text.isEmpty { strings.append((field.number, String(decoding: text, as: UTF8.self))) }
      } else if field.sizeBytes == type.sizeBytes {
        if let v = type.number(raw, at: at, bigEndian: bigEndian) { set(field.number, v) }
      } else if type == .byte {
        let value = [UInt8](raw[at..<(at + field.sizeBytes)])
        if value.contains(where: { $0 != 0xFF }) { byteArrays.append((field.number, value)) }
      }
    }
  }
}

/// Turns the messages of a FIT stream into fixes and a `TrackHeader`.
struct FITDecoder {
  let source: String
  let ignoreCRC: Bool
  let readTruncated: Bool
  var bytes: FITByteReader
  let onPoint: (TrackPoint) throws -> Void

  var summary = FITSummary()
  var structure = TrackStructure()
  var definitions: [FITDefinition?] = Array(repeating: nil, count: 16)
  /// The message being read, kept for the whole stream.
  var message = FITMessage()
  /// The last full timestamp, the reference of compressed timestamps.
  var lastTimestamp: UInt32?
  /// The segment of the fixes being handed over; -1 before the first.
  var segment: Int32 = -1
  /// A segment boundary has been seen (timer restart, session, new file):
  /// the next fix opens a new segment.
  var boundaryPending = false
  var timerStopped = false
  /// Time of the first fix of each segment, by ordinal.
  var segmentStartSeconds: [Double?] = []
  var lastRecordDistanceMeters: Double?
  var recordsWithoutPositionOrTime = 0
  var positionsOutOfRange = 0
  var misalignedFields = 0
  var unknownBaseTypes = 0
  var deviceTimes = 0
  var compressedWithoutReference = 0
  var crcMismatches: [String] = []
  /// Records with heart rate 0 (no strap contact), read as missing.
  var heartRateZeros = 0
  /// Heart rates and speeds outside `HumanLimits`, left out.
  var recordLimits = RecordLimits(noun: "records")
  /// Where the file being read declares its CRC ends; nil while its
  /// header is read.
  var declaredEndOffset: Int?
  /// End of the last whole message or header read.
  var lastWholeEndOffset = 0
  var truncation: FITTruncation?

  init(
    source: String, ignoreCRC: Bool, readTruncated: Bool, bytes: FITByteReader,
    onPoint: @escaping (TrackPoint) throws -> Void
  ) {
    self.source = source
    self.ignoreCRC = ignoreCRC
    self.readTruncated = readTruncated
    self.bytes = bytes
    self.onPoint = onPoint
  }

  func location(_ offset: Int) -> SourceLocation { SourceLocation(file: source, byteOffset: offset) }

  mutating func run() throws -> TrackHeader {
    guard try bytes.has(1) else {
      throw InputError(.empty, location(0), "empty file", expected: "a FIT file header")
    }
    do {
      repeat {
        try readFile()
      } while try bytes.has(1)
    } catch let end as FITEndOfData {
      // Nothing to read without one whole file header.
      guard readTruncated, !summary.files.isEmpty else { throw end.inputError(source: source) }
      truncation = FITTruncation(
        endOffset: end.endOffset, what: end.what, declaredEndOffset: declaredEndOffset,
        lastWholeEndOffset: lastWholeEndOffset, overrunEndOffset: end.overrunEndOffset)
      summary.truncation = truncation
    }
    return finish()
  }

  /// One FIT file of the stream: header, messages, CRC.
  mutating func readFile() throws {
    let headerOffset = bytes.offset
    bytes.resetCRC()
    declaredEndOffset = nil
    let header = try readHeader()
    summary.files.append(header)
    lastWholeEndOffset = bytes.offset
    definitions = Array(repeating: nil, count: 16)
    lastTimestamp = nil
    if segment >= 0 { boundaryPending = true }
    let dataEnd = headerOffset + header.headerSizeBytes + header.dataSizeBytes
    declaredEndOffset = dataEnd + 2
    while bytes.offset < dataEnd {
      try readMessage(dataEnd: dataEnd)
      lastWholeEndOffset = bytes.offset
    }
    let computed = bytes.crc.value
    let crcOffset = bytes.offset
    let written = try bytes.take(2, "the file CRC") { UInt16($0[0]) | UInt16($0[1]) << 8 }
    if computed != written {
      try crcMismatch(
        "file CRC 0x\(hex(written)) does not match the CRC of the header and data, 0x\(hex(computed))",
        offset: crcOffset)
    }
  }

  mutating func readHeader() throws -> FITFileHeader {
    let offset = bytes.offset
    let size = Int(try bytes.byte("the FIT file header"))
    guard size >= 12 else {
      throw InputError(
        .malformed, location(offset), "the FIT file header states its size as \(size) bytes",
        expected: "a header of 12 or 14 bytes starting with its size")
    }
    // Header bytes 1..<size.
    let raw = try bytes.take(size - 1, "the FIT file header") { [UInt8]($0) }
    guard FITFileHeader.hasSignature([UInt8(size)] + raw) else {
      let text = raw[7..<11].map { $0 >= 0x20 && $0 < 0x7F ? String(UnicodeScalar($0)) : "?" }.joined()
      throw InputError(
        .malformed, location(offset + 8),
        "bytes 8-11 of the file header read \"\(text)\", so this is not a FIT file header",
        expected: "\".FIT\"")
    }
    let header = FITFileHeader(
      offsetBytes: offset, headerSizeBytes: size, protocolVersion: raw[0],
      profileVersion: UInt16(raw[1]) | UInt16(raw[2]) << 8,
      dataSizeBytes: Int(UInt32(raw[3]) | UInt32(raw[4]) << 8 | UInt32(raw[5]) << 16 | UInt32(raw[6]) << 24),
      headerCRC: size >= 14 ? UInt16(raw[11]) | UInt16(raw[12]) << 8 : nil)
    if let written = header.headerCRC, written != 0 {
      let computed = FITCRC.of([UInt8(size)] + raw[0..<11])
      if computed != written {
        try crcMismatch(
          "header CRC 0x\(hex(written)) does not match the CRC of header bytes 0-11, 0x\(hex(computed))",
          offset: offset + 12)
      }
    }
    return header
  }

  mutating func crcMismatch(_ problem: String, offset: Int) throws {
    guard ignoreCRC else {
      throw InputError(
        .malformed, location(offset), problem,
        expected: "matching CRCs (the file is damaged; \(Remedy.slot) reads it all the same, and says so)",
        remedy: Remedy(.ignoreCRC))
    }
    crcMismatches.append("byte \(offset): \(problem)")
  }

  func hex(_ v: UInt16) -> String {
    let digits = String(v, radix: 16, uppercase: true)
    return String(repeating: "0", count: 4 - digits.count) + digits
  }

  mutating func readMessage(dataEnd: Int) throws {
    let offset = bytes.offset
    let header = try bytes.byte("a record header")
    if header & 0x80 != 0 {
      // Compressed timestamp header: local type in bits 5-6, time offset in bits 0-4.
      let local = Int(header >> 5 & 0x3)
      let timeOffset = UInt32(header & 0x1F)
      var timestamp: UInt32?
      if let last = lastTimestamp {
        var t = last & ~0x1F | timeOffset
        if timeOffset < last & 0x1F { t &+= 0x20 }
        timestamp = t
        lastTimestamp = t
      } else {
        compressedWithoutReference += 1
      }
      summary.compressedTimestampCount += 1
      try readData(local: local, offset: offset, dataEnd: dataEnd, compressedTimestamp: timestamp)
    } else if header & 0x40 != 0 {
      try readDefinition(
        local: Int(header & 0xF), developer: header & 0x20 != 0, offset: offset, dataEnd: dataEnd)
    } else {
      try readData(local: Int(header & 0xF), offset: offset, dataEnd: dataEnd, compressedTimestamp: nil)
    }
  }

  /// Refuses a message that runs past the data its file header declares.
  /// When the stream also ends inside it, the recording was cut short
  /// there (and its header counts the bytes written): that is a file
  /// ending early.
  mutating func checkWithinData(_ offset: Int, size: Int, dataEnd: Int, what: @autoclosure () -> String)
    throws
  {
    guard bytes.offset + size > dataEnd else { return }
    let what = what()
    let messageEnd = bytes.offset + size
    let problem =
      "\(what) runs \(messageEnd - dataEnd) bytes past the end of the data (byte \(dataEnd)) that the file header declares"
    guard try !bytes.has(size) else {
      throw InputError(
        .malformed, location(offset), problem,
        expected: "messages that end with the data; the file is damaged or its header's data size is wrong")
    }
    if readTruncated {
      throw FITEndOfData(
        endOffset: bytes.offset + bytes.available, what: what, present: bytes.available, needed: size,
        overrunEndOffset: messageEnd)
    }
    throw InputError(
      .malformed, location(offset),
      problem + ", and the file ends inside it, at byte \(bytes.offset + bytes.available)",
      expected:
        "messages that end with the data; the file was cut short (\(Remedy.slot) reads it up to the last whole message)",
      remedy: Remedy(.readTruncated))
  }

  mutating func readDefinition(local: Int, developer: Bool, offset: Int, dataEnd: Int) throws {
    func what() -> String { "the definition message for local type \(local) at byte \(offset)" }
    try checkWithinData(offset, size: 5, dataEnd: dataEnd, what: what())
    let (architecture, global, count) = try bytes.take(5, what()) { raw in
      (raw[1], UInt16(raw[2]) | UInt16(raw[3]) << 8, Int(raw[4]))
    }
    guard architecture <= 1 else {
      throw InputError(
        .malformed, location(offset + 2), "architecture byte \(architecture) in \(what())",
        expected: "0 (little endian) or 1 (big endian)")
    }
    let bigEndian = architecture == 1
    let globalNumber = bigEndian ? global.byteSwapped : global
    try checkWithinData(offset, size: 3 * count, dataEnd: dataEnd, what: what())
    var fields: [FITFieldDefinition] = []
    try bytes.take(3 * count, what()) { raw in
      for k in 0..<count {
        fields.append(
          FITFieldDefinition(
            number: raw[3 * k], sizeBytes: Int(raw[3 * k + 1]), baseType: FITBaseType(byte: raw[3 * k + 2])))
      }
    }
    var developerCount = 0
    var developerBytes = 0
    if developer {
      try checkWithinData(offset, size: 1, dataEnd: dataEnd, what: what())
      developerCount = Int(try bytes.byte(what()))
      try checkWithinData(offset, size: 3 * developerCount, dataEnd: dataEnd, what: what())
      try bytes.take(3 * developerCount, what()) { raw in
        for k in 0..<developerCount { developerBytes += Int(raw[3 * k + 1]) }
      }
    }
    definitions[local] = FITDefinition(
      globalNumber: globalNumber, bigEndian: bigEndian, decoded: Self.decoded.contains(globalNumber),
      used: globalNumber == FITProfile.Message.record ? { FITProfile.Record.used[Int($0)] } : nil,
      fields: fields, developerFieldCount: developerCount, developerBytes: developerBytes)
  }

  /// The messages whose fields the reader uses; of the others only the
  /// timestamp is read.
  static let decoded: Set<UInt16> = [
    FITProfile.Message.fileID, FITProfile.Message.userProfile, FITProfile.Message.sport,
    FITProfile.Message.session, FITProfile.Message.lap, FITProfile.Message.record, FITProfile.Message.event,
    FITProfile.Message.deviceInfo,
  ]

  mutating func readData(local: Int, offset: Int, dataEnd: Int, compressedTimestamp: UInt32?) throws {
    guard let definition = definitions[local] else {
      throw InputError(
        .malformed, location(offset),
        "a data message of local type \(local) comes before any definition of that type",
        expected: "a definition message for local type \(local) first")
    }
    func what() -> String {
      "the data message for local type \(local) (global \(definition.globalNumber)) at byte \(offset)"
    }
    try checkWithinData(offset, size: definition.sizeBytes, dataEnd: dataEnd, what: what())
    // The message storage is moved out while the bytes are read into it.
    var m = FITMessage.placeholder
    swap(&m, &message)
    defer { swap(&m, &message) }
    m.clear()
    try bytes.take(definition.sizeBytes, what()) { raw in m.decode(raw, definition) }
    misalignedFields += definition.misalignedFields
    unknownBaseTypes += definition.unknownBaseTypes
    summary.developerFieldCount += definition.developerFieldCount
    if let t = m.timestamp {
      lastTimestamp = t
    } else if let compressedTimestamp {
      m.timestamp = compressedTimestamp
    }
    guard definition.decoded else { return }
    try handle(m, global: definition.globalNumber)
  }

  func seconds(_ fitSeconds: UInt32?) -> Double? { fitSeconds.map(FITTime.secondsSince1970) }

  mutating func handle(_ m: FITMessage, global: UInt16) throws {
    switch global {
    case FITProfile.Message.record: try record(m)
    case FITProfile.Message.event: event(m)
    case FITProfile.Message.session: session(m)
    case FITProfile.Message.lap: lap(m)
    case FITProfile.Message.fileID:
      guard summary.files.count == 1 else { return }
      typealias F = FITProfile.FileID
      summary.fileType = m.number(F.type).flatMap(FITTime.integer)
      var device = FITDevice()
      device.manufacturer = m.number(F.manufacturer).map {
        FITProfile.name($0, in: FITProfile.manufacturerNames)
      }
      device.product = m.number(F.product).flatMap(FITTime.integer)
      device.serialNumber = m.number(F.serialNumber).flatMap(FITTime.integer)
      device.productName = m.string(F.productName)
      summary.creator = device
      summary.timeCreatedSecondsSince1970 = m.number(F.timeCreated).flatMap(FITTime.dateTime).map(
        FITTime.secondsSince1970)
    case FITProfile.Message.userProfile:
      guard summary.userProfile == nil else { return }
      typealias F = FITProfile.UserProfile
      var p = FITUserProfile()
      p.sex = m.number(F.gender).flatMap { $0 == 0 ? .female : $0 == 1 ? .male : nil }
      p.ageYears = m.number(F.age)
      p.heightMeters = m.scaled(F.height, scale: 100)
      p.bodyMassKilograms = m.scaled(F.weight, scale: 10)
      p.restingHeartRateBeatsPerMinute = m.number(F.restingHeartRate)
      p.maxHeartRateBeatsPerMinute = m.number(F.defaultMaxHeartRate)
      summary.userProfile = p
    case FITProfile.Message.deviceInfo:
      typealias F = FITProfile.DeviceInfo
      var device = FITDevice()
      device.deviceIndex = m.number(F.deviceIndex).flatMap(FITTime.integer)
      device.manufacturer = m.number(F.manufacturer).map {
        FITProfile.name($0, in: FITProfile.manufacturerNames)
      }
      device.product = m.number(F.product).flatMap(FITTime.integer)
      device.serialNumber = m.number(F.serialNumber).flatMap(FITTime.integer)
      device.softwareVersion = m.scaled(F.softwareVersion, scale: 100)
      device.productName = m.string(F.productName)
      if device.manufacturer != nil || device.product != nil || device.productName != nil {
        summary.devices.append(device)
      }
    case FITProfile.Message.sport:
      typealias F = FITProfile.SportMessage
      if let sport = m.number(F.sport) {
        var s = FITSession()
        s.sport = FITProfile.name(sport, in: FITProfile.sportNames)
        s.subSport = m.number(F.subSport).map { FITProfile.name($0, in: FITProfile.subSportNames) }
        if let text = s.declaredSport { summary.sports.append(text) }
      }
    default: break
    }
  }

  mutating func record(_ m: FITMessage) throws {
    typealias F = FITProfile.Record
    summary.recordCount += 1
    let time = seconds(m.timestamp)
    if let t = m.timestamp, t < FITTime.smallestDate { deviceTimes += 1 }
    var latitude = m.number(F.positionLatitude).map { $0 * 180 / 2_147_483_648 }
    var longitude = m.number(F.positionLongitude).map { $0 * 180 / 2_147_483_648 }
    if let lat = latitude, let lon = longitude, abs(lat) > 90 || abs(lon) > 180 {
      positionsOutOfRange += 1
      latitude = nil
      longitude = nil
    }
    if let d = m.scaled(F.distance, scale: 100) { lastRecordDistanceMeters = d }
    let kind: FixKind
    if latitude != nil && longitude != nil {
      kind = .track
    } else if time != nil {
      kind = .timeOnly
    } else {
      recordsWithoutPositionOrTime += 1
      return
    }
    if segment < 0 || boundaryPending {
      segment += 1
      boundaryPending = false
      segmentStartSeconds.append(time)
    } else if segmentStartSeconds[Int(segment)] == nil {
      segmentStartSeconds[Int(segment)] = time
    }
    var p = TrackPoint(
      latitudeDegrees: latitude ?? .nan, longitudeDegrees: longitude ?? .nan,
      elevationMeters: (m.number(F.enhancedAltitude) != nil
        ? m.scaled(F.enhancedAltitude, scale: 5, offset: 500) : m.scaled(F.altitude, scale: 5, offset: 500)),
      timeSecondsSince1970: time,
      heartRateBeatsPerMinute: recordLimits.keep(
        m.number(F.heartRate).flatMap { $0 > 0 ? $0 : nil }, .heartRate, at: "record \(summary.recordCount)"),
      sourceLine: summary.recordCount, kind: kind, segment: segment)
    // A strap without contact writes 0: a dropout, never a heart rate.
    if m.number(F.heartRate) == 0 { heartRateZeros += 1 }
    p.cadencePerMinute = m.number(F.cadence)
    p.powerWatts = m.number(F.power)
    p.temperatureCelsius = m.number(F.temperature)
    p.reportedSpeedMetersPerSecond = recordLimits.keep(
      m.number(F.enhancedSpeed) != nil
        ? m.scaled(F.enhancedSpeed, scale: 1000)
        : m.number(F.speed) != nil
          ? m.scaled(F.speed, scale: 1000)
          : m.byteArray(F.compressedSpeedDistance).flatMap { b in
            b.count == 3 ? Double(UInt16(b[0]) | UInt16(b[1] & 0x0F) << 8) / 100 : nil
          }, .speed, at: "record \(summary.recordCount)")
    if kind == .track { structure.trackPoints += 1 } else { structure.timeOnlyPoints += 1 }
    try onPoint(p)
  }

  mutating func event(_ m: FITMessage) {
    typealias F = FITProfile.Event
    guard m.number(F.event) == F.timer, let type = m.number(F.eventType) else { return }
    if F.stops.contains(type) {
      timerStopped = true
    } else if type == F.start {
      if timerStopped && segment >= 0 && !boundaryPending {
        boundaryPending = true
        summary.timerPauses += 1
      }
      timerStopped = false
    }
  }

  mutating func session(_ m: FITMessage) {
    typealias F = FITProfile.Session
    var s = FITSession()
    s.sport = m.number(F.sport).map { FITProfile.name($0, in: FITProfile.sportNames) }
    s.subSport = m.number(F.subSport).map { FITProfile.name($0, in: FITProfile.subSportNames) }
    s.startSecondsSince1970 = m.number(F.startTime).flatMap(FITTime.dateTime).map(FITTime.secondsSince1970)
    s.endSecondsSince1970 = seconds(m.timestamp)
    s.totalElapsedSeconds = m.scaled(F.totalElapsedTime, scale: 1000)
    s.totalTimerSeconds = m.scaled(F.totalTimerTime, scale: 1000)
    s.totalDistanceMeters = m.scaled(F.totalDistance, scale: 100)
    s.totalWorkJoules = m.number(F.totalWork)
    s.totalEnergyKilocalories = m.number(F.totalCalories)
    s.averagePowerWatts = m.number(F.averagePower)
    s.maxPowerWatts = m.number(F.maxPower)
    s.averageHeartRateBeatsPerMinute = m.number(F.averageHeartRate)
    s.maxHeartRateBeatsPerMinute = m.number(F.maxHeartRate)
    s.normalizedPowerWatts = m.number(F.normalizedPower)
    s.trainingStressScore = m.scaled(F.trainingStressScore, scale: 10)
    s.intensityFactor = m.scaled(F.intensityFactor, scale: 1000)
    s.thresholdPowerWatts = m.number(F.thresholdPower)
    s.totalAscentMeters = m.number(F.totalAscent)
    s.totalDescentMeters = m.number(F.totalDescent)
    summary.sessions.append(s)
    if segment >= 0 { boundaryPending = true }
  }

  mutating func lap(_ m: FITMessage) {
    typealias S = FITProfile.Session
    typealias F = FITProfile.Lap
    var lap = DeviceLap()
    lap.startSecondsSince1970 = m.number(S.startTime).flatMap(FITTime.dateTime).map(FITTime.secondsSince1970)
    lap.endSecondsSince1970 = seconds(m.timestamp)
    lap.elapsedSeconds = m.scaled(S.totalElapsedTime, scale: 1000)
    lap.timerSeconds = m.scaled(S.totalTimerTime, scale: 1000)
    lap.distanceMeters = m.scaled(S.totalDistance, scale: 100)
    lap.workJoules = m.number(F.totalWork)
    lap.averagePowerWatts = m.number(F.averagePower)
    lap.maxPowerWatts = m.number(F.maxPower)
    lap.normalizedPowerWatts = m.number(F.normalizedPower)
    lap.averageHeartRateBeatsPerMinute = m.number(F.averageHeartRate)
    lap.maxHeartRateBeatsPerMinute = m.number(F.maxHeartRate)
    lap.ascentMeters = m.number(F.totalAscent)
    lap.descentMeters = m.number(F.totalDescent)
    summary.laps.append(lap)
  }

  func finish() -> TrackHeader {
    var declared: [Int32: String] = [:]
    if !summary.sessions.isEmpty {
      let lookup = summary.sessionLookup
      for (k, start) in segmentStartSeconds.enumerated() {
        if let i = lookup.index(at: start), let sport = summary.sessions[i].declaredSport {
          declared[Int32(k)] = sport
        }
      }
    } else if let sport = summary.sports.first {
      for k in segmentStartSeconds.indices { declared[Int32(k)] = sport }
    }
    var s = structure
    s.segments = segmentStartSeconds.count
    s.tracks = max(summary.sessions.count, s.segments > 0 ? 1 : 0)
    var header = TrackHeader(
      name: summary.sessions.first?.declaredSport ?? summary.sports.first, format: "fit",
      sports: summary.sessions.compactMap(\.declaredSport), structure: s,
      deviceDistanceMeters: summary.totalDistanceMeters ?? lastRecordDistanceMeters,
      diagnostics: diagnostics())
    header.declaredSportBySegment = declared
    header.fit = summary
    header.laps = summary.laps
    return header
  }

  func truncationText(_ t: FITTruncation) -> String {
    let records = "\(summary.recordCount) record\(summary.recordCount == 1 ? "" : "s") read"
    let dropped = t.endOffset - t.lastWholeEndOffset
    let partial = dropped > 0 ? " (the \(dropped) bytes after it are left out)" : ""
    guard let declared = t.declaredEndOffset, let file = summary.files.last else {
      return
        "the file ends at byte \(t.endOffset), inside the header of chained file \(summary.files.count + 1); read the \(summary.files.count) whole files before it, up to byte \(t.lastWholeEndOffset)\(partial): \(records)"
    }
    let missing = t.missingBytes ?? 0
    let share = 100 * Double(missing) / Double(max(1, file.dataSizeBytes + 2))
    let percent = share < 0.05 ? "under 0.1" : Fixed.format(share, digits: 1)
    let tail =
      "read up to the last whole message, which ends at byte \(t.lastWholeEndOffset)\(partial): \(records); the file CRC is not checked"
    if let overrun = t.overrunEndOffset {
      return
        "the file ends at byte \(t.endOffset), inside \(t.what), which runs \(overrun - (declared - 2)) bytes past the end of the data its header declares (byte \(declared - 2)): the recording was cut short inside that message, \(missing) bytes (\(percent) %) before the message and the 2-byte CRC would end; \(tail)"
    }
    return
      "the file ends at byte \(t.endOffset), inside \(t.what), \(missing) bytes (\(percent) %) before the end its header declares (\(file.dataSizeBytes) bytes of data from byte \(file.offsetBytes + file.headerSizeBytes), then the 2-byte CRC, to byte \(declared)); \(tail)"
  }

  func diagnostics() -> [Diagnostic] {
    var out: [Diagnostic] = []
    func note(_ code: String, _ message: String, severity: Diagnostic.Severity = .note) {
      out.append(Diagnostic(code: code, severity: severity, message: message, location: source))
    }
    if let t = truncation { note("fit-truncated", truncationText(t), severity: .warning) }
    if heartRateZeros > 0 {
      note(
        "heart-rate-zero",
        "\(heartRateZeros) records with heart rate 0 (the strap lost contact): read as missing, not as 0 bpm",
        severity: .warning)
    }
    out += recordLimits.diagnostics(location: source)
    for mismatch in crcMismatches {
      note("fit-crc-mismatch", "\(mismatch); read all the same (ignoreCRC)", severity: .warning)
    }
    if summary.files.count > 1 {
      note("fit-chained-files", "\(summary.files.count) FIT files chained one after another, read in order")
    }
    if summary.developerFieldCount > 0 {
      note(
        "fit-developer-fields",
        "\(summary.developerFieldCount) developer data field values skipped by their declared size")
    }
    if structure.timeOnlyPoints > 0 {
      note(
        "trackpoint-without-position",
        "\(structure.timeOnlyPoints) FIT records carry a time but no position: they count towards the duration, not the distance"
      )
    }
    if recordsWithoutPositionOrTime > 0 {
      note(
        "trackpoint-without-position-or-time",
        "\(recordsWithoutPositionOrTime) FIT records have neither position nor time and are left out")
    }
    if positionsOutOfRange > 0 {
      note(
        "fit-position-out-of-range",
        "\(positionsOutOfRange) FIT records hold a position beyond ±90° latitude or ±180° longitude, read as no position",
        severity: .warning)
    }
    if summary.timerPauses > 0 {
      note("fit-timer-pauses", "\(summary.timerPauses) timer restarts after a stop start new segments")
    }
    if misalignedFields > 0 {
      note(
        "fit-misaligned-fields",
        "\(misalignedFields) field values whose size is not a multiple of their base type's size were skipped",
        severity: .warning)
    }
    if unknownBaseTypes > 0 {
      note(
        "fit-unknown-base-type",
        "\(unknownBaseTypes) field values of a base type the protocol does not define were skipped",
        severity: .warning)
    }
    if compressedWithoutReference > 0 {
      note(
        "fit-compressed-time-without-reference",
        "\(compressedWithoutReference) messages with a compressed timestamp come before any full timestamp: their time is unknown",
        severity: .warning)
    }
    if deviceTimes > 0 {
      note(
        "fit-device-time",
        "\(deviceTimes) record times are below 0x10000000: device time (seconds since the device was switched on), not dates; read as seconds after 1989-12-31",
        severity: .warning)
    }
    return out
  }
}
