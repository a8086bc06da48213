import EnergyLabCore
import Foundation

/// Detects an accelerometer file's dialect from its first lines, with the
/// user's column map taking precedence over every guess.
public struct AccelDetector {
  public var map: AccelColumnMap
  public var timeZone: TimeZone?

  public init(map: AccelColumnMap = AccelColumnMap(), timeZone: TimeZone? = nil) {
    self.map = map
    self.timeZone = timeZone
  }

  /// Lines examined for detection.
  static let headLines = 64

  /// The UTF-16 form of `bytes`, in words, when they are UTF-16 text: a
  /// byte-order mark, or (without one) a zero byte in every other place of
  /// the first characters, as ASCII text in UTF-16 has; nil otherwise.
  static func utf16(_ bytes: ArraySlice<UInt8>) -> String? {
    let b = Array(bytes.prefix(512))
    if b.starts(with: [0xFF, 0xFE]) && !b.starts(with: [0xFF, 0xFE, 0, 0]) {
      return "little-endian, with a byte-order mark"
    }
    if b.starts(with: [0xFE, 0xFF]) { return "big-endian, with a byte-order mark" }
    let pairs = b.count / 2
    guard pairs >= 4 else { return nil }
    var zeroHigh = 0
    var zeroLow = 0
    for k in 0..<pairs {
      let (first, second) = (b[2 * k], b[2 * k + 1])
      if first != 0 && second == 0 { zeroHigh += 1 }
      if first == 0 && second != 0 { zeroLow += 1 }
    }
    if zeroHigh * 10 >= pairs * 9 { return "little-endian, without a byte-order mark" }
    if zeroLow * 10 >= pairs * 9 { return "big-endian, without a byte-order mark" }
    return nil
  }
  /// The highest sample rate accepted, Hz.
  public static let maximumRateHz = 10_000.0

  public func detect(head: [UInt8], file: String) throws -> AccelLayout {
    // Text has no NUL and few control bytes; anything else is not a CSV.
    let sample = head.prefix(4096)
    if let utf16 = Self.utf16(sample) {
      throw InputError(
        .encoding, SourceLocation(file: file, line: 1), "UTF-16 text (\(utf16)), not UTF-8",
        expected:
          "a UTF-8 CSV file (AndroSensor and Windows programs can write UTF-16; save or convert it as UTF-8, e.g. iconv -f UTF-16 -t UTF-8)"
      )
    }
    let control = sample.filter { $0 < 0x20 && $0 != 0x09 && $0 != 0x0A && $0 != 0x0D || $0 == 0x7F }.count
    if sample.contains(0) || control * 100 > sample.count {
      throw InputError(
        .encoding,
        SourceLocation(file: file, line: 1), "binary data, not text",
        expected: "a CSV text file (plain or gzipped)")
    }
    var lines: [String] = []
    var lineStart = 0
    var bytes = head[...]
    if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
    lineStart = bytes.startIndex
    for i in bytes.indices where bytes[i] == 0x0A {
      lines.append(Self.text(head[lineStart..<i]))
      lineStart = i + 1
      if lines.count == Self.headLines { break }
    }
    if lines.count < Self.headLines && lineStart < head.endIndex {
      lines.append(Self.text(head[lineStart...]))
    }
    while let last = lines.last, last.isEmpty { lines.removeLast() }
    guard !lines.isEmpty else {
      throw InputError(
        .empty,
        SourceLocation(file: file, line: 1), "empty file",
        expected: "an accelerometer CSV with at least one row")
    }
    // Decimal commas: the dialects are detected on the lines as a
    // decimal-point file would write them, and the reader told.
    guard let commaAt = try Self.decimalCommaRows(lines, file) else {
      return try detectDialect(lines, bytes, file)
    }
    for i in commaAt.indices { lines[i] = lines[i].replacingOccurrences(of: ",", with: ".") }
    var layout = try detectDialect(lines, bytes, file)
    layout.decimalSeparator = 0x2C
    layout.diagnostics.append(
      Diagnostic(
        code: "decimal-comma", severity: .note,
        message:
          "numbers are written with a decimal comma (fields separated by \"\(Character(Unicode.Scalar(layout.delimiter)))\"); read as such",
        location: "\(file):\(commaAt.lowerBound + 1)"))
    return layout
  }

  private func detectDialect(_ lines: [String], _ bytes: ArraySlice<UInt8>, _ file: String) throws
    -> AccelLayout
  {
    if map.format == .actigraphRaw || map.format == .actigraphCounts
      || (map.format == nil && lines[0].hasPrefix("-") && lines[0].lowercased().contains("actigraph"))
    {
      return try actiGraph(lines, file)
    }
    if map.format == .ukBiobankEpoch
      || (map.format == nil && lines[0].lowercased().hasPrefix("acceleration (mg)"))
    {
      return try ukBiobank(lines, file)
    }
    if map.format == .empaticaE4 || (map.format == nil && Self.empaticaHeader(lines) != nil) {
      return try empatica(lines, file)
    }
    if map.format == nil, let problem = Self.empaticaProblem(lines, file) {
      throw problem
    }
    if map.format == .geneactiv || (map.format == nil && lines[0].hasPrefix("Device Type,GENEActiv")) {
      return try geneActiv(bytes, file)
    }
    return try columns(lines, file)
  }

  static func text(_ bytes: ArraySlice<UInt8>) -> String {
    var s = String(decoding: bytes, as: UTF8.self)
    if s.hasSuffix("\r") { s.removeLast() }
    return s
  }

  /// Text fit for an error message: at most 60 characters, control
  /// characters and undecodable bytes shown as `?`.
  static func printable(_ text: String) -> String {
    let cleaned = String(
      text.unicodeScalars.map {
        $0.value < 0x20 || $0.value == 0x7F || $0 == "\u{FFFD}" ? "?" : Character($0)
      })
    return cleaned.count > 60 ? String(cleaned.prefix(60)) + "..." : cleaned
  }

