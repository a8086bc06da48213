import EnergyLabCore
import EnergyModels
import Foundation
import Signals

/// The subject and the choices behind energy from an accelerometer.
package struct AccelEnergyOptions: Sendable {
  package var bodyMassKilograms = AccelEnergy.referenceBodyMassKilograms
  package var heightMeters: Double?
  package var strideMeters: Double?
  /// For `steps-fixed`.
  package var kilocaloriesPerStep: Double?
  /// MET of each intensity class.
  package var classMETs = AccelEnergy.defaultClassMETs
  /// Registered accelerometer equations to apply as well
  /// (`AccelEquation`, `--model`), each on its own epoch.
  package var equations: [String] = []
  /// Sex, for the equations that take it (Santos-Lozano 2013).
  package var sex: Sex?

  package init() {}

  package var described: [NamedParameter] {
    var out = [
      NamedParameter(
        name: "body_mass_kg", value: Fixed.shortest(bodyMassKilograms),
        meaning: "70 kg (ICRP Publication 23) unless given"),
      NamedParameter(
        name: "class_met",
        value: IntensityClass.allCases.map { "\($0.rawValue) \(Fixed.shortest(classMETs[$0] ?? 0))" }.joined(
          separator: ", "),
        meaning:
          "Compendium 2011 07021 sitting quietly (1.3), 17151 strolling (2.0); IPAQ scoring moderate (4.0), vigorous (8.0)"
      ),
    ]
    if !equations.isEmpty {
      out.append(
        NamedParameter(
          name: "accel_equations", value: equations.joined(separator: ","),
          meaning: "registered accelerometer equations, each on its own epoch and quantity"))
    }
    if let sex {
      out.append(NamedParameter(name: "sex", value: sex.rawValue, meaning: "for Santos-Lozano 2013"))
    }
    if let strideMeters {
      out.append(
        NamedParameter(name: "stride_m", value: Fixed.shortest(strideMeters), meaning: "step length"))
    } else if let heightMeters {
      out.append(
        NamedParameter(
          name: "stride_m", value: Fixed.shortest(heightMeters * StrideWalking.strideFractionOfHeight),
          meaning: "0.415 x height"))
    }
    return out
  }

  /// Step length from `--stride`, else 0.415 x height, else nil.
  var stride: Double? { strideMeters ?? heightMeters.map { $0 * StrideWalking.strideFractionOfHeight } }
}

