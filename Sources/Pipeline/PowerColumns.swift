import EnergyLabCore
import Tracks

extension TrainingLoadCommand {
  /// The columns of a day of `power load`, declared once: the printed row
  /// and the stored rows (subject: the date) are both made from this list.
  package static let dayColumns: [ResultColumn<TrainingLoad.Day>] = [
    .text("date") { .string(dateText($0.day)) },
    .integer("rides") { $0.rides },
    .number("tss", .trainingStress, digits: 1) { $0.tss },
    .number("ctl", .trainingStressPerDay, digits: 1) { $0.ctl },
    .number("atl", .trainingStressPerDay, digits: 1) { $0.atl },
    .number("tsb", .trainingStressPerDay, digits: 1) { $0.tsb },
  ]
}

/// A ride's W' balance with its lowest points: the value the columns of
/// `power curve`'s balance table read.
package struct PowerBalanceValue: Sendable {
  package var balance: PowerCurveCommand.Balance
  package var integralMinimum: (joules: Double, second: Int)?
  package var differentialMinimum: (joules: Double, second: Int)?

  package init(_ balance: PowerCurveCommand.Balance) {
    self.balance = balance
    integralMinimum = Self.minimum(balance.integral)
    differentialMinimum = Self.minimum(balance.differential)
  }

  /// The lowest value and its second; nil for an empty series.
  static func minimum(_ values: [Double]) -> (joules: Double, second: Int)? {
    guard let m = values.indices.min(by: { values[$0] < values[$1] }) else { return nil }
    return (values[m], m)
  }
}

extension PowerCurveCommand {
  /// The columns of a duration of the power curve, declared once: the
  /// printed row and the stored rows (subject: the duration, `60 s`).
  package static let pointColumns: [ResultColumn<Point>] = [
    // The duration names the point: printed, and the stored subject.
    .text("duration_s") { .integer($0.seconds) },
    .number("power", .watts, digits: 1) { $0.watts },
    .text("file") { .string($0.file) },
    .integer("start_offset", .seconds) { $0.startOffsetSeconds },
  ]

  /// The columns of a fitted model, declared once: the printed row and
  /// the stored rows (subject: the model); the fit range is the run's.
  package static func fitColumns(from: Int, to: Int) -> [ResultColumn<CriticalPowerFit>] {
    [
      .text("model") { .string($0.model.rawValue) },
      .number("cp", .watts, digits: 1) { $0.criticalPowerWatts },
      .number("w_prime", .joules, digits: 0) { $0.wPrimeJoules },
      .number("pmax", .watts, digits: 1) { $0.maxPowerWatts },
      .number("tau", .seconds, digits: 1) { $0.tauSeconds },
      .number("rmse", .watts, digits: 2) { $0.rmseWatts },
      .integer("points") { $0.points },
      .integer("from", .seconds) { _ in from },
      .integer("to", .seconds) { _ in to },
    ]
  }

  /// The columns of a ride's W' balance, declared once: the printed row
  /// and the stored rows (subject: the file).
  package static let balanceColumns: [ResultColumn<PowerBalanceValue>] = [
    .text("file") { .string($0.balance.file) },
    .number("cp", .watts, digits: 1) { $0.balance.criticalPowerWatts },
    .number("w_prime", .joules, digits: 0) { $0.balance.wPrimeJoules },
    .text("source") { .string($0.balance.source) },
    .number("tau", .seconds, digits: 1) { $0.balance.tauSeconds },
    .number("integral_min", .joules, digits: 0) { $0.integralMinimum?.joules },
    .integer("integral_min_at", .seconds) { $0.integralMinimum?.second },
    .number("differential_min", .joules, digits: 0) { $0.differentialMinimum?.joules },
    .integer("differential_min_at", .seconds) { $0.differentialMinimum?.second },
  ]
}
