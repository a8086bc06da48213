import EnergyLabCore
import Foundation

/// One breath (or one row) of measured energy expenditure, in the time base
/// of its `MeasuredExpenditure` (see `timesAreAbsolute`).
public struct MeasuredSample: Sendable, Hashable {
  /// Seconds since the start of the test, or since 1970-01-01T00:00:00Z
  /// when the recording's `timesAreAbsolute`.
  public var timeSeconds: Double
  /// Energy expenditure rate, kcal/min; nil when the row does not give it.
  public var energyKilocaloriesPerMinute: Double?
  /// Oxygen uptake, mL/min.
  public var vo2MillilitersPerMinute: Double?
  /// Carbon dioxide output, mL/min.
  public var vco2MillilitersPerMinute: Double?
  /// Heart rate, beats/min; nil during a chest-strap dropout that was not
  /// filled (never 0).
  public var heartRateBeatsPerMinute: Double?
  /// Whether `heartRateBeatsPerMinute` was interpolated over a dropout
  /// rather than read.
  public var heartRateInterpolated: Bool
  /// Signed decimal degrees (north positive); nil without a position fix.
  public var latitudeDegrees: Double?
  /// Signed decimal degrees (east positive); nil without a position fix.
  public var longitudeDegrees: Double?
  /// GPS speed, m/s.
  public var speedMetersPerSecond: Double?
  /// GPS altitude, m.
  public var elevationMeters: Double?
  /// Minute ventilation, L/min (COSMED `VE`).
  public var ventilationLitersPerMinute: Double?
  /// Why the breath is left out of the measured energy (`BreathFilter`);
  /// nil for a breath that is kept.
  public var exclusion: BreathExclusion?
  /// The 1-based line of the file the row starts on.
  public var line: Int

  public init(
    timeSeconds: Double, energyKilocaloriesPerMinute: Double? = nil, vo2MillilitersPerMinute: Double? = nil,
    vco2MillilitersPerMinute: Double? = nil, heartRateBeatsPerMinute: Double? = nil,
    heartRateInterpolated: Bool = false, latitudeDegrees: Double? = nil, longitudeDegrees: Double? = nil,
    speedMetersPerSecond: Double? = nil, elevationMeters: Double? = nil, line: Int = 0
  ) {
    self.timeSeconds = timeSeconds
    self.energyKilocaloriesPerMinute = energyKilocaloriesPerMinute
    self.vo2MillilitersPerMinute = vo2MillilitersPerMinute
    self.vco2MillilitersPerMinute = vco2MillilitersPerMinute
    self.heartRateBeatsPerMinute = heartRateBeatsPerMinute
    self.heartRateInterpolated = heartRateInterpolated
    self.latitudeDegrees = latitudeDegrees
    self.longitudeDegrees = longitudeDegrees
    self.speedMetersPerSecond = speedMetersPerSecond
    self.elevationMeters = elevationMeters
    self.line = line
  }
}

/// The layout a measured-expenditure file was read as.
public enum MeasuredExpenditureFormat: String, Sendable, Hashable, CaseIterable {
  /// A COSMED K5 breath-by-breath CSV export (OMNIA): names row, units row,
  /// one row per breath.
  case cosmedK5 = "cosmed-k5"
  /// A CSV with a time column and an energy column named by the caller.
  case generic
}

/// Where a recording's kcal/min come from.
public enum MeasuredEnergySource: String, Sendable, Hashable, CaseIterable {
  /// The analyser's own energy column (COSMED `EEm`).
  case analyserColumn = "analyser-column"
  /// The Weir equation over measured VO2 and VCO2.
  case weirFromGasExchange = "weir-vo2-vco2"
  /// VO2 alone at 5 kcal per litre of oxygen (an assumed RER).
  case oxygenAtFiveKilocaloriesPerLiter = "vo2-5-kcal-per-liter"
  /// A caller-named column in kcal/min, kcal/h or W.
  case energyColumn = "energy-column"
  /// The Weir equation over a VO2 column and a caller-given RER.
  case weirFromOxygenAndGivenRER = "weir-vo2-given-rer"
}

/// The unit of a generic CSV's energy column.
public enum MeasuredEnergyUnit: Sendable, Hashable {
  /// kcal/min.
  case kilocaloriesPerMinute
  /// kcal/h.
  case kilocaloriesPerHour
  /// W (J/s); 1 kcal = 4.184 kJ (thermochemical).
  case watts
  /// Oxygen uptake in mL/min, turned into energy with the Weir equation at
  /// the given respiratory exchange ratio (VCO2 = RER x VO2).
  case oxygenUptakeMillilitersPerMinute(respiratoryExchangeRatio: Double)

  /// The unit as recorded with a run: `kcal/min`, `kcal/h`, `W`,
  /// `VO2 mL/min at RER 0.85`.
  public var label: String {
    switch self {
    case .kilocaloriesPerMinute: "kcal/min"
    case .kilocaloriesPerHour: "kcal/h"
    case .watts: "W"
    case .oxygenUptakeMillilitersPerMinute(let rer): "VO2 mL/min at RER \(Fixed.shortest(rer))"
    }
  }
}

/// Measured energy expenditure read from one file: the rows, how their
/// times and energy are to be read, the parameters that shaped them and
/// what was imperfect about the file.
public struct MeasuredExpenditure: Sendable, Hashable {
  /// The file read (or the name given to `parse`).
  public var source: String
  public var format: MeasuredExpenditureFormat
  /// True when `MeasuredSample.timeSeconds` are seconds since 1970 UTC
  /// (a start date and time was found, or the times are ISO-8601); false
  /// when they are seconds since the start of the test.
  public var timesAreAbsolute: Bool
  /// Where the energy rates come from.
  public var energySource: MeasuredEnergySource
  /// Rows in file order; times never decrease.
  public var samples: [MeasuredSample]
  /// Every setting that changed the samples (heart-rate gap limit, units,
  /// an assumed RER), as recorded with a run.
  public var parameters: [NamedParameter]
  public var diagnostics: [Diagnostic]

  public init(
    source: String, format: MeasuredExpenditureFormat, timesAreAbsolute: Bool,
    energySource: MeasuredEnergySource, samples: [MeasuredSample], parameters: [NamedParameter] = [],
    diagnostics: [Diagnostic] = []
  ) {
    self.source = source
    self.format = format
    self.timesAreAbsolute = timesAreAbsolute
    self.energySource = energySource
    self.samples = samples
    self.parameters = parameters
    self.diagnostics = diagnostics
  }

  /// Longest time between two kept breaths that is integrated, s; a
  /// longer interval is unknown time (`BreathFilter.gapLimitSeconds`). Nil:
  /// no limit.
  public var gapLimitSeconds: Double?

  /// Whether the interval from row `a` to the next row `b` holds measured
  /// energy: both give energy, neither is excluded, and it is no longer
  /// than the gap limit.
  func isKnown(_ a: MeasuredSample, _ b: MeasuredSample) -> Bool {
    a.energyKilocaloriesPerMinute != nil && b.energyKilocaloriesPerMinute != nil && a.exclusion == nil
      && b.exclusion == nil && (gapLimitSeconds.map { b.timeSeconds - a.timeSeconds <= $0 } ?? true)
  }

