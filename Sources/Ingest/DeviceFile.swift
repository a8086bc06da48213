import EnergyLabCore
import Foundation

/// The binary formats of research accelerometers that EnergyLab reads
/// directly, told apart by their first bytes.
public enum DeviceFileFormat: String, Sendable, Hashable, CaseIterable {
  /// Axivity AX3 and AX6 `.cwa`: a 1024-byte "MD" header, then 512-byte
  /// "AX" data blocks (OpenMovement, `Docs/ax3/cwa.h`).
  case axivityCWA = "axivity-cwa"
  /// GENEActiv `.bin`: a text header, then pages of hexadecimal samples
  /// (Activinsights, GENEActiv instructions, "Data file format").
  case geneactivBin = "geneactiv-bin"
  /// ActiGraph `.gt3x`: a ZIP archive of `info.txt` and `log.bin`
  /// (ActiGraph, GT3X-File-Format repository), or of the legacy NEO
  /// `activity.bin`.
  case actigraphGT3X = "actigraph-gt3x"

  /// The format whose signature starts `head`: "MD" and a packet length
  /// of 1020 for CWA, the line "Device Identity" for GENEActiv, a ZIP
  /// local header ("PK", 3, 4) for GT3X; nil for anything else (CSV).
  public static func detect(head: [UInt8]) -> DeviceFileFormat? {
    if head.count >= 4, head[0] == 0x4D, head[1] == 0x44, head[2] == 0xFC, head[3] == 0x03 {
      return .axivityCWA
    }
    if head.count >= 4, head[0] == 0x50, head[1] == 0x4B, head[2] == 0x03, head[3] == 0x04 {
      return .actigraphGT3X
    }
    let identity = Array("Device Identity".utf8)
    var start = 0
    if head.starts(with: [0xEF, 0xBB, 0xBF]) { start = 3 }
    if head.count >= start + identity.count, Array(head[start..<(start + identity.count)]) == identity {
      return .geneactivBin
    }
    return nil
  }

  /// The format a file's name claims: `.cwa` and `.gt3x` belong to one
  /// device each (`.bin` does not: many programs write it). A file so named
  /// whose first bytes are not its format's is read as that format, so the
  /// error names the header it lacks rather than calling it "not text".
  public static func claimed(byName path: String) -> DeviceFileFormat? {
    switch (path as NSString).pathExtension.lowercased() {
    case "cwa": return .axivityCWA
    case "gt3x": return .actigraphGT3X
    default: return nil
    }
  }

  /// The dialect name the readers' results carry.
  public var accelFormat: AccelFormat {
    switch self {
    case .axivityCWA: return .axivityCWA
    case .geneactivBin: return .geneactivBin
    case .actigraphGT3X: return .actigraphGT3X
    }
  }
}

/// How to read a device file.
public struct DeviceReadOptions: Sendable, Hashable {
  /// The zone of the device's clock. Devices write local time without an
  /// offset; without a zone (and, for GENEActiv, without the header's own
  /// `Time Zone`) it is read as UTC and a note says so.
  public var timeZone: TimeZone?
  /// Fill the seconds an ActiGraph slept in idle sleep mode with its last
  /// sample, as ActiLife does (the default; off, the gap stays a gap, and
  /// a diagnostic says where, how long and what share of the span).
  public var fillIdleSleep = true
  /// The longest idle-sleep gap that `fillIdleSleep` fills, s: a longer
  /// one (a clock that jumped, a damaged time stamp: one shifted by 2^31 s
  /// would take 68 years of samples) stays a gap, with a warning.
  public var maximumIdleSleepFillSeconds = DeviceReadOptions.defaultMaximumIdleSleepFillSeconds

  /// 14 days: twice the week an ActiGraph is usually worn, so a device
  /// left asleep for the rest of its deployment is still filled.
  public static let defaultMaximumIdleSleepFillSeconds = 14 * 86_400
  /// The longest step forward between consecutive samples, s: a sample
  /// further ahead of the last one kept is not time but a damaged stamp or
  /// a clock that jumped, and is left out with a warning naming the step
  /// (one GT3X record shifted by 2^31 s would otherwise end the recording
  /// in 2088). Default 14 days, the longest idle sleep that is filled.
  public var maximumTimeStepSeconds = Double(DeviceReadOptions.defaultMaximumIdleSleepFillSeconds)

