import EnergyLabCore
import Estimation

/// One part of `energy` (a file, or an activity of it) and whether the
/// run compares with a measurement: the value the columns of `energy`
/// read.
package struct EnergyPartValue: Sendable {
  package var part: EnergyCommand.Part
  package var hasMeasurement: Bool

  package init(_ part: EnergyCommand.Part, hasMeasurement: Bool) {
    self.part = part
    self.hasMeasurement = hasMeasurement
  }

  var isActivity: Bool { part.activity != nil }
}

extension EnergyCommand {
  /// The columns of a part of `energy`, declared once: the printed row and
  /// the stored rows are both made from this list. With a measurement,
  /// the model and the measurement over the same steps (`compared_s`);
  /// `energy_kcal` is the model's over every step it costs.
  package static let partColumns: [ResultColumn<EnergyPartValue>] = [
    .text("file") { .string($0.part.file) },
    // The activity's place in its file: an identifier, printed, and part
    // of the stored subject, not a stored figure.
    .text("activity", when: \.isActivity) { .integer($0.part.index) },
    .text("mode", when: \.isActivity) { .string($0.part.activity?.mode.rawValue ?? "") },
    .text("mode_source", when: \.isActivity) { .string($0.part.modeSource?.rawValue ?? "") },
    .text("start_time", when: \.isActivity) {
      $0.part.activity?.startSecondsSince1970.map { .string(ISO8601.formatUTC($0)) } ?? .null
    },
    .text("end_time", when: \.isActivity) {
      $0.part.activity?.endSecondsSince1970.map { .string(ISO8601.formatUTC($0)) } ?? .null
    },
    .text("model") { .string($0.part.energy.modelID) },
    .number("body_mass", .kilograms, digits: 1) { $0.part.energy.bodyMassKilograms },
    .number("duration", .seconds, digits: 1) { $0.part.energy.durationSeconds },
    .number("distance", .meters, digits: 1) { $0.part.energy.distanceMeters },
    .number("speed", .metersPerSecond, digits: 3) { $0.part.energy.meanSpeedMetersPerSecond },
    .number("grade", .percent, digits: 2) { $0.part.energy.meanGradeFraction.map { $0 * 100 } },
    .number("grade_min", .percent, digits: 2) { $0.part.energy.lowestGradeFraction.map { $0 * 100 } },
    .number("grade_max", .percent, digits: 2) { $0.part.energy.highestGradeFraction.map { $0 * 100 } },
    .number("vo2", .vo2, digits: 2) { $0.part.energy.meanVO2MillilitersPerKilogramPerMinute },
    .number("energy_rate", .kilocaloriesPerMinute, digits: 3) { $0.part.energy.kilocaloriesPerMinute },
    .number("energy", .kilocalories, digits: 2) {
      $0.part.energyKnown ? $0.part.energy.energyKilocalories : nil
    },
    .number("compared_duration", .seconds, digits: 1, when: \.hasMeasurement) { $0.part.comparedSeconds },
    .number("left_out_duration", .seconds, digits: 1, when: \.hasMeasurement) { $0.part.leftOutSeconds },
    .number("model_compared_energy", .kilocalories, digits: 2, when: \.hasMeasurement) {
      $0.part.comparedModelKilocalories
    },
    .number("measured_energy", .kilocalories, digits: 2, when: \.hasMeasurement) {
      $0.part.measuredKilocalories
    },
    .number("difference", .kilocalories, digits: 2, when: \.hasMeasurement) { v in
      v.part.measuredKilocalories.flatMap { m in v.part.comparedModelKilocalories.map { $0 - m } }
    },
    .integer("treated_steps", .steps) { $0.part.energy.treatedSteps },
    // How much the treatments outside a model's domain changed the energy:
    // stored for studies, not a column of the table.
    .number("treatment_energy_change", .kilocalories, digits: 2, printed: false) {
      $0.part.energy.treatmentEnergyChangeKilocalories
    },
    .text("diagnostics") { .array($0.part.energy.diagnostics.map { .string($0.description) }) },
  ]
}
