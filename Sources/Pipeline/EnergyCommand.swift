import EnergyLabCore
import EnergyModels
import Foundation
import Reporting
import Store
import Tracks

/// `energy FILE... --model ID --mass M`: a model over tracks, per file and
/// in total, stored as a run when a database is given.
public enum EnergyCommand {
  public static func run(
    files: [String], modelID: String, subject: ModelInput, parameters: TrackAnalysisParameters,
    format: OutputFormat?, databasePath: String?, context: CommandContext
  ) throws {
    let model = try ModelRegistry.model(id: modelID)
    guard subject.bodyMassKilograms != nil else { throw UsageError("energy needs --mass (as 65kg or 143lb)") }
    let analysis = TrackAnalysis(parameters: parameters)
    var results: [TrackEnergy] = []
    var inputs: [InputFingerprint] = []
    for file in files {
      let track = try TrackCommands.readTrack(file)
      inputs.append(try context.recordInput(file))
      results.append(try TrackEnergy(track: track, model: model, subject: subject, analysis: analysis))
    }
    var rows = results.map { r in
      ResultRecord([
        "file": .string(r.source), "model": .string(r.modelID),
        "body_mass_kg": .number(r.bodyMassKilograms, 1),
        "duration_s": .number(r.durationSeconds, 1), "distance_m": .number(r.distanceMeters, 1),
        "speed_mps": .number(r.meanSpeedMetersPerSecond, 3),
        "grade_pct": .number(r.meanGradeFraction.map { $0 * 100 }, 2),
        "vo2_ml_kg_min": .number(r.meanVO2MillilitersPerKilogramPerMinute, 2),
        "kcal_per_min": .number(r.kilocaloriesPerMinute, 3), "energy_kcal": .number(r.energyKilocalories, 2),
        "diagnostics": .array(r.diagnostics.map { .string($0.description) }),
      ])
    }
    if results.count > 1 {
      let duration = results.reduce(0) { $0 + $1.durationSeconds }
      let energy = results.reduce(0) { $0 + $1.energyKilocalories }
      rows.append(
        ResultRecord([
          "file": .string("total"), "model": .string(modelID),
          "body_mass_kg": .number(subject.bodyMassKilograms, 1),
          "duration_s": .number(duration, 1),
          "distance_m": .number(results.reduce(0) { $0 + $1.distanceMeters }, 1),
          "kcal_per_min": .number(duration > 0 ? energy / (duration / 60) : nil, 3),
          "energy_kcal": .number(energy, 2),
        ]))
    }
    let parameterList =
      parameters.described + [
        NamedParameter(name: "model", value: modelID, meaning: model.info.name),
        NamedParameter(
          name: "body_mass_kg", value: Fixed.shortest(subject.bodyMassKilograms!),
          meaning: "subject body mass"),
      ]
    context.provenance.addParameters(parameterList)
    for r in results { context.provenance.diagnostics += r.diagnostics }
    context.emit(ResultTable(name: "energy", rows: rows), format: format)
    if let path = databasePath ?? context.databasePath {
      var stored: [ResultRow] = []
      for r in results {
        stored += [
          ResultRow(subject: r.source, metric: "duration", value: r.durationSeconds, unit: "s"),
          ResultRow(subject: r.source, metric: "distance", value: r.distanceMeters, unit: "m"),
          ResultRow(
            subject: r.source, metric: "vo2", value: r.meanVO2MillilitersPerKilogramPerMinute,
            unit: "mL/kg/min"),
          ResultRow(
            subject: r.source, metric: "energy_rate", value: r.kilocaloriesPerMinute, unit: "kcal/min"),
          ResultRow(subject: r.source, metric: "energy", value: r.energyKilocalories, unit: "kcal"),
        ]
      }
      let run = RunRecord(
        command: "energy --model \(modelID)", recordedAt: context.timestamp, inputs: inputs,
        parameters: parameterList, results: stored)
      try ResultsStore(path: path).record(run)
    }
  }
}
