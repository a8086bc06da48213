import ArgumentParser
import EnergyLabCore
import EnergyModels
import Evaluation
import Foundation
import Ingest
import Pipeline
import Reporting
import Tracks

struct TrackCLI: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "track", abstract: "Synthesise, summarise and segment tracks.",
    subcommands: [Synth.self, Summary.self, Segments.self, Trips.self, Plot.self, Power.self])

  struct Power: DriverCommand {
    static let configuration = CommandConfiguration(
      abstract:
        "Normalized Power, IF, TSS, variability index, work, mean and maximal power and time in zones, per ride and per lap.",
      discussion:
        "NP takes full 30 s windows (as bike computers do) unless --np-windows partial. FTP: --ftp, else the file's own threshold_power, else none (IF, TSS and zones unknown). Unreadable files are reported and skipped; the run then exits 1."
    )
    @Argument(help: "Ride files: FIT, TCX or GPX with power.") var files: [String]
    @Option(help: "Functional threshold power, W (default: the file's own).") var ftp: Double?
    @Option(
      help: "NP windows: full (as devices) or partial (partial windows at the start, as sweat and vmpy).")
    var npWindows = NormalizedPowerWindows.full
    @Option(
      help:
        "A record without power: auto (0 W with a cadence, left out without), zero or skip.")
    var missingPower = MissingPowerRule.auto
    @Option(
      help:
        "TSS duration: windows (the rolling averages NP averages, as the indoor Edge and ELEMNT BOLT), samples, or minutes (the samples in whole minutes, as the Edge 810)."
    )
    var tssDuration = TSSDuration.windows
    @OptionGroup var track: TrackOptions
    @Flag(help: "Stop at the first file that cannot be read.") var failFast = false
    @OptionGroup var store: StoreOptions
    @OptionGroup var output: FormatOption
    func validate() throws {
      _ = try ParameterCheck.worded(PowerFlags.all, showingValue: false) {
        try PowerParameters.validated(ftpWatts: ftp)
      }
    }
    func execute(in driver: Driver) throws {
      var p = PowerParameters()
      p.windows = npWindows
      p.missingPower = missingPower
      p.tssDuration = tssDuration
      try PowerCommand.run(
        files: files, parameters: p, ftpWatts: ftp, trackParameters: track.parameters,
        defaultTimeZone: track.timeZone, failFast: failFast, databasePath: store.path,
        format: output.format, driver: driver)
    }
  }

  struct Plot: DriverCommand {
    static let configuration = CommandConfiguration(
      abstract:
        "Charts of a track: speed by mode over time, elevation and grade over distance, activities by mode.")
    @Argument(help: "Track file: GPX, TCX, FIT, or COSMED K5 CSV.") var file: String
    @Option(help: "Write the charts (PNG, SVG, .gp, .dat) into this folder (default: charts/).") var charts:
      String?
    @OptionGroup var track: TrackOptions
    @OptionGroup var output: FormatOption
    func execute(in driver: Driver) throws {
      try TrackCommands.plot(
        file: file, parameters: track.parameters, defaultTimeZone: track.timeZone,
        chartsDirectory: charts ?? (driver.printer.figuresDirectory == nil ? "charts" : nil),
        format: output.format, driver: driver)
    }
  }

  struct Synth: DriverCommand {
    static let configuration = CommandConfiguration(
      abstract: "Write a synthetic walk as GPX: a straight geodesic at constant speed and grade.")
    @Option(name: .shortAndLong, help: "Output GPX file.") var output: String
    @Option(
      parsing: .unconditional, help: "Horizontal speed, as 1.2mps or 2.9mph.",
      transform: QuantityParser.speedMetersPerSecond)
    var speed: Double = 1.2
    @Option(
      parsing: .unconditional, help: "Grade, as 2% or -10% (or a fraction, as 0.02).",
      transform: CommandLineQuantity.grade)
    var grade: Double = 0
    @Option(
      parsing: .unconditional, help: "Duration, as 600s or 10min.", transform: QuantityParser.durationSeconds)
    var duration: Double = 600
    @Option(help: "Seconds between fixes.") var interval: Double = 1
    @Option(help: "Start latitude, degrees.") var latitude: Double = 50.8671
    @Option(help: "Start longitude, degrees.") var longitude: Double = -0.0873
    @Option(help: "Start elevation, metres.") var elevation: Double = 50
    @Option(help: "Direction, degrees clockwise from north.") var azimuth: Double = 45
    @Option(
      help: "Start time, ISO-8601 (default 2012-05-08T09:00:00Z).",
      transform: {
        try ArgumentValue.instant($0, requireOffset: false)
      })
    var start: Double?
    @Option(help: "Standard deviation of horizontal position noise, metres.") var noise: Double = 0
    @Option(help: "Seed of the noise.") var seed: UInt64 = 1
    @Option(help: "Track name.") var name = "synthetic walk"
    @Option(
      parsing: .unconditional, help: "Heart rate written with every fix, as 120bpm (Garmin extension).",
      transform: QuantityParser.heartRateBeatsPerMinute)
    var heartRate: Double?
    @Option(
      help: "Follow the waypoints (or route/track points) of this GPX at --speed instead of a straight line.")
    var route: String?
    @Option(
      help: "A leg as SPEED,GRADE,DURATION (as 1.3mps,0,10min); repeat for a multi-leg track.",
      transform: ArgumentValue.leg)
    var leg: [SyntheticTrackSpec.Leg] = []

    func validate() throws {
      guard interval > 0 else { throw ValidationError("--interval must be positive") }
      guard (-90...90).contains(latitude), (-180...180).contains(longitude) else {
        throw ValidationError("--latitude must be within -90..90 and --longitude within -180..180")
      }
      guard noise >= 0 else { throw ValidationError("--noise must not be negative") }
    }

    func execute(in driver: Driver) throws {
      var spec = SyntheticTrackSpec()
      spec.speedMetersPerSecond = speed
      spec.gradeFraction = grade
      spec.durationSeconds = duration
      spec.sampleIntervalSeconds = interval
      spec.startLatitudeDegrees = latitude
      spec.startLongitudeDegrees = longitude
      spec.startElevationMeters = elevation
      spec.azimuthDegrees = azimuth
      if let start { spec.startSecondsSince1970 = start }
      spec.horizontalNoiseMeters = noise
      spec.seed = seed
      spec.name = name
      spec.heartRateBeatsPerMinute = heartRate
      if let route { spec.route = try TrackCommands.readTrack(route).points }
      spec.legs = leg
      try TrackCommands.synth(
        spec, outputPath: output, inputs: route.map { [$0] } ?? [], driver: driver)
    }
  }

  struct Summary: DriverCommand {
    static let configuration = CommandConfiguration(
      abstract:
        "Distance, duration, speeds, elevation and grade of GPX, TCX, FIT or COSMED K5 files, in constant memory per file.",
      discussion:
        "Unreadable files are reported and skipped; the run then exits 1 (--fail-fast stops at the first).")
    @Argument(help: "Track files: GPX, TCX, FIT, or COSMED K5 CSV.") var files: [String]
    @OptionGroup var track: TrackOptions
    @OptionGroup var run: FileRunOptions
    @OptionGroup var store: StoreOptions
    @OptionGroup var output: FormatOption
    func execute(in driver: Driver) throws {
      run.apply(to: driver.context)
      try TrackCommands.summary(
        files: files, parameters: track.parameters, defaultTimeZone: track.timeZone,
        failFast: run.failFast, jobs: run.jobs, databasePath: store.path,
        format: output.format, driver: driver)
    }
  }

  struct Segments: DriverCommand {
    static let configuration = CommandConfiguration(
      abstract:
        "Activities of tracks by transport mode: mode, where it came from, start, end, distance, duration; or one row per epoch.",
      discussion: """
        A sport the file declares (TCX Sport, GPX <type>, FIT sport) wins; the
        classifier fills the rest. epoch-hmm (the default) gives walk, cycle,
        vehicle and stationary per 30 s epoch from speed in context; its
        parameters and counts are printed with the run. Unreadable files are
        reported and skipped; the run then exits 1.
        """)
    @Argument(help: "Track files: GPX, TCX, FIT, or COSMED K5 CSV.") var files: [String]
    @Option(
      help:
        "Classifier: epoch-hmm (walk, cycle, vehicle, stationary per epoch), speed-bands (walk, run, cycle, bus, car, train, plane) or alter-eco (the Alter Eco thesis's rules)."
    )
    var classifier = Classifier.epochHMM
    @Option(
      parsing: .unconditional,
      help: "Print one row per epoch of this length instead of activities (the epoch model's: 30s).",
      transform: QuantityParser.durationSeconds)
    var epochs: Double?
    @Option(help: "Alter Eco: regions of interest CSV (name,kind,latitude_deg,longitude_deg,radius_m).")
    var regions: String?
    @Option(
      parsing: .unconditional,
      help: "Alter Eco: the user's cycling speed, replacing the 4 m/s car threshold (as 6mps or 20kmh).",
      transform: QuantityParser.speedMetersPerSecond)
    var cyclingSpeed: Double?
    @Option(
      help:
        "An accelerometer recording of the same person (any format accel reads): where it overlaps the tracks, whether it moved (light intensity or above) joins the speed in epoch-hmm."
    )
    var accel: String?
    @OptionGroup var track: TrackOptions
    @OptionGroup var run: FileRunOptions
    @OptionGroup var store: StoreOptions
    @OptionGroup var output: FormatOption

    func validate() throws {
      if let epochs {
        guard epochs == ModeModelParameters().epochSeconds else {
          throw ValidationError(
            "--epochs \(Fixed.shortest(epochs))s: the epoch model was fitted on 30 s epochs; use --epochs 30s"
          )
        }
        guard classifier != .alterEco else {
          throw ValidationError("--epochs gives epoch modes of epoch-hmm or speed-bands, not of alter-eco")
        }
      }
      if accel != nil, classifier != .epochHMM {
        throw ValidationError("--accel joins the epoch model only: use --classifier epoch-hmm")
      }
    }

    func execute(in driver: Driver) throws {
      run.apply(to: driver.context)
      var alterEco: AlterEcoParameters?
      var inference = ModeInference.standard
      switch classifier {
      case .epochHMM: break
      case .speedBands: inference = .speedBands(SpeedBandParameters())
      case .alterEco:
        var p = AlterEcoParameters()
        if let cyclingSpeed { p.carSpeedMetersPerSecond = cyclingSpeed }
        alterEco = p
      }
      try TrackCommands.segments(
        files: files, parameters: track.parameters, defaultTimeZone: track.timeZone,
        inference: inference,
        alterEco: alterEco, regionsPath: regions, epochs: epochs != nil, accelerometerPath: accel,
        failFast: run.failFast,
        jobs: run.jobs,
        databasePath: store.path, format: output.format, driver: driver)
    }
  }

  struct Trips: DriverCommand {
    static let configuration = CommandConfiguration(
      abstract:
        "Trips (start, end, modes, distance, duration, pauses), stays and places of one person's tracks.",
      discussion: """
        As PALMS defines them (Kerr et al. 2011; Carlson et al. 2015), with its
        defaults: a trip is travel of at least 100 m and 180 s; a stop inside it
        of at least 180 s is a pause, one over 300 s ends it; a stay of at least
        180 s is a visit to a place, and stays within 30 m of a place's centre
        are visits to the same place. Modes come from what a file declares,
        then the classifier. Every parameter is printed with the run.
        """)
    @Argument(help: "Track files of one person: GPX, TCX, FIT, or COSMED K5 CSV.") var files: [String]
    @Option(help: "Classifier: epoch-hmm (the default) or speed-bands.") var classifier = ModeClassifierChoice
      .epochHMM
    @Option(
      parsing: .unconditional, help: "Shorter travel is no trip (default 100m).",
      transform: { try QuantityParser.distanceMeters($0) })
    var minTripLength: Double = 100
    @Option(
      parsing: .unconditional, help: "Briefer travel is no trip (default 180s).",
      transform: QuantityParser.durationSeconds)
    var minTripDuration: Double = 180
    @Option(
      parsing: .unconditional, help: "A stop this long inside a trip is a pause (default 180s).",
      transform: QuantityParser.durationSeconds)
    var minPause: Double = 180
    @Option(
      parsing: .unconditional, help: "A longer stop ends the trip (default 300s).",
      transform: QuantityParser.durationSeconds)
    var maxPause: Double = 300
    @Option(
      parsing: .unconditional, help: "Stays this near a place's centre are visits to it (default 30m).",
      transform: { try QuantityParser.distanceMeters($0) })
    var placeRadius: Double = 30
    @Option(
      parsing: .unconditional, help: "A shorter stay is no visit to a place (default 180s).",
      transform: QuantityParser.durationSeconds)
    var minStay: Double = 180
    @OptionGroup var track: TrackOptions
    @OptionGroup var run: FileRunOptions
    @OptionGroup var store: StoreOptions
    @OptionGroup var output: FormatOption

    func validate() throws {
      guard minPause <= maxPause else { throw ValidationError("--min-pause must not exceed --max-pause") }
      guard minTripLength >= 0, minTripDuration >= 0, placeRadius > 0, minStay >= 0 else {
        throw ValidationError("trip and place thresholds must not be negative (and --place-radius positive)")
      }
    }

    func execute(in driver: Driver) throws {
      run.apply(to: driver.context)
      var p = TripParameters()
      p.minimumTripLengthMeters = minTripLength
      p.minimumTripDurationSeconds = minTripDuration
      p.minimumPauseSeconds = minPause
      p.maximumPauseSeconds = maxPause
      p.locationRadiusMeters = placeRadius
      p.minimumDurationAtLocationSeconds = minStay
      try TrackCommands.trips(
        files: files, parameters: track.parameters, defaultTimeZone: track.timeZone,
        inference: classifier.inference, tripParameters: p, jobs: run.jobs, failFast: run.failFast,
        databasePath: store.path, format: output.format, driver: driver)
    }
  }
}