  /// Measured energy over the known parts of `[start, end]` and how much of
  /// the span is known.
  public struct KnownEnergy: Sendable, Hashable {
    /// kcal over the known parts.
    public var kilocalories: Double
    /// Seconds of the span with measured energy.
    public var knownSeconds: Double
    /// Seconds of the span without: outside the rows, at excluded breaths,
    /// over gaps and rows without energy.
    public var unknownSeconds: Double
  }

  /// Measured energy over the known parts of `[start, end]` (seconds, in
  /// the samples' time base) by the trapezoid rule over the rows' kcal/min:
  ///
  /// ```
  /// E = sum over consecutive known rows i, i+1 of
  ///     (r_i + r_(i+1)) / 2 x (t_(i+1) - t_i) / 60      (r in kcal/min, t in s)
  /// ```
  ///
  /// Breath rows are irregular (about 1 to 6 s apart), so each interval is
  /// weighted by its own length; a span that starts or ends between two rows
  /// takes the rate there by linear interpolation. An interval is known when
  /// both its rows give energy and are kept and it is no longer than
  /// `gapLimitSeconds`; unknown time is neither interpolated across nor
  /// counted as zero, only counted.
  public func knownEnergy(from start: Double, to end: Double) -> KnownEnergy {
    var out = KnownEnergy(kilocalories: 0, knownSeconds: 0, unknownSeconds: 0)
    guard start.isFinite, end.isFinite, end > start else { return out }
    for (a, b) in zip(samples, samples.dropFirst()) {
      if b.timeSeconds <= start { continue }
      if a.timeSeconds >= end { break }
      let from = max(a.timeSeconds, start)
      let to = min(b.timeSeconds, end)
      guard to > from else { continue }
      guard isKnown(a, b), let ra = a.energyKilocaloriesPerMinute, let rb = b.energyKilocaloriesPerMinute
      else {
        out.unknownSeconds += to - from
        continue
      }
      let length = b.timeSeconds - a.timeSeconds
      func rate(_ t: Double) -> Double { ra + (rb - ra) * (t - a.timeSeconds) / length }
      out.kilocalories += (rate(from) + rate(to)) / 2 * (to - from) / 60
      out.knownSeconds += to - from
    }
    // Before the first and after the last row.
    if let first = samples.first?.timeSeconds, let last = samples.last?.timeSeconds {
      out.unknownSeconds += max(0, min(end, first) - start) + max(0, end - max(start, last))
      if samples.count == 1 { out.unknownSeconds = end - start }
    } else {
      out.unknownSeconds = end - start
    }
    return out
  }

  /// Measured energy over `[start, end]`, kcal, when every part of it is
  /// known (`knownEnergy`); nil when any part is not (before the first or
  /// after the last row, an excluded breath, a gap, a row without energy)
  /// or `end < start`. A span of zero length inside the rows gives 0.
  public func energyKilocalories(from start: Double, to end: Double) -> Double? {
    guard start.isFinite, end.isFinite, end >= start, let first = samples.first, let last = samples.last,
      start >= first.timeSeconds, end <= last.timeSeconds
    else { return nil }
    if end == start { return 0 }
    let known = knownEnergy(from: start, to: end)
    return known.unknownSeconds > 0 ? nil : known.kilocalories
  }
}

/// Reads measured energy expenditure: COSMED K5 breath-by-breath CSV
/// exports, and any CSV with a time column and an energy column.
///
/// Both read plain or gzip-compressed files (told apart by their magic
/// bytes), comma-, semicolon- or tab-separated; in semicolon- and
/// tab-separated files a `,` decimal separator is accepted.
///
/// Heart-rate dropouts (a COSMED `HR` of 0 or an empty cell) are missing
/// values. A dropout is filled by linear interpolation in time between the
/// readings either side when those are at most `heartRateGapLimitSeconds`
/// apart; longer dropouts, and those at the start or end, stay missing.
public struct MeasuredExpenditureReader: Sendable {
  /// The default longest time between the heart-rate readings either side
  /// of a dropout for it to be filled, s.
  public static let defaultHeartRateGapLimitSeconds = 5.0
  /// kcal per litre of oxygen assumed when only VO2 is known: 5 kcal/L, the
  /// value of the Weir equation at an RER of about 0.96
  /// ((5 - 3.941) / 1.106 = 0.9575).
  public static let kilocaloriesPerLiterOxygen = 5.0
  /// How many lines from the top a COSMED header row may be found within.
  public static let headerSearchLines = 200

  /// Longest time between the heart-rate readings either side of a dropout
  /// for the dropout to be filled, s (default 5).
  public var heartRateGapLimitSeconds: Double
  /// The time zone of a COSMED test date and time, and of ISO-8601 times
  /// without an offset; nil reads them as UTC and says so.
  public var timeZone: TimeZone?
  /// The day-month order of a COSMED test date such as `03/04/2021`; nil
  /// decides from the date when one of its numbers is above 12 and leaves
  /// the times relative otherwise.
  public var dateOrder: DateOrder?

  public init(
    heartRateGapLimitSeconds: Double = MeasuredExpenditureReader.defaultHeartRateGapLimitSeconds,
    timeZone: TimeZone? = nil, dateOrder: DateOrder? = nil
  ) {
    self.heartRateGapLimitSeconds = heartRateGapLimitSeconds
    self.timeZone = timeZone
    self.dateOrder = dateOrder
  }

  /// Energy expenditure by the abbreviated Weir equation (urinary nitrogen
  /// neglected):
  ///
  /// ```
  /// kcal/min = (3.941 x VO2 + 1.106 x VCO2) / 1000     (VO2, VCO2 in mL/min)
  /// ```
  ///
  /// Valid for steady-state gas exchange (RER about 0.7 to 1.0); above the
  /// ventilatory threshold VCO2 includes buffered CO2 and the value runs
  /// high. Weir JB de V (1949), J Physiol 109:1-9, equation (6).
  public static func weirKilocaloriesPerMinute(
    vo2MillilitersPerMinute vo2: Double, vco2MillilitersPerMinute vco2: Double
  ) -> Double {
    (3.941 * vo2 + 1.106 * vco2) / 1000
  }

  // MARK: COSMED K5

  /// Reads a COSMED K5 breath-by-breath CSV export; see `parseCOSMED`.
  public func readCOSMED(path: String) throws -> MeasuredExpenditure {
    let (text, notes) = try Self.text(path: path, expected: "a COSMED K5 breath-by-breath CSV export")
    var result = try parseCOSMED(text, source: path)
    result.diagnostics.insert(contentsOf: notes, at: 0)
    return result
  }

