import EnergyLabCore
import EnergyModels
import Estimation
import Foundation
import Ingest
import Reporting
import Store
import Tracks

/// `energy FILE... --model ID --mass M`: a model over tracks, per file (or
/// per activity with `--by-mode`, or per fix with `--per-fix`) and in total,
/// stored as a run when a database is given.
package enum EnergyCommand {
  package struct Options: Sendable {
    package var files: [String]
    package var modelID: String
    package var subject: ModelInput
    package var track = TrackAnalysisParameters()
    /// Split tracks into activities by speed band and apply each mode's model.
    package var byMode = false
    package var modes = ModeInference.standard
    /// Model per mode; modes not named use `ModeDefaults.modelForMode`.
    package var modelForMode: [TransportMode: String] = [:]
    /// The mode of every step, over what files declare and the epoch model.
    package var givenMode: TransportMode?
    /// Measured expenditure to report beside the model's (`--measured`);
    /// a COSMED K5 export given as a track is its own measurement.
    package var measured: MeasuredOptions?
    /// How the breaths of a measured export are cleaned (nil: read as it
    /// is), for an export given as a track.
    package var breathFilter: BreathFilter? = BreathFilter()
    /// MET used for cycling when its model is `met` and no MET is given.
    package var cyclingMET = ModeDefaults.cyclingMET
    package var perFix = false
    /// Centred moving average of step speeds over this many fixes before a
    /// model sees them; 1 means none. Kinetic models need it on noisy tracks.
    package var speedSmoothingFixes = 1
    /// Files the command line read for these options (a subjects file, a
    /// MET table), and what it took from them.
    package var sources = OptionSources()
    package var databasePath: String?
    package var format: OutputFormat?

    package init(files: [String], modelID: String, subject: ModelInput) {
      self.files = files
      self.modelID = modelID
      self.subject = subject
    }
  }

  /// A model's energy over one fix-to-fix step (`--per-fix`).
  package struct FixEnergy: Sendable, Hashable {
    package var file: String
    package var step: TrackStep
    package var mode: TransportMode?
    package var modelID: String
    package var output: ModelOutput
    package var energyKilocalories: Double
    /// Energy of the file's steps so far, this one included.
    package var cumulativeKilocalories: Double
  }

  /// Energy of one file, or of one activity of it with `byMode`.
  package struct Part: Sendable, Hashable {
    package var file: String
    /// The activity and its 1-based index in the file, with `byMode`.
    package var activity: Activity?
    /// Where the activity's mode came from (declared, inferred from speed, given).
    package var modeSource: ModeSource?
    package var index: Int
    package var energy: TrackEnergy
    /// Whether the energy is known: some step gave energy.
    package var energyKnown: Bool { energy.energyKnown }
    /// Measured energy over the part's compared steps, kcal (the steps' own
    /// spans, so pauses are left out as they are from the model's energy);
    /// nil without a measurement or where no step is compared.
    package var measuredKilocalories: Double?
    /// The model's energy over the same steps, kcal: the steps where both
    /// the model and the measurement give energy.
    package var comparedModelKilocalories: Double?
    /// Seconds of timed steps compared, and left out of both because the
    /// model (a heart-rate dropout) or the measurement (an excluded breath,
    /// a gap, outside the test) has no energy there.
    package var comparedSeconds = 0.0
    package var leftOutSeconds = 0.0
  }

  /// Energy of every file (or activity), the tracks read and the rules used.
  package struct Energy: Sendable {
    package var parts: [Part]
    package var fixes: [FixEnergy]
    package var tracks: [TrackRow]
    package var files: [String]
    package var parameters: [NamedParameter]
    package var diagnostics: [Diagnostic]
    package var totalDurationSeconds: Double { parts.reduce(0) { $0 + $1.energy.durationSeconds } }
    package var totalDistanceMeters: Double { parts.reduce(0) { $0 + $1.energy.distanceMeters } }
    /// Energy of the parts whose energy is known; `partsWithUnknownEnergy`
    /// says how many it leaves out, and nil means none is known.
    package var totalEnergyKilocalories: Double? {
      let known = parts.filter(\.energyKnown)
      return known.isEmpty ? nil : known.reduce(0) { $0 + $1.energy.energyKilocalories }
    }
    package var partsWithUnknownEnergy: Int { parts.filter { !$0.energyKnown }.count }
    /// Whether some part was measured (a measurement was given, or a file
    /// was a measured export).
    package var hasMeasurement: Bool { measuredFiles > 0 }
    /// Files whose energy was compared with a measurement.
    package var measuredFiles = 0
    /// Duration of the parts whose energy is known, s: what the total
    /// rate is taken over.
    package var knownDurationSeconds: Double {
      parts.filter(\.energyKnown).reduce(0) { $0 + $1.energy.durationSeconds }
    }
  }

  package static func energy(_ options: Options) throws -> Energy {
    let mainModel = try ModelRegistry.model(id: options.modelID)
    let estimator =
      options.byMode
      ? try ModeEnergyEstimator(
        modelForMode: options.modelForMode, inference: options.modes, givenMode: options.givenMode,
        cyclingMET: options.cyclingMET) : nil
    let analysis = TrackAnalysis(parameters: options.track)
    var parts: [Part] = []
    var fixes: [FixEnergy] = []
    var trackRows: [TrackRow] = []
    var diagnostics: [Diagnostic] = []
    var measuredFiles = 0
    for file in options.files {
      let (track, header) = try TrackCommands.readTrackAndHeader(
        file, parameters: options.track, defaultTimeZone: nil)
      // A FIT file's user profile fills what the command line left out.
      let (subject, subjectNotes) = SubjectFromFile.merge(
        options.subject, profile: header.fit?.userProfile, file: file)
      guard subject.bodyMassKilograms != nil else {
        let refused = subjectNotes.first {
          $0.code == "implausible-user-profile" && $0.message.contains("body mass")
        }
        let why =
          header.fit == nil
          ? "" : refused.map { "; \(file): \($0.message)" } ?? "; \(file) has no user profile weight"
        throw UsageError(.missing, "energy needs a body mass (as 65kg or 143lb)\(why)")
      }
      var (steps, stepDiagnostics) = analysis.steps(of: track)
      if options.speedSmoothingFixes > 1 {
        steps = SpeedSmoothing.movingAverage(steps, fixes: options.speedSmoothingFixes)
      }
      var inherited = track.diagnostics + stepDiagnostics + subjectNotes
      var measurement: AlignedMeasurement?
      if let measuredOptions = options.measured
        ?? (TrackCommands.isMeasuredExport(file)
          ? MeasuredOptions(path: file, breathFilter: options.breathFilter) : nil)
      {
        let times = steps.compactMap(\.startSecondsSince1970)
        let m = AlignedMeasurement(
          try measuredOptions.read(), trackStart: times.first,
          trackEnd: steps.last.flatMap { s in s.startSecondsSince1970.map { $0 + (s.durationSeconds ?? 0) } },
          track: file)
        inherited +=
          measuredOptions.path != file
          ? m.measured.diagnostics
          : m.measured.diagnostics.filter { BreathFilter.diagnosticCodes.contains($0.code) }
        inherited += m.diagnostics
        measurement = m
        measuredFiles += 1
      }
      if track.points.isEmpty && track.timeOnlyPoints.isEmpty {
        inherited.append(
          Diagnostic(
            code: "empty-track", message: "the file holds no fix: its energy is unknown", location: file))
      }
      var first: Double?
      var last: Double?
      for p in [track.points, track.timeOnlyPoints].joined() {
        guard let t = p.timeSecondsSince1970 else { continue }
        first = min(first ?? t, t)
        last = max(last ?? t, t)
      }
      trackRows.append(
        TrackRow(
          path: file, points: track.points.count, startTime: first.map { ISO8601.formatUTC($0) },
          endTime: last.map { ISO8601.formatUTC($0) },
          durationSeconds: first.flatMap { a in last.map { $0 - a } },
          distanceMeters: steps.reduce(0) { $0 + $1.distance2DMeters }))
      var cumulative = 0.0
      // The model's energy per timed step (by its start), to compare with
      // the measurement over exactly the same steps.
      var modelStepEnergy: [Double: Double] = [:]
      let compares = measurement != nil
      func perFix(_ mode: TransportMode?, _ modelID: String) -> ((TrackStep, ModelOutput, Double) -> Void)? {
        guard options.perFix || compares else { return nil }
        return { step, output, energy in
          if compares, let t = step.startSecondsSince1970, step.durationSeconds != nil {
            modelStepEnergy[t, default: 0] += energy
          }
          guard options.perFix else { return }
          cumulative += energy
          fixes.append(
            FixEnergy(
              file: file, step: step, mode: mode, modelID: modelID, output: output,
              energyKilocalories: energy, cumulativeKilocalories: cumulative))
        }
      }
      var pieces: [(activity: ModeActivity?, energy: TrackEnergy)] = []
      if let estimator {
        let estimated = try estimator.estimate(
          steps: steps, points: track.points, declaredSportBySegment: track.declaredSportBySegment,
          source: file,
          subject: subject,
          inherited: inherited,
          perStep: options.perFix || compares
            ? { activity, model, step, output, energy in
              perFix(activity.activity.mode, model.info.id)?(step, output, energy)
            } : nil)
        pieces = estimated.parts.map { ($0.activity, $0.energy) }
        if pieces.isEmpty {
          // No step to classify: one part, whose energy is unknown.
          let walk = estimator.models[.walk]
          pieces.append(
            (
              nil,
              try TrackEnergy(
                source: file, steps: steps[...], model: walk, subject: subject,
                diagnostics: estimated.unattachedDiagnostics, perStep: perFix(nil, walk.info.id))
            ))
        }
      } else {
        let declared = Set(
          track.declaredSportBySegment.values.compactMap { TransportMode(declaredSport: $0) })
        if let modelMode = ModeDefaults.modelForMode.first(where: { $0.value == options.modelID })?.key,
          let other = declared.filter({ $0 != modelMode }).map(\.rawValue).sorted().first
        {
          inherited.append(
            Diagnostic(
              code: "model-differs-from-declared-mode",
              message:
                "the file declares \(other) activity; \(options.modelID) (a \(modelMode.rawValue) model) was applied to every step as asked (energy by mode follows the declared activity)",
              location: file))
        }
        pieces.append(
          (
            nil,
            try TrackEnergy(
              source: file, steps: steps[...], model: mainModel, subject: subject, diagnostics: inherited,
              perStep: perFix(nil, mainModel.info.id))
          ))
      }
      for (index, piece) in pieces.enumerated() {
        let range = piece.activity?.activity.stepRange ?? steps.indices
        let result = piece.energy
        diagnostics += result.diagnostics
        var part = Part(
          file: file, activity: piece.activity?.activity, modeSource: piece.activity?.source,
          index: index + 1,
          energy: result)
        if let measurement {
          // Model and measurement over the same steps: a step either lacks
          // is left out of both, counted and named.
          var measuredTotal = 0.0
          var modelTotal = 0.0
          var withoutModel = 0.0
          var withoutMeasured = 0.0
          for step in steps[range] {
            guard let t = step.startSecondsSince1970, let dt = step.durationSeconds, dt > 0 else { continue }
            guard let model = modelStepEnergy[t] else {
              withoutModel += dt
              continue
            }
            let known = measurement.knownEnergy(from: t, to: t + dt)
            guard known.unknownSeconds <= 1e-9 else {
              withoutMeasured += dt
              continue
            }
            measuredTotal += known.kilocalories
            modelTotal += model
            part.comparedSeconds += dt
          }
          part.leftOutSeconds = withoutModel + withoutMeasured
          if part.comparedSeconds > 0 {
            part.measuredKilocalories = measuredTotal
            part.comparedModelKilocalories = modelTotal
          }
          if part.leftOutSeconds > 0 {
            let of = part.activity.map { " of activity \(index + 1) (\($0.mode.rawValue))" } ?? ""
            var why: [String] = []
            if withoutModel > 0 {
              why.append(
                "\(Fixed.format(withoutModel, digits: 0)) s where \(result.modelID) has no energy (a missing input such as a heart-rate dropout)"
              )
            }
            if withoutMeasured > 0 {
              why.append(
                "\(Fixed.format(withoutMeasured, digits: 0)) s without measured energy (left-out breaths, gaps, outside the test)"
              )
            }
            diagnostics.append(
              Diagnostic(
                code: part.comparedSeconds > 0 ? "compared-over-common-time" : "measured-not-covering",
                severity: part.comparedSeconds > 0 ? .note : .warning,
                message:
                  "model and measured energy\(of) compared over the \(Fixed.format(part.comparedSeconds, digits: 0)) s both cover; left out of both: \(why.joined(separator: "; "))\(part.comparedSeconds > 0 ? "" : ": measured energy unknown")",
                location: file))
          }
        }
        parts.append(part)
      }
    }
    var parameterList = options.track.described
    parameterList.append(
      NamedParameter(
        name: "speed_smoothing_fixes", value: String(options.speedSmoothingFixes),
        meaning: "centred moving average of step speeds (1 = none)"))
    if let estimator {
      parameterList += options.modes.described
      for mode in TransportMode.allCases {
        parameterList.append(
          NamedParameter(
            name: "model_\(mode.rawValue)", value: estimator.models[mode].info.id,
            meaning: "model for \(mode.rawValue) activities"))
      }
      parameterList.append(
        NamedParameter(
          name: "measured_power", value: estimator.measuredPowerWins ? "power-meter" : "ignored",
          meaning:
            "cycling activities with power records: costed by power-meter unless a cycle model is named"))
      parameterList.append(
        NamedParameter(
          name: "cycling_met", value: Fixed.shortest(options.cyclingMET),
          meaning: "MET of cycling (Compendium 2011, 01015)"))
      parameterList.append(
        NamedParameter(
          name: "mode_rule", value: options.givenMode.map { "given:\($0.rawValue)" } ?? "declared-then-speed",
          meaning: options.givenMode == nil
            ? "the activity a file declares, else the mode classifier" : "one mode for every step"))
    } else {
      parameterList.append(
        NamedParameter(name: "model", value: options.modelID, meaning: mainModel.info.name))
    }
    parameterList += options.subject.subjectParameters
    if let measured = options.measured {
      parameterList += measured.described
    } else if measuredFiles > 0 {
      parameterList += MeasuredOptions(path: "", breathFilter: options.breathFilter).described
    }
    var files = options.files
    if let measured = options.measured, !files.contains(measured.path) { files.append(measured.path) }
    var result = Energy(
      parts: parts, fixes: fixes, tracks: trackRows, files: files, parameters: parameterList,
      diagnostics: diagnostics)
    result.measuredFiles = measuredFiles
    return result
  }

  /// The run `energy` stores: the tracks, each part's results and, by
  /// mode, its activities.
  package static func runRecord(
    _ energy: Energy, options: Options, inputs: [InputFingerprint], parameters: [NamedParameter]? = nil,
    recordedAt: String?
  ) -> RunRecord {
    var stored: [ResultRow] = []
    var activityRows: [ActivityRow] = []
    for part in energy.parts {
      let result = part.energy
      if let activity = part.activity {
        activityRows.append(
          ActivityRow(
            trackPath: part.file, index: part.index, mode: activity.mode.rawValue,
            startTime: activity.startSecondsSince1970.map { ISO8601.formatUTC($0) },
            endTime: activity.endSecondsSince1970.map { ISO8601.formatUTC($0) },
            distanceMeters: result.distanceMeters,
            durationSeconds: result.durationSeconds, model: result.modelID,
            energyKilocalories: result.energyKilocalories, co2Kilograms: nil))
      }
      let subject = part.activity.map { "\(part.file)#\(part.index) \($0.mode.rawValue)" } ?? part.file
      stored += ResultColumns.storedRows(
        partColumns, of: EnergyPartValue(part, hasMeasurement: energy.hasMeasurement), subject: subject)
    }
    var run = RunRecord(
      command: "energy " + (options.byMode ? "--by-mode" : "--model \(options.modelID)"),
      recordedAt: recordedAt, inputs: inputs, parameters: parameters ?? energy.parameters, results: stored)
    run.tracks = energy.tracks
    run.activities = activityRows
    run.diagnostics = energy.diagnostics.map(DiagnosticRow.init)
    return run
  }

  /// The energy table (per file, per activity or per fix).
  package static func table(_ energy: Energy, options: Options) -> ResultTable {
    if options.perFix {
      return ResultTable(
        name: "energy-per-fix",
        rows: energy.fixes.map { fix in
          let step = fix.step
          return ResultRecord([
            "file": .string(fix.file),
            "time": step.startSecondsSince1970.map { .string(ISO8601.formatUTC($0)) } ?? .null,
            "mode": .string(fix.mode?.rawValue ?? ""), "model": .string(fix.modelID),
            "distance_m": .number(step.distance2DMeters, 2),
            "duration_s": .number(step.durationSeconds, 1),
            "speed_mps": .number(step.speedMetersPerSecond, 3),
            "grade_pct": .number(step.gradeFraction.map { $0 * 100 }, 2),
            "vo2_ml_kg_min": .number(fix.output.vo2MillilitersPerKilogramPerMinute, 2),
            "kcal_per_min": .number(fix.output.kilocaloriesPerMinute, 3),
            "energy_kcal": .number(fix.energyKilocalories, 4),
            "cumulative_kcal": .number(fix.cumulativeKilocalories, 3),
            "treatment": .string(fix.output.treatment?.code ?? ""),
            "equation_kcal_per_min": .number(fix.output.treatment?.equationKilocaloriesPerMinute, 3),
          ])
        })
    }
    var rows: [ResultRecord] = energy.parts.map {
      ResultColumns.record(partColumns, of: EnergyPartValue($0, hasMeasurement: energy.hasMeasurement))
    }
    if energy.parts.count > 1 {
      let knownDuration = energy.knownDurationSeconds
      let unknown = energy.partsWithUnknownEnergy
      rows.append(
        ResultRecord([
          "file": .string("total"), "model": .string(options.byMode ? "by mode" : options.modelID),
          "body_mass_kg": .number(options.subject.bodyMassKilograms, 1),
          "duration_s": .number(energy.totalDurationSeconds, 1),
          "distance_m": .number(energy.totalDistanceMeters, 1),
          "kcal_per_min": .number(
            energy.totalEnergyKilocalories.flatMap { knownDuration > 0 ? $0 / (knownDuration / 60) : nil }, 3),
          "energy_kcal": .number(energy.totalEnergyKilocalories, 2),
          "treated_steps": .integer(energy.parts.reduce(0) { $0 + $1.energy.treatedSteps }),
          "diagnostics": .array(
            unknown > 0
              ? [
                .string(
                  "energy over the \(energy.parts.count - unknown) of \(energy.parts.count) \(options.byMode ? "activities" : "files") whose energy is known; \(unknown) left out (unknown)"
                )
              ] : []),
        ]))
      if energy.hasMeasurement {
        // Totals over the compared steps of the parts, when every part was
        // compared.
        let all = energy.parts.allSatisfy { $0.measuredKilocalories != nil }
        let measured = all ? energy.parts.reduce(0) { $0 + ($1.measuredKilocalories ?? 0) } : nil
        let model = all ? energy.parts.reduce(0) { $0 + ($1.comparedModelKilocalories ?? 0) } : nil
        rows[rows.count - 1]["compared_s"] = .number(energy.parts.reduce(0) { $0 + $1.comparedSeconds }, 1)
        rows[rows.count - 1]["left_out_s"] = .number(energy.parts.reduce(0) { $0 + $1.leftOutSeconds }, 1)
        rows[rows.count - 1]["model_compared_kcal"] = .number(model, 2)
        rows[rows.count - 1]["measured_kcal"] = .number(measured, 2)
        rows[rows.count - 1]["difference_kcal"] = .number(measured.flatMap { m in model.map { $0 - m } }, 2)
      }
    }
    return ResultTable(
      name: options.byMode ? "energy-by-activity" : "energy", rows: rows,
      keyColumns: ["file", "mode", "energy_kcal", "activity", "model", "distance_m", "duration_s"])
  }

  /// Energy with the options it was computed with.
  package struct Outcome: CommandOutcome {
    package var energy: Energy
    package var options: Options
    package var inputs: [String] { energy.files + options.sources.files }
    package var parameters: [NamedParameter] { energy.parameters + options.sources.parameters }
    package var diagnostics: [Diagnostic] { energy.diagnostics }
    package var diagnosticsListedInOutput: Bool { true }
    package func runRecord(inputs: [InputFingerprint], recordedAt: String?) -> RunRecord? {
      EnergyCommand.runRecord(
        energy, options: options, inputs: inputs, parameters: parameters, recordedAt: recordedAt)
    }
    package func render(_ request: RenderRequest) throws -> Rendering {
      var out = Rendering(request)
      out.emit(table(energy, options: options), format: options.format)
      return out
    }
  }

  package static func outcome(_ options: Options) throws -> Outcome {
    Outcome(energy: try energy(options), options: options)
  }

  /// `energy`: compute, then store and print through the driver.
  package static func run(_ options: Options, driver: Driver) throws {
    try driver.finish(outcome(options), database: options.databasePath)
  }
}
