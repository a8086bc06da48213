import EnergyLabCore
import Foundation
import Synchronization

/// A run of rows in file order, times strictly increasing.
public struct AccelBlock: Sendable {
  /// Seconds since 1970 UTC (since the start when the file has no
  /// absolute time).
  public var time: [Double]
  /// Values row after row, `kind.width` per row, in the order of the
  /// layout's `kind`: x, y, z in g for raw data; axis1, axis2, axis3,
  /// steps, vector magnitude for counts; ENMO in mg for ENMO epochs. NaN
  /// where a file has no such column.
  public var values: [Double]
  /// Temperature of each row, °C, where the device records one (a device
  /// file's block or page temperature; NaN where a block has none); empty
  /// for CSV.
  public var temperatureCelsius: [Double] = []

  public var count: Int { time.count }
}

/// What the reader learned about a file besides its rows.
public struct AccelFileInfo: Sendable {
  public var layout: AccelLayout
  public var rows: Int
  public var lines: Int
  public var bytes: Int
  public var compressed: Bool
  public var diagnostics: [Diagnostic]
}

/// Reads accelerometer CSV (plain or gzipped) in constant memory: one
/// thread reads chunks that end at line breaks, the parsing of chunks runs
/// on `workers` threads, and rows reach `onBlock` in file order.
///
/// Rows whose time repeats or goes back are dropped and reported as
/// diagnostics with the first line and the count; a malformed row is an
/// `InputError` naming its line and column; an unterminated last line that
/// cannot be read (a recording cut off mid-write) is dropped with a
/// diagnostic.
public struct AccelReader: Sendable {
  /// The range of times accepted, s since 1970: a bound on the epoch and
  /// day arithmetic downstream.
  public static let earliest = -1e10
  public static let latest = 1e11

  /// Parser threads for one file at most: a parser needs about 1.1 s of
  /// CPU per GB of rows and the slowest of the serial analysis stages
  /// (the count filter) about 0.4 s (perf, BENCHMARKS.md), so a fifth
  /// parser could only wait, while each one more holds runs in memory.
  public static let maximumWorkers = 4

  public var map: AccelColumnMap
  public var timeZone: TimeZone?
  public var workers: Int
  public var chunkBytes: Int
  /// Fill an ActiGraph's idle-sleep gaps with its last sample (see
  /// `DeviceReadOptions.fillIdleSleep`; on by default, as ActiLife).
  public var fillIdleSleep = true

  public init(
    map: AccelColumnMap = AccelColumnMap(), timeZone: TimeZone? = nil,
    workers: Int = ProcessInfo.processInfo.activeProcessorCount, chunkBytes: Int = 2 << 20
  ) {
    self.map = map
    self.timeZone = timeZone
    self.workers = max(1, min(workers, Self.maximumWorkers))
    self.chunkBytes = chunkBytes
  }

  /// Reads `path`: `onLayout` hears the detected dialect before any row,
  /// `onBlock` gets the rows in order, and `progress` the bytes read so far
  /// after each chunk.
  public func read(
    path: String, progress: ((Int) -> Void)? = nil, onLayout: (AccelLayout) throws -> Void = { _ in },
    onBlock: (AccelBlock) throws -> Void
  ) throws -> AccelFileInfo {
    if let device = map.format?.deviceFormat ?? DeviceFileReader.format(ofFileAt: path)
      ?? DeviceFileFormat.claimed(byName: path)
    {
      return try readDevice(
        path: path, format: device, progress: progress, onLayout: onLayout, onBlock: onBlock)
    }
    let chunks = try LineChunks(path: path)
    // A plain regular file is mapped and each parser thread finds and
    // reads its own run of lines; gzip, pipes and devices are read here.
    let mapped = chunks.compressed ? nil : MappedText(path: path)
    return try read(chunks: chunks, mapped: mapped, progress: progress, onLayout: onLayout, onBlock: onBlock)
  }

  /// Reads from any chunk source (a file, or bytes in memory).
  public func read(
    chunks: LineChunks, progress: ((Int) -> Void)? = nil, onLayout: (AccelLayout) throws -> Void = { _ in },
    onBlock: (AccelBlock) throws -> Void
  ) throws -> AccelFileInfo {
    try read(chunks: chunks, mapped: nil, progress: progress, onLayout: onLayout, onBlock: onBlock)
  }

