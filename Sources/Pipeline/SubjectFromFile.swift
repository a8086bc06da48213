import EnergyLabCore
import EnergyModels
import Ingest

/// Subject values a file carries (a FIT `user_profile`: weight, sex, age,
/// height, resting and maximal heart rate), used where the command line
/// gives none, and said.
enum SubjectFromFile {
  /// `given` with each missing value taken from `profile`; a note names
  /// every value taken from the file. The command line wins. A profile
  /// value outside `HumanLimits` (a weight of 6553.4 kg is the field's
  /// 0xFFFE, a weight of 0 a profile never filled in) is left out with a
  /// warning, as the command line would refuse it.
  static func merge(
    _ given: ModelInput, profile: FITUserProfile?, file: String, givenBy: String = "the command line"
  ) -> (ModelInput, [Diagnostic]) {
    guard let profile else { return (given, []) }
    var out = given
    var taken: [String] = []
    var refused: [String] = []
    func take(
      _ value: Double?, _ quantity: HumanLimits.Quantity, into slot: WritableKeyPath<ModelInput, Double?>
    ) {
      guard out[keyPath: slot] == nil, let value else { return }
      let text = "\(quantity.rawValue) \(HumanLimits.text(value)) \(quantity.unit)"
      guard HumanLimits.accepts(value, quantity) else {
        refused.append("\(text) (expected \(quantity.limitsText))")
        return
      }
      out[keyPath: slot] = value
      taken.append(text)
    }
    take(profile.bodyMassKilograms, .bodyMass, into: \.bodyMassKilograms)
    if out.sex == nil, let sex = profile.sex {
      out.sex = sex
      taken.append("sex \(sex.rawValue)")
    }
    take(profile.ageYears, .age, into: \.ageYears)
    take(profile.heightMeters, .height, into: \.heightMeters)
    take(profile.restingHeartRateBeatsPerMinute, .restingHeartRate, into: \.restingHeartRateBeatsPerMinute)
    take(profile.maxHeartRateBeatsPerMinute, .maximumHeartRate, into: \.maximumHeartRateBeatsPerMinute)
    var notes: [Diagnostic] = []
    if !taken.isEmpty {
      notes.append(
        Diagnostic(
          code: "subject-from-file", severity: .note,
          message:
            "\(taken.joined(separator: ", ")) from the file's user profile (\(givenBy) gives none; it would win)",
          location: file))
    }
    if !refused.isEmpty {
      notes.append(
        Diagnostic(
          code: "implausible-user-profile",
          message:
            "the file's user profile gives \(refused.joined(separator: ", ")): outside human limits, left out",
          location: file))
    }
    return (out, notes)
  }
}
