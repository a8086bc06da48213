/// A lap as the recording device declares it (FIT `lap` message, TCX
/// `<Lap>`): when it began and ended, and the device's own totals for it.
/// Absent values are nil, never 0.
///
/// Units as the FIT Profile defines them (times in s, distance in m, work
/// in J, power in W, climb in m); TCX states start, total time, distance
/// and heart rate only.
public struct DeviceLap: Sendable, Hashable {
  /// `start_time` (TCX: the `StartTime` attribute), s since 1970.
  public var startSecondsSince1970: Double?
  /// The message's `timestamp` (when the lap ended), s since 1970.
  public var endSecondsSince1970: Double?
  /// `total_elapsed_time`, pauses included, s.
  public var elapsedSeconds: Double?
  /// `total_timer_time` (TCX `TotalTimeSeconds`), pauses excluded, s.
  public var timerSeconds: Double?
  /// `total_distance` (TCX `DistanceMeters`), m.
  public var distanceMeters: Double?
  /// `total_work`, J.
  public var workJoules: Double?
  /// `avg_power`, W.
  public var averagePowerWatts: Double?
  /// `max_power`, W.
  public var maxPowerWatts: Double?
  /// `normalized_power`, W.
  public var normalizedPowerWatts: Double?
  /// `avg_heart_rate` (TCX `AverageHeartRateBpm`), bpm.
  public var averageHeartRateBeatsPerMinute: Double?
  /// `max_heart_rate` (TCX `MaximumHeartRateBpm`), bpm.
  public var maxHeartRateBeatsPerMinute: Double?
  /// `total_ascent`, m.
  public var ascentMeters: Double?
  /// `total_descent`, m.
  public var descentMeters: Double?

  public init() {}
}
