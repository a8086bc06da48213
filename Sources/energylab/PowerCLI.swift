import ArgumentParser
import EnergyLabCore
import Foundation
import Pipeline
import Reporting
import Tracks

/// The option of each power parameter the library checks.
enum PowerFlags {
  static let all = [
    "ftp_w": "--ftp", "fit_from_s": "--fit-from", "fit_to_s": "--fit-to", "cp_w": "--cp",
    "w_prime_j": "--w-prime",
  ]
}

struct PowerCLI: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "power",
    abstract: "Power-duration and training load over rides with a power meter.",
    subcommands: [Curve.self, Load.self])

  struct Load: DriverCommand {
    static let configuration = CommandConfiguration(
      abstract: "CTL, ATL and TSB (42- and 7-day time constants) over a folder of rides by date.",
      discussion:
        "Each ride's TSS as track power computes it (--ftp, else the file's own threshold_power); a ride without a TSS is named and left out. Days without a ride have TSS 0. The table lists the ride days and the last day; the chart every day."
    )
    @Argument(help: "Ride files or folders of them.") var paths: [String]
    @Option(help: "Functional threshold power, W (default: each file's own).") var ftp: Double?
    @Option(help: "A record without power: auto (0 W with a cadence, left out without), zero or skip.")
    var missingPower = MissingPowerRule.auto
    @Option(help: "Write the chart (PNG, SVG, .gp, .dat) into this folder (default: charts/).") var charts:
      String?
    @OptionGroup var track: TrackOptions
    @OptionGroup var store: StoreOptions
    @OptionGroup var output: FormatOption
    func validate() throws {
      _ = try ParameterCheck.worded(PowerFlags.all, showingValue: false) {
        try PowerParameters.validated(ftpWatts: ftp)
      }
    }
    func execute(in driver: Driver) throws {
      var power = PowerParameters()
      power.missingPower = missingPower
      let named = track.tz
      try TrainingLoadCommand.run(
        paths: paths, power: power, ftpWatts: ftp, track: track.parameters,
        zone: named?.zone ?? .utc, zoneName: named?.name ?? "UTC",
        chartsDirectory: charts ?? (driver.printer.figuresDirectory == nil ? "charts" : nil),
        databasePath: store.path,
        format: output.format, driver: driver)
    }
  }

  struct Curve: DriverCommand {
    static let configuration = CommandConfiguration(
      abstract:
        "Mean-maximal power from 1 s to the whole ride, CP and W' by the 2-parameter, 3-parameter and exponential models, and W' balance.",
      discussion:
        "Over one ride or a folder of rides (FIT, TCX, GPX with power). The models are fitted over --fit-from to --fit-to of the curve; a fit whose points all come from one ride is flagged. W' balance (integral, Skiba 2012; differential, Skiba 2015) takes --cp and --w-prime, else the 2-parameter fit's."
    )
    @Argument(help: "Ride files or folders of them.") var paths: [String]
    @Option(
      parsing: .unconditional, help: "Shortest duration fitted, as 2min or 120s.",
      transform: QuantityParser.durationSeconds)
    var fitFrom: Double = 120
    @Option(
      parsing: .unconditional, help: "Longest duration fitted, as 20min.",
      transform: QuantityParser.durationSeconds)
    var fitTo: Double = 1200
    @Option(help: "Critical power for W' balance, W.") var cp: Double?
    @Option(help: "W' for W' balance, J.") var wPrime: Double?
    @Option(help: "A record without power: auto (0 W with a cadence, left out without), zero or skip.")
    var missingPower = MissingPowerRule.auto
    @Option(help: "Write the charts (PNG, SVG, .gp, .dat) into this folder (default: charts/).") var charts:
      String?
    @Flag(
      help:
        "Stream each file keeping no fix: memory stays flat, the curve is exact to 1 h and over whole minutes beyond, and W' balance is left out."
    )
    var boundedMemory = false
    @OptionGroup var track: TrackOptions
    @OptionGroup var store: StoreOptions
    @OptionGroup var output: FormatOption
    var options: PowerCurveCommand.Options {
      var options = PowerCurveCommand.Options(paths: paths)
      options.power.missingPower = missingPower
      options.track = track.parameters
      options.fitFromSeconds = Int(fitFrom.rounded())
      options.fitToSeconds = Int(fitTo.rounded())
      options.criticalPowerWatts = cp
      options.wPrimeJoules = wPrime
      options.defaultTimeZone = track.timeZone
      options.boundedMemory = boundedMemory
      return options
    }
    func validate() throws {
      try track.validate()
      _ = try ParameterCheck.worded(PowerFlags.all, showingValue: false) { try options.validated() }
    }
    func execute(in driver: Driver) throws {
      try PowerCurveCommand.run(
        options, chartsDirectory: charts ?? (driver.printer.figuresDirectory == nil ? "charts" : nil),
        databasePath: store.path, format: output.format, driver: driver)
    }
  }
}