  /// Detects the layout from the head of `chunks`, then parses the rows
  /// from `mapped` when given (the same file), else from `chunks`.
  func read(
    chunks: LineChunks, mapped: MappedText?, progress: ((Int) -> Void)?,
    onLayout: (AccelLayout) throws -> Void, onBlock: (AccelBlock) throws -> Void
  ) throws -> AccelFileInfo {
    let path = chunks.path
    guard var first = try chunks.next(size: chunkBytes) else {
      throw InputError(
        .empty,
        SourceLocation(file: path, line: 1), "empty file",
        expected: "an accelerometer CSV with at least one row")
    }
    // Detection needs the header block and a data row or two.
    do {
      while first.lazy.filter({ $0 == 0x0A }).count < 16, let more = try chunks.next(size: chunkBytes) {
        first += more
      }
    } catch let error as InputError where error.location.line == nil {
      throw InputError(
        error.kind,
        SourceLocation(file: path, line: first.lazy.filter { $0 == 0x0A }.count + 1), error.problem,
        expected: error.expected)
    }
    var layout = try AccelDetector(map: map, timeZone: timeZone).detect(head: first, file: path)
    try onLayout(layout)
    let zone = timeZone ?? layout.timeZone
    let parser = AccelRowParser(layout: layout, timeZone: zone)
    var order = OrderCheck(file: path)
    var diagnostics = layout.diagnostics
    var implicitRows = 0
    var lineBase = 0
    var rows = 0
    var blankLines = 0
    var firstBlank: Int?
    var truncated: Int?
    var localTimes = false

    func consume(_ taken: consuming ParsedRows) throws {
      var parsed = taken
      if let e = parsed.error {
        throw InputError(
          e.kind,
          SourceLocation(file: path, line: lineBase + e.line + 1, column: e.column > 0 ? e.column : nil),
          e.problem,
          expected: e.expected)
      }
      if let t = parsed.truncatedLine { truncated = lineBase + t + 1 }
      if parsed.blankLines > 0 {
        blankLines += parsed.blankLines
        if firstBlank == nil, let b = parsed.firstBlankLine { firstBlank = lineBase + b + 1 }
      }
      localTimes = localTimes || parsed.sawLocalTime
      // Moved, not shared: the order check then edits the rows in place
      // instead of copying them.
      var block = AccelBlock(time: [], values: [])
      swap(&block.time, &parsed.time)
      swap(&block.values, &parsed.values)
      if case .implicit(let start, let period) = layout.time {
        for i in block.time.indices { block.time[i] = start + Double(implicitRows + i) * period }
        implicitRows += block.count
      }
      for (i, t) in block.time.enumerated() where !(t > Self.earliest && t < Self.latest) {
        throw InputError(
          .value,
          SourceLocation(file: path, line: lineBase + Int(parsed.lineOffsets[i]) + 1),
          "time \(Fixed.shortest(t)) s since 1970 is out of range",
          expected: "a time between the years 1653 and 5138 (-1e10 to 1e11 s since 1970)")
      }
      if case .implicit = layout.time {
      } else {
        order.filter(&block, lineOffsets: parsed.lineOffsets, lineBase: lineBase)
      }
      lineBase += parsed.lines
      rows += block.count
      if block.count > 0 { try onBlock(block) }
    }

    // Parse ahead on `workers` threads; consume in order on this one.
    final class Slot: Sendable {
      let done = DispatchSemaphore(value: 0)
      let rows = Mutex<ParsedRows?>(nil)
      /// The parsed rows, once a worker has signalled them.
      func take() -> ParsedRows {
        done.wait()
        // Signalled after the rows were put.
        return rows.withLock { $0.take() } ?? ParsedRows()
      }
    }
    func consumeAll(_ slots: [Slot]) throws {
      for s in slots { try consume(s.take()) }
    }
    /// The reader's report once every row is in.
    func summary(bytes: Int, compressed: Bool) throws -> AccelFileInfo {
      guard rows > 0 || truncated != nil else {
        throw InputError(
          .empty,
          SourceLocation(file: path, line: lineBase + 1), "no data rows", expected: "rows after the header")
      }
      if let truncated {
        diagnostics.append(
          Diagnostic(
            code: "truncated-last-line",
            message: "the last line is cut off and cannot be read; it was dropped",
            location: "\(path):\(truncated)"))
      }
      if let firstBlank {
        diagnostics.append(
          Diagnostic(
            code: "blank-lines", severity: .note, message: "\(blankLines) blank line(s) skipped",
            location: "\(path):\(firstBlank)"))
      }
      diagnostics += order.diagnostics()
      if localTimes && zone == nil && !diagnostics.contains(where: { $0.code == "local-time-as-utc" }) {
        diagnostics.append(
          Diagnostic(
            code: "local-time-as-utc", severity: .note,
            message: "times carry no offset and no time zone was given; read as UTC", location: path,
            remedy: Remedy(.timeZone)))
      }
      layout.diagnostics = []
      return AccelFileInfo(
        layout: layout, rows: rows, lines: lineBase, bytes: bytes, compressed: compressed,
        diagnostics: diagnostics)
    }

    let queue = DispatchQueue(label: "energylab.accel.parse", attributes: .concurrent)
    if let mapped, let origin = Self.end(ofLines: layout.headerLines, in: first) {
      // Runs of about `chunkBytes` after the header, each found, parsed
      // and handed back by a worker; the rows come back here in order.
      lineBase = layout.headerLines
      let size = mapped.count
      let limit = LineChunks.defaultMaximumLineBytes
      var pending: [(slot: Slot, to: Int)] = []
      var from = origin
      var released = 0
      while from < size {
        let to = min(size, from + chunkBytes)
        let slot = Slot()
        let start = from
        let work: @Sendable () -> Void = {
          let (range, longLine) = mapped.run(from: start, to: to, origin: origin, maximumLineBytes: limit)
          var parsed = parser.parse(
            UnsafeBufferPointer(rebasing: mapped.bytes[range]), skipLines: 0, isLast: range.upperBound == size
          )
          if longLine != nil && parsed.error == nil {
            parsed.error = (
              .malformed, parsed.lines, 0, "a line longer than \(limit) bytes",
              "lines of at most \(limit) bytes (the reader's limit)"
            )
          }
          slot.rows.withLock { $0 = parsed }
          slot.done.signal()
        }
        if workers == 1 { work() } else { queue.async(execute: work) }
        pending.append((slot, to))
        while pending.count >= workers + 2 {
          let next = pending.removeFirst()
          try consume(next.slot.take())
          progress?(next.to)
          // Every run before this one's end is done with; the runs in
          // flight read from `next.to - 1` on. Handing pages back here, in
          // order, also drops those a fault near a boundary mapped again.
          mapped.release(released..<(next.to - 1))
          released = next.to - 1
        }
        from = to
      }
      try consumeAll(pending.map(\.slot))
      progress?(size)
      return try summary(bytes: size, compressed: false)
    }
    var pending: [Slot] = []
    var chunk: [UInt8]? = first
    var skip = layout.headerLines
    while let current = chunk {
      let next: [UInt8]?
      do {
        next = try chunks.next(size: chunkBytes)
      } catch let error as InputError where error.location.line == nil {
        // Name the line: every line before it has been handed out.
        try consumeAll(pending)
        try consume(parser.parse(current, skipLines: skip, isLast: false))
        throw InputError(
          error.kind,
          SourceLocation(file: path, line: lineBase + 1), error.problem, expected: error.expected)
      }
      let slot = Slot()
      let skipLines = skip
      let isLast = next == nil
      let work: @Sendable () -> Void = {
        let parsed = parser.parse(current, skipLines: skipLines, isLast: isLast)
        slot.rows.withLock { $0 = parsed }
        slot.done.signal()
      }
      if workers == 1 { work() } else { queue.async(execute: work) }
      pending.append(slot)
      skip = 0
      // Two chunks queued beyond the workers keep them busy while this
      // thread consumes; memory stays a few chunks whatever the file size.
      while pending.count >= workers + 2 {
        try consume(pending.removeFirst().take())
        progress?(chunks.bytesRead)
      }
      chunk = next
    }
    try consumeAll(pending)
    progress?(chunks.bytesRead)
    return try summary(bytes: chunks.bytesRead, compressed: chunks.compressed)
  }