/// Energy from an analysed recording, by model, per epoch and summed by
/// day and by hour of day:
/// - `met-intensity`: each classified epoch's intensity class at its MET,
///   MET x kg x recorded hours (the whole recording, rest included), over
///   the epochs the cut-points classify (60 s for counts, 5 s for ENMO;
///   count epochs left out as partial add nothing);
/// - `steps-stepmyhealth` (0.4 kcal/step), `steps-birdsley-2005` (0.0507)
///   and `steps-fixed` (`--kcal-per-step`): steps only;
/// - `steps-stride`: steps x stride as a walking speed per epoch, through
///   the ACSM walking equation (stepping epochs only; needs a stride or a
///   height);
/// - `kinetic-hay`: the kinetic energy of speed changes between
///   consecutive epochs at those walking speeds.
package enum AccelEnergy {
  /// Body mass used when none is given: 70 kg, the Reference Man of ICRP
  /// Publication 23 (1975), the convention where no subject is given.
  package static let referenceBodyMassKilograms = 70.0
  package static let defaultClassMETs: [IntensityClass: Double] = [
    .sedentary: 1.3, .light: 2.0, .moderate: 4.0, .vigorous: 8.0,
  ]

  package struct Total: Sendable, Hashable {
    package var model: String
    package var kcal: Double
    package var basis: String

    package init(model: String, kcal: Double, basis: String) {
      self.model = model
      self.kcal = kcal
      self.basis = basis
    }
  }

  /// Energy of each epoch by model, over the table `seconds` long.
  static func perEpoch<S: Sequence>(
    _ epochs: S, options: AccelEnergyOptions, models: [String]
  ) throws -> [[Double]] where S.Element: EpochEnergyFields {
    var out: [[Double]] = []
    var previousSpeed = 0.0
    var previousEnd = -Double.infinity
    for e in epochs {
      var row: [Double] = []
      let steps = Double(e.steps ?? 0)
      let speed = options.stride.map { steps * $0 / e.seconds } ?? 0
      for model in models {
        switch model {
        case "met-intensity":
          let met = e.intensity.flatMap { options.classMETs[$0] } ?? 0
          let input = ModelInput(
            bodyMassKilograms: options.bodyMassKilograms, durationSeconds: e.seconds * min(1, e.coverage),
            metabolicEquivalent: met)
          row.append(try METModel().evaluate(input).energyKilocalories ?? 0)
        case PerStep.stepMyHealth.id:
          row.append(try PerStep.stepMyHealth.evaluate(ModelInput(steps: steps)).energyKilocalories ?? 0)
        case PerStep.birdsley2005.id:
          row.append(try PerStep.birdsley2005.evaluate(ModelInput(steps: steps)).energyKilocalories ?? 0)
        case PerStep.configurable.id:
          row.append(
            try PerStep.configurable.evaluate(
              ModelInput(steps: steps, kilocaloriesPerStep: options.kilocaloriesPerStep)
            ).energyKilocalories ?? 0)
        case "steps-stride":
          guard steps > 0 else {
            row.append(0)
            continue
          }
          let input = ModelInput(
            bodyMassKilograms: options.bodyMassKilograms, steps: steps, durationSeconds: e.seconds,
            strideMeters: options.stride)
          row.append(try StrideWalking().evaluate(input).energyKilocalories ?? 0)
        case KineticEnergy.Method.kineticEnergy.rawValue:
          let v0 = e.start == previousEnd ? previousSpeed : 0
          var input = ModelInput(
            speedMetersPerSecond: speed, bodyMassKilograms: options.bodyMassKilograms,
            durationSeconds: e.seconds)
          input.previousSpeedMetersPerSecond = v0
          row.append(try KineticEnergy().evaluate(input).energyKilocalories ?? 0)
        default:
          throw ValueError.unknown("accelerometer energy model", model, among: bases.keys.sorted())
        }
      }
      previousSpeed = speed
      previousEnd = e.start + e.seconds
      out.append(row)
    }
    return out
  }

  /// The models that apply to a result: MET by class when epochs carry an
  /// intensity, the step models when there are steps, stride and kinetic
  /// when a stride (or height) is known.
  static func models(_ analysis: AccelAnalysis, options: AccelEnergyOptions) -> [String] {
    var models: [String] = []
    let classified =
      analysis.intensityEpochSeconds.flatMap(analysis.slimEpochs(seconds:))?.contains { $0.intensity != nil }
      ?? analysis.intensityEpochs?.contains { $0.intensity != nil }
    if classified == true {
      models.append("met-intensity")
    }
    if analysis.steps != nil {
      models += [PerStep.stepMyHealth.id, PerStep.birdsley2005.id]
      if options.kilocaloriesPerStep != nil { models.append(PerStep.configurable.id) }
      if options.stride != nil { models += ["steps-stride", KineticEnergy.Method.kineticEnergy.rawValue] }
    }
    return models
  }

  static let bases: [String: String] = [
    "met-intensity": "intensity class MET x body mass x recorded time",
    "steps-stepmyhealth": "steps x 0.4 kcal (StepMyHealth thesis)",
    "steps-birdsley-2005": "steps x 0.0507 kcal (Birdsley 2005)",
    "steps-fixed": "steps x a given kcal per step",
    "steps-stride": "ACSM walking at steps x stride per epoch (stepping epochs only)",
    "kinetic-hay": "kinetic energy of speed changes between epochs (Rassia et al. 2009)",
  ]

  /// The length of the epoch table a model is computed on: the one the
  /// cut-points classify for `met-intensity` (as the daily intensity
  /// minutes), the shortest for the step models.
  static func tableSeconds(_ analysis: AccelAnalysis, model: String) -> Double? {
    model == "met-intensity" ? analysis.intensityEpochSeconds : analysis.epochSeconds.first
  }

  /// Each model's energy per epoch of its table, with each epoch's start
  /// (the epochs themselves stay in the analysis).
  struct ModelEpochs {
    var model: String
    var starts: [Double]
    var kilocalories: [Double]
  }

  /// Epochs not worn add nothing to any model; the table is read in
  /// place, slim or whole, never copied.
  static func perModel(_ analysis: AccelAnalysis, options: AccelEnergyOptions) throws -> [ModelEpochs] {
    try models(analysis, options: options).map { model in
      let seconds = tableSeconds(analysis, model: model)
      if let seconds, let slim = analysis.slimEpochs(seconds: seconds) {
        return try modelEpochs(model, slim.lazy.filter(\.worn), options: options)
      }
      let whole = seconds.flatMap(analysis.epochs(seconds:)) ?? []
      return try modelEpochs(model, whole.lazy.filter(\.worn), options: options)
    }
  }

  static func modelEpochs<S: Sequence>(_ model: String, _ epochs: S, options: AccelEnergyOptions) throws
    -> ModelEpochs where S.Element: EpochEnergyFields
  {
    let rows = try perEpoch(epochs, options: options, models: [model])
    return ModelEpochs(model: model, starts: epochs.map(\.start), kilocalories: rows.map { $0[0] })
  }

  /// What a model's total rests on; for `met-intensity`, the cut-points and
  /// their epoch.
  static func basis(_ model: String, _ analysis: AccelAnalysis) -> String {
    let basis = bases[model] ?? ""
    guard model == "met-intensity", let seconds = analysis.intensityEpochSeconds else { return basis }
    return basis + " (\(analysis.cutPoints.id) on \(Fixed.shortest(seconds)) s epochs)"
  }

  package static func totals(_ analysis: AccelAnalysis, options: AccelEnergyOptions) throws -> [Total] {
    try perModel(analysis, options: options).map { m in
      Total(model: m.model, kcal: m.kilocalories.reduce(0, +), basis: basis(m.model, analysis))
    }
  }

  /// Energy by model per local date.
  package static func byDay(_ analysis: AccelAnalysis, options: AccelEnergyOptions, timeZone: TimeZone) throws
    -> [String: [(String, Double)]]
  {
    let perModel = try perModel(analysis, options: options)
    var out: [String: [(String, Double)]] = [:]
    for (k, m) in perModel.enumerated() {
      for (start, kcal) in zip(m.starts, m.kilocalories) {
        let date = String(local(start, timeZone).prefix(10))
        var sums = out[date] ?? perModel.map { ($0.model, 0.0) }
        sums[k].1 += kcal
        out[date] = sums
      }
    }
    return out
  }

  package struct Hour: Sendable {
    package var hour: Int
    package var steps: Int
    package var kilocalories: [(String, Double)]
    /// Hours worn in this hour of the day, summed over the days (the
    /// shortest epochs, partial ones by their coverage).
    package var wornHours: Double = 0
    /// Local dates worn at some time in this hour of the day.
    package var days = 0

    /// Mean per worn hour: `total` over `wornHours`; unknown (nil) for
    /// an hour of the day never worn.
    package func perWornHour(_ total: Double) -> Double? { wornHours > 0 ? total / wornHours : nil }
  }

  /// Energy by model per local hour of the day, summed over days, with
  /// the worn time and the days behind each hour.
  package static func hourly(_ analysis: AccelAnalysis, options: AccelEnergyOptions, timeZone: TimeZone)
    throws
    -> [Hour]
  {
    let perModel = try perModel(analysis, options: options)
    var hours = (0..<24).map { Hour(hour: $0, steps: 0, kilocalories: perModel.map { ($0.model, 0.0) }) }
    func hour(_ t: Double) -> Int { Int(local(t, timeZone).dropFirst(11).prefix(2)) ?? 0 }
    var dates = hours.map { _ in Set<Substring>() }
    func add<S: Sequence>(_ epochs: S) where S.Element: EpochEnergyFields {
      for e in epochs {
        let h = hour(e.start)
        hours[h].steps += e.steps ?? 0
        guard e.worn, e.coverage > 0 else { continue }
        hours[h].wornHours += e.seconds * min(1, e.coverage) / 3600
        dates[h].insert(local(e.start, timeZone).prefix(10))
      }
    }
    if let shortest = analysis.epochSeconds.first, let slim = analysis.slimEpochs(seconds: shortest) {
      add(slim)
    } else {
      add(analysis.epochs.first?.epochs ?? [])
    }
    for h in hours.indices { hours[h].days = dates[h].count }
    for (k, m) in perModel.enumerated() {
      for (start, kcal) in zip(m.starts, m.kilocalories) { hours[hour(start)].kilocalories[k].1 += kcal }
    }
    return hours
  }

  static func local(_ t: Double, _ zone: TimeZone) -> String {
    ISO8601.formatUTC(t + Double(zone.secondsFromGMT(for: Date(timeIntervalSince1970: t))))
  }
}
