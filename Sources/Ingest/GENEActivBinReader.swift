import EnergyLabCore
import Foundation

/// Reads GENEActiv `.bin` files page by page, in constant memory.
///
/// Layout (Activinsights, GENEActiv instructions, "Data file format"):
/// lines of text. A header of `key:value` lines in sections ("Device
/// Identity", "Configuration Info" with `Measurement Frequency:85.7 Hz`
/// and `Time Zone:GMT +01:00`, "Calibration Data" with `x gain`, `x
/// offset` (and y, z), `Volts`, `Lux`, "Memory Status" with `Number of
/// Pages`), then pages, each "Recorded Data", `key:value` lines (`Page
/// Time:2013-05-30 10:12:54:500`, `Temperature:21.5`, `Measurement
/// Frequency:85.7`) and one line of 3600 hexadecimal digits: 300 samples
/// of 12 digits, 48 bits each, most significant first:
///
/// ```
/// x 12 bits | y 12 bits | z 12 bits (two's complement) | light 10 bits | button 1 | reserved 1
/// value in g = (raw * 100 - offset) / gain        per axis, from the header
/// light in lux = light * Lux / Volts
/// t_i = page time + i / page frequency            i = 0 ... 299
/// ```
///
/// Page times are the device's local time in the header's `Time Zone`
/// (a `--tz` given takes precedence); each sample carries its page's
/// temperature, °C. A file shorter than the pages its header announces is
/// read as far as it goes, with a diagnostic.
public struct GENEActivBinReader: Sendable {
  public var options: DeviceReadOptions

  public init(options: DeviceReadOptions = DeviceReadOptions()) { self.options = options }

  /// Samples in a whole page.
  public static let samplesPerPage = 300

  /// The largest `Number of Pages` a header may announce: 10 million
  /// pages, 3 billion samples, over 10 times what a GENEActiv's memory
  /// holds (a week at 100 Hz is about 200,000 pages). A larger count is a
  /// damaged header, refused with its byte offset.
  public static let maximumAnnouncedPages = 10_000_000

  /// The acceleration, g, of a 12-bit raw value and its axis calibration:
  /// `(raw * 100 - offset) / gain`.
  public static func acceleration(raw: Int, gain: Double, offset: Double) -> Double {
    (Double(raw) * 100 - offset) / gain
  }

