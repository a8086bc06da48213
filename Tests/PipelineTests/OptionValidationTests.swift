import EnergyLabCore
import Signals
import Testing

@testable import Pipeline

/// The option groups a library caller fills check themselves: a value just
/// outside its bound throws a `ValueError` naming the parameter; the bound
/// passes. Bounds from the help: sample rate positive; the power fit range
/// from at least 1 s to beyond its start; CP and W' positive.
@Suite struct OptionValidationTests {
  @Test func accelOptionsCheckSampleRateAndTheirGroups() throws {
    var o = AccelOptions()
    o.map.sampleRateHz = 0
    #expect(try #require(throws: ValueError.self) { try o.validated() }.subject == "sample_rate_hz")
    o.map.sampleRateHz = 1e-6
    _ = try o.validated()
    var n = NonWearParameters()
    n.windowMinutes = 50
    o.nonWear = n
    #expect(try #require(throws: ValueError.self) { try o.validated() }.subject == "non_wear_window_min")
    o.nonWear = NonWearParameters()
    var c = AutoCalibrationParameters()
    c.stillSDMilliG = -1
    o.calibration = c
    #expect(try #require(throws: ValueError.self) { try o.validated() }.subject == "calibration_still_sd_mg")
  }

  /// A library caller of an accel command gets the check before any file
  /// is read (the file does not exist).
  @Test func analysisRefusesBadParametersBeforeReading() throws {
    var o = AccelOptions()
    o.analysis.steps.relativePeakFraction = 1
    let error = try #require(throws: ValueError.self) {
      try AccelPipeline.analyse("/nonexistent/recording.csv", options: o)
    }
    #expect(error.subject == "step_relative_peak")
  }

  @Test func powerCurveOptionsCheckThemselves() throws {
    var o = PowerCurveCommand.Options(paths: [])
    o.fitFromSeconds = 0
    #expect(try #require(throws: ValueError.self) { try o.validated() }.subject == "fit_from_s")
    o.fitFromSeconds = 1
    o.fitToSeconds = 1
    let error = try #require(throws: ValueError.self) { try o.validated() }
    #expect(error.expected == "at least 1 s and below fit_to_s")
    o.fitToSeconds = 2
    _ = try o.validated()
    o.criticalPowerWatts = 0
    #expect(try #require(throws: ValueError.self) { try o.validated() }.subject == "cp_w")
    o.criticalPowerWatts = 1e-6
    o.wPrimeJoules = 0
    #expect(try #require(throws: ValueError.self) { try o.validated() }.subject == "w_prime_j")
    o.wPrimeJoules = 1e-6
    _ = try o.validated()
    o.track.gradeWindowMeters = 0
    #expect(try #require(throws: ValueError.self) { try o.validated() }.subject == "grade_window_m")
  }

  @Test func batchRefusesBadParametersBeforeDiscovering() throws {
    var o = BatchCommand.Options(folders: ["/nonexistent"], databasePath: ":memory:")
    o.accel.analysis.dayRules.boutShare = 0
    let error = try #require(throws: ValueError.self) { try BatchCommand.batch(o, record: { _ in }) }
    #expect(error.subject == "mvpa_bout_share")
  }
}