  /// Reads a COSMED K5 breath-by-breath CSV export.
  ///
  /// The header row is the first of the first `headerSearchLines` lines
  /// with a `t` and a `VO2` cell (names as COSMED writes them, case
  /// sensitive); the row after it holds the units. Subject and test
  /// information may sit above it or in the columns to its left; a
  /// `Test Date` and a `Test Time` cell there (value in the next cell to
  /// the right) make the times absolute. Columns read, all others ignored:
  ///
  /// | column       | unit                           | becomes                      |
  /// |--------------|--------------------------------|------------------------------|
  /// | t            | s, or h:mm:ss(.sss) text       | timeSeconds                  |
  /// | VO2, VCO2    | mL/min (L/min accepted)        | mL/min                       |
  /// | EEm          | kcal/min (kcal/h, kJ/min)      | energyKilocaloriesPerMinute  |
  /// | HR           | bpm; 0 = no strap contact      | heartRateBeatsPerMinute      |
  /// | Lat, Long    | `N51° 45' 55.56"` or decimal   | signed decimal degrees       |
  /// | GPS Speed    | km/h (m/s accepted)            | speedMetersPerSecond         |
  /// | GPS Altitude | m                              | elevationMeters              |
  ///
  /// Without `EEm`, energy is the Weir equation over VO2 and VCO2, or VO2
  /// at 5 kcal/L without VCO2 (with a diagnostic: the RER is assumed).
  /// A position of 0 or an empty cell is no fix; in a row without a fix a
  /// GPS speed or altitude of 0 is no value either.
  public func parseCOSMED(_ text: String, source: String) throws -> MeasuredExpenditure {
    let found = try Self.findCOSMEDHeader(text, source: source)
    let rows = try CSVTokenizer.rows(found.text, source: source, delimiter: found.delimiter)
    guard let headerIndex = rows.firstIndex(where: { $0.line == found.header.line }) else {
      throw RuntimeError("\(source): the COSMED header row was lost between two readings of the file")
    }
    var diagnostics = found.notes
    let names = rows[headerIndex].fields.indices.map { Self.cell(rows[headerIndex], $0) }
    guard let timeIndex = names.firstIndex(of: "t"), names.contains("VO2") else {
      throw RuntimeError("\(source): the COSMED header row was lost between two readings of the file")
    }
    /// A named column, preferring one at or right of `t` (the data table)
    /// over a label of the information block.
    func column(_ name: String) -> Int? {
      names.indices.first { $0 >= timeIndex && names[$0] == name } ?? names.firstIndex(of: name)
    }
    let vo2Index = column("VO2") ?? timeIndex
    let vco2Index = column("VCO2")
    let energyIndex = column("EEm")
    let heartRateIndex = column("HR")
    let latitudeIndex = column("Lat")
    let longitudeIndex = column("Long")
    let speedIndex = column("GPS Speed")
    let altitudeIndex = column("GPS Altitude")
    let ventilationIndex = column("VE")

    // The units row, unless the row after the names already holds a time.
    var dataStart = headerIndex + 1
    var units: [String] = []
    if dataStart < rows.count {
      let cell = Self.cell(rows[dataStart], timeIndex)
      if Self.seconds(fromElapsed: cell, decimalComma: found.delimiter != 0x2C) == nil {
        units = rows[dataStart].fields.indices.map { Self.cell(rows[dataStart], $0) }
        dataStart += 1
      } else {
        diagnostics.append(
          Diagnostic(
            code: "no-units-row", severity: .note,
            message: "no units row after the column names; COSMED's units assumed (VO2 mL/min, "
              + "EEm kcal/min, GPS Speed km/h)",
            location: "\(source):\(rows[dataStart].line)"))
      }
    }
    let unitsLine = dataStart > headerIndex + 1 ? rows[headerIndex + 1].line : rows[headerIndex].line
    func unitScale(_ index: Int?, _ name: String, _ accepted: [String: Double], expected: String) throws
      -> Double
    {
      guard let index, index < units.count else { return 1 }
      let unit = units[index]
      if unit.isEmpty { return 1 }
      if let scale = accepted[unit.lowercased()] { return scale }
      throw InputError(
        .malformed, SourceLocation(file: source, line: unitsLine, column: index + 1),
        "\(name) is in \"\(unit)\"", expected: expected)
    }
    let flow = ["ml/min": 1.0, "l/min": 1000]
    let vo2Scale = try unitScale(vo2Index, "VO2", flow, expected: "mL/min or L/min")
    let vco2Scale = try unitScale(vco2Index, "VCO2", flow, expected: "mL/min or L/min")
    let energyScale = try unitScale(
      energyIndex, "EEm", ["kcal/min": 1, "kcal/h": 1.0 / 60, "kj/min": 1 / Units.kilojoulesPerKilocalorie],
      expected: "kcal/min, kcal/h or kJ/min")
    _ = try unitScale(
      heartRateIndex, "HR", ["bpm": 1, "1/min": 1, "b/min": 1, "beats/min": 1, "/min": 1], expected: "bpm")
    let speedScale = try unitScale(
      speedIndex, "GPS Speed", ["km/h": 1 / 3.6, "kmh": 1 / 3.6, "m/s": 1], expected: "km/h or m/s")
    _ = try unitScale(altitudeIndex, "GPS Altitude", ["m": 1], expected: "m")
    let ventilationScale = try unitScale(
      ventilationIndex, "VE", ["l/min": 1, "ml/min": 0.001], expected: "L/min or mL/min")

    let decimalComma = found.delimiter != 0x2C
    var samples: [MeasuredSample] = []
    var skippedRows = 0
    var firstSkipped: Int?
    var missingEnergy = 0
    var withoutFix = 0
    var limits = RecordLimits(noun: "breaths")
    var previous: (time: Double, line: Int)?
    let used = [timeIndex, vo2Index, vco2Index, energyIndex, heartRateIndex].compactMap { $0 }
    for row in rows[dataStart...] {
      let timeText = Self.cell(row, timeIndex)
      if timeText.isEmpty {
        // Blank rows, and rows of the information block below the data.
        if Self.isBlank(row) { continue }
        if used.allSatisfy({ Self.cell(row, $0).isEmpty }) {
          skippedRows += 1
          if firstSkipped == nil { firstSkipped = row.line }
          continue
        }
        throw InputError(
          .value, SourceLocation(file: source, line: row.line, column: timeIndex + 1),
          "a breath without a time (t is empty)", expected: "seconds or h:mm:ss in every row with values")
      }
      guard let time = Self.seconds(fromElapsed: timeText, decimalComma: decimalComma) else {
        throw InputError(
          .value, SourceLocation(file: source, line: row.line, column: timeIndex + 1),
          "cannot read t \"\(timeText)\" as a time",
          expected: "seconds (such as 12.5) or h:mm:ss(.sss) (such as 0:01:02.5)")
      }
      if let previous, time < previous.time {
        throw InputError(
          .value, SourceLocation(file: source, line: row.line, column: timeIndex + 1),
          "time goes back from \(Fixed.shortest(previous.time)) s (line \(previous.line)) to "
            + "\(Fixed.shortest(time)) s",
          expected: "times that never decrease")
      }
      previous = (time, row.line)
      func number(_ index: Int?, _ name: String, _ unit: String) throws -> Double? {
        guard let index else { return nil }
        return try Self.number(
          Self.cell(row, index), name: name, unit: unit, decimalComma: decimalComma,
          location: SourceLocation(file: source, line: row.line, column: index + 1))
      }
      var sample = MeasuredSample(timeSeconds: time, line: row.line)
      sample.vo2MillilitersPerMinute = try number(vo2Index, "VO2", "mL/min").map { $0 * vo2Scale }
      sample.vco2MillilitersPerMinute = try number(vco2Index, "VCO2", "mL/min").map { $0 * vco2Scale }
      if energyIndex != nil {
        sample.energyKilocaloriesPerMinute = try number(energyIndex, "EEm", "kcal/min").map {
          $0 * energyScale
        }
      } else if vco2Index != nil {
        if let vo2 = sample.vo2MillilitersPerMinute, let vco2 = sample.vco2MillilitersPerMinute {
          sample.energyKilocaloriesPerMinute = Self.weirKilocaloriesPerMinute(
            vo2MillilitersPerMinute: vo2, vco2MillilitersPerMinute: vco2)
        }
      } else if let vo2 = sample.vo2MillilitersPerMinute {
        sample.energyKilocaloriesPerMinute = vo2 / 1000 * Self.kilocaloriesPerLiterOxygen
      }
      if sample.energyKilocaloriesPerMinute == nil { missingEnergy += 1 }
      if let heartRate = try number(heartRateIndex, "HR", "bpm"), heartRate > 0 {
        sample.heartRateBeatsPerMinute = limits.keep(heartRate, .heartRate, at: "line \(row.line)")
      }
      if let index = latitudeIndex {
        sample.latitudeDegrees = try Self.coordinate(
          Self.cell(row, index), axis: .latitude, decimalComma: decimalComma,
          location: SourceLocation(file: source, line: row.line, column: index + 1))
      }
      if let index = longitudeIndex {
        sample.longitudeDegrees = try Self.coordinate(
          Self.cell(row, index), axis: .longitude, decimalComma: decimalComma,
          location: SourceLocation(file: source, line: row.line, column: index + 1))
      }
      sample.speedMetersPerSecond = limits.keep(
        try number(speedIndex, "GPS Speed", "km/h").map { $0 * speedScale }, .speed, at: "line \(row.line)")
      sample.elevationMeters = try number(altitudeIndex, "GPS Altitude", "m")
      sample.ventilationLitersPerMinute = try number(ventilationIndex, "VE", "L/min").map {
        $0 * ventilationScale
      }
      if latitudeIndex != nil && sample.latitudeDegrees == nil
        || longitudeIndex != nil && sample.longitudeDegrees == nil
      {
        withoutFix += 1
        sample.latitudeDegrees = nil
        sample.longitudeDegrees = nil
        if sample.speedMetersPerSecond == 0 { sample.speedMetersPerSecond = nil }
        if sample.elevationMeters == 0 { sample.elevationMeters = nil }
      }
      samples.append(sample)
    }
    guard !samples.isEmpty else {
      throw InputError(
        .empty, SourceLocation(file: source, line: rows[headerIndex].line),
        "no breath rows after the header", expected: "one row per breath after the names and units rows")
    }

    // Times: absolute when the information block dates the test.
    let start = startOfTest(rows: rows, headerIndex: headerIndex, timeIndex: timeIndex, source: source)
    diagnostics += start.diagnostics
    if let startSeconds = start.secondsSince1970 {
      for i in samples.indices { samples[i].timeSeconds += startSeconds }
    }

    let energySource: MeasuredEnergySource
    var parameters: [NamedParameter] = []
    if energyIndex != nil {
      energySource = .analyserColumn
    } else if vco2Index != nil {
      energySource = .weirFromGasExchange
      diagnostics.append(
        Diagnostic(
          code: "energy-from-weir", severity: .note,
          message: "no EEm column; energy computed from VO2 and VCO2 with the Weir equation "
            + "(3.941 VO2 + 1.106 VCO2) / 1000",
          location: source))
    } else {
      energySource = .oxygenAtFiveKilocaloriesPerLiter
      parameters.append(
        NamedParameter(
          name: "kcal_per_liter_o2", value: Fixed.shortest(Self.kilocaloriesPerLiterOxygen),
          meaning: "energy per litre of oxygen assumed without EEm and VCO2"))
      diagnostics.append(
        Diagnostic(
          code: "rer-assumed",
          message: "no EEm and no VCO2 column; energy is VO2 at 5 kcal per litre of oxygen, "
            + "an assumed RER of about 0.96",
          location: source, remedy: Remedy(.assumption)))
    }
    if missingEnergy > 0 {
      diagnostics.append(
        Diagnostic(
          code: "energy-missing",
          message: "\(missingEnergy) of \(samples.count) breath(s) have no energy value; spans over them "
            + "have no measured energy",
          location: source))
    }
    diagnostics += limits.diagnostics(location: source)
    if withoutFix > 0 {
      diagnostics.append(
        Diagnostic(
          code: "gps-no-fix", severity: .note,
          message: "\(withoutFix) of \(samples.count) breath(s) have no GPS position (0 or empty); their "
            + "position, and a GPS speed or altitude of 0, are missing",
          location: source))
    }
    if skippedRows > 0, let firstSkipped {
      diagnostics.append(
        Diagnostic(
          code: "rows-without-breath", severity: .note,
          message: "\(skippedRows) row(s) without a time or any measured value skipped",
          location: "\(source):\(firstSkipped)"))
    }
    if heartRateIndex != nil {
      diagnostics += fillHeartRate(&samples, source: source)
      parameters.append(heartRateParameter)
    } else {
      diagnostics.append(
        Diagnostic(
          code: "no-heart-rate", severity: .note, message: "no HR column; heart rate is missing",
          location: source))
    }
    return MeasuredExpenditure(
      source: source, format: .cosmedK5, timesAreAbsolute: start.secondsSince1970 != nil,
      energySource: energySource, samples: samples, parameters: parameters, diagnostics: diagnostics)
  }

