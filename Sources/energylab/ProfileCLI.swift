import ArgumentParser
import EnergyLabCore
import EnergyModels
import Evaluation
import Foundation
import Ingest
import Pipeline
import Reporting
import Tracks

extension ProfileBinning: ExpressibleByArgument {}

struct ProfileCLI: DriverCommand {
  static let configuration = CommandConfiguration(
    commandName: "profile",
    abstract: "Energy and CO2 of trips per mode, binned by hour, day, week, month or year in a time zone.",
    discussion: """
      Trips are split into activities by speed band (modes the factor set lacks
      hand their band to the next faster mode). Energy: ACSM on foot, MET 7.5
      cycling (power-meter where the ride carries power), resting VO2 when
      travelling passively (PEM thesis). CO2:
      distance x the factor set's factor. An activity spanning bins is split in
      proportion to its time in each. Defaults: --factors alter-eco-2020,
      --mass 70kg; both are named in the output.
      """)

  @Argument(help: "Track files: GPX, TCX, FIT, or COSMED K5 CSV.") var files: [String]
  @Option(help: "Bins: hour, hour-of-day, day, week, month, year, activity or session.") var by:
    ProfileBinning = .day
  @Option(
    help: "Emission factor set in Datasets/factors/ (default alter-eco-2020) or a CSV path.",
    completion: Completions.factorSets)
  var factors: String?
  @Option(
    help:
      "Mode whose factor an activity takes when the factor set has none for its own mode, as car (with a warning; default: an error)."
  )
  var factorFallback: TransportMode?
  @Option(
    parsing: .unconditional, help: "Body mass, as 65kg (default 70kg).",
    transform: { try QuantityParser.massKilograms($0) })
  var mass: Double?
  @Option(
    help:
      "Modes where a file declares none: epoch-hmm (walk, cycle, vehicle, stationary; the default) or speed-bands (walk, run, cycle, bus, car, train, plane)."
  )
  var classifier = ModeClassifierChoice.epochHMM
  @Option(
    help:
      "Factor of vehicle activities (car, bus or train, not told apart) when the set has no vehicle factor.")
  var vehicleFactor = TransportMode.car
  @Option(help: "Write charts (PNG, SVG, .gp, .dat) into this folder.") var charts: String?
  @OptionGroup var store: StoreOptions
  var db: String? { store.path }
  @OptionGroup var track: TrackOptions
  @OptionGroup var output: FormatOption

  func execute(in driver: Driver) throws {
    // --tz (from the track options) sets both the bins' zone and the zone of
    // times written without an offset.
    var options = ProfileCommand.Options(
      files: files, binning: by, timeZone: track.tz ?? .utc)
    options.factorSet = factors
    options.factorFallback = factorFallback
    options.modes = classifier.inference
    options.vehicleFactorMode = vehicleFactor
    options.bodyMassKilograms = try mass.map { try HumanLimits.check($0, .bodyMass) }
    options.track = track.parameters
    options.chartsDirectory = charts
    options.databasePath = db
    options.format = output.format
    try ProfileCommand.run(options, driver: driver)
  }
}
