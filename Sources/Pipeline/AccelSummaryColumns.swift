import EnergyLabCore
import Estimation
import Signals

/// An accelerometer recording's analysis with its minutes by intensity
/// over all days: the value the columns of `accel summary` read.
package struct AccelSummaryValue: Sendable {
  package var result: AccelResult
  /// Minutes in each intensity class over every day.
  package var minutes: [IntensityClass: Double]

  package init(_ result: AccelResult) {
    self.result = result
    minutes = result.analysis.days.reduce(into: [IntensityClass: Double]()) { sum, day in
      for (k, v) in day.minutes { sum[k, default: 0] += v }
    }
  }

  var isCalibrated: Bool { result.calibration != nil }
  var hasNonWear: Bool { result.nonWear != nil }
}

extension AccelCommands {
  /// The columns of `accel summary`, declared once: the printed record and
  /// the stored rows are both made from this list. Calibration and
  /// non-wear columns are there only when asked for.
  package static let summaryColumns: [ResultColumn<AccelSummaryValue>] = {
    var columns: [ResultColumn<AccelSummaryValue>] = [
      .text("file") { .string($0.result.file) },
      .text("format") { .string($0.result.info.layout.format.rawValue) },
      .text("kind") { .string($0.result.analysis.kind.rawValue) },
      .integer("samples") { $0.result.analysis.samples },
      .number("sample_rate", .hertz, digits: 3) { $0.result.analysis.sampleRateHz },
      .text("start_time") { AccelCommands.time($0.result.analysis.start, $0.result) },
      .text("end_time") { AccelCommands.time($0.result.analysis.end, $0.result) },
      // To the microsecond: times near 1.7e9 s carry about 0.2 us of rounding.
      .number("duration", .seconds, digits: 3) {
        $0.result.analysis.durationSeconds.map { ($0 * 1e6).rounded() / 1e6 }
      },
      .integer("gaps") { $0.result.analysis.gaps },
      .integer("steps", .steps) { $0.result.analysis.steps },
      .number("enmo_mean", .milliG, digits: 2) { $0.result.analysis.enmoMeanMilliG },
      .number("mad_mean", .milliG, digits: 2) { $0.result.analysis.madMeanMilliG },
      .text("cut_points") { .string($0.result.analysis.cutPoints.id) },
      .number("intensity_epoch", .seconds, digits: 0) { $0.result.analysis.intensityEpochSeconds },
      // Null when no epoch has an intensity class (no cut-points apply).
      .number("sedentary", .minutes, digits: 1) { $0.minutes[.sedentary] },
      .number("light", .minutes, digits: 1) { $0.minutes[.light] },
      .number("moderate", .minutes, digits: 1) { $0.minutes[.moderate] },
      .number("vigorous", .minutes, digits: 1) { $0.minutes[.vigorous] },
      .number("mvpa_bout", .minutes, digits: 1) { $0.result.analysis.days.total(\.mvpaBoutMinutes) },
      .number("sedentary_bout", .minutes, digits: 1) {
        $0.result.analysis.days.total(\.sedentaryBoutMinutes)
      },
      .number("sedentary_breaks", .breaks, digits: 0) {
        $0.result.analysis.days.total { $0.sedentaryBreaks.map(Double.init) }
      },
      .text("diagnostics") { .array($0.result.diagnostics.map { .string($0.description) }) },
      .flag("calibrated", when: \.isCalibrated) { $0.result.calibration?.applied },
      .integer("calibration_still_points", when: \.isCalibrated) { $0.result.calibration?.stillPoints },
      .number("calibration_error_before", .milliG, digits: 2, when: \.isCalibrated) {
        $0.result.calibration?.errorBeforeMilliG
      },
      .number("calibration_error_after", .milliG, digits: 2, when: \.isCalibrated) {
        $0.result.calibration?.errorAfterMilliG
      },
    ]
    for (k, axis) in ["x", "y", "z"].enumerated() {
      // Unknown (empty in CSV, null in JSON, no stored row) where no
      // correction was fitted: the identity is not a fitted value.
      columns += [
        .number("calibration_offset_\(axis)", .gravity, digits: 5, when: \.isCalibrated) { v in
          v.result.calibration.flatMap { $0.isFitted ? $0.offsetG[k] : nil }
        },
        .number("calibration_scale_\(axis)", .none, digits: 5, when: \.isCalibrated) { v in
          v.result.calibration.flatMap { $0.isFitted ? $0.scale[k] : nil }
        },
        .number(
          "calibration_temperature_\(axis)", .gravityPerCelsius, digits: 6,
          when: { $0.result.calibration?.usesTemperature ?? false }
        ) { $0.result.calibration?.temperatureCoefficientGPerCelsius[k] },
      ]
    }
    columns += [
      .number("non_wear", .hours, digits: 2, when: \.hasNonWear) { $0.result.analysis.nonWearSeconds / 3600 },
      .integer("steps_left_out", .steps, when: \.hasNonWear) { $0.result.analysis.stepsLeftOut },
    ]
    return columns
  }()
}

