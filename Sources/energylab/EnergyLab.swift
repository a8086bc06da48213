import ArgumentParser
import EnergyLabCore
import EnergyModels
import Foundation
import Pipeline
import Reporting
import Store
import Synchronization

@main
struct EnergyLabMain {
  static func main() {
    // A closed pipe (energylab ... | head) is seen as EPIPE on write and
    // handled there, after the work (and its storing) is done.
    signal(SIGPIPE, SIG_IGN)
    Terminal.holdClosedStandardStreams()
    TemporaryFiles.installSignalCleanup()
    Remedy.install(naming: CommandLineErrors.option)
    if Array(CommandLine.arguments.dropFirst()) == ["--version"] {
      Terminal.write(VersionText.describe() + "\n")
      Terminal.finish()
    }
    do {
      try SubcommandSuggestion.check(Array(CommandLine.arguments.dropFirst()))
      var command = try LongArgumentLists.parse(Array(CommandLine.arguments.dropFirst()))
      try command.run()
      Terminal.finish()
    } catch {
      Terminal.fail(error)
    }
  }
}

/// The root command: subcommands only.
struct EnergyLab: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "energylab",
    abstract: "Energy expenditure and transport carbon from mobile sensing data.",
    discussion: """
      Reads GPX tracks and reference tables, applies published energy models,
      compares them with reference tables, and writes reports, charts and a
      SQLite results store. Exit codes: 0 success, 1 failure, 64 usage error.
      """,
    version: EnergyLabVersion.current,
    subcommands: [
      RunCommand.self, EnergyCLI.self, EvaluateCLI.self, SweepCLI.self, ProfileCLI.self, FootprintCLI.self,
      SurveyCLI.self, BalanceCLI.self, DurationCLI.self,
      AgreementCLI.self, StatsCLI.self,
      ModelsCLI.self, TrackCLI.self, PowerCLI.self, AccelCLI.self, BatchCLI.self, DatabaseCLI.self,
    ])
}

/// A command that runs through a `Driver`: `execute` hands the library
/// command the driver, which stores and prints the value it computes, so
/// the same code serves the terminal and notebooks.
protocol DriverCommand: ParsableCommand {
  func execute(in driver: Driver) throws
}

extension DriverCommand {
  func run() throws {
    let driver = Terminal.driver()
    applyOutputOptions(to: driver.printer)
    defer { driver.printer.endCommand() }
    try execute(in: driver)
  }

  /// `--columns` and `--format` of the command's output options, for every
  /// table it prints.
  func applyOutputOptions(to printer: Printer) {
    printer.columns = nil
    printer.beginCommand(format: nil)
    for child in Mirror(reflecting: self).children {
      if let group = child.value as? OptionGroup<FormatOption> {
        printer.columns = group.wrappedValue.columnList
        printer.beginCommand(format: group.wrappedValue.format)
      }
    }
  }
}

extension OutputFormat: ExpressibleByArgument {}

/// `--format` for every command that prints results.
struct FormatOption: ParsableArguments {
  @Option(
    name: .long, help: "Output format: table, csv, json or markdown (default: table; markdown in notebooks).")
  var format: OutputFormat?
  @Option(
    help:
      "Columns to print, as file,energy_kcal (default: all; a table on a terminal shows those that fit and names the rest)."
  )
  var columns: String?

  var columnList: [String]? {
    columns.map {
      $0.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }
  }
}

/// Standard output, error and exit codes.
enum Terminal {
  /// The driver a command runs through: standard output and error.
  static func driver() -> Driver {
    let context = CommandContext(sink: { write($0) }, warningSink: { writeError($0 + "\n") })
    if isatty(STDERR_FILENO) == 1 {
      context.progressSink = { try? FileHandle.standardError.write(contentsOf: Data($0.utf8)) }
    } else {
      context.progressLog = { try? FileHandle.standardError.write(contentsOf: Data($0.utf8)) }
    }
    let printer = Printer(context: context, defaultFormat: .table)
    printer.terminalWidth = terminalWidth()
    let driver = Driver(printer: printer)
    driver.fingerprintsInputs = false
    return driver
  }