  // MARK: ActiGraph

  private func actiGraph(_ lines: [String], _ file: String) throws -> AccelLayout {
    var metadata: [String: String] = [:]
    var diagnostics: [Diagnostic] = []
    let first = lines[0]
    func after(_ marker: String, in line: String) -> String? {
      guard let r = line.range(of: marker) else { return nil }
      // Exports often pad header lines with the delimiter: `Start Time 10:00:00,,,`.
      return line[r.upperBound...].trimmingCharacters(in: CharacterSet(charactersIn: " \t,;\""))
    }
    var rate: Double?
    if let r = first.range(of: #" at (\d+(\.\d+)?) Hz"#, options: .regularExpression) {
      rate = Double(first[r].dropFirst(4).dropLast(3))
    }
    var order = map.dateOrder
    if order == nil, let f = after("date format ", in: first)?.split(separator: " ").first {
      order = DateOrder(pattern: String(f))
      metadata["date_format"] = String(f)
    }
    let dateOrder: DateOrder
    if let order {
      dateOrder = order
    } else {
      dateOrder = .mdy
      diagnostics.append(
        Diagnostic(
          code: "date-format-assumed", severity: .note,
          message: "the ActiLife header names no date format; read as M/d/yyyy",
          location: "\(file):1", remedy: Remedy(.dateOrder)))
    }
    if let r = first.range(of: "By ActiGraph ", options: .caseInsensitive) {
      metadata["device"] = String(first[r.upperBound...].prefix { $0 != " " })
    }
    var startTime: String?
    var startDate: String?
    var epoch: Double?
    var dashes: Int?
    for (n, line) in lines.enumerated().dropFirst() {
      if line.hasPrefix("-----") {
        dashes = n
        break
      }
      if let v = after("Serial Number:", in: line) { metadata["serial_number"] = v }
      if let v = after("Start Time", in: line) { startTime = v }
      if let v = after("Start Date", in: line) { startDate = v }
      if let v = after("Epoch Period (hh:mm:ss)", in: line) {
        let parts = v.split(separator: ":").compactMap { Double($0) }
        guard parts.count == 3 else {
          throw InputError(
            .value,
            SourceLocation(file: file, line: n + 1), "epoch period \"\(v)\"", expected: "hh:mm:ss")
        }
        epoch = parts[0] * 3600 + parts[1] * 60 + parts[2]
      }
    }
    guard let dashes else {
      throw InputError(
        .malformed,
        SourceLocation(file: file, line: min(lines.count, 10)), "ActiLife header block not closed",
        expected: "a line of dashes after the header")
    }
    guard let startDate, let startTime else {
      throw InputError(
        .malformed,
        SourceLocation(file: file, line: 2), "ActiLife header without Start Date or Start Time",
        expected: "\"Start Time hh:mm:ss\" and \"Start Date\" lines")
    }
    var scanner = DateTimeScanner(order: dateOrder, timeZone: timeZone)
    guard let start = Self.parse(&scanner, startDate + " " + startTime) else {
      throw InputError(
        .value,
        SourceLocation(file: file, line: 3), "start \"\(startDate) \(startTime)\"",
        expected: "a start date in \(order!.rawValue) order and a time hh:mm:ss")
    }
    metadata["start"] = ISO8601.formatUTC(start)
    let isCounts = map.format == .actigraphCounts || (map.format == nil && (epoch ?? 0) > 0)
    var headerLines = dashes + 1
    guard headerLines < lines.count else {
      throw InputError(
        .empty,
        SourceLocation(file: file, line: headerLines + 1), "no data after the ActiLife header",
        expected: "data rows")
    }
    let delimiter = Self.delimiter(lines[headerLines])
    var names: [String] = []
    if Self.isHeader(lines[headerLines], delimiter) {
      names = Self.split(lines[headerLines], delimiter)
      headerLines += 1
    }
    guard headerLines < lines.count else {
      throw InputError(
        .empty,
        SourceLocation(file: file, line: headerLines + 1), "no data rows", expected: "data rows")
    }
    let firstRow = Self.split(lines[headerLines], delimiter)
    let keys = names.map(Self.key)
    func column(_ candidates: [String]) -> Int? { keys.firstIndex { candidates.contains($0) } }
    if isCounts {
      let period = epoch ?? 60
      guard period > 0 else {
        throw InputError(
          .value,
          SourceLocation(file: file, line: 5), "epoch period 00:00:00 in a file of counts",
          expected: "an epoch period of at least 1 s")
      }
      var time = AccelTimeSource.implicit(start: start, period: period)
      var axes: [Int]
      var steps: Int?
      var vm: Int?
      if !names.isEmpty {
        guard let a1 = column(["axis1"]) else {
          throw InputError(
            .malformed,
            SourceLocation(file: file, line: headerLines), "no Axis1 column",
            expected: "Axis1, Axis2, Axis3 columns")
        }
        axes = [a1, column(["axis2"]) ?? -1, column(["axis3"]) ?? -1]
        steps = column(["steps"])
        vm = column(["vectormagnitude", "vm"])
        if let d = column(["date"]), let t = column(["time", "epoch"]) {
          time = .dateAndTime(date: d, time: t, order: dateOrder)
        } else if let t = column(["timestamp", "datetime"]) {
          time = .dateTime(column: t, order: dateOrder)
        }
      } else {
        var offset = 0
        if firstRow.count >= 2, Self.parse(&scanner, firstRow[0] + " " + firstRow[1]) != nil {
          time = .dateAndTime(date: 0, time: 1, order: dateOrder)
          offset = 2
        }
        let left = firstRow.count - offset
        axes = [offset, left >= 2 ? offset + 1 : -1, left >= 3 ? offset + 2 : -1]
        steps = left >= 4 ? offset + 3 : nil
      }
      if case .implicit = time { diagnostics += Self.headerStartIsLocal(timeZone, file) }
      return AccelLayout(
        format: .actigraphCounts, kind: .counts, delimiter: delimiter, headerLines: headerLines,
        columnCount: names.isEmpty ? firstRow.count : names.count, columnNames: names, time: time,
        valueColumns: axes + [steps ?? -1, vm ?? -1], scale: 1, unit: nil, declaredRateHz: 1 / period,
        absoluteTime: true, metadata: metadata, diagnostics: diagnostics)
    }
    guard let rate = map.sampleRateHz ?? rate, rate > 0, rate <= Self.maximumRateHz else {
      throw InputError(
        .malformed,
        SourceLocation(file: file, line: 1), "ActiLife raw header without a usable \"at N Hz\"",
        expected: "a sample rate of at most \(Int(Self.maximumRateHz)) Hz in the first line",
        remedy: Remedy(.sampleRate))
    }
    var time = AccelTimeSource.implicit(start: start, period: 1 / rate)
    var axes = [0, 1, 2]
    if !names.isEmpty {
      guard let x = column(["accelerometerx", "x", "axisx"]),
        let y = column(["accelerometery", "y", "axisy"]),
        let z = column(["accelerometerz", "z", "axisz"])
      else {
        throw InputError(
          .malformed,
          SourceLocation(file: file, line: headerLines), "no Accelerometer X, Y and Z columns",
          expected: "Accelerometer X, Accelerometer Y, Accelerometer Z")
      }
      axes = [x, y, z]
      if let t = column(["timestamp", "datetime", "time"]) { time = .dateTime(column: t, order: dateOrder) }
    } else if firstRow.count >= 4, Self.parse(&scanner, firstRow[0]) != nil {
      time = .dateTime(column: 0, order: dateOrder)
      axes = [1, 2, 3]
    }
    if case .implicit = time { diagnostics += Self.headerStartIsLocal(timeZone, file) }
    return AccelLayout(
      format: .actigraphRaw, kind: .raw, delimiter: delimiter, headerLines: headerLines,
      columnCount: names.isEmpty ? firstRow.count : names.count, columnNames: names, time: time,
      valueColumns: axes, scale: (map.unit ?? .g).toG, unit: map.unit ?? .g, declaredRateHz: rate,
      absoluteTime: true, metadata: metadata, diagnostics: diagnostics)
  }

