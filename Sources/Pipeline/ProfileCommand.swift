import EnergyLabCore
import EnergyModels
import Estimation
import Evaluation
import Foundation
import Ingest
import Reporting
import Store
import Tracks

/// `profile FILE... --by day --tz Europe/London`: trips split into activities
/// by mode, each with its energy (the mode's model) and CO2 (distance x the
/// factor set's factor), binned by local calendar time.
package enum ProfileCommand {
  /// Body mass used without `--mass`: 70 kg, the Reference Man of ICRP
  /// Publication 23 (1975), as for accelerometer energy.
  package static let defaultBodyMassKilograms = AccelEnergy.referenceBodyMassKilograms
  /// UK daily average used by Alter Eco for comparison, kg CO2e per person
  /// per day (from the app's public source).
  package static let ukDailyAverageKilograms = 13.7
  /// Irish average, t CO2e per person per year (carbon gamification thesis,
  /// Fig 7.5).
  package static let irishAnnualAverageTonnes = 12.6

  /// The published comparison that belongs to a factor set (the study that
  /// made the set compared with it), or nil: a UK average beside Irish
  /// factors would compare unlike things.
  package static func comparison(for factorSet: String) -> (text: String, kilogramsPerDay: Double)? {
    switch factorSet {
    case "alter-eco-2020":
      return (
        "UK average \(Fixed.shortest(ukDailyAverageKilograms)) kg/day (Alter Eco)", ukDailyAverageKilograms
      )
    case "carbon-gamification-2022":
      let perDay = irishAnnualAverageTonnes * 1000 / 365
      return (
        "Irish average \(Fixed.shortest(irishAnnualAverageTonnes)) t/year = \(Fixed.format(perDay, digits: 1)) kg/day (carbon gamification thesis)",
        perDay
      )
    default: return nil
    }
  }

  package struct Options: Sendable {
    package var files: [String]
    package var binning: ProfileBinning
    /// The zone of the bins and of times written without an offset.
    package var timeZone: NamedTimeZone
    package var factorSet: String?
    package var bodyMassKilograms: Double?
    /// Further subject values for the models (age, sex, heart rate, ...);
    /// `bodyMassKilograms` sets the mass.
    package var subject = ModelInput()
    /// Model per mode; modes not named use `ModeDefaults.modelForMode`.
    package var modelForMode: [TransportMode: String] = [:]
    /// The mode whose factor is used for an activity of a mode the factor
    /// set lacks (with a warning); nil makes that an error.
    package var factorFallback: TransportMode?
    package var track = TrackAnalysisParameters()
    package var modes = ModeInference.standard
    /// The factor a vehicle activity (car, bus or train, not told apart)
    /// takes when the set has no `vehicle` factor: car.
    package var vehicleFactorMode = TransportMode.car
    /// MET of cycling under the `met` model when no MET is given.
    package var cyclingMET = ModeDefaults.cyclingMET
    /// Files the command line read for these options, and what it took
    /// from them.
    package var sources = OptionSources()
    package var chartsDirectory: String?
    package var databasePath: String?
    package var format: OutputFormat?

    package init(files: [String], binning: ProfileBinning, timeZone: NamedTimeZone) {
      self.files = files
      self.binning = binning
      self.timeZone = timeZone
    }
  }

  /// The activities of some tracks with their energy and CO2, in time
  /// order, with what was found on the way.
  package struct Activities: Sendable {
    package var activities: [ProfileActivity]
    /// The tracks' and the models' diagnostics, file by file.
    package var diagnostics: [Diagnostic]
    /// One per file and mode that took another mode's factor.
    package var fallbacks: [Diagnostic]
    package var parameters: [NamedParameter]
    package var files: [String]
  }

  /// The activities of the tracks with energy and CO2. `read` hands over
  /// a track already read (as `TrackCommands.readTrack` reads it), so a
  /// caller that needs it for more than activities reads it once.
  package static func activities(
    _ options: Options, factors: EmissionFactorSet, read: ((String) throws -> Track)? = nil
  ) throws -> Activities {
    let mass = options.bodyMassKilograms ?? defaultBodyMassKilograms
    // Every mode is classified whatever the factor set lists: a bus leg
    // stays a bus leg, and a set without a bus factor is an error (or the
    // stated fallback), never a car.
    let modes = options.modes
    if let fallback = options.factorFallback?.rawValue, !factors.modes.contains(fallback) {
      throw factors.unknownMode(fallback, as: "fallback mode", remedy: nil)
    }
    let analysis = TrackAnalysis(parameters: options.track)
    let estimator = try ModeEnergyEstimator(
      modelForMode: options.modelForMode, inference: modes, cyclingMET: options.cyclingMET)
    var out: [ProfileActivity] = []
    var diagnosticsFound: [Diagnostic] = []
    var fallbacks: [String: [String: (count: Int, meters: Double)]] = [:]
    var vehicleAs: [String: (count: Int, meters: Double)] = [:]
    if !factors.modes.contains(TransportMode.vehicle.rawValue),
      !factors.modes.contains(options.vehicleFactorMode.rawValue)
    {
      throw factors.unknownMode(options.vehicleFactorMode.rawValue, as: "vehicle factor mode", remedy: nil)
    }
    var base = options.subject
    base.bodyMassKilograms = mass
    let zone = options.timeZone.zone
    for file in options.files {
      let track =
        try read?(file)
        ?? TrackCommands.readTrack(file, parameters: options.track, defaultTimeZone: zone)
      let (steps, diagnostics) = analysis.steps(of: track)
      diagnosticsFound += track.diagnostics + diagnostics
      let estimated = try estimator.estimate(
        steps: steps, points: track.points, declaredSportBySegment: track.declaredSportBySegment,
        source: file,
        subject: base)
      diagnosticsFound += estimated.unattachedDiagnostics
      for part in estimated.parts {
        let activity = part.activity.activity
        let energy = part.energy
        let model = part.model
        guard let start = activity.startSecondsSince1970, let end = activity.endSecondsSince1970 else {
          throw InputError(
            .malformed,
            SourceLocation(file: file), "fixes without times", expected: "<time> on every fix for profiles")
        }
        diagnosticsFound += energy.diagnostics
        let mode = activity.mode.rawValue
        var factorMode = mode
        if activity.mode == .vehicle && !factors.modes.contains(mode) {
          // GPS alone does not tell a car from a bus or a train: costed by
          // the stated mode's factor, and said.
          factorMode = options.vehicleFactorMode.rawValue
          vehicleAs[file, default: (0, 0)].count += 1
          vehicleAs[file, default: (0, 0)].meters += activity.distanceMeters
        }
        if activity.mode == .stationary {
          // Staying in a place is not travel: no CO2.
          out.append(
            ProfileActivity(
              mode: mode, startSecondsSince1970: start, endSecondsSince1970: end,
              distanceMeters: activity.distanceMeters, durationSeconds: activity.durationSeconds,
              energyKilocalories: energy.energyKilocalories, co2Kilograms: 0, session: file,
              modelID: model.info.id))
          continue
        }
        if !factors.modes.contains(factorMode) {
          guard let fallback = options.factorFallback?.rawValue else {
            throw InputError(
              .value,
              SourceLocation(file: file),
              "a \(mode) activity from \(ISO8601.formatUTC(start)) (\(Fixed.format(activity.distanceMeters / 1000, digits: 2)) km), but factor set \(factors.name) has no \(mode) factor",
              expected: "a factor set with \(mode)", remedy: Remedy(.factorFallback, value: "MODE"))
          }
          factorMode = fallback
          fallbacks[file, default: [:]][mode, default: (0, 0)].count += 1
          fallbacks[file, default: [:]][mode, default: (0, 0)].meters += activity.distanceMeters
        }
        out.append(
          ProfileActivity(
            mode: mode, startSecondsSince1970: start, endSecondsSince1970: end,
            distanceMeters: activity.distanceMeters, durationSeconds: activity.durationSeconds,
            energyKilocalories: energy.energyKilocalories,
            co2Kilograms: try factors.kilograms(mode: factorMode, distanceMeters: activity.distanceMeters),
            session: file, modelID: model.info.id))
      }
    }
    var fallbackDiagnostics: [Diagnostic] = []
    for (file, total) in vehicleAs.sorted(by: { $0.key < $1.key }) {
      fallbackDiagnostics.append(
        Diagnostic(
          code: "vehicle-factor", severity: .note,
          message:
            "\(total.count) vehicle activit\(total.count == 1 ? "y" : "ies") (\(Fixed.format(total.meters / 1000, digits: 2)) km) took the \(options.vehicleFactorMode.rawValue) factor: GPS speeds do not tell a car from a bus or a train",
          location: file))
    }
    for (file, byMode) in fallbacks.sorted(by: { $0.key < $1.key }) {
      for (mode, total) in byMode.sorted(by: { $0.key < $1.key }) {
        fallbackDiagnostics.append(
          Diagnostic(
            code: "factor-fallback",
            message:
              "\(total.count) \(mode) activit\(total.count == 1 ? "y" : "ies") (\(Fixed.format(total.meters / 1000, digits: 2)) km) took the \(options.factorFallback?.rawValue ?? "") factor: factor set \(factors.name) has no \(mode) factor",
            location: file))
      }
    }
    return Activities(
      activities: out.sorted { $0.startSecondsSince1970 < $1.startSecondsSince1970 },
      diagnostics: diagnosticsFound, fallbacks: fallbackDiagnostics,
      parameters: options.track.described + modes.described + [
        NamedParameter(
          name: "cycling_met", value: Fixed.shortest(options.cyclingMET),
          meaning: "MET of cycling (Compendium 2011, 01015)"),
        NamedParameter(
          name: "measured_power", value: options.modelForMode[.cycle] == nil ? "power-meter" : "ignored",
          meaning:
            "cycling activities with power records: costed by power-meter unless a cycle model is named"),
        NamedParameter(
          name: "vehicle_factor_mode", value: options.vehicleFactorMode.rawValue,
          meaning: "factor of vehicle activities when the set has no vehicle factor"),
      ]
        + options.modelForMode.sorted(by: { $0.key.rawValue < $1.key.rawValue }).map {
          NamedParameter(
            name: "model_\($0.key.rawValue)", value: $0.value, meaning: "model for \($0.key.rawValue)")
        }, files: options.files)
  }

  /// Activities as store rows, numbered from 1, each under `trackPath`.
  static func activityRows(_ activities: [ProfileActivity], trackPath: (ProfileActivity) -> String)
    -> [ActivityRow]
  {
    activities.enumerated().map { k, a in
      ActivityRow(
        trackPath: trackPath(a), index: k + 1, mode: a.mode,
        startTime: ISO8601.formatUTC(a.startSecondsSince1970),
        endTime: ISO8601.formatUTC(a.endSecondsSince1970), distanceMeters: a.distanceMeters,
        durationSeconds: a.durationSeconds,
        model: a.modelID,
        energyKilocalories: a.energyKilocalories, co2Kilograms: a.co2Kilograms)
    }
  }

  /// A profile: the activities binned by local calendar time, with the
  /// factor set and the rules used.
  package struct Profile: Sendable {
    package var factors: EmissionFactorSet
    package var factorPath: String
    package var found: Activities
    package var bins: [ProfileBin]
    package var bodyMassKilograms: Double
    package var timeZone: TimeZone
    package var parameters: [NamedParameter]
    package var activities: [ProfileActivity] { found.activities }
  }

  package static func profile(_ options: Options) throws -> Profile {
    let zone = options.timeZone.zone
    let setName = options.factorSet ?? ShippedData.defaultFactorSet
    let factorPath = try ShippedData.factorSetPath(setName)
    let factors = try FactorReaders.emissionFactorSet(path: factorPath)
    let mass = options.bodyMassKilograms ?? defaultBodyMassKilograms
    let found = try activities(options, factors: factors)
    let bins = ProfileBuilder(timeZone: zone).bins(found.activities, binning: options.binning)
    return Profile(
      factors: factors, factorPath: factorPath, found: found, bins: bins, bodyMassKilograms: mass,
      timeZone: zone,
      parameters: [
        NamedParameter(name: "factor_set", value: factors.name, meaning: factors.source),
        NamedParameter(
          name: "factor_fallback", value: options.factorFallback?.rawValue ?? "none",
          meaning: "mode whose factor a mode missing from the set takes (none: an error)"),
        NamedParameter(
          name: "body_mass_kg", value: Fixed.shortest(mass),
          meaning: options.bodyMassKilograms == nil ? "default (no body mass given)" : "subject body mass"),
        NamedParameter(name: "time_zone", value: zone.identifier, meaning: "bins in local time of this zone"),
        NamedParameter(name: "binning", value: options.binning.rawValue, meaning: "profile bins"),
      ] + options.subject.subjectParameters.filter { $0.name != "body_mass_kg" })
  }

  /// The run a profile stores: distance, energy and CO2 per bin and mode,
  /// and every activity.
  package static func runRecord(
    _ profile: Profile, options: Options, inputs: [InputFingerprint], parameters: [NamedParameter],
    recordedAt: String?
  ) -> RunRecord {
    let stored = profile.bins.flatMap { bin in
      ResultColumns.storedRows(binColumns, of: binValue(bin, profile), subject: "\(bin.label) \(bin.mode)")
    }
    var run = RunRecord(
      command:
        "profile --by \(options.binning.rawValue) --tz \(options.timeZone.name) --factors \(profile.factors.name)",
      recordedAt: recordedAt, inputs: inputs, parameters: parameters, results: stored)
    run.activities = activityRows(profile.activities) { $0.session }
    run.diagnostics = (profile.found.diagnostics + profile.found.fallbacks).map(DiagnosticRow.init)
    return run
  }

  /// A profile with the options it was made with: its inputs (the factor
  /// set, the tracks, the files the options came from), its parameters
  /// and diagnostics, its run and its output.
  package struct Outcome: CommandOutcome {
    package var profile: Profile
    package var options: Options
    package var inputs: [String] { [profile.factorPath] + profile.found.files + options.sources.files }
    package var parameters: [NamedParameter] {
      profile.found.parameters + profile.parameters + options.sources.parameters
    }
    package var diagnostics: [Diagnostic] { profile.found.diagnostics + profile.found.fallbacks }
    package func runRecord(inputs: [InputFingerprint], recordedAt: String?) -> RunRecord? {
      ProfileCommand.runRecord(
        profile, options: options, inputs: inputs, parameters: parameters, recordedAt: recordedAt)
    }
    package func render(_ request: RenderRequest) throws -> Rendering {
      var out = Rendering(request)
      try ProfileCommand.render(profile, options: options, into: &out)
      return out
    }
  }

  package static func outcome(_ options: Options) throws -> Outcome {
    Outcome(profile: try profile(options), options: options)
  }

  /// `profile`: compute, then store and print through the driver.
  package static func run(_ options: Options, driver: Driver) throws {
    try driver.finish(outcome(options), database: options.databasePath)
  }

  /// The factor set and total (prose formats), the profile table, the charts.
  package static func render(_ profile: Profile, options: Options, into out: inout Rendering) throws {
    let factors = profile.factors
    let mass = profile.bodyMassKilograms
    let activities = profile.activities
    let bins = profile.bins
    let builder = ProfileBuilder(timeZone: profile.timeZone)
    let rows = bins.map { ResultColumns.record(binColumns, of: binValue($0, profile)) }
    let format = options.format ?? out.defaultFormat
    if format != .json && format != .csv {
      let totalCO2 = activities.reduce(0) { $0 + $1.co2Kilograms }
      let days = localDates(activities, builder).count
      // The set's name and source come from its file: escaped in Markdown.
      let source =
        format == .markdown ? Markdown.escapeInline(factors.source) : PrintableText.clean(factors.source)
      let setName =
        format == .markdown ? Markdown.escapeInline(factors.name) : PrintableText.clean(factors.name)
      out.write(
        "factor set: \(setName) (\(source)); body mass \(Fixed.shortest(mass)) kg"
          + (options.bodyMassKilograms == nil ? " (default)" : "") + "; time zone \(options.timeZone.name)\n")
      out.write(
        "total \(Fixed.format(totalCO2, digits: 2)) kg CO2 over \(days) day(s)"
          + (comparison(for: factors.name).map { "; comparison: \($0.text)" } ?? "") + "\n\n")
    }
    out.emit(ResultTable(name: "profile", rows: rows), format: options.format)
    try drawCharts(
      bins: bins, activities: activities, binning: options.binning, factors: factors, options: options,
      days: localDates(activities, builder).count, into: &out)
  }

  /// The local dates the activities touch (start and last second).
  static func localDates(_ activities: [ProfileActivity], _ builder: ProfileBuilder) -> Set<String> {
    Set(
      activities.flatMap { a in
        [a.startSecondsSince1970, max(a.startSecondsSince1970, a.endSecondsSince1970 - 1)].map {
          builder.label(of: builder.interval(containing: $0, binning: .day), binning: .day)
        }
      })
  }

  static func drawCharts(
    bins: [ProfileBin], activities: [ProfileActivity], binning: ProfileBinning, factors: EmissionFactorSet,
    options: Options, days: Int, into out: inout Rendering
  ) throws {
    guard options.chartsDirectory != nil || out.figuresDirectory != nil, !bins.isEmpty else { return }
    // Two profiles of one report may differ only in the classifier (a
    // train costed as a car by one, as a train by the other): every title
    // names the factor set and the classifier.
    let setting = "\(factors.name), \(options.modes.identifier) classifier"
    var labels: [String] = []
    for bin in bins where !labels.contains(bin.label) { labels.append(bin.label) }
    var modes: [String] = []
    for bin in bins where !modes.contains(bin.mode) { modes.append(bin.mode) }
    let short = labels.map { binning == .hourOfDay ? $0 : String($0.prefix(binning == .hour ? 16 : 10)) }
    // By hour of the day, the mean per day over the dates the activities
    // touch (an hour without travel is a true zero on its day): a sum
    // over days would grow with the days profiled.
    let perDay = binning == .hourOfDay ? max(1, days) : 1
    let over = perDay == 1 ? "one day" : "\(perDay) days"
    var stacked = GnuplotChart(
      name: "profile-co2-by-\(binning.rawValue)-\(factors.name)",
      title: binning == .hourOfDay
        ? "CO2 by mode per hour of day (\(setting)): mean per day over \(over); under each hour, the days behind it"
        : "CO2 by mode per \(binning.rawValue) (\(setting))",
      xLabel:
        "\(binning.rawValue.replacingOccurrences(of: "-", with: " ")) (local, \(options.timeZone.name))",
      yLabel: binning == .hourOfDay ? "CO2 (kg per day)" : "CO2 (kg)", series: [])
    stacked.stackedBars = GnuplotChart.StackedBars(
      categories: short, seriesTitles: modes,
      values: labels.map { label in
        modes.map { mode in
          (bins.first { $0.label == label && $0.mode == mode }?.co2Kilograms ?? 0) / Double(perDay)
        }
      }, subLabels: binning == .hourOfDay ? labels.map { _ in "\(perDay) d" } : nil)
    if binning == .day, let comparison = comparison(for: factors.name) {
      stacked.horizontalLines = [.init(y: comparison.kilogramsPerDay, title: comparison.text)]
    }
    out.draw(stacked, folder: options.chartsDirectory, format: options.format)

    // Cumulative energy and CO2 over the activities, on the local clock of
    // the profile's time zone.
    if let first = activities.first?.startSecondsSince1970 {
      let zone = options.timeZone.zone
      func local(_ t: Double) -> Double {
        t + Double(zone.secondsFromGMT(for: Date(timeIntervalSince1970: t)))
      }
      // A step per activity: flat between activities, rising during each.
      func cumulative(_ amount: (ProfileActivity) -> Double, name: String, title: String, quantity: String)
        throws
      {
        var total = 0.0
        var points: [GnuplotChart.Point] = [.init(local(first), 0)]
        for a in activities {
          points.append(.init(local(a.startSecondsSince1970), total))
          total += amount(a)
          points.append(.init(local(a.endSecondsSince1970), total))
        }
        var chart = GnuplotChart(
          name: "profile-cumulative-\(name)-\(factors.name)", title: title,
          xLabel: "local time (\(options.timeZone.name))", yLabel: quantity,
          series: [.init(title: name == "co2" ? "CO2" : name, style: .lines, points: points)])
        chart.xIsLocalTime = true
        out.draw(chart, folder: options.chartsDirectory, format: options.format)
      }
      try cumulative(
        \.energyKilocalories, name: "energy",
        title: "Cumulative energy the traveller spends (metabolic; \(options.modes.identifier) classifier)",
        quantity: "traveller's energy expenditure (kcal)")
      try cumulative(
        \.co2Kilograms, name: "co2", title: "Cumulative CO2 (\(setting))", quantity: "CO2 (kg)")
    }
    // Share of distance and CO2 per mode.
    let totalDistance = max(1e-12, activities.reduce(0) { $0 + $1.distanceMeters })
    let totalCO2 = activities.reduce(0) { $0 + $1.co2Kilograms }
    var share = GnuplotChart(
      name: "profile-share-by-mode-\(factors.name)", title: "Share of distance and CO2 per mode (\(setting))",
      xLabel: "transport mode", yLabel: "share (%)", series: [])
    // Modes in one order (by name), so two profiles with the same shares
    // draw the same chart and the second is not drawn.
    let shareModes = modes.sorted()
    let shares = shareModes.map { mode in
      let d = activities.filter { $0.mode == mode }.reduce(0) { $0 + $1.distanceMeters }
      let c = activities.filter { $0.mode == mode }.reduce(0) { $0 + $1.co2Kilograms }
      return [100 * d / totalDistance, totalCO2 > 0 ? 100 * c / totalCO2 : 0]
    }
    share.stackedBars = GnuplotChart.StackedBars(
      categories: shareModes, seriesTitles: ["distance", "CO2"], values: shares, clustered: true)
    // One mode with almost all (95 % or more) of both the distance and the
    // CO2 is one fact, which a sentence states better than bars of a few
    // pixels beside two full ones.
    if let k = shares.indices.first(where: { shares[$0].allSatisfy { $0 >= 95 } }) {
      share.notDrawnReason =
        "\(shareModes[k]) has \(Fixed.format(shares[k][0], digits: 1)) % of the distance and \(Fixed.format(shares[k][1], digits: 1)) % of the CO2, one fact that this sentence states"
    }
    out.draw(share, folder: options.chartsDirectory, format: options.format)
  }
}