  // MARK: Generic CSV

  /// Reads a CSV with a time column and an energy column; see
  /// `parseGeneric`.
  public func readGeneric(
    path: String, timeColumn: String, energyColumn: String, energyUnit: MeasuredEnergyUnit
  ) throws -> MeasuredExpenditure {
    let (text, notes) = try Self.text(path: path, expected: "a CSV of time and measured energy")
    var result = try parseGeneric(
      text, source: path, timeColumn: timeColumn, energyColumn: energyColumn, energyUnit: energyUnit)
    result.diagnostics.insert(contentsOf: notes, at: 0)
    return result
  }

  /// Reads a CSV whose first row names the columns: `timeColumn` in
  /// seconds (relative) or ISO-8601 date-times (absolute), and
  /// `energyColumn` in `energyUnit`, converted to kcal/min:
  ///
  /// ```
  /// kcal/min = kcal/h / 60
  /// kcal/min = W x 60 / 4184                       (1 kcal = 4184 J)
  /// kcal/min = VO2 x (3.941 + 1.106 x RER) / 1000  (Weir 1949, VCO2 = RER x VO2)
  /// ```
  ///
  /// Names match exactly after trimming spaces. An empty energy cell is a
  /// missing value; a negative one is an error.
  public func parseGeneric(
    _ text: String, source: String, timeColumn: String, energyColumn: String, energyUnit: MeasuredEnergyUnit
  ) throws -> MeasuredExpenditure {
    var parameters = [
      NamedParameter(name: "time_column", value: timeColumn, meaning: "column of times"),
      NamedParameter(name: "energy_column", value: energyColumn, meaning: "column of measured energy"),
      NamedParameter(name: "energy_unit", value: energyUnit.label, meaning: "unit of the energy column"),
    ]
    let energySource: MeasuredEnergySource
    if case .oxygenUptakeMillilitersPerMinute(let rer) = energyUnit {
      guard rer.isFinite, rer >= 0.5, rer <= 1.5 else {
        throw UsageError(
          .outOfRange,
          "respiratory exchange ratio \(Fixed.shortest(rer)) is outside 0.5 to 1.5 (resting to maximal "
            + "exercise lies within 0.7 to 1.2)")
      }
      energySource = .weirFromOxygenAndGivenRER
      parameters.append(
        NamedParameter(
          name: "respiratory_exchange_ratio", value: Fixed.shortest(rer),
          meaning: "VCO2 / VO2 assumed in the Weir equation"))
    } else {
      energySource = .energyColumn
    }
    var diagnostics: [Diagnostic] = []
    let body = text.hasPrefix("\u{FEFF}") ? String(text.dropFirst()) : text
    // The delimiter is the one whose first row names both columns.
    var chosen: (delimiter: UInt8, rows: [CSVRow], time: Int, energy: Int)?
    var firstHeader: [String] = []
    for delimiter: UInt8 in [0x2C, 0x3B, 0x09] {
      guard let rows = try? CSVTokenizer.rows(body, source: source, delimiter: delimiter),
        let header = rows.first(where: { !Self.isBlank($0) })
      else { continue }
      let names = header.fields.map { $0.trimmingCharacters(in: .whitespaces) }
      if firstHeader.isEmpty { firstHeader = names }
      if let time = names.firstIndex(of: timeColumn), let energy = names.firstIndex(of: energyColumn) {
        chosen = (delimiter, rows, time, energy)
        break
      }
    }
    guard let chosen else {
      // Read once more strictly, so a malformed file says where it is.
      _ = try CSVTokenizer.rows(body, source: source)
      throw InputError(
        .malformed, SourceLocation(file: source, line: 1),
        "no columns named \"\(timeColumn)\" and \"\(energyColumn)\" in the header (it has "
          + firstHeader.prefix(12).map { "\"\($0)\"" }.joined(separator: ", ") + ")",
        expected: "a first row naming the time column and the energy column", remedy: Remedy(.columns))
    }
    let decimalComma = chosen.delimiter != 0x2C
    var samples: [MeasuredSample] = []
    var absolute: Bool?
    var localTimes = false
    var missingEnergy = 0
    var previous: (time: Double, line: Int)?
    // The header row chose the delimiter, so it is there.
    let headerLine = chosen.rows.first(where: { !Self.isBlank($0) })?.line ?? 0
    for row in chosen.rows where row.line > headerLine && !Self.isBlank(row) {
      let timeText = Self.cell(row, chosen.time)
      let timeLocation = SourceLocation(file: source, line: row.line, column: chosen.time + 1)
      var time: Double?
      if absolute != true, let seconds = Self.decimal(timeText, decimalComma: decimalComma) {
        absolute = false
        time = seconds
      } else if absolute != false, let parsed = ISO8601.parse(timeText) {
        absolute = true
        time = parsed.secondsSince1970
        if !parsed.hadOffset {
          if let timeZone { time = Self.utc(fromLocal: parsed.secondsSince1970, in: timeZone) }
          localTimes = true
        }
      }
      guard let time, time.isFinite else {
        let expected =
          switch absolute {
          case true: "an ISO-8601 date-time like the rows above (such as 2021-03-25T10:15:00Z)"
          case false: "seconds like the rows above"
          default: "seconds or an ISO-8601 date-time (such as 2021-03-25T10:15:00Z)"
          }
        throw InputError(
          .value, timeLocation, "cannot read \(timeColumn) \"\(timeText)\" as a time", expected: expected)
      }
      if let previous, time < previous.time {
        throw InputError(
          .value, timeLocation,
          "time goes back from line \(previous.line) (\(Fixed.shortest(previous.time)) s to "
            + "\(Fixed.shortest(time)) s)",
          expected: "times that never decrease")
      }
      previous = (time, row.line)
      let value = try Self.number(
        Self.cell(row, chosen.energy), name: energyColumn, unit: energyUnit.label, decimalComma: decimalComma,
        location: SourceLocation(file: source, line: row.line, column: chosen.energy + 1))
      var sample = MeasuredSample(timeSeconds: time, line: row.line)
      if let value {
        switch energyUnit {
        case .kilocaloriesPerMinute: sample.energyKilocaloriesPerMinute = value
        case .kilocaloriesPerHour: sample.energyKilocaloriesPerMinute = value / 60
        case .watts:
          sample.energyKilocaloriesPerMinute = value * 60 / (Units.kilojoulesPerKilocalorie * 1000)
        case .oxygenUptakeMillilitersPerMinute(let rer):
          sample.vo2MillilitersPerMinute = value
          sample.vco2MillilitersPerMinute = rer * value
          sample.energyKilocaloriesPerMinute = Self.weirKilocaloriesPerMinute(
            vo2MillilitersPerMinute: value, vco2MillilitersPerMinute: rer * value)
        }
      } else {
        missingEnergy += 1
      }
      samples.append(sample)
    }
    guard !samples.isEmpty else {
      throw InputError(
        .empty, SourceLocation(file: source, line: headerLine), "no rows after the header",
        expected: "one row per time after the header")
    }
    if absolute == false {
      diagnostics.append(
        Diagnostic(
          code: "times-relative", severity: .note,
          message: "times are seconds as written in \(timeColumn), not dates; they are relative",
          location: source))
    }
    if localTimes {
      diagnostics.append(
        timeZone == nil
          ? Diagnostic(
            code: "local-time-as-utc", severity: .note,
            message: "times carry no offset and no time zone was given; read as UTC", location: source,
            remedy: Remedy(.timeZone))
          : Diagnostic(
            code: "local-time-zone", severity: .note,
            message: "times carry no offset; read in \(timeZone!.identifier)", location: source))
    }
    if missingEnergy > 0 {
      diagnostics.append(
        Diagnostic(
          code: "energy-missing",
          message: "\(missingEnergy) of \(samples.count) row(s) have no energy value; spans over them "
            + "have no measured energy",
          location: source))
    }
    return MeasuredExpenditure(
      source: source, format: .generic, timesAreAbsolute: absolute == true, energySource: energySource,
      samples: samples, parameters: parameters, diagnostics: diagnostics)
  }

