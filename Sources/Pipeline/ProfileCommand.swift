import EnergyLabCore
import EnergyModels
import Evaluation
import Foundation
import Ingest
import Reporting
import Store
import Tracks

/// `profile FILE... --by day --tz Europe/London`: trips split into activities
/// by mode, each with its energy (the mode's model) and CO2 (distance x the
/// factor set's factor), binned by local calendar time.
public enum ProfileCommand {
  /// The factor set used without `--factors`: the Alter Eco app's UK 2019
  /// factors (car, train, plane).
  public static let defaultFactorSet = "alter-eco-2020"
  /// Body mass used without `--mass`: 70 kg, the Reference Man of ICRP
  /// Publication 23 (1975), the convention where no subject is given.
  public static let defaultBodyMassKilograms = 70.0
  /// UK daily average used by Alter Eco for comparison, kg CO2e per person
  /// per day (from the app's public source).
  public static let ukDailyAverageKilograms = 13.7
  /// Irish average, t CO2e per person per year (carbon gamification thesis,
  /// Fig 7.5).
  public static let irishAnnualAverageTonnes = 12.6

  public struct Options: Sendable {
    public var files: [String]
    public var binning: ProfileBinning
    public var timeZone: String
    public var factorSet: String?
    public var bodyMassKilograms: Double?
    public var track = TrackAnalysisParameters()
    public var modes = SpeedBandParameters()
    public var chartsDirectory: String?
    public var databasePath: String?
    public var format: OutputFormat?

    public init(files: [String], binning: ProfileBinning, timeZone: String) {
      self.files = files
      self.binning = binning
      self.timeZone = timeZone
    }
  }

  public static func factorSetPath(_ nameOrPath: String) -> String {
    nameOrPath.hasSuffix(".csv") || nameOrPath.contains("/")
      ? nameOrPath : ShippedData.path("Datasets/factors/\(nameOrPath).csv")
  }