  /// Times counted from an ActiLife header's start are local.
  static func headerStartIsLocal(_ timeZone: TimeZone?, _ file: String) -> [Diagnostic] {
    guard timeZone == nil else { return [] }
    return [
      Diagnostic(
        code: "local-time-as-utc", severity: .note,
        message: "ActiLife start times are local and no time zone was given; read as UTC",
        location: file, remedy: Remedy(.timeZone))
    ]
  }

  // MARK: GENEActiv

  /// Lines a GENEActiv header may take before the first data row.
  static let geneActivHeaderLimit = 200

  private func geneActiv(_ head: ArraySlice<UInt8>, _ file: String) throws -> AccelLayout {
    var lines: [String] = []
    var lineStart = head.startIndex
    for i in head.indices where head[i] == 0x0A {
      lines.append(Self.text(head[lineStart..<i]))
      lineStart = i + 1
      if lines.count > Self.geneActivHeaderLimit { break }
    }
    // The first data row starts with a digit (its date); the header's
    // lines are `key,value` or empty.
    guard let dataAt = lines.firstIndex(where: { $0.first?.isNumber == true }) else {
      throw InputError(
        .malformed,
        SourceLocation(file: file, line: min(lines.count, Self.geneActivHeaderLimit)),
        "no data row after the GENEActiv header",
        expected: "rows of time, x, y, z, lux, button, temperature within \(Self.geneActivHeaderLimit) lines")
    }
    var header: [String: String] = [:]
    var units: [String] = []
    for line in lines[..<dataAt] {
      guard let comma = line.firstIndex(of: ",") else { continue }
      let key = line[..<comma].trimmingCharacters(in: .whitespaces)
      let value = line[line.index(after: comma)...].trimmingCharacters(in: .whitespaces)
      if key == "Units" { units.append(value) } else if header[key] == nil { header[key] = value }
    }
    var metadata: [String: String] = ["device": "GENEActiv"]
    if let serial = header["Device Unique Serial Code"], !serial.isEmpty {
      metadata["serial_number"] = serial
    }
    if let location = header["Device Location Code"], !location.isEmpty { metadata["location"] = location }
    // The accelerometer's three units come first; anything but g would be
    // read 9.8 times too large or small.
    guard units.count < 3 || units.prefix(3).allSatisfy({ $0 == "g" }) else {
      throw InputError(
        .value,
        SourceLocation(file: file, line: 1), "accelerometer units \(units.prefix(3).joined(separator: ", "))",
        expected: "g, as GENEActiv writes them")
    }
    var rate: Double?
    if let text = header["Measurement Frequency"] {
      rate = Double(text.split(separator: " ").first ?? "")
      guard let r = rate, r > 0, r <= Self.maximumRateHz else {
        throw InputError(
          .value,
          SourceLocation(
            file: file, line: (lines.firstIndex { $0.hasPrefix("Measurement Frequency") } ?? 0) + 1),
          "measurement frequency \"\(Self.printable(text))\"",
          expected: "N Hz, at most \(Int(Self.maximumRateHz))")
      }
    }
    var diagnostics: [Diagnostic] = []
    var zone: TimeZone?
    if let text = header["Time Zone"], !text.isEmpty, timeZone == nil || Self.gmtOffset(text) != nil {
      guard let offset = Self.gmtOffset(text) else {
        throw InputError(
          .value,
          SourceLocation(file: file, line: (lines.firstIndex { $0.hasPrefix("Time Zone") } ?? 0) + 1),
          "time zone \"\(Self.printable(text))\"", expected: "GMT +hh:mm", remedy: Remedy(.timeZone))
      }
      metadata["time_zone"] = text
      zone = TimeZone(secondsFromGMT: offset)
      if timeZone == nil {
        diagnostics.append(
          Diagnostic(
            code: "header-time-zone", severity: .note,
            message: "times read in the header's time zone, \(text)", location: file,
            remedy: Remedy(.timeZone)))
      }
    }
    let row = Self.split(lines[dataAt], 0x2C)
    var scanner = DateTimeScanner(order: .ymd, timeZone: timeZone ?? zone)
    guard row.count >= 4, Self.parse(&scanner, row[0]) != nil, row[1...3].allSatisfy({ Double($0) != nil })
    else {
      throw InputError(
        .malformed,
        SourceLocation(file: file, line: dataAt + 1), "row \"\(Self.printable(lines[dataAt]))\"",
        expected: "time (2021-06-01 09:30:00:000), x, y, z, lux, button, temperature")
    }
    return AccelLayout(
      format: .geneactiv, kind: .raw, delimiter: 0x2C, headerLines: dataAt, columnCount: row.count,
      columnNames: [], time: .dateTime(column: 0, order: .ymd), valueColumns: [1, 2, 3],
      scale: (map.unit ?? .g).toG, unit: map.unit ?? .g,
      declaredRateHz: rate, absoluteTime: true, metadata: metadata, diagnostics: diagnostics, timeZone: zone)
  }