  /// The width of a terminal on standard output (`$COLUMNS` when set);
  /// nil when the output goes to a file or a pipe (every column printed).
  static func terminalWidth() -> Int? {
    guard isatty(STDOUT_FILENO) == 1 else { return nil }
    if let text = ProcessInfo.processInfo.environment["COLUMNS"], let n = Int(text), n > 0 { return n }
    var size = winsize()
    guard ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return 100 }
    return Int(size.ws_col)
  }

  /// Why standard output could not be written; nil while it can. A reader
  /// that went away (`| head -1`) is no failure: the rest is dropped and
  /// the command still completes, storing every run. Any other failure
  /// (a full disk, a closed descriptor) is reported at the end with exit 1.
  struct OutputState {
    var failure: String?
    var readerGone = false
    var closedAtStart = false
  }
  /// Held while standard output is written, so lines of parallel work do
  /// not interleave.
  static let output = Mutex(OutputState())
  static var outputFailure: String? { output.withLock { $0.failure } }

  /// Keeps descriptors 1 and 2 taken when the program was started with
  /// them closed, so no file opened later lands on them and receives the
  /// output; writing to a closed standard output is then reported.
  static func holdClosedStandardStreams() {
    for fd in [STDOUT_FILENO, STDERR_FILENO] where fcntl(fd, F_GETFD) == -1 && errno == EBADF {
      let opened = open("/dev/null", O_WRONLY)
      if opened >= 0 && opened != fd {
        dup2(opened, fd)
        close(opened)
      }
      if fd == STDOUT_FILENO { output.withLock { $0.closedAtStart = true } }
    }
  }

  static func write(_ text: String) {
    output.withLock { state in
      guard state.failure == nil, !state.readerGone else { return }
      guard !state.closedAtStart else {
        state.failure = "standard output is closed"
        return
      }
      var bytes = Array(text.utf8)[...]
      while !bytes.isEmpty {
        let n = bytes.withUnsafeBytes { Glibc.write(STDOUT_FILENO, $0.baseAddress, $0.count) }
        if n > 0 {
          bytes = bytes.dropFirst(n)
        } else if n < 0 && errno == EINTR {
          continue
        } else if n < 0 && errno == EPIPE {
          state.readerGone = true
          return
        } else {
          state.failure = String(cString: strerror(n < 0 ? errno : EIO))
          return
        }
      }
    }
  }

  /// Diagnostics name files and quote data: their control characters are
  /// replaced so a file name cannot drive the terminal.
  static func writeError(_ text: String) {
    try? FileHandle.standardError.write(contentsOf: Data(PrintableText.cleanLines(text).utf8))
  }

  /// Exit 0, or 1 when standard output failed.
  static func finish() -> Never {
    if let outputFailure {
      writeError("energylab: cannot write standard output: \(outputFailure)\n")
      exit(1)
    }
    exit(0)
  }

  static func fail(_ error: Error) -> Never {
    if let outputFailure { writeError("energylab: cannot write standard output: \(outputFailure)\n") }
    switch error {
    case is InputError, is RuntimeError, is OutputError:
      writeError("energylab: \(error)\n")
      exit(1)
    case let e as StoreError:
      writeError("energylab: \(e)\(e.nothingWritten ? "; give another --db" : "")\n")
      exit(1)
    case is UsageError, is ValueError:
      writeError("energylab: \(error)\n")
      exit(64)
    case let e as ModelError:
      writeError("energylab: \(CommandLineErrors.message(e))\n")
      exit(64)
    default:
      EnergyLab.exit(withError: error)
    }
  }

  /// Parses and runs a notebook command through `driver`.
  static func execute(_ arguments: [String], in driver: Driver) throws {
    let parsed: ParsableCommand
    try SubcommandSuggestion.check(arguments)
    do {
      parsed = try EnergyLab.parseAsRoot(arguments)
    } catch {
      throw UsageError(.invalid, EnergyLab.message(for: error))
    }
    guard let command = parsed as? DriverCommand, !(parsed is RunCommand) else {
      throw UsageError(.conflict, "\"\(arguments.joined(separator: " "))\" cannot run inside a notebook")
    }
    if let policy = driver.context.writePolicy {
      for path in CommandOutputs.paths(of: parsed) { try policy.check(path) }
      for path in CommandOutputs.existingPaths(in: arguments) { try policy.checkReading(path) }
      if arguments.contains("--follow-links") {
        throw UsageError(
          .unsupported,
          "--follow-links cannot be used in a notebook: it reads wherever a study's links lead; give batch the linked folders themselves (with an allow-read line in the header for one outside the project)"
        )
      }
    }
    command.applyOutputOptions(to: driver.printer)
    defer { driver.printer.endCommand() }
    do {
      try command.execute(in: driver)
    } catch let error as ModelError {
      throw UsageError(.invalid, CommandLineErrors.message(error))
    }
  }
}

