import EnergyLabCore
import Foundation

/// Reads ActiGraph `.gt3x` files, streaming `log.bin` out of the ZIP.
///
/// Layout (ActiGraph, GT3X-File-Format repository, README, info.txt.md
/// and LogRecords/): a ZIP archive holding `info.txt` (`Key: Value`
/// lines: `Serial Number`, `Sample Rate` in Hz, `Start Date` in .NET
/// ticks, `Acceleration Scale`) and `log.bin`, a sequence of records:
///
/// ```
/// @0 0x1E separator  @1 type  @2 timestamp (uint32, Unix s, local)
/// @6 payload size (uint16)  @8 payload  @8+n checksum
/// checksum = ~(XOR of the 8 header bytes and the payload)
/// ```
///
/// ACTIVITY (0x00): one second of samples as 12-bit two's complement
/// values, most significant bit first, in y, x, z order. ACTIVITY2
/// (0x1A): one second of int16 little-endian x, y, z (a 1-byte payload is
/// a USB connection event, not samples). PARAMETERS (0x15): 8-byte pairs
/// of address space, identifier and value; address 0, identifier 55 is
/// ACCEL_SCALE, a float of a 24-bit two's complement fraction (value /
/// 2^23) and an 8-bit two's complement exponent. Values in g are `raw /
/// scale`, the scale from PARAMETERS, else info.txt's `Acceleration
/// Scale`, else 341 for NEO and CLE serials and 256 for MOS. Samples are
/// not rounded to 3 decimals (ActiLife's CSV does that).
///
/// Time of sample i of a record: `timestamp + i / rate`. Seconds without
/// an ACTIVITY record are the device's idle sleep mode: stated in a
/// diagnostic, and filled with the last sample as ActiLife fills them
/// (`fillIdleSleep`, the default), or left out as gaps when asked, with
/// the time left out stated.
///
/// Legacy NEO files (firmware 2.5 and earlier) hold `activity.bin`
/// instead: the same 12-bit y, x, z samples back to back from `Start
/// Date`, at 341 to the g.
public struct GT3XReader: Sendable {
  public var options: DeviceReadOptions

  public init(options: DeviceReadOptions = DeviceReadOptions()) { self.options = options }

  /// Seconds since 1970 of .NET ticks (100 ns since 0001-01-01):
  /// `ticks / 10^7 - 62 135 596 800`.
  public static func seconds(dotNetTicks ticks: Int64) -> Double {
    Double(ticks / 10_000_000 - 62_135_596_800) + Double(ticks % 10_000_000) / 1e7
  }

  /// A PARAMETERS float: `fraction / 2^23 * 2^exponent`, the fraction the
  /// low 24 bits and the exponent the high 8 bits, both two's complement.
  public static func parameterFloat(_ value: UInt32) -> Double {
    let exponent = Int(Int8(truncatingIfNeeded: value >> 24))
    let fraction = Int32(bitPattern: (value & 0x00FF_FFFF) << 8) >> 8
    return Double(fraction) / 8_388_608 * pow(2, Double(exponent))
  }

  /// The 12-bit two's complement value starting at bit `bit` of `bytes`
  /// (most significant bit first).
  @inline(__always) static func twelveBits(_ bytes: [UInt8], base: Int, bit: Int) -> Int {
    let i = base + bit >> 3
    let raw: Int
    if bit & 7 == 0 {
      raw = Int(bytes[i]) << 4 | Int(bytes[i + 1]) >> 4
    } else {
      raw = (Int(bytes[i]) & 0x0F) << 8 | Int(bytes[i + 1])
    }
    return raw >= 2048 ? raw - 4096 : raw
  }

