import EnergyLabCore
import EnergyModels
import Tracks

/// Where an activity's transport mode came from.
package enum ModeSource: String, Sendable, Hashable {
  /// The caller named the mode for the whole track.
  case given
  /// The file declares it (TCX `Sport`, GPX `<trk><type>`, FIT `sport`).
  case declared
  /// Inferred from the steps' speeds (nothing usable was declared): the
  /// epoch model, or speed bands where chosen.
  case speed
}

/// An activity of a track with its mode and where the mode came from.
package struct ModeActivity: Sendable, Hashable {
  package var activity: Activity
  package var source: ModeSource
  /// The activity as the file wrote it, when it declared one.
  package var declaredSport: String?
}

/// Splits a track's steps into activities of one transport mode each.
///
/// The rule, in order: a mode the caller gives applies to every step; else
/// the activity a file declares for a segment applies to its steps (one
/// activity per run of segments with the same declared mode); `inference`
/// (the epoch model unless speed bands are chosen) classifies only the
/// steps of segments that declare nothing the mode table knows. A declared
/// activity is never changed by its speeds: where the speed bands (which
/// know running) put more than `contradictionShare` of its time in another
/// mode, a warning says so.
package struct ModeClassifier: Sendable {
  package var inference: ModeInference
  /// The bands that check a declared activity against its speeds.
  package var speedBands = SpeedBandParameters()
  package var givenMode: TransportMode?
  /// Share of a declared activity's time that speed bands must put in
  /// another mode before a warning: 0.5.
  package var contradictionShare = 0.5

  package init(inference: ModeInference = .standard, givenMode: TransportMode? = nil) {
    self.inference = inference
    if case .speedBands(let p) = inference { speedBands = p }
    self.givenMode = givenMode
  }

  package struct Result: Sendable, Hashable {
    package var activities: [ModeActivity]
    package var diagnostics: [Diagnostic]
  }

  /// `points` are the track's fixes (which the steps' `endPointIndex`
  /// index), for the epoch model's speeds over a baseline.
  package func activities(
    of steps: [TrackStep], points: [TrackPoint]? = nil, declaredSportBySegment: [Int32: String],
    source: String
  )
    -> Result
  {
    let bands = SpeedBandClassifier(parameters: speedBands)
    var out: [ModeActivity] = []
    var diagnostics: [Diagnostic] = []
    // Runs of consecutive steps whose segments declare the same thing.
    var start = 0
    var unknownWords: [String: Int] = [:]
    while start < steps.count {
      let sport = givenMode == nil ? declaredSportBySegment[Int32(steps[start].segment)] : nil
      func continues(_ i: Int) -> Bool {
        // A time gap ends an activity, declared or not.
        if steps[i].followsTimeGap { return false }
        if steps[i].segment == steps[i - 1].segment { return true }
        guard givenMode == nil, let sport else { return false }
        return declaredSportBySegment[Int32(steps[i].segment)] == sport
      }
      var end = start + 1
      while end < steps.count && continues(end) { end += 1 }
      let range = start..<end
      if let givenMode {
        out.append(
          ModeActivity(activity: Activity(mode: givenMode, steps: steps, range: range), source: .given))
      } else if let sport, let mode = TransportMode(declaredSport: sport) {
        let activity = Activity(mode: mode, steps: steps, range: range)
        out.append(ModeActivity(activity: activity, source: .declared, declaredSport: sport))
        var seconds: [TransportMode: Double] = [:]
        for a in bands.activities(of: Array(steps[range])) {
          seconds[a.mode, default: 0] += a.durationSeconds
        }
        let total = seconds.values.reduce(0, +)
        if total > 0, let other = seconds.filter({ $0.key != mode }).max(by: { $0.value < $1.value }),
          other.value / total > contradictionShare
        {
          let speed = activity.durationSeconds > 0 ? activity.distanceMeters / activity.durationSeconds : 0
          diagnostics.append(
            Diagnostic(
              code: "declared-mode-contradicted",
              message:
                "the file declares \"\(sport)\" (\(mode.rawValue)), but speed bands put \(Fixed.format(100 * other.value / total, digits: 0)) % of its time in \(other.key.rawValue) (mean \(Fixed.format(speed, digits: 2)) m/s); costed as declared",
              location: source))
        }
      } else {
        if let sport { unknownWords[sport, default: 0] += range.count }
        for a in inference.activities(of: Array(steps[range]), points: points) {
          var shifted = a
          shifted.stepRange = (a.stepRange.lowerBound + start)..<(a.stepRange.upperBound + start)
          out.append(ModeActivity(activity: shifted, source: .speed, declaredSport: sport))
        }
      }
      start = end
    }
    for (word, count) in unknownWords.sorted(by: { $0.key < $1.key }) {
      diagnostics.append(
        Diagnostic(
          code: "declared-sport-unknown", severity: .note,
          message:
            "the file declares \"\(word)\" for \(count) steps, which names no transport mode; \(inference.identifier) classifies them",
          location: source))
    }
    return Result(activities: out, diagnostics: diagnostics)
  }
}