  /// Seconds east of UTC in GENEActiv's `GMT +01:00` (or `GMT -05`).
  static func gmtOffset(_ text: String) -> Int? {
    var rest = text.uppercased().replacingOccurrences(of: " ", with: "")
    if rest.hasPrefix("GMT") || rest.hasPrefix("UTC") { rest.removeFirst(3) }
    if rest.isEmpty { return 0 }
    guard let sign = rest.first, sign == "+" || sign == "-" else { return nil }
    let parts = rest.dropFirst().split(separator: ":", omittingEmptySubsequences: false)
    guard (1...2).contains(parts.count), let hours = Int(parts[0]), (0...14).contains(hours) else {
      return nil
    }
    let minutes = parts.count == 2 ? Int(parts[1]) : 0
    guard let minutes, (0..<60).contains(minutes) else { return nil }
    return (sign == "-" ? -1 : 1) * (hours * 3600 + minutes * 60)
  }

  // MARK: UK Biobank

  /// Empatica's units: 64 to the g (Empatica support, "E4 data - ACC.csv").
  static let empaticaCountsPerG = 64.0

  /// The start (Unix s) and rate (Hz) of an Empatica E4 `ACC.csv`: two
  /// lines of three equal numbers, a time after 2001 and a rate of 1 to
  /// 1000 Hz, then rows of three whole numbers.
  static func empaticaHeader(_ lines: [String]) -> (start: Double, rate: Double)? {
    guard lines.count >= 3 else { return nil }
    let first = split(lines[0], 0x2C).compactMap { Double($0) }
    let second = split(lines[1], 0x2C).compactMap { Double($0) }
    guard first.count == 3, second.count == 3, Set(first).count == 1, Set(second).count == 1,
      first[0] > 1e9, first[0] < 1e11, second[0] >= 1, second[0] <= 1000
    else { return nil }
    let rows = lines.dropFirst(2).prefix(8)
    let whole = rows.dropLast(rows.count > 1 ? 1 : 0).allSatisfy { line in
      let cells = split(line, 0x2C)
      return cells.count == 3 && cells.allSatisfy { Int($0) != nil }
    }
    return whole ? (first[0], second[0]) : nil
  }

  /// What is wrong with the header of a file shaped as an E4 `ACC.csv`
  /// (two lines of three numbers, then rows of three whole numbers) whose
  /// start or rate `empaticaHeader` refuses: the value, its line and what
  /// the E4 writes; nil for a file of another shape.
  static func empaticaProblem(_ lines: [String], _ file: String) -> InputError? {
    guard lines.count >= 3 else { return nil }
    func numbers(_ line: String) -> [Double]? {
      let cells = split(line, 0x2C).map { $0.trimmingCharacters(in: .whitespaces) }
      let values = cells.compactMap { Double($0) }
      return cells.count == 3 && values.count == 3 ? values : nil
    }
    guard let starts = numbers(lines[0]), let rates = numbers(lines[1]) else { return nil }
    let rows = lines.dropFirst(2).prefix(8)
    guard
      rows.dropLast(rows.count > 1 ? 1 : 0).allSatisfy({ line in
        let cells = split(line, 0x2C)
        return cells.count == 3 && cells.allSatisfy { Int($0.trimmingCharacters(in: .whitespaces)) != nil }
      })
    else { return nil }
    func text(_ values: [Double]) -> String { values.map { HumanLimits.text($0) }.joined(separator: ", ") }
    let e4 = "an Empatica E4 ACC.csv"
    if Set(starts.map(\.bitPattern)).count != 1 {
      return InputError(
        .value, SourceLocation(file: file, line: 1), "\(e4) whose start times differ (\(text(starts)))",
        expected: "one start time in Unix seconds, written three times")
    }
    let start = starts[0]
    if !(start > 1e9 && start < 1e11) {
      let hint = start >= 1e11 && start < 1e14 ? " (milliseconds? the E4 writes seconds)" : ""
      return InputError(
        .value, SourceLocation(file: file, line: 1),
        "\(e4) with start time \(HumanLimits.text(start))\(hint)",
        expected: "a Unix time in seconds from 2001 on (1e9 to 1e11)")
    }
    if Set(rates.map(\.bitPattern)).count != 1 {
      return InputError(
        .value, SourceLocation(file: file, line: 2), "\(e4) whose sample rates differ (\(text(rates)))",
        expected: "one rate in Hz, written three times (the E4 writes 32)")
    }
    return InputError(
      .value, SourceLocation(file: file, line: 2), "\(e4) with sample rate \(HumanLimits.text(rates[0])) Hz",
      expected: "a rate of 1 to 1000 Hz (the E4 writes 32)")
  }