  public func read(
    path: String, progress: ((Int) -> Void)? = nil, onHeader: (DeviceFileHeader) throws -> Void = { _ in },
    onBlock: (AccelBlock) throws -> Void
  ) throws -> DeviceFileSummary {
    let archive = try ZipArchive(path: path)
    guard let infoEntry = archive.entry(named: "info.txt") else {
      throw InputError(
        .malformed, SourceLocation(file: path, byteOffset: archive.directoryOffset),
        "no info.txt in the ZIP archive",
        expected: "a .gt3x archive holding info.txt and log.bin")
    }
    let logEntry = archive.entry(named: "log.bin")
    let legacyEntry = archive.entry(named: "activity.bin")
    guard logEntry != nil || legacyEntry != nil else {
      throw InputError(
        .malformed, SourceLocation(file: path, byteOffset: archive.directoryOffset),
        "no log.bin (nor a legacy activity.bin) in the ZIP archive",
        expected: "a .gt3x archive holding info.txt and log.bin")
    }
    var infoBytes: [UInt8] = []
    let infoReader = try ZipArchive.EntryReader(archive: archive, entry: infoEntry)
    while let chunk = try infoReader.next() {
      infoBytes += chunk
      if infoBytes.count > 1 << 20 { break }
    }
    var info: [String: (value: String, line: Int)] = [:]
    for (n, line) in String(decoding: infoBytes, as: UTF8.self).split(
      omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" }
    ).enumerated() {
      guard let colon = line.firstIndex(of: ":") else { continue }
      let key = line[..<colon].trimmingCharacters(in: .whitespaces)
      if info[key] == nil {
        info[key] = (line[line.index(after: colon)...].trimmingCharacters(in: .whitespacesAndNewlines), n + 1)
      }
    }
    let infoFile = "\(path) (info.txt)"
    func number(_ key: String) -> Double? {
      info[key].flatMap { Double($0.value.replacingOccurrences(of: ",", with: ".")) }
    }
    guard let rateEntry = info["Sample Rate"] else {
      throw InputError(
        .malformed, SourceLocation(file: infoFile, line: 1), "no \"Sample Rate\"",
        expected: "a \"Sample Rate: 30\" line in info.txt")
    }
    guard let rateHz = number("Sample Rate"), rateHz > 0, rateHz <= 1000 else {
      throw InputError(
        .value, SourceLocation(file: infoFile, line: rateEntry.line), "sample rate \"\(rateEntry.value)\"",
        expected: "a rate above 0 and at most 1000 Hz (ActiGraph records at 30 to 100 Hz)")
    }
    let serial = info["Serial Number"]?.value ?? ""
    var metadata: [String: String] = ["sample_rate_hz": Fixed.shortest(rateHz)]
    for (key, name) in [
      ("Serial Number", "serial"), ("Device Type", "device"), ("Firmware", "firmware"),
      ("TimeZone", "time_zone"),
      ("Acceleration Scale", "acceleration_scale"), ("Acceleration Max", "range_g"),
      ("Limb", "wear_location"),
      ("Side", "wear_side"),
    ] {
      if let value = info[key]?.value, !value.isEmpty { metadata[name] = value }
    }
    let header = DeviceFileHeader(
      format: .actigraphGT3X, sampleRateHz: rateHz, metadata: metadata, timeZone: nil, hasTemperature: false)
    var diagnostics: [Diagnostic] = []
    var scale: Double
    if let stated = number("Acceleration Scale"), stated > 0 {
      scale = stated
    } else {
      scale = serial.hasPrefix("MOS") ? 256 : 341
      if !(serial.hasPrefix("MOS") || serial.hasPrefix("NEO") || serial.hasPrefix("CLE")) {
        diagnostics.append(
          Diagnostic(
            code: "acceleration-scale-assumed",
            message:
              "info.txt states no acceleration scale and serial \(serial) names no known device; 341 to the g assumed",
            location: infoFile))
      }
    }
    try onHeader(header)
    var clock = DeviceClock(
      file: path, zone: options.timeZone, maximumStepSeconds: options.maximumTimeStepSeconds)
    var samples = 0
    var bytes = 0
    var jumpOffset: Int?

    if let logEntry {
      let log = try ZipArchive.EntryReader(archive: archive, entry: logEntry)
      var parser = LogParser(
        path: path, rateHz: rateHz, scale: scale, fill: options.fillIdleSleep,
        maximumFillSeconds: options.maximumIdleSleepFillSeconds, clock: clock)
      while let chunk = try log.next() {
        try parser.add(chunk, onBlock: onBlock)
        progress?(log.archiveOffset)
      }
      try parser.finish(onBlock: onBlock)
      samples = parser.samples
      bytes = log.produced
      diagnostics += parser.diagnostics()
      clock = parser.clock
      jumpOffset = parser.firstJumpOffset
    } else if let legacyEntry {
      let start = info["Start Date"].flatMap { Int64($0.value) }.map(Self.seconds(dotNetTicks:))
      guard let start else {
        throw InputError(
          .malformed, SourceLocation(file: infoFile, line: info["Start Date"]?.line ?? 1),
          "no readable \"Start Date\"",
          expected: "the start in .NET ticks, as \"Start Date: 634556532600000000\"")
      }
      let activity = try ZipArchive.EntryReader(archive: archive, entry: legacyEntry)
      var carry: [UInt8] = []
      var index = 0
      let legacyScale = number("Acceleration Scale") ?? 341
      func emit(_ data: [UInt8], pairs: Int, tail: Bool) throws {
        var block = AccelBlock(time: [], values: [])
        let count = pairs * 2 + (tail ? 1 : 0)
        for s in 0..<count {
          let bit = s * 36
          let y = Self.twelveBits(data, base: 0, bit: bit)
          let x = Self.twelveBits(data, base: 0, bit: bit + 12)
          let z = Self.twelveBits(data, base: 0, bit: bit + 24)
          block.time.append(clock.utc(start + Double(index) / rateHz))
          block.values += [Double(x) / legacyScale, Double(y) / legacyScale, Double(z) / legacyScale]
          index += 1
        }
        clock.keepIncreasing(&block, byteOffset: activity.archiveOffset)
        samples += block.count
        if block.count > 0 { try onBlock(block) }
      }
      while let chunk = try activity.next() {
        carry += chunk
        let pairs = carry.count / 9
        try emit(carry, pairs: pairs, tail: false)
        carry.removeFirst(pairs * 9)
        progress?(activity.archiveOffset)
      }
      if carry.count >= 5 { try emit(carry + [0], pairs: 0, tail: true) }
      bytes = activity.produced
      diagnostics.append(
        Diagnostic(
          code: "legacy-gt3x", severity: .note,
          message: "a legacy NEO file (activity.bin): samples timed from Start Date at the nominal rate",
          location: path))
    }
    guard samples > 0 else {
      throw InputError(
        .empty, SourceLocation(file: path, byteOffset: logEntry?.localHeaderOffset ?? 0),
        "no acceleration samples",
        expected: "ACTIVITY or ACTIVITY2 records in log.bin")
    }
    var notes = clock.diagnostics(localAsUTC: true)
    if let jumpOffset {
      // The record whose stamp jumped, rather than the block it was read in.
      for i in notes.indices where notes[i].code == "time-jump" {
        notes[i].location = "\(path) (log.bin) at byte \(jumpOffset)"
      }
    }
    if options.timeZone == nil, let stated = info["TimeZone"]?.value, !stated.isEmpty {
      for i in notes.indices where notes[i].code == "local-time-as-utc" {
        notes[i].message += " (info.txt states a UTC offset of \(stated))"
      }
    }
    diagnostics += notes
    return DeviceFileSummary(header: header, samples: samples, bytes: bytes, diagnostics: diagnostics)
  }
}

