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

  /// Reads a GPX file, turning any failure into an `InputError`.
  public static func readTrack(_ path: String) throws -> Track {
    try GPXReader().read(path: path)
  }

  public static func summaryRecord(_ s: TrackSummary) -> ResultRecord {
    ResultRecord([
      "file": .string(s.source),
      "points": .integer(s.points),
      "start_time": s.startSecondsSince1970.map { .string(ISO8601.formatUTC($0)) } ?? .null,
      "end_time": s.endSecondsSince1970.map { .string(ISO8601.formatUTC($0)) } ?? .null,
      "duration_s": .number(s.durationSeconds, 1),
      "moving_time_s": .number(s.movingTimeSeconds, 1),
      "distance_2d_m": .number(s.distance2DMeters, 1),
      "distance_3d_m": .number(s.distance3DMeters, 1),
      "elevation_gain_m": .number(s.elevationGainMeters, 1),
      "elevation_loss_m": .number(s.elevationLossMeters, 1),
      "average_speed_mps": .number(s.averageSpeedMetersPerSecond, 3),
      "max_speed_mps": .number(s.maxSpeedMetersPerSecond, 3),
      "grade_mean_pct": .number(s.gradeMeanFraction.map { $0 * 100 }, 2),
      "heart_rate_mean_bpm": .number(s.heartRateMeanBeatsPerMinute, 1),
      "diagnostics": .array(s.diagnostics.map { .string($0.description) }),
    ])
  }

  public static func summary(
    files: [String], parameters: TrackAnalysisParameters, format: OutputFormat?, context: CommandContext
  ) throws {
    let analysis = TrackAnalysis(parameters: parameters)
    var rows: [ResultRecord] = []
    for file in files {
      let track = try readTrack(file)
      _ = try context.recordInput(file)
      let summary = analysis.summary(of: track)
      context.provenance.diagnostics += summary.diagnostics
      rows.append(summaryRecord(summary))
    }
    context.provenance.addParameters(parameters.described)
    context.emit(ResultTable(name: "track-summary", rows: rows), format: format)
  }
}