  /// The activities of the tracks with energy and CO2. `read` hands over
  /// a track already read (as `TrackCommands.readTrack` reads it), so a
  /// caller that needs it for more than activities reads it once.
  public static func activities(
    _ options: Options, factors: EmissionFactorSet, context: CommandContext,
    read: ((String) throws -> Track)? = nil
  ) throws -> [ProfileActivity] {
    let mass = options.bodyMassKilograms ?? defaultBodyMassKilograms
    var modes = options.modes
    modes.enabledModes = TransportMode.allCases.filter { factors.modes.contains($0.rawValue) }
    guard !modes.enabledModes.isEmpty else {
      throw UsageError("factor set \(factors.name) lists no transport mode EnergyLab classifies")
    }
    let analysis = TrackAnalysis(parameters: options.track)
    let classifier = SpeedBandClassifier(parameters: modes)
    var out: [ProfileActivity] = []
    for file in options.files {
      let track =
        try read?(file)
        ?? TrackCommands.readTrack(
          file, parameters: options.track,
          defaultTimeZone: try ProfileBuilder.timeZone(named: options.timeZone))
      _ = try context.recordInput(file)
      let (steps, diagnostics) = analysis.steps(of: track)
      context.provenance.diagnostics += track.diagnostics + diagnostics
      for activity in classifier.activities(of: steps) {
        guard let start = activity.startSecondsSince1970, let end = activity.endSecondsSince1970 else {
          throw InputError(
            SourceLocation(file: file), "fixes without times", expected: "<time> on every fix for profiles")
        }
        let model = try ModelRegistry.model(id: EnergyCommand.defaultModelForMode[activity.mode]!)
        var subject = ModelInput(bodyMassKilograms: mass)
        if activity.mode == .cycle { subject.metabolicEquivalent = EnergyCommand.defaultCyclingMET }
        let energy = try TrackEnergy(
          source: file, steps: steps[activity.stepRange], model: model, subject: subject)
        context.provenance.diagnostics += energy.diagnostics
        out.append(
          ProfileActivity(
            mode: activity.mode.rawValue, startSecondsSince1970: start, endSecondsSince1970: end,
            distanceMeters: activity.distanceMeters, durationSeconds: activity.durationSeconds,
            energyKilocalories: energy.energyKilocalories,
            co2Kilograms: try factors.kilograms(
              mode: activity.mode.rawValue, distanceMeters: activity.distanceMeters), session: file))
      }
    }
    context.provenance.addParameters(
      options.track.described + modes.described + [
        NamedParameter(
          name: "cycling_met", value: Fixed.shortest(EnergyCommand.defaultCyclingMET),
          meaning: "MET of cycling (Compendium 2011, 01015)")
      ])
    return out.sorted { $0.startSecondsSince1970 < $1.startSecondsSince1970 }
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
        model: EnergyCommand.defaultModelForMode[TransportMode(rawValue: a.mode) ?? .walk] ?? "",
        energyKilocalories: a.energyKilocalories, co2Kilograms: a.co2Kilograms)
    }
  }

  public static func run(_ options: Options, context: CommandContext) throws {
    let zone = try ProfileBuilder.timeZone(named: options.timeZone)
    let setName = options.factorSet ?? defaultFactorSet
    let factorPath = factorSetPath(setName)
    let factors = try FactorReaders.emissionFactorSet(path: factorPath)
    _ = try context.recordInput(factorPath)
    let mass = options.bodyMassKilograms ?? defaultBodyMassKilograms
    let activities = try activities(options, factors: factors, context: context)
    let builder = ProfileBuilder(timeZone: zone)
    let bins = builder.bins(activities, binning: options.binning)
    context.provenance.addParameters([
      NamedParameter(name: "factor_set", value: factors.name, meaning: factors.source),
      NamedParameter(
        name: "body_mass_kg", value: Fixed.shortest(mass),
        meaning: options.bodyMassKilograms == nil ? "default (no --mass given)" : "subject body mass"),
      NamedParameter(name: "time_zone", value: zone.identifier, meaning: "bins in local time of this zone"),
      NamedParameter(name: "binning", value: options.binning.rawValue, meaning: "profile bins"),
    ])
    let rows = bins.map { bin in
      let record = ResultRecord([
        "bin_start": .string(bin.label), "mode": .string(bin.mode),
        "distance_m": .number(bin.distanceMeters, 1),
        "duration_s": .number(bin.durationSeconds, 1), "energy_kcal": .number(bin.energyKilocalories, 2),
        "co2_kg": .number(bin.co2Kilograms, 3), "factor_set": .string(factors.name),
        "body_mass_kg": .number(mass, 1),
      ])
      return record
    }
    // Stored before anything is printed: a failed output loses no run.
    if let path = options.databasePath ?? context.databasePath {
      let stored = bins.flatMap { bin in
        [
          ResultRow(
            subject: "\(bin.label) \(bin.mode)", metric: "distance", value: bin.distanceMeters, unit: "m"),
          ResultRow(
            subject: "\(bin.label) \(bin.mode)", metric: "energy", value: bin.energyKilocalories, unit: "kcal"
          ),
          ResultRow(subject: "\(bin.label) \(bin.mode)", metric: "co2", value: bin.co2Kilograms, unit: "kg"),
        ]
      }
      var run = RunRecord(
        command:
          "profile --by \(options.binning.rawValue) --tz \(options.timeZone) --factors \(factors.name)",
        recordedAt: context.timestamp, inputs: try context.hashed(context.provenance.inputs),
        parameters: context.provenance.parameters,
        results: stored)
      run.activities = activityRows(activities) { $0.session }
      try ResultsStore(path: path).record(run)
    }
    let format = options.format ?? context.defaultFormat
    if format != .json && format != .csv {
      let totalCO2 = activities.reduce(0) { $0 + $1.co2Kilograms }
      let days = Set(
        activities.flatMap { a in
          [a.startSecondsSince1970, max(a.startSecondsSince1970, a.endSecondsSince1970 - 1)].map {
            builder.label(of: builder.interval(containing: $0, binning: .day), binning: .day)
          }
        }
      ).count
      context.write(
        "factor set: \(factors.name) (\(factors.source)); body mass \(Fixed.shortest(mass)) kg"
          + (options.bodyMassKilograms == nil ? " (default)" : "") + "; time zone \(options.timeZone)\n")
      context.write(
        "total \(Fixed.format(totalCO2, digits: 2)) kg CO2 over \(days) day(s); comparison: UK average \(Fixed.shortest(ukDailyAverageKilograms)) kg/day (Alter Eco), Irish average \(Fixed.shortest(irishAnnualAverageTonnes)) t/year = \(Fixed.format(irishAnnualAverageTonnes * 1000 / 365, digits: 1)) kg/day\n\n"
      )
    }
    context.emit(ResultTable(name: "profile", rows: rows), format: options.format)
    try drawCharts(
      bins: bins, activities: activities, binning: options.binning, factors: factors, options: options,
      context: context)
  }

  static func drawCharts(
    bins: [ProfileBin], activities: [ProfileActivity], binning: ProfileBinning, factors: EmissionFactorSet,
    options: Options, context: CommandContext
  ) throws {
    guard options.chartsDirectory != nil || context.figuresDirectory != nil, !bins.isEmpty else { return }
    var labels: [String] = []
    for bin in bins where !labels.contains(bin.label) { labels.append(bin.label) }
    var modes: [String] = []
    for bin in bins where !modes.contains(bin.mode) { modes.append(bin.mode) }
    let short = labels.map { binning == .hourOfDay ? $0 : String($0.prefix(binning == .hour ? 16 : 10)) }
    var stacked = GnuplotChart(
      name: "profile-co2-by-\(binning.rawValue)-\(factors.name)",
      title: "CO2 by mode per \(binning.rawValue) (\(factors.name))",
      xLabel: binning.rawValue, yLabel: "CO2 (kg)", series: [])
    stacked.stackedBars = GnuplotChart.StackedBars(
      categories: short, seriesTitles: modes,
      values: labels.map { label in
        modes.map { mode in bins.first { $0.label == label && $0.mode == mode }?.co2Kilograms ?? 0 }
      })
    if binning == .day {
      stacked.horizontalLines = [.init(y: ukDailyAverageKilograms, title: "UK average 13.7 kg/day")]
    }
    try context.draw(stacked, folder: options.chartsDirectory, format: options.format)

    // Cumulative energy and CO2 over the activities, in hours from the first start.
    if let first = activities.first?.startSecondsSince1970 {
      var energy = 0.0
      var co2 = 0.0
      var energyPoints: [GnuplotChart.Point] = [.init(0, 0)]
      var co2Points: [GnuplotChart.Point] = [.init(0, 0)]
      for a in activities {
        energyPoints.append(.init((a.startSecondsSince1970 - first) / 3600, energy))
        co2Points.append(.init((a.startSecondsSince1970 - first) / 3600, co2))
        energy += a.energyKilocalories
        co2 += a.co2Kilograms
        energyPoints.append(.init((a.endSecondsSince1970 - first) / 3600, energy))
        co2Points.append(.init((a.endSecondsSince1970 - first) / 3600, co2))
      }
      try context.draw(
        GnuplotChart(
          name: "profile-cumulative-energy-\(factors.name)", title: "Cumulative energy",
          xLabel: "hours since the first activity",
          yLabel: "energy (kcal)", series: [.init(title: "energy", style: .lines, points: energyPoints)]),
        folder: options.chartsDirectory, format: options.format)
      try context.draw(
        GnuplotChart(
          name: "profile-cumulative-co2-\(factors.name)", title: "Cumulative CO2 (\(factors.name))",
          xLabel: "hours since the first activity",
          yLabel: "CO2 (kg)", series: [.init(title: "CO2", style: .lines, points: co2Points)]),
        folder: options.chartsDirectory, format: options.format)
    }
    // Share of distance and CO2 per mode.
    let totalDistance = max(1e-12, activities.reduce(0) { $0 + $1.distanceMeters })
    let totalCO2 = activities.reduce(0) { $0 + $1.co2Kilograms }
    var share = GnuplotChart(
      name: "profile-share-by-mode-\(factors.name)", title: "Share per mode", xLabel: "mode",
      yLabel: "share (%)", series: [])
    share.stackedBars = GnuplotChart.StackedBars(
      categories: modes, seriesTitles: ["distance", "CO2"],
      values: modes.map { mode in
        let d = activities.filter { $0.mode == mode }.reduce(0) { $0 + $1.distanceMeters }
        let c = activities.filter { $0.mode == mode }.reduce(0) { $0 + $1.co2Kilograms }
        return [100 * d / totalDistance, totalCO2 > 0 ? 100 * c / totalCO2 : 0]
      }, clustered: true)
    try context.draw(share, folder: options.chartsDirectory, format: options.format)
  }
}