  private func empatica(_ lines: [String], _ file: String) throws -> AccelLayout {
    guard let (start, rate) = Self.empaticaHeader(lines) else {
      throw InputError(
        .malformed,
        SourceLocation(file: file, line: 1), "no Empatica E4 header",
        expected:
          "a start time in Unix seconds on line 1 and a sample rate in Hz on line 2, each three times, then x,y,z rows"
      )
    }
    let scale = map.unit?.toG ?? 1 / Self.empaticaCountsPerG
    return AccelLayout(
      format: .empaticaE4, kind: .raw, delimiter: 0x2C, headerLines: 2, columnCount: 3,
      columnNames: ["x", "y", "z"], time: .implicit(start: start, period: 1 / rate), valueColumns: [0, 1, 2],
      scale: scale, unit: map.unit, declaredRateHz: rate, absoluteTime: true,
      metadata: ["start": ISO8601.formatUTC(start), "device": "Empatica E4"], diagnostics: [])
  }

  private func ukBiobank(_ lines: [String], _ file: String) throws -> AccelLayout {
    // acceleration (mg) - 2014-05-07 13:00:00 - 2014-05-14 09:59:55 - sampleRate = 5 seconds,imputed
    let first = lines[0]
    let parts = first.components(separatedBy: " - ")
    var scanner = DateTimeScanner(order: .ymd, timeZone: timeZone)
    guard parts.count >= 4, let start = Self.parse(&scanner, parts[1]),
      let rateText = parts[3].split(separator: "=").last?.split(separator: " ").first,
      let period = Double(rateText.trimmingCharacters(in: .whitespaces)), period > 0
    else {
      throw InputError(
        .malformed,
        SourceLocation(file: file, line: 1), "UK Biobank header \"\(Self.printable(first))\"",
        expected: "acceleration (mg) - START - END - sampleRate = N seconds")
    }
    var diagnostics: [Diagnostic] = []
    if timeZone == nil {
      diagnostics.append(
        Diagnostic(
          code: "local-time-as-utc", severity: .note,
          message: "UK Biobank header times are local and no time zone was given; read as UTC",
          location: file, remedy: Remedy(.timeZone)))
    }
    let columns = lines.count > 1 ? Self.split(lines[1], 0x2C).count : Self.split(first, 0x2C).count
    return AccelLayout(
      format: .ukBiobankEpoch, kind: .enmo, delimiter: 0x2C, headerLines: 1, columnCount: columns,
      columnNames: Self.split(first, 0x2C), time: .implicit(start: start, period: period), valueColumns: [0],
      scale: 1, unit: .milliG, declaredRateHz: 1 / period, absoluteTime: true,
      metadata: ["start": ISO8601.formatUTC(start), "end": parts[2]], diagnostics: diagnostics)
  }

  // MARK: Named or positional columns

  /// The numbers of column `index` in `lines` (cells that are not numbers
  /// left out).
  static func column(_ index: Int, of lines: [String], _ delimiter: UInt8) -> [Double] {
    lines.prefix(50).compactMap { line in
      let cells = split(line, delimiter)
      return index < cells.count
        ? Double(cells[index].trimmingCharacters(in: CharacterSet(charactersIn: "\" "))) : nil
    }
  }

  /// The median of the positive steps between consecutive values.
  static func medianStep(_ values: [Double]) -> Double? {
    let steps = zip(values.dropFirst(), values).map { $0 - $1 }.filter { $0 > 0 }.sorted()
    return steps.isEmpty ? nil : steps[steps.count / 2]
  }