extension ModeDefaults {
  /// The subject a mode's model runs with: cycling under the `met` model
  /// takes `cyclingMET` unless a MET was given.
  package static func subject(
    _ subject: ModelInput, mode: TransportMode, model: any EnergyModel, cyclingMET: Double = cyclingMET
  ) -> ModelInput {
    var out = subject
    if model.info.id == "met" && out.metabolicEquivalent == nil && mode == .cycle {
      out.metabolicEquivalent = cyclingMET
    }
    return out
  }
}

/// Energy of a track by transport mode, the one loop `energy --by-mode`,
/// `profile` and `batch` share: the steps split into activities of one
/// mode each (`ModeClassifier`), each activity run through its mode's
/// model with the subject that model takes (`ModeDefaults.subject`:
/// cycling under `met` at `cyclingMET` unless a MET was given). A cycling
/// activity with measured power is costed from it (`measuredPowerWins`).
package struct ModeEnergyEstimator: Sendable {
  package var classifier: ModeClassifier
  /// The model of every mode.
  package var models: PerMode<any EnergyModel>
  /// MET of cycling under the `met` model when no MET is given.
  package var cyclingMET: Double
  /// Whether a cycling activity whose steps carry power is costed from its
  /// measured work (`MeasuredPowerFirst`: `power-meter` where a step has
  /// power, the cycling model where it has none): true unless the caller
  /// named the cycling model.
  package var measuredPowerWins: Bool

  /// Looks the models up: `modelForMode` where it names one, else
  /// `ModeDefaults.modelForMode`. Throws for an unknown model id.
  package init(
    modelForMode: [TransportMode: String] = [:], inference: ModeInference = .standard,
    givenMode: TransportMode? = nil, cyclingMET: Double = ModeDefaults.cyclingMET
  ) throws {
    classifier = ModeClassifier(inference: inference, givenMode: givenMode)
    models = try PerMode { mode in
      try ModelRegistry.model(id: modelForMode[mode] ?? ModeDefaults.model(for: mode))
    }
    self.cyclingMET = cyclingMET
    measuredPowerWins = modelForMode[.cycle] == nil
  }

  /// An activity and its energy under its mode's model.
  package struct Part: Sendable {
    package var activity: ModeActivity
    package var model: any EnergyModel
    package var energy: TrackEnergy
  }

  package struct Result: Sendable {
    package var parts: [Part]
    /// The classifier's diagnostics when there is no part to carry them
    /// (a track without steps); otherwise the first part's energy holds
    /// them.
    package var unattachedDiagnostics: [Diagnostic]
  }

  /// The activities of `steps` with their energy. `inherited` diagnostics
  /// (the track's, the reader's) and then the classifier's go with the
  /// first part's energy; `perStep` sees every step's model output and
  /// energy, kcal.
  package func estimate(
    steps: [TrackStep], points: [TrackPoint]? = nil, declaredSportBySegment: [Int32: String], source: String,
    subject: ModelInput, inherited: [Diagnostic] = [],
    perStep: ((ModeActivity, any EnergyModel, TrackStep, ModelOutput, Double) -> Void)? = nil
  ) throws -> Result {
    let classified = classifier.activities(
      of: steps, points: points, declaredSportBySegment: declaredSportBySegment, source: source)
    var parts: [Part] = []
    for (index, activity) in classified.activities.enumerated() {
      let modeModel = models[activity.activity.mode]
      var model = modeModel
      var notes: [Diagnostic] = []
      let range = activity.activity.stepRange
      let powered = steps[range].filter { $0.powerWatts != nil && $0.durationSeconds != nil }.count
      if measuredPowerWins, activity.activity.mode == .cycle, powered > 0 {
        model = MeasuredPowerFirst(fallback: modeModel)
        let timed = steps[range].filter { $0.durationSeconds != nil }.count
        notes.append(
          Diagnostic(
            code: "measured-power-used", severity: .note,
            message:
              "activity \(index + 1) (cycle) carries power on \(powered) of \(timed) timed steps: costed from its measured work by power-meter (energy linear in work rate, ACSM leg ergometry)\(powered < timed ? ", the steps without power by \(modeModel.info.id)" : "") instead of \(modeModel.info.id)",
            location: source))
      }
      let energy = try TrackEnergy(
        source: source, steps: steps[range], model: model,
        subject: ModeDefaults.subject(
          subject, mode: activity.activity.mode, model: modeModel, cyclingMET: cyclingMET),
        diagnostics: (index == 0 ? inherited + classified.diagnostics : []) + notes,
        perStep: perStep.map { see in { step, output, kcal in see(activity, model, step, output, kcal) } })
      parts.append(Part(activity: activity, model: model, energy: energy))
    }
    return Result(
      parts: parts, unattachedDiagnostics: parts.isEmpty ? inherited + classified.diagnostics : [])
  }
}
