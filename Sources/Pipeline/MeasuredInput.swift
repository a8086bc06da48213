import EnergyLabCore
import Foundation
import Ingest

/// Where measured energy expenditure comes from for `energy` and
/// `agreement`: a COSMED K5 export, or a generic CSV whose time and energy
/// columns are named.
package struct MeasuredOptions: Sendable, Hashable {
  package var path: String
  /// For a generic CSV: the time column (seconds or ISO-8601), the energy
  /// column and its unit. Nil columns mean a COSMED K5 export.
  package var timeColumn: String?
  package var energyColumn: String?
  package var energyUnit: MeasuredEnergyUnit?
  /// Longest heart-rate dropout filled by interpolation, s.
  package var heartRateGapLimitSeconds = MeasuredExpenditureReader.defaultHeartRateGapLimitSeconds
  package var timeZone: TimeZone?
  /// How the breaths are cleaned before they are integrated; nil reads the
  /// export as it is.
  package var breathFilter: BreathFilter? = BreathFilter()

  package init(path: String, breathFilter: BreathFilter? = BreathFilter()) {
    self.path = path
    self.breathFilter = breathFilter
  }

  /// The settings as recorded with a run.
  package var described: [NamedParameter] {
    var out = [
      NamedParameter(
        name: "measured_format", value: energyColumn == nil ? "cosmed-k5" : "generic",
        meaning: "layout of the measured-expenditure file"),
      NamedParameter(
        name: "measured_hr_gap_fill_s", value: Fixed.shortest(heartRateGapLimitSeconds),
        meaning: "longest heart-rate dropout filled by interpolation"),
    ]
    out +=
      breathFilter?.described ?? [
        NamedParameter(name: "breath_filter", value: "none", meaning: "the export integrated as it is")
      ]
    if let timeColumn, let energyColumn, let energyUnit {
      out += [
        NamedParameter(name: "measured_time_column", value: timeColumn, meaning: "column of times"),
        NamedParameter(
          name: "measured_energy_column", value: energyColumn, meaning: "column of measured energy"),
        NamedParameter(
          name: "measured_energy_unit", value: energyUnit.label, meaning: "unit of measured energy"),
      ]
    }
    return out
  }

  /// The measurement, cleaned by the breath filter (its counts by reason
  /// among the diagnostics).
  package func read() throws -> MeasuredExpenditure {
    let reader = MeasuredExpenditureReader(
      heartRateGapLimitSeconds: heartRateGapLimitSeconds, timeZone: timeZone)
    let raw: MeasuredExpenditure
    if let timeColumn, let energyColumn, let energyUnit {
      raw = try reader.readGeneric(
        path: path, timeColumn: timeColumn, energyColumn: energyColumn, energyUnit: energyUnit)
    } else {
      raw = try reader.readCOSMED(path: path)
    }
    guard let breathFilter else { return raw }
    var (cleaned, _, notes) = breathFilter.apply(to: raw)
    cleaned.diagnostics += notes
    return cleaned
  }
}

/// Measured expenditure placed on a track's clock.
package struct AlignedMeasurement: Sendable {
  package var measured: MeasuredExpenditure
  /// Seconds added to the measurement's times to put them on the track's:
  /// 0 for absolute times; the track's first time for times counted from
  /// the start of the test.
  package var offsetSeconds: Double
  package var diagnostics: [Diagnostic]

  /// Aligns `measured` with a track that starts at `trackStart` (seconds
  /// since 1970): absolute times are used as they are; relative times are
  /// taken to start with the track, which a note says. A measurement that
  /// does not overlap the track is a warning.
  package init(_ measured: MeasuredExpenditure, trackStart: Double?, trackEnd: Double?, track: String) {
    self.measured = measured
    var diagnostics: [Diagnostic] = []
    if measured.timesAreAbsolute || measured.source == track {
      offsetSeconds = 0
    } else {
      offsetSeconds = trackStart ?? 0
      diagnostics.append(
        Diagnostic(
          code: "measured-times-relative", severity: .note,
          message:
            "\(measured.source) counts time from the start of the test, with no date: its start is taken as the track's first fix",
          location: track))
    }
    if let first = measured.samples.first?.timeSeconds, let last = measured.samples.last?.timeSeconds,
      let trackStart, let trackEnd,
      first + offsetSeconds > trackEnd || last + offsetSeconds < trackStart
    {
      diagnostics.append(
        Diagnostic(
          code: "measured-outside-track",
          message:
            "\(measured.source) (\(ISO8601.formatUTC(first + offsetSeconds)) to \(ISO8601.formatUTC(last + offsetSeconds))) does not overlap the track: no measured energy",
          location: track))
    }
    self.diagnostics = diagnostics
  }

  /// Measured energy over the known parts of `[start, end]` on the
  /// track's clock, and how much of the span is known.
  package func knownEnergy(from start: Double, to end: Double) -> MeasuredExpenditure.KnownEnergy {
    measured.knownEnergy(from: start - offsetSeconds, to: end - offsetSeconds)
  }

  /// Measured energy over `[start, end]` on the track's clock, kcal; nil
  /// where the measurement does not cover the span.
  package func energyKilocalories(from start: Double, to end: Double) -> Double? {
    measured.energyKilocalories(from: start - offsetSeconds, to: end - offsetSeconds)
  }
}

extension MeasuredExpenditure {
  /// The breaths with a position as a track (a COSMED K5 records GPS
  /// positions, speed and heart rate with every breath): times as the file
  /// gives them (counted from 1970-01-01 when the file has no date, which a
  /// note says).
  package func track() -> Track {
    var points: [TrackPoint] = []
    var timeOnly: [TrackPoint] = []
    for s in samples {
      if let lat = s.latitudeDegrees, let lon = s.longitudeDegrees {
        var p = TrackPoint(
          latitudeDegrees: lat, longitudeDegrees: lon, elevationMeters: s.elevationMeters,
          timeSecondsSince1970: s.timeSeconds, heartRateBeatsPerMinute: s.heartRateBeatsPerMinute,
          sourceLine: s.line)
        p.reportedSpeedMetersPerSecond = s.speedMetersPerSecond
        points.append(p)
      } else {
        timeOnly.append(
          TrackPoint(
            latitudeDegrees: .nan, longitudeDegrees: .nan, timeSecondsSince1970: s.timeSeconds,
            heartRateBeatsPerMinute: s.heartRateBeatsPerMinute, sourceLine: s.line, kind: .timeOnly))
      }
    }
    var diagnostics = self.diagnostics
    if !timesAreAbsolute {
      diagnostics.append(
        Diagnostic(
          code: "measured-times-relative", severity: .note,
          message: "the file has no test date: its times count from 1970-01-01T00:00:00Z", location: source))
    }
    if points.isEmpty {
      diagnostics.append(
        Diagnostic(
          code: "no-positions", message: "no breath carries a GPS position: the track has no path",
          location: source))
    }
    var structure = TrackStructure()
    structure.tracks = points.isEmpty ? 0 : 1
    structure.segments = points.isEmpty ? 0 : 1
    structure.trackPoints = points.count
    structure.timeOnlyPoints = timeOnly.count
    return Track(
      name: nil, source: source, points: points, timeOnlyPoints: timeOnly, structure: structure,
      diagnostics: diagnostics)
  }
}