  private func columns(_ lines: [String], _ file: String) throws -> AccelLayout {
    var diagnostics: [Diagnostic] = []
    let delimiter = Self.delimiter(lines[0])
    let hasHeader = Self.isHeader(lines[0], delimiter)
    let names = hasHeader ? Self.split(lines[0], delimiter) : []
    let headerLines = hasHeader ? 1 : 0
    guard headerLines < lines.count else {
      throw InputError(
        .empty,
        SourceLocation(file: file, line: 2), "no data rows after the column names", expected: "data rows")
    }
    let firstRow = Self.split(lines[headerLines], delimiter)
    let keys = names.map(Self.key)
    let columnCount = hasHeader ? names.count : firstRow.count

    func resolve(_ ref: ColumnReference?, _ candidates: [String], _ what: String) throws -> Int? {
      switch ref {
      case .position(let p):
        guard p <= columnCount else {
          throw InputError(
            .malformed,
            SourceLocation(file: file, line: 1), "\(columnCount) columns",
            expected: "a column \(p) for \(what) (as the column map says)")
        }
        return p - 1
      case .name(let n):
        guard let i = names.firstIndex(of: n) ?? keys.firstIndex(of: Self.key(n)) else {
          throw InputError(
            .malformed,
            SourceLocation(file: file, line: 1),
            "no column named \"\(n)\" among \(names.prefix(12).joined(separator: ", "))",
            expected: "a column \"\(n)\" for \(what) (as the column map says)")
        }
        return i
      case nil:
        for c in candidates { if let i = keys.firstIndex(of: c) { return i } }
        return nil
      }
    }
    // phonetimestamp: Polar Sensor Logger (`Phone timestamp;sensor
    // timestamp [ns];X [mg];Y [mg];Z [mg]`), the phone's local date-time.
    let timeCandidates = [
      "time", "timestamp", "datetime", "date", "unixtime", "utc", "loggingtime", "secondselapsed", "elapsed",
      "elapsedtime", "t", "timesincestartinms", "timesincestart", "phonetimestamp",
    ]
    var timeColumn = try resolve(map.time, timeCandidates, "time")
    var axes: [Int] = []
    for (ref, axis) in [(map.x, "x"), (map.y, "y"), (map.z, "z")] {
      // gF: Physics Toolbox's g-force meter (time,gFx,gFy,gFz,TgF);
      // accelerometerAcceleration: SensorLog on iOS and watchOS (with
      // gravity; its motionUserAcceleration columns are without).
      let candidates = [
        "", "a", "acc", "accel", "acceleration", "accelerometer", "linearacceleration", "gf",
        "accelerometeracceleration",
      ]
      .map {
        $0 + axis
      }
      if let i = try resolve(ref, candidates, axis) { axes.append(i) }
    }
    if axes.count < 3 {
      guard !hasHeader || map.x != nil else {
        throw InputError(
          .malformed,
          SourceLocation(file: file, line: 1),
          "no x, y and z columns among \(Self.printable(names.prefix(12).joined(separator: ", ")))",
          expected: "columns named x, y, z (or ax, acc_x, gFx, Acceleration x ...)",
          remedy: Remedy(.axisColumns))
      }
      // Positional: time first when the first cell is a time, then x, y, z.
      let lead = timeColumn ?? (Self.looksLikeTime(firstRow.first ?? "") ? 0 : nil)
      timeColumn = lead
      var start = (lead ?? -1) + 1
      // Android sensor loggers write time, accuracy (0-3), x, y, z.
      if !hasHeader, columnCount >= start + 4,
        Self.column(start, of: lines, delimiter).allSatisfy({ [0, 1, 2, 3].contains($0) })
      {
        diagnostics.append(
          Diagnostic(
            code: "accuracy-column", severity: .note,
            message:
              "column \(start + 1) holds only the integers 0-3 (Android sensor accuracy); x, y, z read from columns \(start + 2)-\(start + 4)",
            location: file))
        start += 1
      }
      guard columnCount >= start + 3 else {
        throw InputError(
          .malformed,
          SourceLocation(file: file, line: headerLines + 1), "\(columnCount) columns",
          expected: "a time column and x, y, z (or a column map)")
      }
      axes = [start, start + 1, start + 2]
    }
    // Time.
    var absolute = true
    let time: AccelTimeSource
    var timeFormatName = "none"
    if let t = timeColumn {
      guard t < firstRow.count else {
        throw InputError(
          .malformed,
          SourceLocation(file: file, line: headerLines + 1), "\(firstRow.count) columns",
          expected: "\(columnCount) columns")
      }
      let cell = firstRow[t].trimmingCharacters(in: CharacterSet(charactersIn: "\" "))
      let key = hasHeader ? keys[t] : ""
      var format = map.timeFormat
      // A header that names milliseconds ("Time since start in ms", "TIME
      // SINCE START (ms)", "time_ms"): elapsed or unix milliseconds, never
      // seconds.
      let header = (names[safe: t] ?? "").lowercased()
      let statesMilliseconds =
        hasHeader
        && (header.contains("(ms)") || header.contains("[ms]") || header.contains(" in ms")
          || header.hasSuffix("_ms") || header.contains("millisecond"))
      if format == nil {
        if key == "secondselapsed" || key == "elapsed" || key == "elapsedtime"
          || names[safe: t]?.hasPrefix("Time (s)") == true
        {
          format = .elapsed
        } else if statesMilliseconds, let v = Double(cell) {
          format = v > 1e11 ? .unixMilliseconds : .elapsedMilliseconds
        } else if let v = Double(cell) {
          // The column's first numbers, for the spacing checks below.
          let values = Self.column(t, of: Array(lines.dropFirst(headerLines)), delimiter)
          let spacing = Self.medianStep(values)
          format =
            v > 1e17
            ? .unixNanoseconds
            : v > 1e14 ? nil : v > 1e11 ? .unixMilliseconds : v > 1e8 ? .unixSeconds : .elapsed
          // A phone's sensor clock counts nanoseconds from boot: large
          // integers whose steps are milliseconds when read as nanoseconds
          // and seconds or more when read any other way.
          if format == nil || format == .unixMilliseconds, let spacing,
            spacing * 1e-9 >= 5e-4, spacing * 1e-9 <= 1, spacing * 1e-3 > 10
          {
            format = .sensorNanoseconds
            diagnostics.append(
              Diagnostic(
                code: "sensor-clock", severity: .note,
                message:
                  "times like \(cell) step by \(Fixed.shortest((spacing * 1e-6 * 100).rounded() / 100)) ms as nanoseconds: read as a phone's sensor clock (nanoseconds since boot; \(Remedy.slot))",
                location: file, remedy: Remedy(.timeFormat, value: "sensor-ns")))
          }
          // Elapsed seconds a second or more apart in whole numbers are
          // more likely milliseconds (10 ms at 100 Hz) than a 1 Hz logger.
          if format == .elapsed, map.timeFormat == nil, let spacing, spacing >= 1,
            values.allSatisfy({ $0 == $0.rounded() })
          {
            diagnostics.append(
              Diagnostic(
                code: "elapsed-seconds-assumed", severity: .warning,
                message:
                  "times like \(cell) step by \(Fixed.shortest(spacing)) and are read as elapsed seconds (\(Fixed.shortest((1 / spacing * 1000).rounded() / 1000)) Hz); if they are milliseconds, give \(Remedy.slot)",
                location: file, remedy: Remedy(.timeFormat, value: "elapsed-ms")))
          }
        } else {
          format = .dateTime
        }
      }
      guard let format else {
        throw InputError(
          .value,
          SourceLocation(file: file, line: headerLines + 1), "time \(cell) (microseconds?)",
          expected: "unix seconds, milliseconds or nanoseconds (or \(Remedy.slot))",
          remedy: Remedy(.timeFormat))
      }
      timeFormatName = format.rawValue
      switch format {
      case .dateTime:
        var order = map.dateOrder ?? .ymd
        if map.dateOrder == nil && cell.contains("/") {
          let parts = cell.split(separator: "/")
          order = (Int(parts.first ?? "") ?? 0) > 12 ? .dmy : .mdy
          diagnostics.append(
            Diagnostic(
              code: "date-order-assumed", severity: .note,
              message: "dates like \(cell) read in \(order.rawValue) order",
              location: "\(file):\(headerLines + 1)", remedy: Remedy(.dateOrder)))
        }
        var scanner = DateTimeScanner(order: order, timeZone: timeZone)
        guard Self.parse(&scanner, cell) != nil else {
          throw InputError(
            .value,
            SourceLocation(file: file, line: headerLines + 1), "time \"\(Self.printable(cell))\"",
            expected: "a date-time such as 2016-05-01 10:00:00.000 (or \(Remedy.slot))",
            remedy: Remedy(.timeFormat))
        }
        if scanner.sawLocalTime && timeZone == nil {
          diagnostics.append(
            Diagnostic(
              code: "local-time-as-utc", severity: .note,
              message: "times carry no offset and no time zone was given; read as UTC",
              location: file, remedy: Remedy(.timeZone)))
        }
        time = .dateTime(column: t, order: order)
      case .unixSeconds: time = .number(column: t, scale: 1, start: 0)
      case .unixMilliseconds: time = .number(column: t, scale: 1e-3, start: 0)
      case .unixNanoseconds: time = .number(column: t, scale: 1e-9, start: 0)
      case .sensorNanoseconds:
        let first = Double(cell) ?? 0
        if map.start == nil {
          absolute = false
          diagnostics.append(
            Diagnostic(
              code: "no-start-time", severity: .warning,
              message:
                "times are a phone's sensor clock (from boot) and no start was given (\(Remedy.slot)); times count from the first sample and no dates are reported",
              location: file, remedy: Remedy(.start)))
        }
        time = .number(column: t, scale: 1e-9, start: (map.start ?? 0) - first * 1e-9)
      case .elapsed, .elapsedMilliseconds:
        let seconds = format == .elapsed
        if map.start == nil {
          absolute = false
          diagnostics.append(
            Diagnostic(
              code: "no-start-time", severity: .warning,
              message:
                "times are elapsed \(seconds ? "seconds" : "milliseconds") and no start was given (\(Remedy.slot)); no dates are reported",
              location: file, remedy: Remedy(.start)))
        }
        time = .number(column: t, scale: seconds ? 1 : 1e-3, start: map.start ?? 0)
      }
    } else {
      guard let rate = map.sampleRateHz else {
        throw InputError(
          .malformed,
          SourceLocation(file: file, line: headerLines + 1), "no time column",
          expected: "a time column, or \(Remedy.slot) for files without one",
          remedy: Remedy(.sampleRate, .start))
      }
      if map.start == nil {
        absolute = false
        diagnostics.append(
          Diagnostic(
            code: "no-start-time", severity: .warning,
            message: "no time column and no \(Remedy.slot); no dates are reported", location: file,
            remedy: Remedy(.start)))
      }
      time = .implicit(start: map.start ?? 0, period: 1 / rate)
    }
    // Units: the user's, the header's, the app's, or the size of gravity.
    var unit = map.unit
    if unit == nil, hasHeader {
      let text = names[axes[0]].lowercased().replacingOccurrences(of: " ", with: "")
      if text.contains("m/s^2") || text.contains("m/s2") || text.contains("m/s²") || text.contains("ms^-2") {
        unit = .metersPerSecondSquared
      } else if text.contains("(mg)") || text.contains("[mg]") {
        unit = .milliG
      } else if text.contains("(g)") || text.contains("[g]") {
        unit = .g
      }
    }
    let isPhone = keys.contains("secondselapsed") || names.contains { $0.hasPrefix("Acceleration x") }
    let magnitudes = lines.dropFirst(headerLines).prefix(50).compactMap { line -> Double? in
      let cells = Self.split(line, delimiter)
      guard axes.allSatisfy({ $0 < cells.count }) else { return nil }
      let v = axes.compactMap {
        Double(cells[$0].trimmingCharacters(in: CharacterSet(charactersIn: "\" ")))
      }
      return v.count == 3 ? (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]).squareRoot() : nil
    }.sorted()
    let median = magnitudes.isEmpty ? 1 : magnitudes[magnitudes.count / 2]
    // Sensor Logger writes m/s2 (its Accelerometer.csv without gravity, so
    // the size of gravity cannot tell), except the uncalibrated
    // accelerometer on iOS, in g: |a| near 1 says so.
    if unit == nil && keys.contains("secondselapsed") {
      unit = (0.5...1.5).contains(median) ? .g : .metersPerSecondSquared
      if unit == .g {
        diagnostics.append(
          Diagnostic(
            code: "unit-inferred", severity: .note,
            message:
              "Sensor Logger writes m/s2, but |a| is \(Fixed.shortest((median * 1000).rounded() / 1000)) as in g (iOS's uncalibrated accelerometer): read as g; use \(Remedy.slot)",
            location: file, remedy: Remedy(.accelerationUnit)))
      }
    }
    let knownUnit: AccelUnit
    if let unit {
      knownUnit = unit
    } else {
      knownUnit = median > 200 ? .milliG : median > 4 ? .metersPerSecondSquared : .g
      diagnostics.append(
        Diagnostic(
          code: "unit-inferred", severity: .note,
          message:
            "acceleration unit not stated; read as \(knownUnit.rawValue) from the size of gravity (median |a| = \(Fixed.shortest((median * 1000).rounded() / 1000))); use \(Remedy.slot)",
          location: file, remedy: Remedy(.accelerationUnit)))
    }
    let format: AccelFormat
    if let f = map.format {
      format = f
    } else if isPhone {
      format = .phone
    } else if !hasHeader && timeColumn == 0 && (columnCount == 4 || columnCount == 7) && knownUnit == .g {
      format = .axivity
    } else {
      format = .generic
    }
    var metadata = ["time_format": timeFormatName]
    if format == .axivity && columnCount == 7 { metadata["gyroscope"] = "columns 5-7 (not used)" }
    return AccelLayout(
      format: format, kind: .raw, delimiter: delimiter, headerLines: headerLines, columnCount: columnCount,
      columnNames: names, time: time, valueColumns: axes, scale: knownUnit.toG, unit: knownUnit,
      declaredRateHz: nil,
      absoluteTime: absolute, metadata: metadata, diagnostics: diagnostics)
  }

  // MARK: Helpers

  static func parse(_ scanner: inout DateTimeScanner, _ text: String) -> Double? {
    var bytes = Array(text.utf8)
    return bytes.withUnsafeMutableBufferPointer { scanner.parse(UnsafeBufferPointer($0)) }
  }

  /// The data lines of a decimal-comma file, from the first to the last
  /// examined: lines separated by semicolons or tabs whose cells are all
  /// numbers once a comma is read as the decimal point (or date-times),
  /// with a comma in at least one (`0,019;-1,22;3,19;7,07`), and one
  /// somewhere that no thousands separator makes (`0,962`, `55,68`; not
  /// only `1,234`). Nil for anything else: with a comma delimiter a
  /// decimal comma cannot be told from one. A later row with a decimal
  /// point (`0.5`) is an error: one of the two ways of writing would be
  /// misread.
  static func decimalCommaRows(_ lines: [String], _ file: String) throws -> Range<Int>? {
    var first: Int?
    var unambiguous = false
    for (i, line) in lines.enumerated() where !line.allSatisfy(\.isWhitespace) {
      // (Blank lines are the reader's to report.) Such a line holds more
      // commas than delimiters: the delimiter is the
      // more frequent of semicolon and tab.
      let semicolons = line.utf8.filter { $0 == 0x3B }.count
      let tabs = line.utf8.filter { $0 == 0x09 }.count
      guard semicolons + tabs > 0 else {
        if first != nil { return nil }
        continue
      }
      let delimiter: UInt8 = semicolons >= tabs ? 0x3B : 0x09
      let cells = split(line, delimiter)
      // Dates and times keep their own separators (`21.08.2020`; a
      // fraction of a second after a comma is read either way).
      let numberCells = cells.filter { !Self.isDateOrTime($0) }
      let commas = numberCells.filter { $0.contains(",") }.count
      let numbers = numberCells.allSatisfy { cell in
        !cell.contains(".") && Double(cell.replacingOccurrences(of: ",", with: ".")) != nil
      }
      if numbers {
        // (A row of whole numbers, `0;0;0`, fits either way.)
        guard commas > 0 else { continue }
        if first == nil { first = i }
        unambiguous = unambiguous || numberCells.contains { $0.contains(",") && !Self.looksGrouped($0) }
      } else if let first, i < lines.count - 1 {  // (the last may be cut off)
        if unambiguous, let point = numberCells.first(where: { $0.contains(".") && Double($0) != nil }) {
          throw InputError(
            .value, SourceLocation(file: file, line: i + 1),
            "\"\(printable(point))\" has a decimal point where line \(first + 1) and on write decimal commas",
            expected: "numbers written one way: all with decimal commas or all with points")
        }
        return nil
      }
    }
    return unambiguous ? first.map { $0..<lines.count } : nil
  }

  /// A time (`10:00:00`, with or without a date) or a date of three
  /// runs of digits (`5/7/2014`, `21.08.2020`, `2020-08-21`).
  static func isDateOrTime(_ cell: String) -> Bool {
    if cell.contains(":") { return true }
    let parts = cell.split(omittingEmptySubsequences: false) { $0 == "/" || $0 == "." || $0 == "-" }
    return parts.count == 3
      && parts.allSatisfy {
        (1...4).contains($0.count) && $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber)
      }
  }

  /// Whether a cell could be a number with thousands separators (`1,234`,
  /// `-12,345,678`), which a decimal-comma reading would take for 1.234.
  static func looksGrouped(_ cell: String) -> Bool {
    let groups = (cell.hasPrefix("-") ? cell.dropFirst() : Substring(cell)).split(
      separator: ",", omittingEmptySubsequences: false)
    guard groups.count >= 2, let lead = groups.first, (1...3).contains(lead.count), lead.first != "0" else {
      return false
    }
    return groups.dropFirst().allSatisfy { $0.count == 3 }
  }

  static func looksLikeTime(_ cell: String) -> Bool {
    let c = cell.trimmingCharacters(in: CharacterSet(charactersIn: "\" "))
    if let v = Double(c) { return v > 1e8 }
    return c.contains(":")
  }

  /// The delimiter of a line: the most frequent of comma, semicolon and tab.
  static func delimiter(_ line: String) -> UInt8 {
    let counts = [0x2C, 0x3B, 0x09].map { d in (UInt8(d), line.utf8.filter { $0 == d }.count) }
    let best = counts.max { $0.1 < $1.1 }!
    return best.1 > 0 ? best.0 : 0x2C
  }

  static func split(_ line: String, _ delimiter: UInt8) -> [String] {
    line.utf8.split(separator: delimiter, omittingEmptySubsequences: false).map {
      String(decoding: $0, as: UTF8.self).trimmingCharacters(in: CharacterSet(charactersIn: "\" \r"))
    }
  }

  /// A line of names: some cell is neither a number nor a date-time.
  static func isHeader(_ line: String, _ delimiter: UInt8) -> Bool {
    split(line, delimiter).contains { cell in
      !cell.isEmpty && Double(cell) == nil && !looksLikeTime(cell) && cell.lowercased() != "nan"
    }
  }

  /// A column name reduced to lower-case letters and digits, without a
  /// trailing unit in brackets: `Acceleration x (m/s^2)` -> `accelerationx`.
  static func key(_ name: String) -> String {
    var n = name.lowercased()
    if let r = n.firstIndex(where: { $0 == "(" || $0 == "[" }) { n = String(n[..<r]) }
    return String(n.filter { $0.isLetter || $0.isNumber })
  }
}

extension Array {
  fileprivate subscript(safe index: Int) -> Element? { indices.contains(index) ? self[index] : nil }
}
