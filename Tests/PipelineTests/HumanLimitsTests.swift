import EnergyLabCore
import EnergyModels
import Foundation
import Ingest
import Store
import Synchronization
import TestSupport
import Testing
import Tracks

@testable import Pipeline

/// One statement of human limits, checked wherever a value about a person
/// comes from: the command line, a subjects file, a FIT user profile.
struct HumanLimitsTests {
  /// The limits the command line has always stated for a body mass, and
  /// the stated ones for the rest.
  @Test func theLimitsAreStatedOnce() throws {
    #expect(HumanLimits.Quantity.bodyMass.limitsText == "1-500 kg")
    #expect(HumanLimits.Quantity.age.limitsText == "1-125 years")
    #expect(HumanLimits.Quantity.height.limitsText == "0.5-2.8 m")
    #expect(HumanLimits.Quantity.heartRate.limitsText == "20-300 bpm")
    var input = ModelInput(bodyMassKilograms: 70)
    input.ageYears = 200
    let error = #expect(throws: ValueError.self) { try input.checkHumanLimits() }
    #expect(error?.description == "a human age must be 1-125 years; got 200 years")
    input.ageYears = 35
    input.heartRateBeatsPerMinute = 350
    #expect(throws: ValueError.self) { try input.checkHumanLimits() }
    input.heartRateBeatsPerMinute = 150
    try input.checkHumanLimits()
  }

  /// The probe's subjects files: a mass of 1e300, 0.001 kg, age 200,
  /// height 10,000 cm are refused, naming the line and column.
  @Test(arguments: [
    (
      "id,body_mass_kg\nP1,1e300\nP2,80\n",
      "s.csv:2:2: body_mass_kg 1e+300 is outside the human limits of body mass; expected 1-500 kg"
    ),
    (
      "id,body_mass_kg\nP1,0.001\n",
      "s.csv:2:2: body_mass_kg 0.001 is outside the human limits of body mass; expected 1-500 kg"
    ),
    (
      "id,age_years\nP1,200\n",
      "s.csv:2:2: age_years 200 is outside the human limits of age; expected 1-125 years"
    ),
    (
      "id,height_cm\nP1,10000\n",
      "s.csv:2:2: height_cm 10000 is outside the human limits of height; expected 0.5-2.8 m"
    ),
    (
      "id,body_mass_lb\nP1,1200\n",
      "s.csv:2:2: body_mass_lb 1200 is outside the human limits of body mass; expected 1-500 kg"
    ),
  ])
  func subjectsOutsideTheLimitsAreRefused(text: String, message: String) throws {
    let error = #expect(throws: InputError.self) { try SubjectsReader.parse(text, source: "s.csv") }
    #expect(error?.description == message)
  }

  /// Two columns for one value let the later one win silently (300 lb
  /// over 70 kg gave 136.1 kg); now the header is an error naming both.
  @Test(arguments: [
    (
      "id,body_mass_kg,body_mass_lb\nP1,70,300\n",
      "s.csv:1:3: column 3 \"body_mass_lb\" gives the body mass that column 2 \"body_mass_kg\" gives"
    ),
    (
      "id,body_mass_kg,body_mass_kg\nP1,70,90\n",
      "s.csv:1:3: column 3 \"body_mass_kg\" gives the body mass that column 2 \"body_mass_kg\" gives"
    ),
    (
      "id,height_m,height_cm\nP1,1.7,170\n",
      "s.csv:1:3: column 3 \"height_cm\" gives the height that column 2 \"height_m\" gives"
    ),
    (
      "participant_id,age_years,id\nP1,30,P1\n",
      "s.csv:1:3: column 3 \"id\" gives the id that column 1 \"id\" gives"
    ),
  ])
  func oneColumnPerValue(text: String, message: String) throws {
    let error = #expect(throws: InputError.self) { try SubjectsReader.parse(text, source: "s.csv") }
    #expect(error?.description.hasPrefix(message) == true, "\(error?.description ?? "")")
  }