/// A day of a recording with the rules and cut-points it was read with:
/// the value the columns of `accel days` read.
package struct AccelDayValue: Sendable {
  package var day: AccelDay
  package var isValid: Bool
  package var cutPoints: String
  package var intensityEpochSeconds: Double?
  /// Each model's energy over the day (kcal), in the models' order.
  package var energy: [(model: String, kilocalories: Double)] = []
}

extension AccelCommands {
  /// A model's energy (kcal, one decimal), declared once for the three
  /// tables that show it: `accel energy` prints it as `energy_kcal` in a
  /// row per model, `accel days` and the hourly table as a column per
  /// model (`energy_met_intensity_kcal`); it is stored as `energy_MODEL`
  /// (`energy_met_intensity`, unit kcal) by `accel energy` and `accel days`.
  package static let modelEnergy: ResultColumn<Double?> = .number("energy", .kilocalories, digits: 1) { $0 }

  /// `modelEnergy` for one model, under the name with the model in it (a
  /// model's identifier with underscores: `met-intensity` is
  /// `energy_met_intensity`, printed `energy_met_intensity_kcal`).
  package static func modelEnergy(_ model: String) -> ResultColumn<Double?> {
    modelEnergy.qualified(by: model.replacingOccurrences(of: "-", with: "_"))
  }

  /// The columns of a model's row of `accel energy`, declared once: the
  /// printed row, and the stored row under the model's name
  /// (`modelEnergy(model)`).
  package static let totalColumns: [ResultColumn<AccelEnergy.Total>] = [
    .text("model") { .string($0.model) },
    modelEnergy.reading { $0.kcal },
    .text("basis") { .string($0.basis) },
  ]

  /// The columns of a day of `accel days` with `models`' energy: the
  /// fixed columns, then each model's energy (`modelEnergy(model)`).
  package static func dayColumns(models: [String]) -> [ResultColumn<AccelDayValue>] {
    dayColumns
      + models.map { model in
        modelEnergy(model).reading { day in day.energy.first { $0.model == model }?.kilocalories }
      }
  }

  /// The columns of a day of `accel days` before each model's energy,
  /// declared once: the printed row and the stored rows are both made
  /// from this list and `modelEnergy`.
  package static let dayColumns: [ResultColumn<AccelDayValue>] = [
    .text("date") { .string($0.day.date) },
    .number("recorded", .hours, digits: 2) { $0.day.recordedHours },
    .number("wear", .hours, digits: 2) { $0.day.wearHours },
    .flag("valid") { $0.isValid },
    .integer("steps", .steps) { $0.day.steps },
    .number("enmo_mean", .milliG, digits: 2) { $0.day.enmoMeanMilliG },
    .text("cut_points") { .string($0.cutPoints) },
    .number("intensity_epoch", .seconds, digits: 0) { $0.intensityEpochSeconds },
    .number("sedentary", .minutes, digits: 1) { $0.day.minutes[.sedentary] },
    .number("light", .minutes, digits: 1) { $0.day.minutes[.light] },
    .number("moderate", .minutes, digits: 1) { $0.day.minutes[.moderate] },
    .number("vigorous", .minutes, digits: 1) { $0.day.minutes[.vigorous] },
    .number("mvpa_bout", .minutes, digits: 1) { $0.day.mvpaBoutMinutes },
    .number("sedentary_bout", .minutes, digits: 1) { $0.day.sedentaryBoutMinutes },
    .integer("sedentary_breaks", .breaks) { $0.day.sedentaryBreaks },
  ]
}