  // MARK: Heart rate

  private var heartRateParameter: NamedParameter {
    NamedParameter(
      name: "heart_rate_gap_limit_s", value: Fixed.shortest(heartRateGapLimitSeconds),
      meaning: "longest time between the readings either side of a heart-rate dropout for it to be "
        + "filled by linear interpolation")
  }

  /// Fills heart-rate dropouts no longer than the gap limit by linear
  /// interpolation in time:
  ///
  /// ```
  /// HR(t) = HR_a + (HR_b - HR_a) x (t - t_a) / (t_b - t_a),   when t_b - t_a <= limit
  /// ```
  ///
  /// where a and b are the nearest rows before and after with a reading.
  func fillHeartRate(_ samples: inout [MeasuredSample], source: String) -> [Diagnostic] {
    let missing = samples.filter { $0.heartRateBeatsPerMinute == nil }.count
    guard missing > 0 else { return [] }
    var filled = 0
    var lastKnown: Int?
    var i = 0
    while i < samples.count {
      guard samples[i].heartRateBeatsPerMinute == nil else {
        lastKnown = i
        i += 1
        continue
      }
      var next = i
      while next < samples.count, samples[next].heartRateBeatsPerMinute == nil { next += 1 }
      if let a = lastKnown, next < samples.count,
        samples[next].timeSeconds - samples[a].timeSeconds <= heartRateGapLimitSeconds,
        let ha = samples[a].heartRateBeatsPerMinute, let hb = samples[next].heartRateBeatsPerMinute
      {
        let ta = samples[a].timeSeconds
        let span = samples[next].timeSeconds - ta
        for k in i..<next {
          let fraction = span > 0 ? (samples[k].timeSeconds - ta) / span : 0.5
          samples[k].heartRateBeatsPerMinute = ha + (hb - ha) * fraction
          samples[k].heartRateInterpolated = true
          filled += 1
        }
      }
      i = next
    }
    let limit = Fixed.shortest(heartRateGapLimitSeconds)
    return [
      Diagnostic(
        code: "heart-rate-dropouts", severity: filled == missing ? .note : .warning,
        message: "\(missing) of \(samples.count) breath(s) had no heart rate (HR 0 or empty); \(filled) "
          + "filled by linear interpolation between the readings either side where those are at most "
          + "\(limit) s apart; \(missing - filled) left missing",
        location: source)
    ]
  }

