import EnergyLabCore
import EnergyModels
import Estimation
import Foundation
import TestSupport
import Testing
import Tracks

@testable import Pipeline

/// Real FIT activities (python-fitparse's test files, MIT) through the
/// energy rules that GPX and TCX follow: the session's declared sport sets
/// the mode, no step is costed below zero, whole epochs are compared. The
/// sessions' sports, times and distances below come from fitdecode
/// (Tests/IngestTests/Fixtures/fit/expectations.json).
struct EnergyOnFITTests {
  static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("../IngestTests/Fixtures/fit").standardized.path

  static func energy(_ file: String, byMode: Bool = true, model: String = "acsm-walking") throws
    -> EnergyCommand.Energy
  {
    var options = EnergyCommand.Options(
      files: ["\(folder)/\(file)"], modelID: model, subject: ModelInput(bodyMassKilograms: 70))
    options.byMode = byMode
    options.perFix = true
    return try EnergyCommand.energy(options)
  }

  /// fitdecode: one `running` session (Fenix 2, 2,832 s, 9,008.22 m); the
  /// run is costed by ACSM running as declared, never as cycling, however
  /// fast its steps; every fix's energy is at least zero; descents are
  /// counted as treated steps.
  @Test func aDeclaredRunIsCostedAsARun() throws {
    let energy = try Self.energy("activity-small-fenix2-run.fit")
    #expect(energy.parts.allSatisfy { $0.activity?.mode == .run && $0.modeSource == .declared })
    #expect(energy.parts.allSatisfy { $0.energy.modelID == "acsm-running" })
    #expect(energy.fixes.allSatisfy { $0.energyKilocalories >= 0 })
    let treated = energy.parts.reduce(0) { $0 + $1.energy.treatedSteps }
    #expect(treated > 0)
    #expect(energy.fixes.filter { $0.output.treatment?.code == "downhill-as-level" }.count == treated)
    let distance = energy.totalDistanceMeters
    #expect(abs(distance - 9008.22) / 9008.22 < 0.02, "\(distance)")
  }

  /// fitdecode: a `cycling`/`generic` session on the Edge 810 with power;
  /// a `cycling`/`commuting` one on the Edge 820: both cycle, declared.
  @Test(arguments: ["Edge810-Vector-2013-08-16-15-35-10.fit", "garmin-edge-820-bike.fit"])
  func declaredRidesAreCycling(file: String) throws {
    let energy = try Self.energy(file)
    #expect(!energy.parts.isEmpty)
    #expect(energy.parts.allSatisfy { $0.activity?.mode == .cycle && $0.modeSource == .declared })
  }

  /// fitdecode: a triathlon in five sessions, swimming/open_water,
  /// transition, cycling, transition, running. The cycling and running
  /// legs are costed as declared; swimming and transitions name no
  /// transport mode, so speed bands classify them, and a note says so.
  @Test func aMultisportFileGivesEachSessionItsMode() throws {
    let energy = try Self.energy("sample_mulitple_header.fit")
    let declared = energy.parts.filter { $0.modeSource == .declared }
    #expect(Set(declared.compactMap { $0.activity?.mode }) == [.cycle, .run])
    #expect(
      energy.diagnostics.contains { $0.code == "declared-sport-unknown" && $0.message.contains("swimming") })
    #expect(energy.fixes.allSatisfy { $0.energyKilocalories >= 0 })
  }

  /// The Edge 810 ride lasts 4,700.05 s of timer time (fitdecode) in one
  /// segment: `agreement` over 60 s epochs compares every whole minute it
  /// covers, at least 77 of the 78 minutes the ride spans.
  @Test func agreementKeepsTheRidesWholeMinutes() throws {
    let agreement = try AgreementCommands.modelAgreement(
      files: ["\(Self.folder)/Edge810-Vector-2013-08-16-15-35-10.fit"], modelIDs: ["met", "resting"],
      subject: ModelInput(bodyMassKilograms: 70, metabolicEquivalent: 7.5), epochSeconds: 60,
      speedSmoothingFixes: 1, track: TrackAnalysisParameters())
    #expect(
      agreement.epochsCompared >= 77,
      "\(agreement.epochsCompared) compared, \(agreement.epochsPartial) partial")
    // MET 7.5 x 70 kg / 60 = 8.75 kcal/min against rest, 3.5 x 70 / 1000 x 5
    // = 1.225 kcal/min, in every whole minute.
    expectClose(try #require(agreement.pairs.first).agreement.statistics.bias, 8.75 - 1.225, tolerance: 1e-6)
  }
}