  /// Reads a device's binary file (CWA, GENEActiv .bin, GT3X) as rows
  /// of time, x, y, z in g, with the layout such a CSV export would have.
  func readDevice(
    path: String, format: DeviceFileFormat, progress: ((Int) -> Void)?,
    onLayout: (AccelLayout) throws -> Void,
    onBlock: (AccelBlock) throws -> Void
  ) throws -> AccelFileInfo {
    func layout(_ header: DeviceFileHeader) -> AccelLayout {
      var names = ["time", "x", "y", "z"]
      if header.hasTemperature { names.append("temperature") }
      return AccelLayout(
        format: format.accelFormat, kind: .raw, delimiter: 0x2C, headerLines: 0, columnCount: names.count,
        columnNames: names, time: .number(column: 0, scale: 1, start: 0), valueColumns: [1, 2, 3], scale: 1,
        unit: .g, declaredRateHz: header.sampleRateHz, absoluteTime: true, metadata: header.metadata,
        diagnostics: [], timeZone: header.timeZone)
    }
    let summary = try DeviceFileReader.read(
      path: path, format: format,
      options: DeviceReadOptions(timeZone: timeZone, fillIdleSleep: fillIdleSleep),
      progress: progress, onHeader: { try onLayout(layout($0)) }, onBlock: onBlock)
    return AccelFileInfo(
      layout: layout(summary.header), rows: summary.samples, lines: 0, bytes: summary.bytes,
      compressed: false,
      diagnostics: summary.diagnostics)
  }