  // MARK: Start of test

  struct TestStart {
    var secondsSince1970: Double?
    var diagnostics: [Diagnostic] = []
  }

  /// The test's start from `Test Date` and `Test Time` cells of the
  /// information block (the value is the next non-empty cell to the right;
  /// on and below the header row, only cells left of the `t` column count).
  func startOfTest(rows: [CSVRow], headerIndex: Int, timeIndex: Int, source: String) -> TestStart {
    var date: (text: String, line: Int)?
    var time: (text: String, line: Int)?
    for (index, row) in rows.enumerated() {
      if date != nil && time != nil { break }
      let limit = index >= headerIndex ? min(timeIndex, row.fields.count) : row.fields.count
      var k = 0
      while k < limit {
        var label = row.fields[k].trimmingCharacters(in: .whitespaces).lowercased()
        if label.hasSuffix(":") { label.removeLast() }
        k += 1
        let isDate = label == "test date" || label == "date of test"
        let isTime = label == "test time" || label == "time of test"
        guard isDate || isTime else { continue }
        var v = k
        while v < limit, row.fields[v].trimmingCharacters(in: .whitespaces).isEmpty { v += 1 }
        guard v < limit else { continue }
        let value = Self.cell(row, v)
        if isDate, date == nil { date = (value, row.line) }
        if isTime, time == nil { time = (value, row.line) }
      }
    }
    let relative = Diagnostic(
      code: "times-relative", severity: .note,
      message: "no test date and time found in the file; times are seconds since the start of the test",
      location: source)
    guard let date else { return TestStart(diagnostics: [relative]) }
    // A date cell may carry the time itself: `25/03/2021 10:15:32`.
    var dateText = date.text
    var timeText = time?.text
    if timeText == nil, let space = dateText.firstIndex(of: " ") {
      timeText = String(dateText[space...]).trimmingCharacters(in: .whitespaces)
      dateText = String(dateText[..<space])
    }
    let dateLocation = "\(source):\(date.line)"
    guard let timeText else {
      return TestStart(diagnostics: [
        Diagnostic(
          code: "times-relative", severity: .note,
          message: "a test date but no test time; times are seconds since the start of the test",
          location: dateLocation)
      ])
    }
    let day: Int
    switch Self.days(fromDate: dateText, order: dateOrder) {
    case .days(let d): day = d
    case .ambiguous:
      return TestStart(diagnostics: [
        Diagnostic(
          code: "test-date-ambiguous",
          message: "test date \"\(dateText)\" reads as day/month and as month/day; times left relative "
            + "to the start of the test",
          location: dateLocation, remedy: Remedy(.dateOrder))
      ])
    case .unreadable:
      return TestStart(diagnostics: [
        Diagnostic(
          code: "test-date-unreadable",
          message: "cannot read test date \"\(dateText)\"; times left relative to the start of the test",
          location: dateLocation)
      ])
    }
    guard let clock = Self.secondsOfDay(timeText) else {
      return TestStart(diagnostics: [
        Diagnostic(
          code: "test-date-unreadable",
          message: "cannot read test time \"\(timeText)\"; times left relative to the start of the test",
          location: "\(source):\(time?.line ?? date.line)")
      ])
    }
    let local = Double(day * 86400) + clock
    if let timeZone {
      return TestStart(secondsSince1970: Self.utc(fromLocal: local, in: timeZone))
    }
    return TestStart(
      secondsSince1970: local,
      diagnostics: [
        Diagnostic(
          code: "local-time-as-utc", severity: .note,
          message: "the test date and time carry no offset and no time zone was given; read as UTC",
          location: dateLocation, remedy: Remedy(.timeZone))
      ])
  }

  enum DateReading: Equatable {
    case days(Int)
    case ambiguous
    case unreadable
  }