  public init(timeZone: TimeZone? = nil, fillIdleSleep: Bool = true) {
    self.timeZone = timeZone
    self.fillIdleSleep = fillIdleSleep
  }
}

/// What a device file states about itself, known before its first sample.
public struct DeviceFileHeader: Sendable {
  public var format: DeviceFileFormat
  /// The rate the device was set to, Hz.
  public var sampleRateHz: Double
  /// Serial number, device type, firmware, range and the like.
  public var metadata: [String: String]
  /// The zone the header states for the device's clock (GENEActiv).
  public var timeZone: TimeZone?
  /// Whether the samples carry a temperature, °C.
  public var hasTemperature: Bool
}

/// What a device reader found: its header, the samples it passed on and
/// what was imperfect.
public struct DeviceFileSummary: Sendable {
  public var header: DeviceFileHeader
  public var samples: Int
  public var bytes: Int
  public var diagnostics: [Diagnostic]
}

/// Turns the device's local clock into seconds since 1970 UTC and keeps
/// times strictly increasing, remembering what it dropped.
struct DeviceClock {
  let file: String
  let zone: TimeZone?
  /// Samples further ahead than this of the last one kept, s, are left out.
  let maximumStepSeconds: Double
  private var last = -Double.infinity
  private var dropped = 0
  private var firstDroppedOffset: Int?
  private var jumped = 0
  private var firstJump: (from: Double, to: Double, offset: Int)?
  private var cachedHour = Double.nan
  private var cachedOffset = 0.0

  init(file: String, zone: TimeZone?, maximumStepSeconds: Double = .infinity) {
    self.file = file
    self.zone = zone
    self.maximumStepSeconds = maximumStepSeconds
  }

  /// Seconds since 1970 UTC of a local time read as if it were UTC:
  /// `utc = local - offset(zone at that instant)`.
  mutating func utc(_ local: Double) -> Double {
    guard let zone else { return local }
    let hour = (local / 3600).rounded(.down)
    if hour != cachedHour {
      let guess = zone.secondsFromGMT(for: Date(timeIntervalSince1970: local))
      cachedOffset = Double(zone.secondsFromGMT(for: Date(timeIntervalSince1970: local - Double(guess))))
      cachedHour = hour
    }
    return local - cachedOffset
  }

  /// Drops the rows of `block` whose time does not follow the one before,
  /// or lies more than `maximumStepSeconds` after it; `byteOffset` is where
  /// the block's samples were read.
  mutating func keepIncreasing(_ block: inout AccelBlock, byteOffset: Int) {
    var keep = 0
    let hasTemperature = !block.temperatureCelsius.isEmpty
    for i in 0..<block.count {
      let t = block.time[i]
      guard t > last else {
        dropped += 1
        if firstDroppedOffset == nil { firstDroppedOffset = byteOffset }
        continue
      }
      guard !(t - last > maximumStepSeconds) || last == -.infinity else {
        jumped += 1
        if firstJump == nil { firstJump = (last, t, byteOffset) }
        continue
      }
      if keep != i {
        block.time[keep] = t
        for k in 0..<3 { block.values[keep * 3 + k] = block.values[i * 3 + k] }
        if hasTemperature { block.temperatureCelsius[keep] = block.temperatureCelsius[i] }
      }
      keep += 1
      last = t
    }
    if keep < block.count {
      block.time.removeLast(block.count - keep)
      block.values.removeLast(block.values.count - keep * 3)
      if hasTemperature { block.temperatureCelsius.removeLast(block.temperatureCelsius.count - keep) }
    }
  }

  /// Notes on the clock: samples dropped, local time read as UTC.
  func diagnostics(localAsUTC: Bool) -> [Diagnostic] {
    var out: [Diagnostic] = []
    if let offset = firstDroppedOffset {
      out.append(
        Diagnostic(
          code: "time-backwards",
          message:
            "\(dropped) sample(s) repeat or go back in time (the device's clock was set back); dropped",
          location: "\(file) at byte \(offset)"))
    }
    if let firstJump {
      let days = (firstJump.to - firstJump.from) / 86400
      out.append(
        Diagnostic(
          code: "time-jump",
          message:
            "\(jumped) sample(s) lie more than \(Fixed.shortest(maximumStepSeconds / 86400)) days after the sample before them, the first \(days < 730 ? "\(Fixed.format(days, digits: 1)) days" : "\(Fixed.format(days / 365.25, digits: 1)) years") ahead (\(ISO8601.formatUTC(firstJump.from)) to \(ISO8601.formatUTC(firstJump.to))): a damaged time stamp or a clock that jumped, not time that passed; left out",
          location: "\(file) at byte \(firstJump.offset)"))
    }
    if localAsUTC && zone == nil {
      out.append(
        Diagnostic(
          code: "local-time-as-utc", severity: .note,
          message:
            "the device writes its local time without an offset and no time zone was given; read as UTC",
          location: file, remedy: Remedy(.timeZone)))
    }
    return out
  }
}

