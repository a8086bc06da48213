import EnergyLabCore
import Ingest
import Tracks

/// A track summary with what its file says of itself: the value the
/// columns of `track summary` read.
package struct TrackSummaryValue: Sendable {
  package var summary: TrackSummary
  /// The file's format (`gpx`, `fit`), printed only.
  package var format: String?
  /// A FIT file's sessions and laps, for the device's own totals.
  package var fit: FITSummary?

  package init(_ summary: TrackSummary, format: String?, fit: FITSummary?) {
    self.summary = summary
    self.format = format
    self.fit = fit
  }

  var hasWork: Bool { summary.workJoules != nil }
  var hasSessions: Bool { !(fit?.sessions.isEmpty ?? true) }
}

extension TrackCommands {
  /// The columns of `track summary`, declared once: the printed record
  /// and the stored rows are both made from this list. With power, `work`
  /// and `mean_power`; with a FIT file's sessions, the device's own
  /// `total_work` and `total_calories` beside them (`device_calories` is
  /// the device's estimate, not a measurement).
  package static let summaryColumns: [ResultColumn<TrackSummaryValue>] = [
    .text("file") { .string($0.summary.source) },
    .text("format") { $0.format.map { .string($0) } ?? .null },
    .text("path") { .string($0.summary.pathSource.rawValue) },
    .integer("tracks") { $0.summary.structure.tracks },
    .integer("segments") { $0.summary.structure.segments },
    .integer("routes") { $0.summary.structure.routes },
    .integer("waypoints") { $0.summary.structure.waypoints },
    .integer("points") { $0.summary.structure.trackPoints },
    .integer("route_points") { $0.summary.structure.routePoints },
    .text("start_time") { $0.summary.startSecondsSince1970.map { .string(ISO8601.formatUTC($0)) } ?? .null },
    .text("end_time") { $0.summary.endSecondsSince1970.map { .string(ISO8601.formatUTC($0)) } ?? .null },
    .number("duration", .seconds, digits: 1) { $0.summary.durationSeconds },
    .number("moving_time", .seconds, digits: 1) { $0.summary.movingTimeSeconds },
    .number("distance_2d", .meters, digits: 1) { $0.summary.distance2DMeters },
    .number("distance_3d", .meters, digits: 1) { $0.summary.distance3DMeters },
    .integer("gap_count") { $0.summary.gapCount },
    .number("gap_distance", .meters, digits: 1) { $0.summary.gapDistanceMeters },
    .number("gap_duration", .seconds, digits: 1) { $0.summary.gapDurationSeconds },
    .number("device_distance", .meters, digits: 1) { $0.summary.deviceDistanceMeters },
    .number("elevation_gain", .meters, digits: 1) { $0.summary.elevationGainMeters },
    .number("elevation_loss", .meters, digits: 1) { $0.summary.elevationLossMeters },
    .number("elevation_gain_recorded", .meters, digits: 1) { $0.summary.elevationGainRecordedMeters },
    .number("elevation_loss_recorded", .meters, digits: 1) { $0.summary.elevationLossRecordedMeters },
    .number("elevation_gain_cleaned", .meters, digits: 1) { $0.summary.elevationGainCleanedMeters },
    .number("elevation_loss_cleaned", .meters, digits: 1) { $0.summary.elevationLossCleanedMeters },
    .number("elevation_reversal_share", .fraction, digits: 3) { $0.summary.elevationReversalShare },
    .number("elevation_gain_smoothed", .meters, digits: 1) { $0.summary.elevationGainSmoothedMeters },
    .number("elevation_loss_smoothed", .meters, digits: 1) { $0.summary.elevationLossSmoothedMeters },
    .number("elevation_gain_hysteresis", .meters, digits: 1) { $0.summary.elevationGainHysteresisMeters },
    .number("elevation_loss_hysteresis", .meters, digits: 1) { $0.summary.elevationLossHysteresisMeters },
    .number("average_speed", .metersPerSecond, digits: 3) { $0.summary.averageSpeedMetersPerSecond },
    .number("max_speed", .metersPerSecond, digits: 3) { $0.summary.maxSpeedMetersPerSecond },
    .number("max_speed_robust", .metersPerSecond, digits: 3) { $0.summary.robustMaxSpeedMetersPerSecond },
    .number("grade_mean", .percent, digits: 2) { $0.summary.gradeMeanFraction.map { $0 * 100 } },
    .number("grade_min", .percent, digits: 2) { $0.summary.gradeMinFraction.map { $0 * 100 } },
    .number("grade_max", .percent, digits: 2) { $0.summary.gradeMaxFraction.map { $0 * 100 } },
    .number("heart_rate_mean", .beatsPerMinute, digits: 1) { $0.summary.heartRateMeanBeatsPerMinute },
    .number("heart_rate_max", .beatsPerMinute, digits: 1) { $0.summary.heartRateMaxBeatsPerMinute },
    .number("work", .kilojoules, digits: 1, when: \.hasWork) { $0.summary.workJoules.map { $0 / 1000 } },
    .number("mean_power", .watts, digits: 1, when: \.hasWork) { $0.summary.meanPowerWatts },
    .number("device_work", .kilojoules, digits: 1, when: \.hasSessions) { v in
      let works = v.fit?.sessions.compactMap(\.totalWorkJoules) ?? []
      return works.isEmpty ? nil : works.reduce(0, +) / 1000
    },
    .number("device_calories", .kilocalories, digits: 0, when: \.hasSessions) { v in
      let calories = v.fit?.sessions.compactMap(\.totalEnergyKilocalories) ?? []
      return calories.isEmpty ? nil : calories.reduce(0, +)
    },
    .integer("laps", when: \.hasSessions) { $0.fit?.lapCount },
    .text("diagnostics") { .array($0.summary.diagnostics.map { .string($0.description) }) },
  ]
}
