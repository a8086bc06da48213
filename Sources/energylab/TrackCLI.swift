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
    subcommands: [Synth.self, Summary.self, Segments.self, Plot.self, Power.self])

  struct Power: ContextCommand {
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
    @Option(help: "TSS duration: windows (the rolling averages NP averages) or samples.")
    var tssDuration = TSSDuration.windows
    @OptionGroup var track: TrackOptions
    @Flag(help: "Stop at the first file that cannot be read.") var failFast = false
    @OptionGroup var store: StoreOptions
    @OptionGroup var output: FormatOption
    func validate() throws {
      if let ftp, !(ftp > 0) { throw ValidationError("--ftp must be a positive number of watts") }
    }
    func execute(in context: CommandContext) throws {
      var p = PowerParameters()
      p.windows = npWindows
      p.missingPower = missingPower
      p.tssDuration = tssDuration
      try PowerCommand.run(
        files: files, parameters: p, ftpWatts: ftp, trackParameters: track.parameters,
        defaultTimeZone: try track.timeZone(), failFast: failFast, databasePath: store.path,
        format: output.format, context: context)
    }
  }

  struct Plot: ContextCommand {
    static let configuration = CommandConfiguration(
      abstract:
        "Charts of a track: speed by mode over time, elevation and grade over distance, activities by mode.")
    @Argument(help: "Track file: GPX, TCX, FIT, or COSMED K5 CSV.") var file: String
    @Option(help: "Write the charts (PNG, SVG, .gp, .dat) into this folder (default: charts/).") var charts:
      String?
    @OptionGroup var track: TrackOptions
    @OptionGroup var output: FormatOption
    func execute(in context: CommandContext) throws {
      try TrackCommands.plot(
        file: file, parameters: track.parameters, defaultTimeZone: try track.timeZone(),
        chartsDirectory: charts ?? (context.figuresDirectory == nil ? "charts" : nil),
        format: output.format, context: context)
    }
  }

  struct Synth: ContextCommand {
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

    func execute(in context: CommandContext) throws {
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
        spec, outputPath: output, inputs: route.map { [$0] } ?? [], context: context)
    }
  }

  struct Summary: ContextCommand {
    static let configuration = CommandConfiguration(
      abstract:
        "Distance, duration, speeds, elevation and grade of GPX/TCX files, in constant memory per file.",
      discussion:
        "Unreadable files are reported and skipped; the run then exits 1 (--fail-fast stops at the first).")
    @Argument(help: "GPX or TCX files.") var files: [String]
    @OptionGroup var track: TrackOptions
    @OptionGroup var run: FileRunOptions
    @OptionGroup var store: StoreOptions
    @OptionGroup var output: FormatOption
    func execute(in context: CommandContext) throws {
      run.apply(to: context)
      try TrackCommands.summary(
        files: files, parameters: track.parameters, defaultTimeZone: try track.timeZone(),
        failFast: run.failFast, jobs: run.jobs, databasePath: store.path,
        format: output.format, context: context)
    }
  }

  struct Segments: ContextCommand {
    static let configuration = CommandConfiguration(
      abstract: "Activities of a track by transport mode: mode, start, end, distance, duration."
    )
    @Argument(help: "Track file: GPX, TCX, FIT, or COSMED K5 CSV.") var file: String
    @Option(
      help:
        "Classifier: speed-bands (walk, run, cycle, bus, car, train, plane) or alter-eco (the Alter Eco thesis's rules)."
    )
    var classifier = Classifier.speedBands
    @Option(help: "Alter Eco: regions of interest CSV (name,kind,latitude_deg,longitude_deg,radius_m).")
    var regions: String?
    @Option(
      parsing: .unconditional,
      help: "Alter Eco: the user's cycling speed, replacing the 4 m/s car threshold (as 6mps or 20kmh).",
      transform: QuantityParser.speedMetersPerSecond)
    var cyclingSpeed: Double?
    @OptionGroup var track: TrackOptions
    @OptionGroup var store: StoreOptions
    @OptionGroup var output: FormatOption
    func execute(in context: CommandContext) throws {
      var alterEco: AlterEcoParameters?
      switch classifier {
      case .speedBands: break
      case .alterEco:
        var p = AlterEcoParameters()
        if let cyclingSpeed { p.carSpeedMetersPerSecond = cyclingSpeed }
        alterEco = p
      }
      try TrackCommands.segments(
        file: file, parameters: track.parameters, defaultTimeZone: try track.timeZone(), alterEco: alterEco,
        regionsPath: regions, databasePath: store.path, format: output.format, context: context)
    }
  }
}