/// The library's errors as the command line words them: inputs named by
/// the options that give them.
enum CommandLineErrors {
  static func message(_ error: ModelError) -> String {
    error.message { "--\($0.rawValue)" }
  }

  /// The option that gives a setting named in a diagnostic or an error.
  @Sendable static func option(_ setting: Remedy.Setting) -> String {
    switch setting {
    case .timeZone: "--tz"
    case .dateOrder: "--date-order"
    case .accelerationUnit: "--unit"
    case .sampleRate: "--sample-rate"
    case .timeFormat: "--time-format"
    case .start: "--start"
    case .axisColumns: "--x/--y/--z"
    case .surveyDialect: "--dialect"
    case .surveyItems: "--items"
    case .ordinalScale: "--scale"
    case .factorSet: "--factors"
    case .factorFallback: "--factor-fallback"
    case .assumption: "--assume"
    case .outputFormat: "--format"
    case .columns: "--columns"
    case .wearLocation: "--wear-location"
    case .intensityEpoch: "--intensity-epoch"
    case .readTruncated: "--read-truncated"
    case .ignoreCRC: "--ignore-crc"
    case .idleSleep: "--idle-sleep"
    case .followLinks: "--follow-links"
    case .rerun: "--rerun"
    case .cutPoints: "--cut-points"
    case .storedDiagnostics: "db export --table diagnostics"
    }
  }
}

struct RunCommand: DriverCommand {
  static let configuration = CommandConfiguration(
    commandName: "run",
    abstract: "Run notebooks into reports (every notebook in Notebooks/ when none is named).",
    discussion: """
      A notebook is Markdown. Fenced blocks marked energylab hold commands,
      one per line (a trailing backslash continues a line), written without
      the leading "energylab"; they run in order, and their output (Markdown
      tables, charts) replaces the block in Reports/NAME/report.md. A block
      marked energylab-parameters holds NAME = VALUE lines, used as ${NAME}
      in later commands and listed in the report. Paths are relative to the
      folder energylab runs in (the project), not to the notebook. The
      report is built in Reports/.NAME.tmp-PID and moved into place only
      when every command succeeded; a failing command stops the run and
      names the notebook line, the error and the files behind it.
      """)

  @Argument(help: "Notebooks to run.")
  var notebooks: [String] = []

  @Option(help: "Folder of notebooks run when none is named.")
  var notebooksDir = "Notebooks"

  @Option(help: "Folder that receives one report folder per notebook.")
  var reportsDir = "Reports"

  @Flag(help: "Byte-identical output for identical inputs: no wall-clock time or commit in reports.")
  var reproducible = false

  @Flag(help: "Print no progress lines.")
  var quiet = false

  func execute(in driver: Driver) throws {
    let paths = notebooks.isEmpty ? try NotebookRunner.notebooks(in: notebooksDir) : notebooks
    let quiet = quiet
    let runner = NotebookRunner(
      reportsDirectory: reportsDir, reproducible: reproducible, executor: Terminal.execute,
      progress: { line in if !quiet { Terminal.writeError(line + "\n") } })
    for path in paths {
      let folder = try runner.run(notebookAt: path)
      try driver.print(Rendering(blocks: [.prose("wrote \(folder)/report.md\n")]))
    }
  }
}

/// `energylab --version`: the version and which code it is: the source
/// digest of the checkout the binary was built in (as reports print it), or
/// the SHA-256 of the binary itself when installed without its sources.
enum VersionText {
  static func describe() -> String {
    guard let path = ExecutablePath.current else { return "energylab \(EnergyLabVersion.current)" }
    let binary = URL(fileURLWithPath: path)
    var folder = binary.deletingLastPathComponent()
    for _ in 0..<4 {
      folder = folder.deletingLastPathComponent()
      if let digest = NotebookRunner.sourceDigest(root: folder.path) {
        return
          "energylab \(EnergyLabVersion.current) (source digest \(digest), SHA-256 of Package.swift and Sources/ in \(folder.path))"
      }
    }
    if let sha = try? SHA256.hex(fileAt: binary.path) {
      return "energylab \(EnergyLabVersion.current) (binary sha256 \(sha.prefix(16)))"
    }
    return "energylab \(EnergyLabVersion.current)"
  }
}