/// Splits log.bin into records across chunk boundaries and turns activity
/// records into samples.
private struct LogParser {
  let path: String
  let rateHz: Double
  var scale: Double
  let fill: Bool
  let maximumFillSeconds: Int
  var clock: DeviceClock
  var buffer: [UInt8] = []
  var position = 0
  /// Offset in log.bin of `buffer[0]`.
  var base = 0
  var samples = 0
  var badChecksums = 0
  var firstBadChecksum: Int?
  var skippedBytes = 0
  var firstSkipped: Int?
  var lastSecond: Int?
  /// The second of the first record, for the share of the span slept.
  var firstSecond: Int?
  var lastSample: (Double, Double, Double)?
  var gaps = 0
  var gapSeconds = 0
  var firstGap: (second: Int, seconds: Int)?
  var filledSamples = 0
  var unfilled = 0
  var firstUnfilled: (second: Int, seconds: Int)?
  var truncatedAt: Int?
  var block = AccelBlock(time: [], values: [])
  var blockOffset = 0

  var maximumStepSeconds: Double { clock.maximumStepSeconds }
  /// Offset in log.bin of the first record stamped further ahead than a
  /// step can be, for the clock's `time-jump` warning.
  var firstJumpOffset: Int?

  init(path: String, rateHz: Double, scale: Double, fill: Bool, maximumFillSeconds: Int, clock: DeviceClock) {
    self.path = path
    self.rateHz = rateHz
    self.scale = scale
    self.fill = fill
    self.maximumFillSeconds = maximumFillSeconds
    self.clock = clock
  }

