import EnergyLabCore
import Evaluation

/// A bin of a profile with the factor set and body mass it was costed
/// with: the value the columns of `profile` read.
package struct ProfileBinValue: Sendable {
  package var bin: ProfileBin
  package var factorSet: String
  package var bodyMassKilograms: Double
}

extension ProfileCommand {
  /// The columns of a bin of `profile`, declared once: the printed row and
  /// the stored rows (subject: the bin and the mode, `2020-07-06 walk`)
  /// are both made from this list.
  package static let binColumns: [ResultColumn<ProfileBinValue>] = [
    .text("bin_start") { .string($0.bin.label) },
    .text("mode") { .string($0.bin.mode) },
    .number("distance", .meters, digits: 1) { $0.bin.distanceMeters },
    .number("duration", .seconds, digits: 1) { $0.bin.durationSeconds },
    .number("energy", .kilocalories, digits: 2) { $0.bin.energyKilocalories },
    // Kilograms of CO2 (the store's unit `kg`, as the printed `co2_kg`).
    .number("co2", .kilograms, digits: 3) { $0.bin.co2Kilograms },
    .text("factor_set") { .string($0.factorSet) },
    .number("body_mass", .kilograms, digits: 1) { $0.bodyMassKilograms },
  ]

  /// A bin as the columns of `profile` read it.
  static func binValue(_ bin: ProfileBin, _ profile: Profile) -> ProfileBinValue {
    ProfileBinValue(bin: bin, factorSet: profile.factors.name, bodyMassKilograms: profile.bodyMassKilograms)
  }
}