  /// A profile weight of 6553.4 kg (the field's raw 65534) and an age of
  /// 254 are left out with a warning; the height of 2.54 m is a human one
  /// and is taken. A weight of 0 is left out the same way.
  @Test func implausibleProfileValuesAreLeftOut() throws {
    var profile = FITUserProfile()
    profile.bodyMassKilograms = 6553.4
    profile.ageYears = 254
    profile.heightMeters = 2.54
    profile.sex = .male
    let (input, notes) = SubjectFromFile.merge(ModelInput(), profile: profile, file: "p.fit")
    #expect(input.bodyMassKilograms == nil && input.ageYears == nil && input.heightMeters == 2.54)
    let warning = try #require(notes.first { $0.code == "implausible-user-profile" })
    #expect(warning.severity == .warning)
    #expect(
      warning.message
        == "the file's user profile gives body mass 6553.4 kg (expected 1-500 kg), age 254 years (expected 1-125 years): outside human limits, left out"
    )
    profile.bodyMassKilograms = 0
    #expect(SubjectFromFile.merge(ModelInput(), profile: profile, file: "p.fit").0.bodyMassKilograms == nil)
  }

  /// `batch` takes a FIT file's user profile as `energy` does: the Fenix 5
  /// run's profile says 68 kg (fitdecode), so both cost it for 68 kg and
  /// not batch's 70 kg default.
  @Test func batchTakesTheUserProfileAsEnergyDoes() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "energylab-profile-\(UUID().uuidString)"
    ).path
    defer { try? FileManager.default.removeItem(atPath: folder) }
    try FileManager.default.createDirectory(atPath: folder + "/study", withIntermediateDirectories: true)
    let fit = folder + "/study/run.fit"
    try FileManager.default.copyItem(atPath: "\(EnergyOnFITTests.folder)/garmin-fenix-5-run.fit", toPath: fit)
    let energy = try EnergyCommand.energy(
      EnergyCommand.Options(files: [fit], modelID: "acsm-running", subject: ModelInput()))
    #expect(energy.parts.first?.energy.bodyMassKilograms == 68)
    var options = BatchCommand.Options(folders: [folder + "/study"], databasePath: folder + "/unused.sqlite")
    options.jobs = 1
    let runs = Mutex<[RunRecord]>([])
    let outcome = try BatchCommand.batch(options) { run in runs.withLock { $0.append(run) } }
    #expect(outcome.failures.isEmpty)
    let run = try #require(runs.withLock { $0 }.first)
    #expect(run.parameters.contains { $0.name == "body_mass_kg" && $0.value == "68" })
    #expect(run.diagnostics.contains { $0.code == "subject-from-file" })
    #expect(!run.diagnostics.contains { $0.code == "subject-default" })
  }
}

/// The subjects reader checked each id against every earlier one: 100,000
/// participants took 48 s (probe S4-12). A crafted cohort of that size
/// reads whole, and a repeat at its very end is still found.
struct LargeSubjectsFileTests {
  static func cohort(_ n: Int) -> String {
    var text = "id,body_mass_kg\n"
    text.reserveCapacity(n * 16)
    for k in 0..<n { text += "S\(100_000 + k),\(50 + k % 50)\n" }
    return text
  }

  @Test func aCohortOf100000ReadsWhole() throws {
    let subjects = try SubjectsReader.parse(Self.cohort(100_000), source: "many.csv")
    #expect(subjects.count == 100_000)
    #expect(subjects.last?.id == "S199999" && subjects.last?.bodyMassKilograms == 99)
    #expect(Set(subjects.map(\.id)).count == 100_000)
    // The first participant again on line 100,002.
    let error = #expect(throws: InputError.self) {
      try SubjectsReader.parse(Self.cohort(100_000) + "S100000,70\n", source: "many.csv")
    }
    #expect(
      error?.description.hasPrefix("many.csv:100002:1: participant \"S100000\" is listed twice") == true)
  }
}