  mutating func add(_ chunk: [UInt8], onBlock: (AccelBlock) throws -> Void) throws {
    if position > 0 {
      buffer.removeFirst(position)
      base += position
      position = 0
    }
    buffer += chunk
    try parse(final: false, onBlock: onBlock)
    try flush(onBlock: onBlock)
  }

  mutating func finish(onBlock: (AccelBlock) throws -> Void) throws {
    try parse(final: true, onBlock: onBlock)
    try flush(onBlock: onBlock)
  }

  mutating func flush(onBlock: (AccelBlock) throws -> Void) throws {
    clock.keepIncreasing(&block, byteOffset: blockOffset)
    samples += block.count
    if block.count > 0 { try onBlock(block) }
    block = AccelBlock(time: [], values: [])
    blockOffset = base + position
  }

  mutating func parse(final: Bool, onBlock: (AccelBlock) throws -> Void) throws {
    while position < buffer.count {
      let byte = buffer[position]
      if byte != 0x1E {
        // Zero bytes between records are allowed; anything else is lost.
        if byte != 0 {
          skippedBytes += 1
          if firstSkipped == nil { firstSkipped = base + position }
        }
        position += 1
        continue
      }
      guard position + 8 <= buffer.count else { break }
      let size = buffer.u16(position + 6)
      guard position + 9 + size <= buffer.count else { break }
      var sum: UInt8 = 0
      for k in position..<(position + 8 + size) { sum ^= buffer[k] }
      guard ~sum == buffer[position + 8 + size] else {
        badChecksums += 1
        if firstBadChecksum == nil { firstBadChecksum = base + position }
        // Not a record after all, or a damaged one: look for the next.
        position += 1
        continue
      }
      let type = buffer[position + 1]
      let second = buffer.u32(position + 2)
      let payload = position + 8
      switch type {
      case 0x15:
        var k = payload
        while k + 8 <= payload + size {
          if buffer.u16(k) == 0 && buffer.u16(k + 2) == 55 {
            let value = GT3XReader.parameterFloat(UInt32(truncatingIfNeeded: buffer.u32(k + 4)))
            if value > 0 { scale = value }
          }
          k += 8
        }
      case 0x00 where size > 1:
        let n = size * 8 / 36
        try begin(second: second, onBlock: onBlock)
        for i in 0..<n {
          let bit = i * 36
          let y = GT3XReader.twelveBits(buffer, base: payload, bit: bit)
          let x = GT3XReader.twelveBits(buffer, base: payload, bit: bit + 12)
          let z = GT3XReader.twelveBits(buffer, base: payload, bit: bit + 24)
          append(second: second, index: i, Double(x) / scale, Double(y) / scale, Double(z) / scale)
        }
      case 0x1A where size > 1:
        let n = size / 6
        try begin(second: second, onBlock: onBlock)
        for i in 0..<n {
          let k = payload + 6 * i
          append(
            second: second, index: i, Double(buffer.i16(k)) / scale, Double(buffer.i16(k + 2)) / scale,
            Double(buffer.i16(k + 4)) / scale)
        }
      default: break
      }
      position += 9 + size
    }
    if final && position < buffer.count {
      truncatedAt = base + position
      position = buffer.count
    }
  }

