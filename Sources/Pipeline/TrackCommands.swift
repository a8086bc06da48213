import EnergyLabCore
import Foundation
import Ingest
import Reporting
import Tracks

/// `track synth` and `track summary` as library calls.
public enum TrackCommands {
  /// Writes a synthetic track as GPX to `outputPath` (atomically) and prints
  /// what it holds by construction.
  public static func synth(_ spec: SyntheticTrackSpec, outputPath: String, context: CommandContext) throws {
    let track = TrackSynthesizer.track(spec)
    try AtomicFile.write(
      GPXWriter.gpx(track, creator: "EnergyLab \(EnergyLabVersion.current) track synth"), to: outputPath)
    let legs = spec.effectiveLegs.map {
      "\(Fixed.format($0.durationSeconds, digits: 0)) s at \(Fixed.shortest($0.speedMetersPerSecond)) m/s, grade \(Fixed.shortest($0.gradeFraction))"
    }
    context.write(
      "wrote \(outputPath): \(track.points.count) fixes, \(legs.joined(separator: "; then ")), seed \(spec.seed)\n"
    )
  }

  /// Reads a GPX or TCX file whole, cleaned as the parameters say.
  public static func readTrack(
    _ path: String, parameters: TrackAnalysisParameters = TrackAnalysisParameters(),
    defaultTimeZone: TimeZone? = nil
  ) throws -> Track {
    var points: [TrackPoint] = []
    var cleaner = TrackCleaner(parameters: parameters.cleaning)
    let header = try GPXReader(defaultTimeZone: defaultTimeZone).stream(path: path) { p in
      try cleaner.add(p) { points.append($0) }
    }
    cleaner.finish { points.append($0) }
    return Track(
      name: header.name, source: path, points: points,
      diagnostics: header.diagnostics + cleaner.diagnostics(source: path))
  }

  public static func summaryRecord(_ s: TrackSummary, format: String?) -> ResultRecord {
    ResultRecord([
      "file": .string(s.source),
      "format": format.map { .string($0) } ?? .null,
      "points": .integer(s.points),
      "start_time": s.startSecondsSince1970.map { .string(ISO8601.formatUTC($0)) } ?? .null,
      "end_time": s.endSecondsSince1970.map { .string(ISO8601.formatUTC($0)) } ?? .null,
      "duration_s": .number(s.durationSeconds, 1),
      "moving_time_s": .number(s.movingTimeSeconds, 1),
      "distance_2d_m": .number(s.distance2DMeters, 1),
      "distance_3d_m": .number(s.distance3DMeters, 1),
      "elevation_gain_m": .number(s.elevationGainMeters, 1),
      "elevation_loss_m": .number(s.elevationLossMeters, 1),
      "elevation_gain_smoothed_m": .number(s.elevationGainSmoothedMeters, 1),
      "elevation_loss_smoothed_m": .number(s.elevationLossSmoothedMeters, 1),
      "elevation_gain_hysteresis_m": .number(s.elevationGainHysteresisMeters, 1),
      "elevation_loss_hysteresis_m": .number(s.elevationLossHysteresisMeters, 1),
      "average_speed_mps": .number(s.averageSpeedMetersPerSecond, 3),
      "max_speed_mps": .number(s.maxSpeedMetersPerSecond, 3),
      "max_speed_robust_mps": .number(s.robustMaxSpeedMetersPerSecond, 3),
      "grade_mean_pct": .number(s.gradeMeanFraction.map { $0 * 100 }, 2),
      "grade_min_pct": .number(s.gradeMinFraction.map { $0 * 100 }, 2),
      "grade_max_pct": .number(s.gradeMaxFraction.map { $0 * 100 }, 2),
      "heart_rate_mean_bpm": .number(s.heartRateMeanBeatsPerMinute, 1),
      "heart_rate_max_bpm": .number(s.heartRateMaxBeatsPerMinute, 1),
      "diagnostics": .array(s.diagnostics.map { .string($0.description) }),
    ])
  }

  /// Summaries of many files in constant memory per file. A file that cannot
  /// be read is reported on the error stream and skipped; the command ends
  /// with a failure when any was (`failFast` stops at the first).
  public static func summary(
    files: [String], parameters: TrackAnalysisParameters, defaultTimeZone: TimeZone? = nil,
    failFast: Bool = false,
    format: OutputFormat?, context: CommandContext
  ) throws {
    var rows: [ResultRecord] = []
    var failures: [String] = []
    for file in files {
      do {
        var accumulator = StreamingTrackSummary(source: file, parameters: parameters)
        var cleaner = TrackCleaner(parameters: parameters.cleaning)
        let header = try GPXReader(defaultTimeZone: defaultTimeZone).stream(path: file) { p in
          cleaner.add(p) { accumulator.add($0) }
        }
        cleaner.finish { accumulator.add($0) }
        let summary = accumulator.finish(diagnostics: header.diagnostics + cleaner.diagnostics(source: file))
        _ = try context.recordInput(file)
        context.provenance.diagnostics += summary.diagnostics
        rows.append(summaryRecord(summary, format: header.format))
      } catch let error as InputError {
        if failFast { throw error }
        failures.append(file)
        context.warn("energylab: \(error) (skipped)")
      }
    }
    context.provenance.addParameters(parameters.described)
    context.emit(ResultTable(name: "track-summary", rows: rows), format: format)
    if !failures.isEmpty {
      throw RuntimeError(
        "\(failures.count) of \(files.count) files could not be read; \(rows.count) summarised")
    }
  }

  /// The activities of a track by speed band.
  public static func segments(
    file: String, parameters: TrackAnalysisParameters, defaultTimeZone: TimeZone? = nil,
    modes: SpeedBandParameters = SpeedBandParameters(), format: OutputFormat?, context: CommandContext
  ) throws {
    let track = try readTrack(file, parameters: parameters, defaultTimeZone: defaultTimeZone)
    _ = try context.recordInput(file)
    let (steps, diagnostics) = TrackAnalysis(parameters: parameters).steps(of: track)
    context.provenance.diagnostics += track.diagnostics + diagnostics
    let activities = SpeedBandClassifier(parameters: modes).activities(of: steps)
    context.provenance.addParameters(parameters.described + modes.described)
    let rows = activities.enumerated().map { k, a in
      ResultRecord([
        "file": .string(file), "activity": .integer(k + 1), "mode": .string(a.mode.rawValue),
        "start_time": a.startSecondsSince1970.map { .string(ISO8601.formatUTC($0)) } ?? .null,
        "end_time": a.endSecondsSince1970.map { .string(ISO8601.formatUTC($0)) } ?? .null,
        "distance_m": .number(a.distanceMeters, 1), "duration_s": .number(a.durationSeconds, 1),
        "speed_mps": .number(a.durationSeconds > 0 ? a.distanceMeters / a.durationSeconds : nil, 3),
      ])
    }
    context.emit(ResultTable(name: "track-segments", rows: rows), format: format)
  }
}
