import EnergyLabCore
import EnergyModels
import Ingest

/// Subject values a file carries (a FIT `user_profile`: weight, sex, age,
/// height), used where the command line gives none, and said.
enum SubjectFromFile {
  /// `given` with each missing value taken from `profile`; a note names
  /// every value taken from the file. The command line wins.
  static func merge(_ given: ModelInput, profile: FITUserProfile?, file: String) -> (ModelInput, [Diagnostic])
  {
    guard let profile else { return (given, []) }
    var out = given
    var taken: [String] = []
    if out.bodyMassKilograms == nil, let mass = profile.bodyMassKilograms {
      out.bodyMassKilograms = mass
      taken.append("body mass \(Fixed.shortest(mass)) kg")
    }
    if out.sex == nil, let sex = profile.sex {
      out.sex = sex
      taken.append("sex \(sex.rawValue)")
    }
    if out.ageYears == nil, let age = profile.ageYears {
      out.ageYears = age
      taken.append("age \(Fixed.shortest(age))")
    }
    if out.heightMeters == nil, let height = profile.heightMeters {
      out.heightMeters = height
      taken.append("height \(Fixed.shortest(height)) m")
    }
    if out.restingHeartRateBeatsPerMinute == nil, let rest = profile.restingHeartRateBeatsPerMinute {
      out.restingHeartRateBeatsPerMinute = rest
      taken.append("resting heart rate \(Fixed.shortest(rest)) bpm")
    }
    guard !taken.isEmpty else { return (out, []) }
    return (
      out,
      [
        Diagnostic(
          code: "subject-from-file", severity: .note,
          message:
            "\(taken.joined(separator: ", ")) from the file's user profile (the command line gives none; it would win)",
          location: file)
      ]
    )
  }
}
