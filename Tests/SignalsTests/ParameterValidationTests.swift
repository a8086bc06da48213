import EnergyLabCore
import Testing

@testable import Signals

/// Each accelerometer parameter group checks itself: a value just outside
/// its bound throws a `ValueError` naming the parameter as the run reports
/// it; the bound itself is accepted. Bounds as the `accel` help states them:
/// step threshold positive; relative peak at least 0 and below 1; minimum
/// step interval positive and below the 1.25 s that ends a bout; low-pass
/// above the 0.5 Hz high-pass and at most 10 Hz; calibration still SD,
/// non-wear SD and range positive; non-wear window a whole multiple of 15
/// minutes; valid-day hours 0 to 24; MVPA bout positive; bout share above 0
/// and at most 1; intensity epoch positive.
@Suite struct ParameterValidationTests {
  static let tiny = 1e-6

  /// (parameter name, a value just outside, the bound or a value on it).
  static let steps: [(String, WritableKeyPath<StepDetectionParameters, Double> & Sendable, Double, Double)] =
    [
      ("step_peak_threshold_g", \.peakThresholdG, 0, tiny),
      ("step_relative_peak", \.relativePeakFraction, -tiny, 0),
      ("step_relative_peak", \.relativePeakFraction, 1, 1 - tiny),
      ("step_min_interval_s", \.minimumStepIntervalSeconds, 0, tiny),
      ("step_min_interval_s", \.minimumStepIntervalSeconds, 1.25, 1.25 - tiny),
      ("step_low_pass_hz", \.lowPassHz, 0.5, 0.5 + tiny),
      ("step_low_pass_hz", \.lowPassHz, 10 + tiny, 10),
    ]

  @Test(arguments: steps.indices)
  func stepDetectorChecksItself(index: Int) throws {
    let (name, path, outside, inside) = Self.steps[index]
    var p = StepDetectionParameters()
    p[keyPath: path] = outside
    let error = try #require(throws: ValueError.self) { try p.validated() }
    #expect(error.subject == name)
    #expect(error.kind == .outOfRange)
    p[keyPath: path] = inside
    #expect(try p.validated() == p)
  }

  static let nonWear: [(String, WritableKeyPath<NonWearParameters, Double> & Sendable, Double, Double)] = [
    ("non_wear_sd_mg", \.sdMilliG, 0, tiny),
    ("non_wear_range_mg", \.rangeMilliG, 0, tiny),
    ("non_wear_window_min", \.windowMinutes, 0, 15),
    ("non_wear_window_min", \.windowMinutes, 15 + 0.01, 15),
    ("non_wear_window_min", \.windowMinutes, 20, 45),
  ]

  @Test(arguments: nonWear.indices)
  func nonWearChecksItself(index: Int) throws {
    let (name, path, outside, inside) = Self.nonWear[index]
    var p = NonWearParameters()
    p[keyPath: path] = outside
    let error = try #require(throws: ValueError.self) { try p.validated() }
    #expect(error.subject == name)
    p[keyPath: path] = inside
    #expect(try p.validated() == p)
  }

  @Test func calibrationChecksItself() throws {
    var p = AutoCalibrationParameters()
    p.stillSDMilliG = 0
    let error = try #require(throws: ValueError.self) { try p.validated() }
    #expect(error.subject == "calibration_still_sd_mg")
    #expect(error.description == "calibration_still_sd_mg must be positive; got 0")
    p.stillSDMilliG = Self.tiny
    #expect(try p.validated() == p)
  }

  static let days: [(String, WritableKeyPath<DayRules, Double> & Sendable, Double, Double)] = [
    ("valid_day_min_wear_h", \.minimumWearHours, -tiny, 0),
    ("valid_day_min_wear_h", \.minimumWearHours, 24 + tiny, 24),
    ("mvpa_bout_min", \.boutMinutes, 0, tiny),
    ("mvpa_bout_share", \.boutShare, 0, tiny),
    ("mvpa_bout_share", \.boutShare, 1 + tiny, 1),
  ]

  /// The day rules are checked through the analysis parameters that hold
  /// them, as a notebook or batch passes them.
  @Test(arguments: days.indices)
  func dayRulesCheckThemselves(index: Int) throws {
    let (name, path, outside, inside) = Self.days[index]
    var p = AccelAnalysisParameters()
    p.dayRules[keyPath: path] = outside
    let error = try #require(throws: ValueError.self) { try p.validated() }
    #expect(error.subject == name)
    p.dayRules[keyPath: path] = inside
    #expect(try p.validated().dayRules == p.dayRules)
  }

  @Test func analysisChecksIntensityEpochAndSteps() throws {
    var p = AccelAnalysisParameters()
    p.intensityEpochSeconds = 0
    #expect(throws: ValueError.self) { try p.validated() }
    p.intensityEpochSeconds = Self.tiny
    _ = try p.validated()
    p.steps.lowPassHz = 0.4
    let error = try #require(throws: ValueError.self) { try p.validated() }
    #expect(error.subject == "step_low_pass_hz")
    #expect(error.expected == "above the 0.5 Hz high-pass and at most 10 Hz")
  }
}