  public func read(
    path: String, progress: ((Int) -> Void)? = nil, onHeader: (DeviceFileHeader) throws -> Void = { _ in },
    onBlock: (AccelBlock) throws -> Void
  ) throws -> DeviceFileSummary {
    var lines = try LineStream(path: path)
    defer { lines.close() }
    var header: [String: (value: String, offset: Int)] = [:]
    var sawRecordedData = false
    while let line = try lines.next() {
      let text = Self.text(line.bytes)
      if text == "Recorded Data" {
        sawRecordedData = true
        break
      }
      if let colon = text.firstIndex(of: ":") {
        let key = String(text[..<colon]).trimmingCharacters(in: .whitespaces)
        if header[key] == nil {
          header[key] = (
            String(text[text.index(after: colon)...]).trimmingCharacters(in: .whitespaces), line.offset
          )
        }
      }
    }
    guard header["Device Type"] != nil || header["Measurement Frequency"] != nil else {
      throw InputError(
        .malformed, SourceLocation(file: path, byteOffset: 0), "no GENEActiv header",
        expected: "a GENEActiv .bin file starting \"Device Identity\"")
    }
    func number(_ key: String) throws -> Double {
      guard let entry = header[key] else {
        throw InputError(
          .malformed, SourceLocation(file: path, byteOffset: lines.headerEnd), "no \"\(key)\" in the header",
          expected: "the calibration and configuration lines of a GENEActiv header")
      }
      guard let value = Double(entry.value.split(separator: " ").first ?? ""), value.isFinite else {
        throw InputError(
          .value, SourceLocation(file: path, byteOffset: entry.offset), "\(key) \"\(entry.value)\"",
          expected: "a finite number")
      }
      return value
    }
    let rateHz = try number("Measurement Frequency")
    guard rateHz > 0, rateHz <= 1000 else {
      throw InputError(
        .value,
        SourceLocation(file: path, byteOffset: header["Measurement Frequency"]?.offset ?? lines.headerEnd),
        "measurement frequency \(Fixed.shortest(rateHz)) Hz", expected: "a rate above 0 and at most 1000 Hz")
    }
    var gains: [Double] = []
    var offsets: [Double] = []
    for axis in ["x", "y", "z"] {
      let gain = try number("\(axis) gain")
      guard gain != 0 else {
        throw InputError(
          .value, SourceLocation(file: path, byteOffset: header["\(axis) gain"]?.offset ?? lines.headerEnd),
          "\(axis) gain 0",
          expected: "a non-zero calibration gain")
      }
      gains.append(gain)
      offsets.append(try number("\(axis) offset"))
    }
    var headerZone: TimeZone?
    if let zone = header["Time Zone"], !zone.value.isEmpty {
      if let seconds = AccelDetector.gmtOffset(zone.value) {
        headerZone = TimeZone(secondsFromGMT: seconds)
      } else if options.timeZone == nil {
        // As for GENEActiv's CSV export: an offset that cannot be read is
        // not taken for "no zone given" (UTC); a zone given instead is used.
        throw InputError(
          .value, SourceLocation(file: path, byteOffset: zone.offset),
          "time zone \"\(zone.value)\"", expected: "GMT +hh:mm", remedy: Remedy(.timeZone))
      }
    }
    var announcedPages: Int?
    if let pages = header["Number of Pages"], !pages.value.isEmpty {
      guard let count = Int(pages.value), (0...Self.maximumAnnouncedPages).contains(count) else {
        throw InputError(
          .value, SourceLocation(file: path, byteOffset: pages.offset), "Number of Pages \"\(pages.value)\"",
          expected: "a whole number of pages from 0 to \(Self.maximumAnnouncedPages)")
      }
      announcedPages = count
    }
    var metadata: [String: String] = ["sample_rate_hz": Fixed.shortest(rateHz)]
    for (key, name) in [
      ("Device Unique Serial Code", "serial"), ("Device Type", "device"), ("Device Model", "model"),
      ("Device Firmware Version", "firmware"), ("Time Zone", "time_zone"), ("Number of Pages", "pages"),
      ("Device Location Code", "wear_location"),
    ] {
      if let value = header[key]?.value, !value.isEmpty { metadata[name] = value }
    }
    let zone = options.timeZone ?? headerZone
    let deviceHeader = DeviceFileHeader(
      format: .geneactivBin, sampleRateHz: rateHz, metadata: metadata, timeZone: headerZone,
      hasTemperature: true)
    try onHeader(deviceHeader)

    var clock = DeviceClock(file: path, zone: zone, maximumStepSeconds: options.maximumTimeStepSeconds)
    var diagnostics: [Diagnostic] = []
    var pages = 0
    var samples = 0
    var partial: (samples: Int, offset: Int)?
    var block = AccelBlock(time: [], values: [], temperatureCelsius: [])
    var blockOffset = lines.offset
    var pageTime: Double?
    var pageRate = rateHz
    var temperature = Double.nan
    var pendingPage = sawRecordedData
    while let line = try lines.next() {
      let bytes = line.bytes
      if bytes.isEmpty { continue }
      if Self.text(bytes) == "Recorded Data" {
        pendingPage = true
        pageTime = nil
        temperature = .nan
        pageRate = rateHz
        continue
      }
      let isHex = bytes.count >= 12 && bytes.allSatisfy { Self.hexValue($0) != nil }
      if !isHex {
        let text = Self.text(bytes)
        guard let colon = text.firstIndex(of: ":") else { continue }
        let key = text[..<colon].trimmingCharacters(in: .whitespaces)
        let value = text[text.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        switch key {
        case "Page Time":
          guard let t = Self.pageTime(value) else {
            throw InputError(
              .value, SourceLocation(file: path, byteOffset: line.offset), "page time \"\(value)\"",
              expected: "a time such as 2013-05-30 10:12:54:500, its year from 1000 to 9999")
          }
          pageTime = t
        case "Temperature": temperature = Double(value) ?? .nan
        case "Measurement Frequency":
          if let rate = Double(value.split(separator: " ").first ?? ""), rate > 0, rate <= 1000 {
            pageRate = rate
          } else {
            throw InputError(
              .value, SourceLocation(file: path, byteOffset: line.offset),
              "page measurement frequency \"\(value)\"",
              expected: "a rate above 0 and at most 1000 Hz")
          }
        default: break
        }
        continue
      }
      guard pendingPage, let start = pageTime else {
        throw InputError(
          .malformed, SourceLocation(file: path, byteOffset: line.offset), "a data line outside a page",
          expected: "\"Recorded Data\" and a \"Page Time\" before each page's samples")
      }
      pendingPage = false
      pages += 1
      let count = min(bytes.count / 12, Self.samplesPerPage)
      if count < Self.samplesPerPage { partial = (count, line.offset) }
      bytes.withUnsafeBufferPointer { digits in
        for i in 0..<count {
          var word: UInt64 = 0
          for k in 0..<12 { word = word << 4 | UInt64(Self.nibble(digits[i * 12 + k])) }
          block.time.append(clock.utc(start + Double(i) / pageRate))
          block.temperatureCelsius.append(temperature)
          for (axis, shift) in [36, 24, 12].enumerated() {
            let raw = Int(Int16(truncatingIfNeeded: (word >> UInt64(shift) & 0xFFF) << 4) >> 4)
            block.values.append(Self.acceleration(raw: raw, gain: gains[axis], offset: offsets[axis]))
          }
        }
      }
      if block.count >= 30_000 {
        clock.keepIncreasing(&block, byteOffset: blockOffset)
        samples += block.count
        if block.count > 0 { try onBlock(block) }
        block = AccelBlock(time: [], values: [], temperatureCelsius: [])
        blockOffset = lines.offset
        progress?(lines.offset)
      }
    }
    clock.keepIncreasing(&block, byteOffset: blockOffset)
    samples += block.count
    if block.count > 0 { try onBlock(block) }
    progress?(lines.offset)
    guard samples > 0 else {
      throw InputError(
        .empty, SourceLocation(file: path, byteOffset: lines.offset), "no data pages",
        expected: "pages of \"Recorded Data\" after the header")
    }
    if let partial {
      diagnostics.append(
        Diagnostic(
          code: "truncated-page",
          message:
            "a page holds \(partial.samples) of \(Self.samplesPerPage) samples (the file is cut off); the rest of the page is lost",
          location: "\(path) at byte \(partial.offset)"))
    }
    if let announcedPages, pages < announcedPages {
      diagnostics.append(
        Diagnostic(
          code: "file-shorter-than-header",
          message:
            "the header announces \(announcedPages) pages (\(announcedPages * Self.samplesPerPage) samples); the file holds \(pages) (\(samples) samples): the rest of the recording is lost",
          location: "\(path) at byte \(lines.offset)"))
    }
    if zone == nil {
      diagnostics += clock.diagnostics(localAsUTC: true)
    } else {
      diagnostics += clock.diagnostics(localAsUTC: false)
    }
    return DeviceFileSummary(
      header: deviceHeader, samples: samples, bytes: lines.offset, diagnostics: diagnostics)
  }

  /// The value of a hexadecimal digit (either case); nil for any other byte.
  /// The value of a byte already found to be a hex digit (`hexValue`):
  /// its low four bits, plus 9 for a letter (0x41 'A' and 0x61 'a' have
  /// bit 6 set, digits do not).
  @inline(__always) static func nibble(_ byte: UInt8) -> UInt8 { (byte & 0x0F) &+ (byte >> 6) &* 9 }

  @inline(__always) static func hexValue(_ byte: UInt8) -> UInt8? {
    switch byte {
    case 0x30...0x39: return byte - 0x30
    case 0x41...0x46: return byte - 0x37
    case 0x61...0x66: return byte - 0x57
    default: return nil
    }
  }

  /// A line as text, trailing spaces and NULs (empty header fields) removed.
  static func text(_ bytes: [UInt8]) -> String {
    String(decoding: bytes, as: UTF8.self).trimmingCharacters(in: CharacterSet(charactersIn: " \0"))
  }

  /// Seconds since 1970, read as UTC, of `2013-05-30 10:12:54:500` (the
  /// last field milliseconds); nil for anything else, a year outside
  /// 1000-9999 (no device wrote it, and the arithmetic stays in range) or
  /// a sign included.
  static func pageTime(_ text: String) -> Double? {
    let parts = text.split(
      omittingEmptySubsequences: false, whereSeparator: { $0 == "-" || $0 == " " || $0 == ":" }
    ).map { $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) ? Int($0) : nil }
    guard parts.count == 7, let year = parts[0], let month = parts[1], let day = parts[2],
      let hours = parts[3], let minutes = parts[4], let seconds = parts[5], let millis = parts[6],
      (1000...9999).contains(year), (1...12).contains(month), day >= 1,
      day <= ISO8601.daysInMonth(year: year, month: month), hours < 24,
      minutes < 60, seconds < 61, (0..<1000).contains(millis)
    else { return nil }
    let days = ISO8601.daysFromCivil(year: year, month: month, day: day)
    return Double(days * 86400 + hours * 3600 + minutes * 60 + seconds) + Double(millis) / 1000
  }
}

