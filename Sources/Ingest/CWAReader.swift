import EnergyLabCore
import Foundation

/// Reads Axivity AX3 and AX6 `.cwa` files block by block, in constant
/// memory.
///
/// Layout (OpenMovement, `Docs/ax3/cwa.h`; little-endian, packed): a
/// 1024-byte header block ("MD", packet length 1020: hardware type @4,
/// device id @5 and @11, session @7, rate code @36, firmware @41), then
/// 512-byte data blocks ("AX", packet length 508):
///
/// ```
/// @4  deviceFractional  top bit set: 15-bit fraction of a second
/// @14 timestamp         YYYYYYMM MMDDDDDh hhhhmmmm mmssssss, year + 2000
/// @18 lightScale        AAAGGGLLLLLLLLLL: unpacked accel scale 1/2^(8+A) g
/// @20 temperature       bottom 10 bits; °C = raw * 75 / 256 - 50
/// @24 rate code         Hz = 3200 / 2^(15 - (code & 15)); range ±(16 >> (code >> 6)) g
/// @25 axes, packing     top nibble 3 (A), 6 (G, A) or 9 (G, A, M);
///                       bottom nibble 0 = packed, 2 = int16
/// @26 timestampOffset   sample index at which the whole second holds
/// @28 sampleCount
/// @30 samples (480 bytes)
/// @510 checksum         the 16-bit words of the block sum to 0
/// ```
///
/// Packed samples are one 32-bit word `eezzzzzz zzzzyyyy yyyyyyxx
/// xxxxxxxx`: three signed 10-bit values shifted left by the 2-bit
/// exponent, in 1/256 g. Unpacked samples are int16 in 1/2^(8+A) g.
///
/// Time of sample i of a block, in the device's local time: with a
/// fraction `f` (s), the offset was moved back by the whole samples in
/// `f`, so
///
/// ```
/// t_i = T + f + (i - timestampOffset - floor(f * rate)) / rate
/// ```
///
/// (T the packed whole second; without a fraction, f = 0). Each block is
/// timed by its own stamp at the nominal rate; times are not smoothed
/// across blocks.
///
/// A block whose checksum fails, whose header is not "AX" or whose time
/// stamp is no date is skipped and counted in a diagnostic, never read.
/// The AX6 gyroscope (and a magnetometer) are not read; a note says so.
public struct CWAReader: Sendable {
  public var options: DeviceReadOptions

  public init(options: DeviceReadOptions = DeviceReadOptions()) { self.options = options }

  static let headerBytes = 1024
  static let blockBytes = 512

  /// Hz of a rate code (`3200 / 2^(15 - (code & 15))`).
  public static func rateHz(code: Int) -> Double { 3200 / Double(1 << (15 - (code & 0x0F))) }
  /// ± g of a rate code's range bits (`16 >> (code >> 6)`).
  public static func rangeG(code: Int) -> Int { 16 >> (code >> 6) }

  /// Seconds since 1970 of a packed date-time read as UTC; nil when it
  /// is no date (0, a month of 0 or 13, a day of 0).
  public static func seconds(packed: Int) -> Double? {
    let year = (packed >> 26 & 0x3F) + 2000
    let month = packed >> 22 & 0x0F
    let day = packed >> 17 & 0x1F
    let hours = packed >> 12 & 0x1F
    let minutes = packed >> 6 & 0x3F
    let seconds = packed & 0x3F
    guard packed != 0, (1...12).contains(month), day >= 1,
      day <= ISO8601.daysInMonth(year: year, month: month),
      hours < 24, minutes < 60, seconds < 60
    else { return nil }
    let days = ISO8601.daysFromCivil(year: year, month: month, day: day)
    return Double(days * 86400 + hours * 3600 + minutes * 60 + seconds)
  }

  /// Whether the 16-bit little-endian words of `block[from..<from + 512]`
  /// sum to 0 (mod 2^16).
  static func checksumHolds(_ bytes: [UInt8], from: Int) -> Bool {
    var sum = 0
    var i = from
    let end = from + blockBytes
    while i < end {
      sum &+= Int(bytes[i]) | Int(bytes[i + 1]) << 8
      i += 2
    }
    return sum & 0xFFFF == 0
  }