/// Reads a file in large chunks, remembering the offset of each.
struct ChunkedFile {
  let path: String
  let handle: FileHandle
  let size: Int
  private(set) var offset = 0

  init(path: String) throws {
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue,
      let handle = FileHandle(forReadingAtPath: path)
    else {
      throw InputError(
        .unreadable, SourceLocation(file: path), "cannot open the file", expected: "a readable file")
    }
    self.path = path
    self.handle = handle
    let end = (try? handle.seekToEnd()) ?? 0
    try? handle.seek(toOffset: 0)
    self.size = Int(end)
  }

  /// The next `count` bytes at most; empty at the end.
  mutating func read(_ count: Int) throws -> [UInt8] {
    do {
      let data = try handle.read(upToCount: count) ?? Data()
      offset += data.count
      return [UInt8](data)
    } catch {
      throw InputError(
        .unreadable, SourceLocation(file: path, byteOffset: offset),
        "read failed (\(error.localizedDescription))",
        expected: "a readable file")
    }
  }

  /// `count` bytes from `position` (fewer at the end of the file).
  mutating func read(at position: Int, _ count: Int) throws -> [UInt8] {
    try handle.seek(toOffset: UInt64(position))
    offset = position
    return try read(count)
  }

  func close() { try? handle.close() }
}

extension Array where Element == UInt8 {
  /// The little-endian unsigned 16-bit word at `i`.
  @inline(__always) func u16(_ i: Int) -> Int { Int(self[i]) | Int(self[i + 1]) << 8 }
  /// The little-endian signed 16-bit word at `i`.
  @inline(__always) func i16(_ i: Int) -> Int { Int(Int16(bitPattern: UInt16(u16(i)))) }
  /// The little-endian unsigned 32-bit word at `i`.
  @inline(__always) func u32(_ i: Int) -> Int { u16(i) | u16(i + 2) << 16 }
}

/// Reads any of the device formats, streaming samples to `onBlock` in file
/// order, times strictly increasing.
public enum DeviceFileReader {
  /// The format of the file at `path`, from its first bytes; nil when it
  /// is none of them. Only regular files are looked at: peeking into a
  /// pipe would take the bytes its reader needs. Links are followed as the
  /// system follows them (a relative path, a relative target), so a file
  /// is the same format under every name.
  public static func format(ofFileAt path: String) -> DeviceFileFormat? {
    var info = stat()
    guard stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG,
      let handle = FileHandle(forReadingAtPath: path)
    else { return nil }
    defer { try? handle.close() }
    guard let data = try? handle.read(upToCount: 32) else { return nil }
    return DeviceFileFormat.detect(head: [UInt8](data))
  }

  /// Reads `path` as `format`: `onHeader` hears what the file states
  /// before any sample, `onBlock` gets the samples (x, y, z in g, time in
  /// s since 1970 UTC) and `progress` the bytes read so far.
  public static func read(
    path: String, format: DeviceFileFormat, options: DeviceReadOptions = DeviceReadOptions(),
    progress: ((Int) -> Void)? = nil, onHeader: (DeviceFileHeader) throws -> Void = { _ in },
    onBlock: (AccelBlock) throws -> Void
  ) throws -> DeviceFileSummary {
    switch format {
    case .axivityCWA:
      return try CWAReader(options: options).read(
        path: path, progress: progress, onHeader: onHeader, onBlock: onBlock)
    case .geneactivBin:
      return try GENEActivBinReader(options: options).read(
        path: path, progress: progress, onHeader: onHeader, onBlock: onBlock)
    case .actigraphGT3X:
      return try GT3XReader(options: options).read(
        path: path, progress: progress, onHeader: onHeader, onBlock: onBlock)
    }
  }
}