/// A heart rate inside a recording outside the human limits (350 bpm on one
/// fix of a 10-minute walk at 120 bpm) is left out and said, never used:
/// `keytel-2005` costs the walk exactly as it costs the same file with that
/// fix's heart rate absent, and `energy` and `batch` give the same energy
/// and the same warning for the file.
struct RecordHeartRateLimitTests {
  static func walk(heartRateAtFix300 hr: String?) -> String {
    var spec = SyntheticTrackSpec()
    spec.speedMetersPerSecond = 1.3
    spec.heartRateBeatsPerMinute = 120
    let gpx = GPXWriter.gpx(TrackSynthesizer.track(spec), creator: "test")
    // The 300th fix's heart-rate element, replaced or removed.
    let element = "<gpxtpx:hr>120</gpxtpx:hr>"
    var parts = gpx.components(separatedBy: element)
    let replacement = hr.map { "<gpxtpx:hr>\($0)</gpxtpx:hr>" } ?? ""
    let before = parts[0..<300].joined(separator: element)
    parts.replaceSubrange(0..<300, with: [before])
    return parts[0] + replacement + parts[1...].joined(separator: element)
  }

  @Test func energyAndBatchLeaveOutTheSameHeartRate() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "energylab-record-hr-\(UUID().uuidString)"
    ).path
    defer { try? FileManager.default.removeItem(atPath: folder) }
    try FileManager.default.createDirectory(atPath: folder + "/study/P01", withIntermediateDirectories: true)
    let bad = folder + "/study/P01/walk.gpx"
    let absent = folder + "/absent.gpx"
    try Self.walk(heartRateAtFix300: "350").write(toFile: bad, atomically: true, encoding: .utf8)
    try Self.walk(heartRateAtFix300: nil).write(toFile: absent, atomically: true, encoding: .utf8)
    #expect(Self.walk(heartRateAtFix300: "350").components(separatedBy: "<gpxtpx:hr>350<").count == 2)

    let subject = ModelInput(bodyMassKilograms: 70, ageYears: 30, sex: .male)
    let energy = try EnergyCommand.energy(
      EnergyCommand.Options(files: [bad], modelID: "keytel-2005", subject: subject))
    let reference = try EnergyCommand.energy(
      EnergyCommand.Options(files: [absent], modelID: "keytel-2005", subject: subject))
    let kcal = try #require(energy.parts.first?.energy.energyKilocalories)
    let withoutHR = try #require(reference.parts.first?.energy.energyKilocalories)
    #expect(kcal == withoutHR)
    // Keytel et al. 2005 at 120 bpm for a 30-year-old 70 kg man, 10 min:
    // (-55.0969 + 0.6309 x 120 + 0.1988 x 70 + 0.2017 x 30) / 4.184 x 10
    // = 40.5781 / 4.184 x 10 = 96.98 kcal; the steps on either side of the
    // left-out heart rate make up at most 2 s of the 600.
    expectClose(kcal, 96.98, tolerance: 96.98 * 0.005)
    let warning = try #require(energy.diagnostics.first { $0.code == "implausible-heart-rate" })
    #expect(warning.message.contains("the first 350 bpm"))

    let subjectsPath = folder + "/subjects.csv"
    try "participant_id,body_mass_kg,age_years,sex\nP01,70,30,m\n".write(
      toFile: subjectsPath, atomically: true, encoding: .utf8)
    var options = BatchCommand.Options(folders: [folder + "/study"], databasePath: folder + "/unused.sqlite")
    options.subjects = try SubjectsReader.read(path: subjectsPath)
    options.subjectsPath = subjectsPath
    options.modelForMode = [.walk: "keytel-2005"]
    options.jobs = 1
    let runs = Mutex<[RunRecord]>([])
    let outcome = try BatchCommand.batch(options) { run in runs.withLock { $0.append(run) } }
    #expect(outcome.failures.isEmpty)
    let run = try #require(runs.withLock { $0 }.first)
    let batchKcal = run.activities.compactMap(\.energyKilocalories).reduce(0, +)
    #expect(run.activities.allSatisfy { $0.model == "keytel-2005" })
    expectClose(batchKcal, kcal, tolerance: 1e-6)
    #expect(
      run.diagnostics.contains { $0.code == "implausible-heart-rate" && $0.message == warning.message })
  }
}