/// Power as measured work on the Edge 810 ride with Vector pedals.
struct PowerOnFITTests {
  /// fitdecode: the session's total_work is 1,296,229 J; power integrated
  /// over the records (trapezoids within segments) is within 1 % of it, and
  /// the summary shows the device's figures beside EnergyLab's.
  @Test func workFromPowerMatchesTheSession() throws {
    let path = "\(EnergyOnFITTests.folder)/Edge810-Vector-2013-08-16-15-35-10.fit"
    let summaries = TrackCommands.summaries(files: [path], parameters: TrackAnalysisParameters())
    let (summary, header) = try summaries.results[0].get()
    let work = try #require(summary.workJoules)
    #expect(abs(work - 1_296_229) / 1_296_229 < 0.01, "\(work)")
    let record = TrackCommands.summaryRecord(summary, format: header.format, fit: header.fit)
    #expect(record["device_work_kj"] == .number(1296.229, digits: 1))
    #expect(record.keys.contains("work_kj") && record.keys.contains("mean_power_w"))
    #expect(record.keys.contains("device_calories_kcal"))
    // fitdecode counts 8 lap messages in the ride.
    #expect(record["laps"] == .integer(8))
  }

  /// `agreement --against power`: the model's predicted watts against the
  /// meter's per whole minute; the metered work over the compared minutes
  /// is at most the ride's (1,296 kJ) and most of it (78 of 79 minutes).
  @Test func agreementAgainstThePowerMeter() throws {
    let agreement = try AgreementCommands.modelAgreement(
      files: ["\(EnergyOnFITTests.folder)/Edge810-Vector-2013-08-16-15-35-10.fit"],
      modelIDs: ["martin-1998-cycling"], subject: ModelInput(bodyMassKilograms: 70), epochSeconds: 60,
      speedSmoothingFixes: 1, track: TrackAnalysisParameters(), againstPower: true)
    let pair = try #require(agreement.pairs.first)
    #expect(pair.b == "power-meter" && pair.agreement.statistics.count >= 77)
    let meteredKilojoules = pair.pairs.reduce(0) { $0 + $1.1 } * 60 / 1000
    #expect(meteredKilojoules <= 1296.3 && meteredKilojoules > 1296.229 * 0.95, "\(meteredKilojoules)")
    #expect(agreement.epochs.contains { $0.metric == "power measured" && $0.unit == "W" })
  }
}

/// A FIT file's user profile gives the subject where the command line
/// gives nothing; the command line wins.
struct SubjectFromFITTests {
  /// fitdecode: garmin-fenix-5-run.fit's user_profile is male, 68 kg,
  /// 1.75 m, resting heart rate 47 bpm.
  @Test func theUserProfileFillsWhatIsNotGiven() throws {
    let path = "\(EnergyOnFITTests.folder)/garmin-fenix-5-run.fit"
    let fromFile = try EnergyCommand.energy(
      EnergyCommand.Options(files: [path], modelID: "acsm-running", subject: ModelInput()))
    #expect(fromFile.parts.first?.energy.bodyMassKilograms == 68)
    let note = try #require(fromFile.diagnostics.first { $0.code == "subject-from-file" })
    #expect(note.message.contains("body mass 68 kg") && note.message.contains("sex male"))
    #expect(note.message.contains("height 1.75 m") && note.message.contains("resting heart rate 47 bpm"))
    let given = try EnergyCommand.energy(
      EnergyCommand.Options(
        files: [path], modelID: "acsm-running", subject: ModelInput(bodyMassKilograms: 70)))
    #expect(given.parts.first?.energy.bodyMassKilograms == 70)
    #expect(
      given.diagnostics.first { $0.code == "subject-from-file" }?.message.contains("body mass") == false)
  }
}

/// The resting and maximal heart rate a FIT user profile holds are those
/// the heart-rate-reserve model runs with: the Fenix 5 run's profile
/// (resting 47 bpm, fitdecode) gives the energy the same values given on
/// the command line give, and another resting heart rate another energy.
struct RestingHeartRateFromFITTests {
  @Test func theProfilesRestingHeartRateIsUsed() throws {
    let path = "\(EnergyOnFITTests.folder)/garmin-fenix-5-run.fit"
    func energy(_ change: (inout ModelInput) -> Void) throws -> EnergyCommand.Energy {
      var subject = ModelInput(bodyMassKilograms: 70, ageYears: 30)
      subject.vo2MaxMillilitersPerKilogramPerMinute = 50
      change(&subject)
      return try EnergyCommand.energy(
        EnergyCommand.Options(files: [path], modelID: "swain-1997-hrr", subject: subject))
    }
    let fromFile = try energy { _ in }
    let note = try #require(fromFile.diagnostics.first { $0.code == "subject-from-file" })
    #expect(note.message.contains("resting heart rate 47 bpm"))
    // The profile holds no maximal heart rate: 208 - 0.7 x 30 throughout.
    #expect(!note.message.contains("maximal heart rate"))
    let given = try energy { $0.restingHeartRateBeatsPerMinute = 47 }
    let other = try energy { $0.restingHeartRateBeatsPerMinute = 60 }
    let a = try #require(fromFile.totalEnergyKilocalories)
    #expect(a > 0)
    expectClose(a, try #require(given.totalEnergyKilocalories), tolerance: 1e-9)
    #expect(abs(a - (other.totalEnergyKilocalories ?? a)) > 0.01)
  }
}