/// Lines of a file (LF or CRLF), read in 1 MB chunks, each with the byte
/// offset it starts at. A line longer than `maximumLineBytes` (4 MiB, as
/// for the CSV readers) is an `InputError`, found after reading at most
/// one chunk past the limit; each byte is searched for a line break once.
struct LineStream {
  private var file: ChunkedFile
  private var buffer: [UInt8] = []
  private var position = 0
  /// Where the search for the next line break resumes: no line break lies
  /// in `buffer[position..<searched]`.
  private var searched = 0
  private var bufferStart = 0
  private var ended = false
  let maximumLineBytes: Int
  /// The offset just past the last line handed out.
  private(set) var offset = 0
  /// Where the header ended (the first "Recorded Data" line), for errors.
  var headerEnd: Int { offset }

  init(path: String, maximumLineBytes: Int = LineChunks.defaultMaximumLineBytes) throws {
    file = try ChunkedFile(path: path)
    self.maximumLineBytes = maximumLineBytes
  }

  mutating func next() throws -> (bytes: [UInt8], offset: Int)? {
    while true {
      if let newline = buffer[searched...].firstIndex(of: 0x0A) {
        var end = newline
        if end > position && buffer[end - 1] == 0x0D { end -= 1 }
        try checkLength(end - position)
        let line = Array(buffer[position..<end])
        let start = bufferStart + position
        position = newline + 1
        searched = position
        offset = bufferStart + position
        return (line, start)
      }
      searched = buffer.count
      try checkLength(buffer.count - position)
      if ended {
        guard position < buffer.count else { return nil }
        var end = buffer.count
        if buffer[end - 1] == 0x0D { end -= 1 }
        let line = Array(buffer[position..<end])
        let start = bufferStart + position
        position = buffer.count
        searched = position
        offset = bufferStart + position
        return (line, start)
      }
      let more = try file.read(1 << 20)
      if more.isEmpty {
        ended = true
        continue
      }
      bufferStart += position
      buffer.removeFirst(position)
      searched -= position
      position = 0
      buffer += more
    }
  }

  /// Refuses a line of `count` bytes (so far) longer than the limit.
  private func checkLength(_ count: Int) throws {
    guard count > maximumLineBytes else { return }
    throw InputError(
      .malformed, SourceLocation(file: file.path, byteOffset: bufferStart + position),
      "a line longer than \(maximumLineBytes) bytes",
      expected: "lines of at most \(maximumLineBytes) bytes (the reader's limit)")
  }

  func close() { file.close() }
}