  public func read(
    path: String, progress: ((Int) -> Void)? = nil, onHeader: (DeviceFileHeader) throws -> Void = { _ in },
    onBlock: (AccelBlock) throws -> Void
  ) throws -> DeviceFileSummary {
    var file = try ChunkedFile(path: path)
    defer { file.close() }
    let head = try file.read(Self.headerBytes)
    guard head.count >= 4, head[0] == 0x4D, head[1] == 0x44 else {
      throw InputError(
        .malformed, SourceLocation(file: path, byteOffset: 0), "no CWA header",
        expected: "an Axivity .cwa file starting \"MD\"")
    }
    guard head.u16(2) == 1020 else {
      throw InputError(
        .malformed, SourceLocation(file: path, byteOffset: 2), "header packet length \(head.u16(2))",
        expected: "1020 (a 1024-byte CWA header)")
    }
    guard head.count == Self.headerBytes else {
      throw InputError(
        .malformed, SourceLocation(file: path, byteOffset: head.count),
        "the file ends inside its header (\(head.count) bytes)",
        expected: "a 1024-byte header, then data blocks")
    }
    let hardware = Int(head[4])
    let isAX6 = hardware == 0x64
    var upper = head.u16(11)
    if upper == 0xFFFF { upper = 0 }
    let deviceId = head.u16(5) | upper << 16
    let headerRate = Int(head[36])
    var metadata: [String: String] = [
      "device": isAX6 ? "Axivity AX6" : "Axivity AX3",
      "device_id": String(deviceId),
      "session_id": String(head.u32(7)),
      "firmware": String(head[41]),
      "range_g": String(Self.rangeG(code: headerRate)),
    ]
    var diagnostics: [Diagnostic] = []
    var clock = DeviceClock(
      file: path, zone: options.timeZone, maximumStepSeconds: options.maximumTimeStepSeconds)
    var headerSent = false
    var rateHz = Self.rateHz(code: headerRate)
    var samples = 0
    var corrupt: [Int] = []
    var notData: [Int] = []
    var undated: [Int] = []
    var otherRates: Set<Int> = []
    var sawGyroscope = false
    var blockIndex = 0
    var trailing = 0

    func sendHeader() throws {
      guard !headerSent else { return }
      headerSent = true
      metadata["sample_rate_hz"] = Fixed.shortest(rateHz)
      try onHeader(
        DeviceFileHeader(
          format: .axivityCWA, sampleRateHz: rateHz, metadata: metadata, timeZone: nil, hasTemperature: true))
    }

    // 256 blocks (30,720 samples at most, 128 KB of file) a chunk: the
    // block arrays, their calibrated copy and the blocks waiting for the
    // step and count threads stay near 10 MB whatever the file's length.
    let chunkBlocks = 256
    while true {
      let chunkStart = file.offset
      let chunk = try file.read(chunkBlocks * Self.blockBytes)
      if chunk.isEmpty { break }
      let whole = chunk.count / Self.blockBytes
      trailing = chunk.count % Self.blockBytes
      var block = AccelBlock(time: [], values: [], temperatureCelsius: [])
      block.time.reserveCapacity(whole * 120)
      block.values.reserveCapacity(whole * 360)
      block.temperatureCelsius.reserveCapacity(whole * 120)
      for b in 0..<whole {
        defer { blockIndex += 1 }
        let o = b * Self.blockBytes
        let offset = chunkStart + o
        guard chunk[o] == 0x41, chunk[o + 1] == 0x58, chunk.u16(o + 2) == 508 else {
          notData.append(blockIndex)
          continue
        }
        guard Self.checksumHolds(chunk, from: o) else {
          corrupt.append(blockIndex)
          continue
        }
        guard let whole = Self.seconds(packed: chunk.u32(o + 14)) else {
          undated.append(blockIndex)
          continue
        }
        let code = Int(chunk[o + 24])
        let rate = Self.rateHz(code: code)
        guard (6...15).contains(code & 0x0F) else {
          throw InputError(
            .value, SourceLocation(file: path, byteOffset: offset + 24),
            "block \(blockIndex): rate code \(code) (\(Fixed.shortest(rate)) Hz)",
            expected: "a rate code of 6.25 to 3200 Hz")
        }
        if !headerSent {
          rateHz = rate
          metadata["range_g"] = String(Self.rangeG(code: code))
          try sendHeader()
        } else if rate != rateHz {
          otherRates.insert(code & 0x0F)
        }
        let axes = Int(chunk[o + 25] >> 4)
        let packing = Int(chunk[o + 25] & 0x0F)
        let count = chunk.u16(o + 28)
        let bytesPerSample: Int
        switch (packing, axes) {
        case (0, 3): bytesPerSample = 4
        case (2, 3), (2, 6), (2, 9): bytesPerSample = 2 * axes
        default:
          throw InputError(
            .malformed, SourceLocation(file: path, byteOffset: offset + 25),
            "block \(blockIndex): \(axes) axes in packing \(packing)",
            expected: "3 axes packed (0x30) or 3, 6 or 9 axes of int16 (0x32, 0x62, 0x92)")
        }
        guard count * bytesPerSample <= 480 else {
          throw InputError(
            .malformed, SourceLocation(file: path, byteOffset: offset + 28),
            "block \(blockIndex): \(count) samples of \(bytesPerSample) bytes",
            expected: "at most 480 bytes of samples")
        }
        if axes > 3 { sawGyroscope = true }
        let fractionRaw = chunk.u16(o + 4)
        var stampSeconds = whole
        var index = chunk.i16(o + 26)
        if fractionRaw & 0x8000 != 0 {
          let fraction65536 = (fractionRaw & 0x7FFF) << 1
          stampSeconds += Double(fraction65536) / 65536
          index += (fraction65536 * Int(rate)) >> 16
        }
        let raw = chunk.u16(o + 20) & 0x03FF
        let temperature = raw == 0 ? Double.nan : Double(raw) * 75 / 256 - 50
        let unpackedScale = 1 / Double(1 << (8 + (chunk.u16(o + 18) >> 13)))
        let data = o + 30
        for i in 0..<count {
          block.time.append(clock.utc(stampSeconds + Double(i - index) / rate))
          block.temperatureCelsius.append(temperature)
          if packing == 0 {
            let word = UInt32(truncatingIfNeeded: chunk.u32(data + 4 * i))
            let exponent = word >> 30
            for shift: UInt32 in [0, 10, 20] {
              // Sign-extend the 10-bit value, then apply the exponent.
              let value = Int32(bitPattern: (word >> shift & 0x3FF) << 22) >> 22
              block.values.append(Double(value << exponent) / 256)
            }
          } else {
            // Accelerometer after the gyroscope on an AX6 (Gxyz, Axyz).
            let first = data + i * bytesPerSample + (axes > 3 ? 6 : 0)
            for k in 0..<3 { block.values.append(Double(chunk.i16(first + 2 * k)) * unpackedScale) }
          }
        }
      }
      clock.keepIncreasing(&block, byteOffset: chunkStart)
      samples += block.count
      if block.count > 0 { try onBlock(block) }
      progress?(file.offset)
      if chunk.count < chunkBlocks * Self.blockBytes { break }
    }

    try sendHeader()
    func list(_ blocks: [Int]) -> String {
      let shown = blocks.prefix(10).map(String.init).joined(separator: ", ")
      return blocks.count > 10 ? shown + ", ..." : shown
    }
    func at(_ block: Int) -> String { "\(path) at byte \(Self.headerBytes + block * Self.blockBytes)" }
    if !corrupt.isEmpty {
      diagnostics.append(
        Diagnostic(
          code: "corrupt-blocks",
          message:
            "\(corrupt.count) data block(s) failed their checksum and were skipped (block \(list(corrupt)), counted from 0 after the header; up to 120 samples each)",
          location: at(corrupt[0])))
    }
    if !notData.isEmpty {
      diagnostics.append(
        Diagnostic(
          code: "not-data-blocks",
          message:
            "\(notData.count) block(s) are not \"AX\" data blocks and were skipped (block \(list(notData)))",
          location: at(notData[0])))
    }
    if !undated.isEmpty {
      diagnostics.append(
        Diagnostic(
          code: "undated-blocks",
          message:
            "\(undated.count) block(s) carry no valid time stamp and were skipped (block \(list(undated)))",
          location: at(undated[0])))
    }
    if trailing > 0 {
      diagnostics.append(
        Diagnostic(
          code: "truncated-block",
          message:
            "the file ends \(trailing) bytes into a block (a recording cut off); that block was not read",
          location: "\(path) at byte \(file.size - trailing)"))
    }
    if !otherRates.isEmpty {
      diagnostics.append(
        Diagnostic(
          code: "rate-changed",
          message:
            "blocks at \(otherRates.sorted().map { Fixed.shortest(Self.rateHz(code: $0)) }.joined(separator: ", ")) Hz besides \(Fixed.shortest(rateHz)) Hz; each block is timed at its own rate",
          location: path))
    }
    if sawGyroscope {
      diagnostics.append(
        Diagnostic(
          code: "gyroscope-ignored", severity: .note,
          message: "the AX6 gyroscope channels are not read; acceleration only, scaled per block",
          location: path))
    }
    if samples == 0 {
      throw InputError(
        .empty, SourceLocation(file: path, byteOffset: Self.headerBytes),
        corrupt.isEmpty
          ? "no data blocks" : "no readable data blocks (\(corrupt.count) failed their checksum)",
        expected: "512-byte \"AX\" data blocks after the header")
    }
    diagnostics += clock.diagnostics(localAsUTC: true)
    return DeviceFileSummary(
      header: DeviceFileHeader(
        format: .axivityCWA, sampleRateHz: rateHz, metadata: metadata, timeZone: nil, hasTemperature: true),
      samples: samples, bytes: file.size, diagnostics: diagnostics)
  }
}