  /// The offset just after the `lines`-th line break of `text`; nil when
  /// it has fewer.
  static func end(ofLines lines: Int, in text: [UInt8]) -> Int? {
    var offset = 0
    for _ in 0..<lines {
      guard let k = text[offset...].firstIndex(of: 0x0A) else { return nil }
      offset = k + 1
    }
    return offset
  }
}

/// Drops rows whose time repeats or goes back, remembering where.
private struct OrderCheck {
  let file: String
  var last = -Double.infinity
  var repeated = 0
  var firstRepeated: Int?
  var backwards = 0
  var firstBackwards: Int?
  var largestStepBack = 0.0

  init(file: String) { self.file = file }

  mutating func filter(_ block: inout AccelBlock, lineOffsets: [Int32], lineBase: Int) {
    var keep = 0
    let n = block.count
    let width = block.values.count / max(n, 1)
    var dropped = false
    for i in 0..<n {
      let t = block.time[i]
      if t > last {
        if dropped {
          block.time[keep] = t
          for k in 0..<width { block.values[keep * width + k] = block.values[i * width + k] }
        }
        keep += 1
        last = t
        continue
      }
      dropped = true
      let line = lineBase + Int(lineOffsets[i]) + 1
      if t == last {
        repeated += 1
        if firstRepeated == nil { firstRepeated = line }
      } else {
        backwards += 1
        if firstBackwards == nil { firstBackwards = line }
        largestStepBack = max(largestStepBack, last - t)
      }
    }
    if dropped {
      block.time.removeLast(n - keep)
      block.values.removeLast((n - keep) * width)
    }
  }

  func diagnostics() -> [Diagnostic] {
    var out: [Diagnostic] = []
    if let line = firstRepeated {
      out.append(
        Diagnostic(
          code: "time-repeated", message: "\(repeated) row(s) repeat the time of the row before; dropped",
          location: "\(file):\(line)"))
    }
    if let line = firstBackwards {
      out.append(
        Diagnostic(
          code: "time-backwards",
          message:
            "\(backwards) row(s) go back in time (by up to \(Fixed.shortest((largestStepBack * 1000).rounded() / 1000)) s); dropped",
          location: "\(file):\(line)"))
    }
    return out
  }
}