  /// Notes an idle-sleep gap before `second` and fills it when asked.
  mutating func begin(second: Int, onBlock: (AccelBlock) throws -> Void) throws {
    if firstSecond == nil { firstSecond = second }
    guard let last = lastSecond, second > last + 1 else {
      lastSecond = second
      return
    }
    let missing = second - last - 1
    // Further ahead than a step can be: a damaged stamp, not sleep; the
    // clock leaves its samples out and says so, and the next record is
    // measured from the last good one.
    guard Double(missing) <= maximumStepSeconds else {
      if firstJumpOffset == nil { firstJumpOffset = base + position }
      return
    }
    lastSecond = second
    gaps += 1
    gapSeconds += missing
    if firstGap == nil { firstGap = (last + 1, missing) }
    guard fill, let sample = lastSample else { return }
    guard missing <= maximumFillSeconds else {
      unfilled += 1
      if firstUnfilled == nil { firstUnfilled = (last + 1, missing) }
      return
    }
    let perSecond = Int(rateHz.rounded())
    for s in 0..<missing {
      for i in 0..<perSecond {
        block.time.append(clock.utc(Double(last + 1 + s) + Double(i) / rateHz))
        block.values += [sample.0, sample.1, sample.2]
      }
      filledSamples += perSecond
      if block.count > 100_000 { try flush(onBlock: onBlock) }
    }
  }

  mutating func append(second: Int, index: Int, _ x: Double, _ y: Double, _ z: Double) {
    block.time.append(clock.utc(Double(second) + Double(index) / rateHz))
    block.values += [x, y, z]
    lastSample = (x, y, z)
  }

  /// Seconds from the first record to the end of the last.
  var spanSeconds: Double {
    guard let firstSecond, let lastSecond else { return 0 }
    return Double(lastSecond - firstSecond + 1)
  }
  var sleptShare: Double { spanSeconds > 0 ? Double(gapSeconds) / spanSeconds : 0 }

  func diagnostics() -> [Diagnostic] {
    var out: [Diagnostic] = []
    let log = "\(path) (log.bin)"
    if let firstGap {
      let start = ISO8601.formatUTC(Double(firstGap.second)).dropLast()
      out.append(
        Diagnostic(
          code: "idle-sleep",
          severity: fill ? .note : .warning,
          message: fill
            ? "the device slept (idle sleep mode) in \(gaps) gap(s), \(gapSeconds) s in all, the first \(firstGap.seconds) s from \(start) (device time); filled with the last sample (\(filledSamples) samples), as ActiLife does"
            : "the device slept (idle sleep mode) in \(gaps) gap(s), \(gapSeconds) s in all (\(Fixed.format(Double(gapSeconds) / 3600, digits: 2)) h, \(Fixed.format(sleptShare * 100, digits: 1)) % of the \(Fixed.format(spanSeconds / 3600, digits: 2)) h from first to last record), the first \(firstGap.seconds) s from \(start) (device time); left out as gaps (\(Remedy(.idleSleep, value: "gap").text)): ENMO, MAD, intensity minutes, bouts and energy cover only the seconds the device was awake, where ActiLife (and the default, \(Remedy(.idleSleep, value: "fill").text)) fills them with the last sample",
          location: path))
    }
    if let firstUnfilled {
      let start = ISO8601.formatUTC(Double(firstUnfilled.second)).dropLast()
      out.append(
        Diagnostic(
          code: "idle-sleep-not-filled",
          message:
            "\(unfilled) gap(s) longer than the idle-sleep fill limit of \(maximumFillSeconds) s were left unfilled, the first \(firstUnfilled.seconds) s from \(start) (device time): a jump of the device's clock or a damaged time stamp rather than sleep",
          location: path))
    }
    if let offset = firstBadChecksum {
      out.append(
        Diagnostic(
          code: "corrupt-records",
          message:
            "\(badChecksums) record start(s) failed their checksum; skipped while looking for the next record",
          location: "\(log) at byte \(offset)"))
    }
    if let offset = firstSkipped {
      out.append(
        Diagnostic(
          code: "bytes-between-records",
          message: "\(skippedBytes) byte(s) outside any record were skipped",
          location: "\(log) at byte \(offset)"))
    }
    if let offset = truncatedAt {
      out.append(
        Diagnostic(
          code: "truncated-record",
          message: "log.bin ends inside a record (a download cut off); that record was not read",
          location: "\(log) at byte \(offset)"))
    }
    return out
  }
}