  /// Days since 1970-01-01 of `2021-03-25`, `25/03/2021`, `3/25/2021`,
  /// `25.03.2021` or `25-03-21` (two-digit years are 20yy).
  static func days(fromDate text: String, order: DateOrder?) -> DateReading {
    let parts = text.split(whereSeparator: { $0 == "/" || $0 == "-" || $0 == "." }).map(String.init)
    guard parts.count == 3, parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isASCII) }),
      let a = Int(parts[0]), let b = Int(parts[1]), var c = Int(parts[2])
    else { return .unreadable }
    var year: Int
    var month: Int
    var day: Int
    if parts[0].count == 4 {
      (year, month, day) = (a, b, c)
    } else {
      if parts[2].count == 2 { c += 2000 }
      year = c
      let resolved: DateOrder
      if let order, order != .ymd {
        resolved = order
      } else if a > 12 {
        resolved = .dmy
      } else if b > 12 || a == b {
        resolved = .mdy
      } else {
        return .ambiguous
      }
      (month, day) = resolved == .dmy ? (b, a) : (a, b)
    }
    guard (1...12).contains(month), day >= 1, day <= ISO8601.daysInMonth(year: year, month: month) else {
      return .unreadable
    }
    return .days(ISO8601.daysFromCivil(year: year, month: month, day: day))
  }

  /// Seconds since midnight of `10:15`, `10:15:32`, `10:15:32.5`, with an
  /// optional `AM`/`PM`.
  static func secondsOfDay(_ text: String) -> Double? {
    var body = text.trimmingCharacters(in: .whitespaces).uppercased()
    var meridiem: String?
    for suffix in ["AM", "PM"] where body.hasSuffix(suffix) {
      meridiem = suffix
      body = String(body.dropLast(2)).trimmingCharacters(in: .whitespaces)
    }
    let parts = body.split(separator: ":", omittingEmptySubsequences: false)
    guard parts.count == 2 || parts.count == 3, var hour = Int(parts[0]), let minute = Int(parts[1]),
      (0...59).contains(minute)
    else { return nil }
    var second = 0.0
    if parts.count == 3 {
      guard let s = Double(parts[2].replacingOccurrences(of: ",", with: ".")), s >= 0, s < 61,
        parts[2].first?.isNumber == true
      else { return nil }
      second = s
    }
    if let meridiem {
      guard (1...12).contains(hour) else { return nil }
      hour = hour % 12 + (meridiem == "PM" ? 12 : 0)
    }
    guard (0...23).contains(hour) else { return nil }
    return Double(hour * 3600 + minute * 60) + second
  }

  /// Seconds since 1970 UTC of a local wall-clock time (seconds since 1970
  /// as if the wall clock were UTC) in `timeZone`, daylight saving included.
  static func utc(fromLocal local: Double, in timeZone: TimeZone) -> Double {
    let guess = local - Double(timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: local)))
    return local - Double(timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: guess)))
  }

  // MARK: Cells

  /// Seconds of an elapsed time: a number of seconds, `m:ss` or
  /// `h:mm:ss(.sss)`.
  static func seconds(fromElapsed text: String, decimalComma: Bool) -> Double? {
    if let value = decimal(text, decimalComma: decimalComma) { return value.isFinite ? value : nil }
    let parts = text.split(separator: ":", omittingEmptySubsequences: false)
    guard parts.count == 2 || parts.count == 3 else { return nil }
    var total = 0.0
    for (k, part) in parts.enumerated() {
      let last = k == parts.count - 1
      guard let first = part.first, first.isASCII, first.isNumber else { return nil }
      if last {
        guard let s = decimal(String(part), decimalComma: true), s < 60 else { return nil }
        total = total * 60 + s
      } else {
        guard let v = Int(part), v >= 0, k == 0 || v < 60 else { return nil }
        total = total * 60 + Double(v)
      }
    }
    return total
  }

  /// A decimal number with `.` decimals, or with `,` ones where the
  /// delimiter is not a comma; nil when the text is not a number.
  static func decimal(_ text: String, decimalComma: Bool) -> Double? {
    let trimmed = text.trimmingCharacters(in: .whitespaces)
    guard let first = trimmed.first, first.isNumber || first == "-" || first == "+" || first == "." else {
      return nil
    }
    if let value = Double(trimmed) { return value }
    if decimalComma, trimmed.filter({ $0 == "," }).count == 1, !trimmed.contains(".") {
      return Double(trimmed.replacingOccurrences(of: ",", with: "."))
    }
    return nil
  }

  /// A non-negative number of a used column; nil for an empty cell.
  static func number(
    _ text: String, name: String, unit: String, decimalComma: Bool, location: SourceLocation
  ) throws -> Double? {
    if text.isEmpty { return nil }
    guard let value = decimal(text, decimalComma: decimalComma), value.isFinite else {
      let hint =
        !decimalComma && text.contains(",") ? " (a ',' decimal separator in a comma-separated file)" : ""
      throw InputError(
        .value, location, "cannot read \(name) \"\(text)\" as a number\(hint)",
        expected: "a number in \(unit) with '.' decimals")
    }
    guard value >= 0 else {
      throw InputError(
        .value, location, "\(name) \"\(text)\" is negative", expected: "a value in \(unit), not below zero")
    }
    return value
  }

  enum Axis: String {
    case latitude
    case longitude
  }

  /// Signed decimal degrees of a coordinate written as degrees, minutes and
  /// seconds with a hemisphere letter (`N51° 45' 55.56"`, `W1° 15' 2.10"`,
  /// `51°45'55.56"N`), as degrees and decimal minutes, or as plain decimal
  /// degrees; nil for an empty cell or 0 (no fix):
  ///
  /// ```
  /// degrees = sign x (d + m / 60 + s / 3600),   sign = -1 for S and W
  /// ```
  static func coordinate(_ text: String, axis: Axis, decimalComma: Bool, location: SourceLocation) throws
    -> Double?
  {
    let trimmed = text.trimmingCharacters(in: .whitespaces)
    if trimmed.isEmpty { return nil }
    let bound = axis == .latitude ? 90.0 : 180.0
    func failure(_ why: String) -> InputError {
      InputError(
        .value, location, "cannot read \(axis.rawValue) \"\(trimmed)\"\(why)",
        expected: axis == .latitude
          ? "degrees, minutes and seconds such as N51° 45' 55.56\", or decimal degrees within +-90"
          : "degrees, minutes and seconds such as W1° 15' 2.10\", or decimal degrees within +-180")
    }
    if let plain = decimal(trimmed, decimalComma: decimalComma) {
      guard plain.isFinite, abs(plain) <= bound else { throw failure(" (out of range)") }
      return plain == 0 ? nil : plain
    }
    var sign = 1.0
    var letters = 0
    var numbers: [Double] = []
    var current = ""
    func flush() throws {
      guard !current.isEmpty else { return }
      guard let value = Double(current.replacingOccurrences(of: ",", with: ".")) else { throw failure("") }
      numbers.append(value)
      current = ""
    }
    for character in trimmed {
      if character.isASCII && (character.isNumber || character == ".") || character == "," && decimalComma {
        current.append(character)
        continue
      }
      try flush()
      switch character {
      case "N", "n", "E", "e", "S", "s", "W", "w":
        let upper = character.uppercased()
        let allowed = axis == .latitude ? ["N", "S"] : ["E", "W"]
        guard allowed.contains(upper) else {
          throw failure(" (\(upper) is not a hemisphere of a \(axis.rawValue))")
        }
        letters += 1
        if upper == "S" || upper == "W" { sign = -1 }
      case "-":
        guard numbers.isEmpty else { throw failure("") }
        sign = -sign
      // Degree, minute and second marks as devices write them (° º ' ′ ’ " ″ ”).
      case "°", "º", "'", "′", "’", "\"", "″", "”", " ", "\u{A0}": break
      default: throw failure("")
      }
    }
    try flush()
    guard letters <= 1, (1...3).contains(numbers.count) else { throw failure("") }
    let minutes = numbers.count > 1 ? numbers[1] : 0
    let seconds = numbers.count > 2 ? numbers[2] : 0
    guard minutes < 60, seconds < 60 else { throw failure(" (minutes and seconds are below 60)") }
    let value = sign * (numbers[0] + minutes / 60 + seconds / 3600)
    guard abs(value) <= bound else { throw failure(" (out of range)") }
    return value == 0 ? nil : value
  }

  /// A cell's text, trimmed, with any `"` that `repairStrayQuotes` set
  /// aside put back.
  static func cell(_ row: CSVRow, _ index: Int) -> String {
    guard index < row.fields.count else { return "" }
    let text = row.fields[index].trimmingCharacters(in: .whitespaces)
    return text.contains(strayQuote) ? text.replacingOccurrences(of: String(strayQuote), with: "\"") : text
  }

  static func isBlank(_ row: CSVRow) -> Bool {
    row.fields.allSatisfy { $0.trimmingCharacters(in: .whitespaces).isEmpty }
  }

  // MARK: Text

  /// The file's text (gzip inflated; UTF-8, UTF-16 with a byte-order mark,
  /// or else Windows-1252, as Windows exports of analyser software are).
  static func text(path: String, expected: String) throws -> (String, [Diagnostic]) {
    let chunks = try LineChunks(path: path, maximumLineBytes: FileInput.limits.maximumRowBytes)
    var bytes: [UInt8] = []
    let maximumBytes = FileInput.limits.maximumBytes
    var rows = RowLengthCheck(limit: FileInput.limits.maximumRowBytes, source: path)
    while let chunk = try chunks.next() {
      try chunk.withUnsafeBufferPointer { try rows.feed($0) }
      bytes += chunk
      guard bytes.count <= maximumBytes else {
        throw InputError(
          .malformed, SourceLocation(file: path), "a file longer than \(maximumBytes) bytes",
          expected:
            "\(expected) of at most \(maximumBytes) bytes (the reader's limit: it is held in memory whole)")
      }
    }
    if bytes.isEmpty {
      throw InputError(.empty, SourceLocation(file: path), "empty file", expected: expected)
    }
    if bytes.starts(with: [0xFF, 0xFE]) || bytes.starts(with: [0xFE, 0xFF]) {
      guard let text = String(bytes: bytes, encoding: .utf16) else {
        throw InputError(.encoding, SourceLocation(file: path), "broken UTF-16 text", expected: expected)
      }
      return (text, [])
    }
    if bytes.withUnsafeBufferPointer({ UTF8Validation.isValid($0) }) {
      return (String(decoding: bytes, as: UTF8.self), [])
    }
    guard
      let text = String(bytes: bytes, encoding: .windowsCP1252) ?? String(bytes: bytes, encoding: .isoLatin1)
    else {
      throw InputError(
        .encoding, SourceLocation(file: path), "not UTF-8 text", expected: "\(expected) in UTF-8")
    }
    return (
      text,
      [
        Diagnostic(
          code: "text-encoding", severity: .note, message: "not UTF-8; read as Windows-1252", location: path)
      ]
    )
  }

  struct FoundHeader {
    var text: String
    var delimiter: UInt8
    var header: CSVRow
    var notes: [Diagnostic]
  }

  /// The delimiter and header row of a COSMED export: the first row of the
  /// first `headerSearchLines` lines with a `t` and a `VO2` cell, trying
  /// comma, semicolon and tab in turn.
  static func findCOSMEDHeader(_ text: String, source: String) throws -> FoundHeader {
    let body = text.hasPrefix("\u{FEFF}") ? String(text.dropFirst()) : text
    var head = body.startIndex
    var lines = 0
    while lines < headerSearchLines, head < body.endIndex {
      head = body[head...].firstIndex(of: "\n").map { body.index(after: $0) } ?? body.endIndex
      lines += 1
    }
    var tokenizerError: Error?
    for delimiter: UInt8 in [0x2C, 0x3B, 0x09] {
      let (repaired, strays) = repairStrayQuotes(String(body[..<head]), delimiter: delimiter)
      let rows: [CSVRow]
      do {
        rows = try CSVTokenizer.rows(repaired, source: source, delimiter: delimiter)
      } catch {
        if tokenizerError == nil { tokenizerError = error }
        continue
      }
      guard
        let header = rows.first(where: { row in
          let names = row.fields.map { $0.trimmingCharacters(in: .whitespaces) }
          return names.contains("t") && names.contains("VO2")
        })
      else { continue }
      let (whole, allStrays) =
        head == body.endIndex ? (repaired, strays) : repairStrayQuotes(body, delimiter: delimiter)
      var notes: [Diagnostic] = []
      if allStrays > 0 {
        notes.append(
          Diagnostic(
            code: "unquoted-quote-marks", severity: .note,
            message: "\(allStrays) cell(s) hold a '\"' (a seconds mark) without CSV quoting; read as written",
            location: source))
      }
      return FoundHeader(text: whole, delimiter: delimiter, header: header, notes: notes)
    }
    // A file that is not CSV at all says where it breaks.
    if let tokenizerError { throw tokenizerError }
    throw InputError(
      .malformed, SourceLocation(file: source, line: 1),
      "no header row with a t column and a VO2 column in the first \(headerSearchLines) lines",
      expected: "a COSMED K5 breath-by-breath export: a row of column names (t, VO2, ...) then a row of units"
    )
  }

  /// Stands in for a `"` inside an unquoted cell while the text goes
  /// through the strict tokenizer; `cell` puts the `"` back (a character of
  /// Unicode's private use area, which no export writes).
  static let strayQuote: Character = "\u{E022}"

  /// Replaces each `"` inside a cell that does not start with one (as in an
  /// unquoted `N51° 45' 55.56"`), which RFC 4180 forbids but analyser
  /// exports write, by `strayQuote`; quoted cells are left as they are.
  /// Returns the text and the number of cells changed.
  static func repairStrayQuotes(_ text: String, delimiter: UInt8) -> (String, Int) {
    guard text.utf8.contains(0x22) else { return (text, 0) }
    var output: [UInt8] = []
    output.reserveCapacity(text.utf8.count)
    var changed = 0
    var inQuoted = false
    var atFieldStart = true
    var cellChanged = false
    var bytes = text.utf8.makeIterator()
    var pending: UInt8? = nil
    while let byte = pending ?? bytes.next() {
      pending = nil
      if inQuoted {
        output.append(byte)
        if byte == 0x22 {
          let next = bytes.next()
          if next == 0x22 {
            output.append(0x22)
          } else {
            inQuoted = false
            pending = next
          }
        }
        continue
      }
      if byte == delimiter || byte == 0x0A || byte == 0x0D {
        atFieldStart = true
        if cellChanged { changed += 1 }
        cellChanged = false
        output.append(byte)
        continue
      }
      if byte == 0x22 {
        if atFieldStart {
          inQuoted = true
          atFieldStart = false
          output.append(byte)
        } else {
          output += Array(String(strayQuote).utf8)
          cellChanged = true
        }
        continue
      }
      atFieldStart = false
      output.append(byte)
    }
    if cellChanged { changed += 1 }
    return changed == 0 ? (text, 0) : (String(decoding: output, as: UTF8.self), changed)
  }
}
