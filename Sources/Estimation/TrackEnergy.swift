import EnergyLabCore
import EnergyModels
import Tracks

/// A model applied to every step of a track.
package struct TrackEnergy: Sendable, Hashable {
  package var source: String
  package var modelID: String
  package var bodyMassKilograms: Double
  /// Time covered by steps with a usable time, s.
  package var durationSeconds: Double
  package var distanceMeters: Double
  package var energyKilocalories: Double
  /// Time-weighted mean of the steps' VO2, mL/kg/min; nil when the model
  /// defines no VO2.
  package var meanVO2MillilitersPerKilogramPerMinute: Double?
  package var meanGradeFraction: Double?
  /// Lowest and highest grade of the steps' fixed-distance windows (the PEM
  /// thesis keeps both per period, L1292).
  package var lowestGradeFraction: Double?
  package var highestGradeFraction: Double?
  /// Steps that gave energy; 0 means the energy is unknown, not zero.
  package var stepsWithEnergy: Int
  /// Steps the model costed outside its equation's domain (a descent as
  /// level ground, a rate floored at rest, ...), with the energy those
  /// treatments added to what the equation gave, kcal.
  package var treatedSteps = 0
  package var treatmentEnergyChangeKilocalories = 0.0
  /// Distance of the steps with a usable time, m: the distance the mean
  /// speed is taken over.
  package var timedDistanceMeters = 0.0
  package var diagnostics: [Diagnostic]

  /// Whether the energy is known: some step gave energy.
  package var energyKnown: Bool { stepsWithEnergy > 0 }

  package var kilocaloriesPerMinute: Double? {
    durationSeconds > 0 && energyKnown ? energyKilocalories / (durationSeconds / 60) : nil
  }
  package var meanSpeedMetersPerSecond: Double? {
    durationSeconds > 0 ? timedDistanceMeters / durationSeconds : nil
  }

  /// Applies `model` to each step between fixes: speed from distance over
  /// time, grade from the step's fixed-distance window; energy is the sum
  /// of kcal/min x minutes. A step without a usable time gives energy only
  /// under a model that works from distance alone (Cameron); otherwise it
  /// is counted in a warning, and its distance still counts. Model
  /// diagnostics are counted per code rather than repeated for every step;
  /// steps costed outside the equation's domain are counted per treatment
  /// with the energy the treatment changed.
  package init(
    track: Track, model: any EnergyModel, subject: ModelInput, analysis: TrackAnalysis = TrackAnalysis()
  ) throws {
    let (steps, stepDiagnostics) = analysis.steps(of: track)
    try self.init(
      source: track.source, steps: steps[...], model: model, subject: subject,
      diagnostics: track.diagnostics + stepDiagnostics)
  }

  /// Applies `model` to a run of steps (one activity of a track).
  package init(
    source: String, steps: ArraySlice<TrackStep>, model: any EnergyModel, subject: ModelInput,
    diagnostics inherited: [Diagnostic] = [], perStep: ((TrackStep, ModelOutput, Double) -> Void)? = nil
  ) throws {
    self.source = source
    modelID = model.info.id
    bodyMassKilograms = subject.bodyMassKilograms ?? .nan
    var duration = 0.0
    var distance = 0.0
    var energy = 0.0
    var vo2Time = 0.0
    var gradeTime = 0.0
    var sawVO2 = false
    var sawGrade = false
    var counts: [String: (count: Int, example: Diagnostic)] = [:]
    var order: [String] = []
    var lowest: Double?
    var highest: Double?
    var previousSpeed = 0.0
    var used = 0
    var untimed = 0
    var untimedFromDistance = 0
    var timedDistance = 0.0
    var missingPerStep = 0
    var firstMissing: ModelError?
    var treatments: [String: (count: Int, change: Double, equation: Double, example: DomainTreatment)] = [:]
    var treatmentOrder: [String] = []
    func countTreatment(_ output: ModelOutput, seconds: Double?, energy stepEnergy: Double) {
      guard let t = output.treatment else { return }
      let equation = seconds.map { t.equationKilocaloriesPerMinute * $0 / 60 } ?? stepEnergy
      if let existing = treatments[t.code] {
        treatments[t.code] = (
          existing.count + 1, existing.change + stepEnergy - equation, existing.equation + equation,
          existing.example
        )
      } else {
        treatments[t.code] = (1, stepEnergy - equation, equation, t)
        treatmentOrder.append(t.code)
      }
    }
    for step in steps {
      distance += step.distance2DMeters
      guard let dt = step.durationSeconds, let speed = step.speedMetersPerSecond else {
        untimed += 1
        // Distance-based models still give energy from the distance alone.
        var input = subject
        input.speedMetersPerSecond = nil
        input.durationSeconds = nil
        input.distanceMeters = step.distance2DMeters
        input.gradeFraction = step.gradeFraction ?? 0
        if let output = try? model.evaluate(input), let stepEnergy = output.energyKilocalories {
          perStep?(step, output, stepEnergy)
          countTreatment(output, seconds: nil, energy: stepEnergy)
          untimedFromDistance += 1
          used += 1
          energy += stepEnergy
        }
        continue
      }
      var input = subject
      input.speedMetersPerSecond = speed
      input.previousSpeedMetersPerSecond = previousSpeed
      previousSpeed = speed
      input.gradeFraction = step.gradeFraction ?? 0
      input.durationSeconds = dt
      input.distanceMeters = nil
      if let hr = step.heartRateBeatsPerMinute { input.heartRateBeatsPerMinute = hr }
      if let watts = step.powerWatts { input.powerWatts = watts }
      let output: ModelOutput
      do {
        output = try model.evaluate(input)
      } catch let error as ModelError
        where error.kind == .missing([.power]) || error.kind == .missing([.heartRate])
      {
        // A quantity recorded per fix (power, heart rate) missing on this
        // step: no energy for it, said below; with none at all, the error.
        missingPerStep += 1
        firstMissing = firstMissing ?? error
        continue
      }
      guard let stepEnergy = output.energyKilocalories ?? output.kilocaloriesPerMinute.map({ $0 * dt / 60 })
      else {
        continue
      }
      perStep?(step, output, stepEnergy)
      countTreatment(output, seconds: dt, energy: stepEnergy)
      used += 1
      duration += dt
      timedDistance += step.distance2DMeters
      energy += stepEnergy
      if let vo2 = output.vo2MillilitersPerKilogramPerMinute {
        vo2Time += vo2 * dt
        sawVO2 = true
      }
      if let grade = step.gradeFraction {
        gradeTime += grade * dt
        sawGrade = true
        lowest = min(lowest ?? grade, grade)
        highest = max(highest ?? grade, grade)
      }
      for d in output.diagnostics {
        if let existing = counts[d.code] {
          counts[d.code] = (existing.count + 1, existing.example)
        } else {
          counts[d.code] = (1, d)
          order.append(d.code)
        }
      }
    }
    if let firstMissing, used == 0 { throw firstMissing }
    durationSeconds = duration
    distanceMeters = distance
    timedDistanceMeters = timedDistance
    energyKilocalories = energy
    meanVO2MillilitersPerKilogramPerMinute = sawVO2 && duration > 0 ? vo2Time / duration : nil
    meanGradeFraction = sawGrade && duration > 0 ? gradeTime / duration : nil
    lowestGradeFraction = lowest
    highestGradeFraction = highest
    stepsWithEnergy = used
    var diagnostics = inherited
    if untimed > untimedFromDistance {
      diagnostics.append(
        Diagnostic(
          code: "steps-without-time",
          message:
            "\(untimed - untimedFromDistance) of \(steps.count) steps have no usable time and \(model.info.id) needs a speed, so they add no energy\(used == 0 ? "; the energy is unknown (a distance-based model such as cameron-walking works without times)" : "")",
          location: source))
    } else if untimedFromDistance > 0 {
      diagnostics.append(
        Diagnostic(
          code: "energy-from-distance", severity: .note,
          message:
            "\(untimedFromDistance) of \(steps.count) steps have no usable time: their energy comes from distance alone",
          location: source))
    }
    for code in order {
      guard let (count, example) = counts[code] else { continue }
      diagnostics.append(
        Diagnostic(
          code: code, severity: example.severity,
          message: "\(count) of \(steps.count) steps: \(example.message)", location: source))
    }
    for code in treatmentOrder {
      guard let t = treatments[code] else { continue }
      treatedSteps += t.count
      treatmentEnergyChangeKilocalories += t.change
      diagnostics.append(
        Diagnostic(
          code: code, severity: .note,
          message:
            "\(t.count) of \(steps.count) steps outside \(model.info.id)'s equation, such as: \(t.example.description); the equation gave \(Fixed.format(t.equation, digits: 2)) kcal on them, costed \(Fixed.format(t.equation + t.change, digits: 2)) kcal (\(t.change >= 0 ? "+" : "")\(Fixed.format(t.change, digits: 2)) kcal)",
          location: source))
    }
    if missingPerStep > 0, let firstMissing, case .missing(let inputs) = firstMissing.kind {
      diagnostics.append(
        Diagnostic(
          code: "steps-without-\(inputs.first?.rawValue ?? "input")",
          message:
            "\(missingPerStep) of \(steps.count) timed steps carry no \(inputs.first == .power ? "power" : "heart rate"), which \(model.info.id) needs: they add no energy, and the energy covers the rest",
          location: source))
    }
    if steps.isEmpty {
      diagnostics.append(
        Diagnostic(
          code: "no-steps", message: "no two fixes make a step: the energy is unknown", location: source))
    }
    self.diagnostics = diagnostics
  }
}
