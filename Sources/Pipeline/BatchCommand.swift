import EnergyLabCore
import EnergyModels
import Estimation
import Evaluation
import Foundation
import Ingest
import Reporting
import Signals
import Store
import Surveys
import Synchronization
import Tracks

/// `batch DIR... --db FILE`: a whole study, every track, accelerometer
/// recording and survey export under the folders, read, summarised, run
/// through the default models and stored, one run per file.
package enum BatchCommand {
  package struct Options: Sendable {
    package var folders: [String]
    package var databasePath: String
    /// Files processed at once (default: the number of cores, never more
    /// than files).
    package var jobs: Int?
    package var shard: Shard?
    package var failFast = false
    package var track = TrackAnalysisParameters()
    package var accel = AccelOptions()
    package var energy = AccelEnergyOptions()
    package var factorSet = ShippedData.defaultFactorSet
    package var factorFallback: TransportMode?
    package var timeZone = NamedTimeZone.utc
    /// The study's participants (`--subjects`), the file they came from,
    /// and how files are matched to them.
    package var subjects: [Subject] = []
    package var subjectsPath: String?
    package var subjectMatch = SubjectMatch.folder
    /// Model per transport mode for tracks; modes not named use
    /// `ModeDefaults.modelForMode`.
    package var modelForMode: [TransportMode: String] = [:]
    /// Follow symbolic links that lead out of the study folders.
    package var followLinks = false
    /// Process every file again, even one whose run (or failure) is
    /// already stored from the same content under the same options.
    package var rerun = false

    package init(folders: [String], databasePath: String) {
      self.folders = folders
      self.databasePath = databasePath
    }
  }

  /// `K/N`: the K-th of N shards (1-based). A file belongs to shard
  /// 1 + (h mod N), h the first 8 bytes of the SHA-256 of its path relative
  /// to the folder given, so the split does not depend on which other files
  /// exist or in what order they are listed.
  package struct Shard: Sendable, Hashable, CustomStringConvertible {
    package var index: Int
    package var count: Int

    package init(index: Int, count: Int) {
      self.index = index
      self.count = count
    }

    package init(parsing text: String) throws {
      let parts = text.split(separator: "/")
      guard parts.count == 2, let k = Int(parts[0]), let n = Int(parts[1]), n >= 1, k >= 1, k <= n else {
        throw ValueError(.unreadable, "a shard", value: text, expected: "K/N with 1 <= K <= N, as 2/8")
      }
      self.init(index: k, count: n)
    }

    package var description: String { "\(index)/\(count)" }

    package static func of(relativePath: String, count: Int) -> Int {
      let digest = SHA256.hex(Array(relativePath.utf8))
      // The digest's first 16 hex digits as a number.
      let h = digest.prefix(16).reduce(UInt64(0)) { $0 << 4 | UInt64($1.hexDigitValue ?? 0) }
      return Int(h % UInt64(count)) + 1
    }

    package func contains(relativePath: String) -> Bool {
      Self.of(relativePath: relativePath, count: count) == index
    }
  }

  /// A file of the study: its path, its path relative to the folder, and
  /// the name it is stored under (`CanonicalPath.stored`: absolute, links
  /// and `.` resolved), so `batch study`, `batch ./study` and
  /// `batch /abs/study`, from any working folder or as shards, store the
  /// same runs, and two study folders of the same name in different places
  /// (two sites) store two sets of runs.
  package struct StudyFile: Sendable, Hashable {
    package var path: String
    package var relativePath: String
    package var storedPath: String
  }

  package enum Kind: String, Sendable {
    case track
    case accelerometer
    case survey
  }

  static let extensions = [
    ".gpx", ".tcx", ".fit", ".csv", ".csv.gz", ".txt", ".txt.gz", ".cwa", ".bin", ".gt3x",
  ]

  /// What `discover` found: the study's files, and what it passed over
  /// and why (FIFOs, devices and sockets, never opened; links leading out
  /// of the study folder; broken links).
  package struct Discovery: Sendable {
    package var files: [StudyFile] = []
    package var skipped: [Diagnostic] = []
  }

  /// Candidate files under the folders, in path order; hidden files and
  /// folders are passed over. Only regular files are taken: a FIFO, device
  /// or socket is skipped with a diagnostic without being opened (a FIFO
  /// would block for ever, /dev/zero never ends). A symbolic link is
  /// followed when it leads to a place inside the study folder; one leading
  /// out of it only with `followLinks`.
  package static func discover(_ folders: [String], followLinks: Bool = false) throws -> Discovery {
    var discovery = Discovery()
    let fm = FileManager.default
    for folder in folders {
      var isDirectory: ObjCBool = false
      guard fm.fileExists(atPath: folder, isDirectory: &isDirectory), isDirectory.boolValue else {
        throw UsageError(.unsupported, "\(folder): not a folder; batch takes the folders of a study")
      }
      let canonicalRoot = CanonicalPath.resolved(folder)
      let inside = canonicalRoot == "/" ? "/" : canonicalRoot + "/"
      var found: [String] = []
      // Folders walked, by real path, so a link cannot loop.
      var visited: Set<String> = [canonicalRoot]
      func skip(_ relative: String, _ code: String, _ message: String) {
        let path = folder.hasSuffix("/") ? folder + relative : folder + "/" + relative
        discovery.skipped.append(Diagnostic(code: code, message: message, location: path))
      }
      func walk(_ relativeFolder: String) {
        let here =
          relativeFolder.isEmpty ? folder : (folder as NSString).appendingPathComponent(relativeFolder)
        guard let names = try? fm.contentsOfDirectory(atPath: here) else {
          skip(relativeFolder, "folder-unreadable", "folder cannot be listed; skipped")
          return
        }
        for name in names.sorted() where !name.hasPrefix(".") {
          let relative = relativeFolder.isEmpty ? name : relativeFolder + "/" + name
          let path = (here as NSString).appendingPathComponent(name)
          var info = stat()
          guard lstat(path, &info) == 0 else { continue }
          var type = info.st_mode & S_IFMT
          if type == S_IFLNK {
            let target = CanonicalPath.resolved(path)
            guard stat(path, &info) == 0 else {
              skip(relative, "broken-link", "symbolic link to nothing; skipped")
              continue
            }
            if !(target == canonicalRoot || target.hasPrefix(inside)) && !followLinks {
              skip(
                relative, "link-outside-study",
                "symbolic link leading out of the study folder (to \(target)); not followed (\(Remedy(.followLinks).text) follows it)"
              )
              continue
            }
            type = info.st_mode & S_IFMT
          }
          switch type {
          case S_IFDIR:
            guard visited.insert(CanonicalPath.resolved(path)).inserted else { continue }
            walk(relative)
          case S_IFREG:
            let lower = name.lowercased()
            if extensions.contains(where: { lower.hasSuffix($0) }) { found.append(relative) }
          default:
            let what =
              switch type {
              case S_IFIFO: "a FIFO (named pipe)"
              case S_IFCHR: "a character device"
              case S_IFBLK: "a block device"
              case S_IFSOCK: "a socket"
              default: "not a regular file"
              }
            skip(relative, "not-a-regular-file", "\(what); skipped without opening it")
          }
        }
      }
      walk("")
      for relative in found.sorted() {
        let path = folder.hasSuffix("/") ? folder + relative : folder + "/" + relative
        discovery.files.append(
          StudyFile(path: path, relativePath: relative, storedPath: CanonicalPath.stored(path)))
      }
    }
    return discovery
  }

  /// What a file is, by its content whatever its name or the links to it:
  /// a device recording by its first bytes (or a name only one device
  /// writes: `.cwa`, `.gt3x`), a FIT track by its signature, a GPX or TCX
  /// track by its extension, a COSMED K5 export by its header row (a `t`
  /// and a `VO2` cell in its first 200 lines, as the K5 reader looks for
  /// it), an accelerometer CSV by its dialect; anything else may be a
  /// survey export, whose reader has the last word. Returns the reasons a
  /// CSV is not a recording, for the message when it is no survey either.
  static func kind(of file: StudyFile, options: Options) throws -> (Kind, notRecording: Error?) {
    let lower = file.path.lowercased()
    if lower.hasSuffix(".gpx") || lower.hasSuffix(".tcx") || lower.hasSuffix(".fit") { return (.track, nil) }
    // A .bin that is no device file is read as text below, and fails
    // there with the reason.
    if DeviceFileReader.format(ofFileAt: file.path) ?? DeviceFileFormat.claimed(byName: file.path) != nil {
      return (.accelerometer, nil)
    }
    if FITFileHeader.isFIT(path: file.path) && !TrackCommands.isMeasuredExport(file.path) {
      return (.track, nil)
    }
    let chunks = try LineChunks(path: file.path)
    let head = try chunks.next(size: 1 << 16) ?? []
    if TrackCommands.isMeasuredExport(file.path) && Self.hasCOSMEDHeader(head) { return (.track, nil) }
    do {
      _ = try AccelDetector(map: options.accel.map, timeZone: options.accel.timeZone).detect(
        head: head, file: file.path)
      return (.accelerometer, nil)
    } catch {
      return (.survey, error)
    }
  }

  /// Whether one of the first 200 lines of `head` is a COSMED K5 header
  /// row: cells (comma or semicolon separated) `t` and `VO2`.
  static func hasCOSMEDHeader(_ head: [UInt8]) -> Bool {
    var lines = 0
    for line in head.split(separator: 0x0A, omittingEmptySubsequences: false) {
      lines += 1
      if lines > 200 { break }
      for separator in [UInt8(ascii: ","), UInt8(ascii: ";")] {
        let cells = line.split(separator: separator, omittingEmptySubsequences: false).map {
          String(decoding: $0, as: UTF8.self).trimmingCharacters(in: CharacterSet(charactersIn: " \t\r\""))
        }
        if cells.contains("t") && cells.contains("VO2") { return true }
      }
    }
    return false
  }

  /// A file batch takes no run of: none of the kinds it reads. Reported
  /// with the files the walk passed over, never counted as a failure.
  struct NotTaken: Error {
    var diagnostic: Diagnostic
  }

  /// The subject a file belongs to under the options' rule: nil when no
  /// subjects were given or none matches; an error naming the file when
  /// several do.
  static func subject(of file: StudyFile, options: Options) throws -> Subject? {
    guard !options.subjects.isEmpty else { return nil }
    let found = options.subjectMatch.matches(relativePath: file.relativePath, among: options.subjects)
    guard found.count <= 1 else {
      throw InputError(
        .value, SourceLocation(file: file.path),
        "matches participants \(found.map(\.id).joined(separator: " and ")) by \(options.subjectMatch.rawValue) name",
        expected: "one participant per file")
    }
    return found.first
  }

  /// The subject's values as the models take them, with a diagnostic for
  /// each value a model needs that came from a default.
  /// A FIT file's user profile fills what the subject leaves out, as in
  /// `energy` (the subjects file wins, as the command line does there), so
  /// `batch` and `energy` cost one file with one body mass.
  static func subjectInput(
    _ subject: Subject?, options: Options, file: StudyFile, profile: FITUserProfile? = nil
  ) -> (input: ModelInput, diagnostics: [Diagnostic]) {
    var input = ModelInput(valuesOf: subject)
    var diagnostics: [Diagnostic] = []
    (input, diagnostics) = SubjectFromFile.merge(
      input, profile: profile, file: file.path, givenBy: "the subjects file")
    if input.bodyMassKilograms == nil {
      input.bodyMassKilograms = options.energy.bodyMassKilograms
      let whose =
        options.subjects.isEmpty
        ? "no subjects were given"
        : subject.map { "participant \($0.id) has no body mass" }
          ?? "no participant matches this file by \(options.subjectMatch.rawValue) name"
      diagnostics.append(
        Diagnostic(
          code: "subject-default",
          severity: options.subjects.isEmpty ? .note : .warning,
          message:
            "\(whose): body mass \(Fixed.shortest(options.energy.bodyMassKilograms)) kg (default) used for energy",
          location: file.path))
    }
    return (input, diagnostics)
  }

  /// What one file of the study became: its kind, its outcome (stored
  /// through `Driver.store`, as every command's is), the activities that
  /// took the fallback factor and what was noticed, reported by the batch.
  struct FileResult {
    var kind: Kind
    var outcome: any CommandOutcome
    var fallbacks: [Diagnostic] = []
    var diagnostics: [Diagnostic] = []
  }

  /// A track's run in `batch`: `track summary`'s summary and `profile`'s
  /// activities of the file, stored under its stored name; nothing printed.
  struct BatchTrackOutcome: CommandOutcome {
    var inputs: [String]
    var parameters: [NamedParameter]
    var diagnostics: [Diagnostic]
    var storedPath: String
    var summary: TrackSummary
    var header: TrackHeader
    var activities: [ProfileActivity]

    func runRecord(inputs: [InputFingerprint], recordedAt: String?) -> RunRecord? {
      var run = RunRecord(
        command: "batch track \(storedPath)", recordedAt: recordedAt, inputs: inputs,
        parameters: parameters,
        results: TrackCommands.storedRows(summary, fit: header.fit, subject: storedPath))
      run.tracks = [TrackCommands.trackRow(summary, path: storedPath)]
      run.activities = ProfileCommand.activityRows(activities) { _ in storedPath }
      run.diagnostics = diagnostics.map(DiagnosticRow.init)
      return run
    }

    func render(_ request: RenderRequest) throws -> Rendering { Rendering(request) }
  }

  /// A recording's run in `batch`: `accel summary`'s results, `accel
  /// energy`'s totals and the days, with one-minute epochs; nothing
  /// printed.
  struct BatchAccelOutcome: RecordingOutcome {
    var recording: AccelCommands.RecordingRun
    var results: [ResultRow]
    var minutes: [AccelEpoch]

    func runRecord(inputs: [InputFingerprint], recordedAt: String?) -> RunRecord? {
      var run = recording.record(inputs: inputs, recordedAt: recordedAt)
      run.results = results
      run.accelEpochs = AccelCommands.storedEpochs(minutes, recording.result)
      return run
    }

    func render(_ request: RenderRequest) throws -> Rendering { Rendering(request) }
  }

  /// Reads one file and computes its outcome from the values the single
  /// commands compute:
  /// - a track: `track summary`'s summary of the file and `profile`'s
  ///   activities (energy and CO2), stored as one run `batch track FILE`
  ///   with the factor set (and subjects file) among its inputs and the
  ///   profile's parameters, the subject's and `subject_match`; its rows
  ///   are those `track summary --db` and `profile --db` store for the file
  ///   (the summary's results and `tracks` row, the activities), without
  ///   the profile's bins;
  /// - an accelerometer recording: `accel summary`'s results and `accel
  ///   energy`'s totals, with one-minute epochs when its times are dates,
  ///   stored as `batch accelerometer FILE` (through the accel commands'
  ///   own recording run) with the energy options and the subject's
  ///   values among its parameters;
  /// - a survey export: `survey summary`'s outcome itself, so batch stores
  ///   the run (and run key) `survey summary FILE --db` stores.
  /// Each run names the file by its stored name; shipped data and the
  /// subjects file are fingerprinted by the driver like any input.
  static func process(
    _ file: StudyFile, options: Options, factors: EmissionFactorSet, factorPath: String,
    batchOptions: NamedParameter, progress: ((Int) -> Void)?
  ) throws -> FileResult {
    let (kind, notRecording) = try kind(of: file, options: options)
    let subject = try subject(of: file, options: options)
    let (subjectInput, subjectDiagnostics) = subjectInput(subject, options: options, file: file)
    let subjectsFile = options.subjectsPath.map { [$0] } ?? []
    let subjectParameters =
      (subject?.parameters ?? [])
      + (options.subjectsPath == nil
        ? []
        : [
          NamedParameter(
            name: "subject_match", value: options.subjectMatch.rawValue,
            meaning: "how files are matched to participants")
        ])
    switch kind {
    case .track:
      let zone = options.timeZone.zone
      // Read once: the summary and the activities come from the same fixes.
      let (track, header) = try TrackCommands.readTrackAndHeader(
        file.path, parameters: options.track, defaultTimeZone: zone)
      let (subjectInput, subjectDiagnostics) = Self.subjectInput(
        subject, options: options, file: file, profile: header.fit?.userProfile)
      let summary = TrackAnalysis(parameters: options.track).summary(of: track)
      var profile = ProfileCommand.Options(files: [file.path], binning: .day, timeZone: options.timeZone)
      profile.track = options.track
      profile.bodyMassKilograms = subjectInput.bodyMassKilograms
      profile.subject = subjectInput
      profile.modelForMode = options.modelForMode
      profile.factorFallback = options.factorFallback
      let found = try ProfileCommand.activities(profile, factors: factors) { _ in track }
      let parameters =
        found.parameters + [
          NamedParameter(name: "factor_set", value: factors.name, meaning: factors.source),
          NamedParameter(
            name: "factor_fallback", value: options.factorFallback?.rawValue ?? "none",
            meaning: "mode whose factor a mode missing from the set takes (none: an error)"),
          NamedParameter(
            name: "body_mass_kg", value: Fixed.shortest(subjectInput.bodyMassKilograms ?? .nan),
            meaning: "body mass of the walking and cycling models"),
          NamedParameter(
            name: "time_zone", value: options.timeZone.name,
            meaning: "zone of track times written without an offset"),
        ] + subjectParameters + [batchOptions]
      var diagnostics = subjectDiagnostics + found.diagnostics
      if header.format == "cosmed-k5" {
        diagnostics.append(
          Diagnostic(
            code: "measured-energy-not-stored", severity: .note,
            message:
              "a COSMED K5 export, read as a track (a position, speed and heart rate per breath); its measured energy is not part of batch's run (the energy and agreement commands read it)",
            location: file.path))
      }
      let outcome = BatchTrackOutcome(
        inputs: [file.path, factorPath] + subjectsFile, parameters: parameters,
        diagnostics: diagnostics + found.fallbacks, storedPath: file.storedPath, summary: summary,
        header: header, activities: found.activities)
      return FileResult(kind: kind, outcome: outcome, fallbacks: found.fallbacks, diagnostics: diagnostics)
    case .accelerometer:
      var accel = options.accel
      accel.parseWorkers = 1
      var energy = options.energy
      energy.bodyMassKilograms = subjectInput.bodyMassKilograms ?? energy.bodyMassKilograms
      if let height = subject?.heightMeters { energy.heightMeters = height }
      if let sex = subjectInput.sex { energy.sex = sex }
      accel = try AccelCommands.withEquationEpochs(accel, energy: energy)
      var slim: [Double] = []
      if accel.analysis.epochSeconds.contains(60) {
        // Only the minutes are stored, and the equations read their own
        // epochs whole; the others (the 5 s epochs energy reads) are kept
        // as what energy reads, so a worker does not hold a week of them.
        let equationSeconds = try energy.equations.map { try AccelEquation.named($0).epochSeconds }
        slim = accel.analysis.epochSeconds.filter { s in
          s != 60 && !equationSeconds.contains { abs($0 - s) < 1e-9 }
        }
      }
      let r = try AccelPipeline.analyse(file.path, options: accel, progress: progress, slimEpochSeconds: slim)
      let equations = try AccelCommands.equationTotals(r, options: accel, energy: energy)
      let totals = try AccelEnergy.totals(r.analysis, options: energy) + equations.totals
      var diagnostics = subjectDiagnostics + r.diagnostics + equations.diagnostics
      var minutes: [AccelEpoch] = []
      var days: [ResultRow] = []
      if !r.info.layout.absoluteTime {
        // Times counted from the first sample would be stored as 1970.
        diagnostics.append(
          Diagnostic(
            code: "epochs-not-stored",
            message:
              "epochs not stored: times count from the first sample, not from a date",
            location: file.path))
      } else {
        minutes = r.analysis.epochs(seconds: 60) ?? r.analysis.epochs.last?.epochs ?? []
        days = AccelCommands.storedDays(
          try AccelCommands.days(r, options: accel, energy: energy), analysis: r.analysis,
          file: file.storedPath,
          rules: accel.analysis.dayRules)
      }
      let outcome = BatchAccelOutcome(
        recording: AccelCommands.RecordingRun(
          r, command: "batch accelerometer", options: accel, energy: energy,
          extra: subjectParameters + [batchOptions], otherInputs: subjectsFile, diagnostics: diagnostics),
        results: AccelCommands.storedRows(r, subject: file.storedPath)
          + AccelCommands.storedEnergy(totals, subject: file.storedPath) + days,
        minutes: minutes)
      return FileResult(kind: kind, outcome: outcome, diagnostics: diagnostics)
    case .survey:
      let loaded: SurveyCommands.Loaded
      do {
        loaded = try SurveyCommands.loaded(SurveyCommands.Input(path: file.path), tallied: true)
      } catch let error as InputError {
        throw InputError(
          .malformed,
          SourceLocation(file: file.path),
          "neither an accelerometer recording (\(notRecording.map { "\($0)" } ?? "")) nor a survey export (\(error))",
          expected: "a GPX/TCX/FIT track, a COSMED K5 export, an accelerometer recording or a survey export")
      }
      // A CSV that only the plain fallback reads (no survey platform's
      // header) could be anything: a table, a subjects file, an export of
      // a device batch does not know. It is not stored as a survey.
      if loaded.notes.contains(where: { $0.code == "plain-survey" }) {
        throw NotTaken(
          diagnostic: Diagnostic(
            code: "unknown-kind", severity: .note,
            message:
              "neither a track, a COSMED K5 export, an accelerometer recording (\(notRecording.map { "\($0)" } ?? "")) nor a survey platform's export; not taken (a plain one-row-per-respondent survey is read by the survey commands with the plain dialect, \(Remedy.slot))",
            location: file.path, remedy: Remedy(.surveyDialect)))
      }
      let summary = SurveyCommands.Summary(
        loaded: loaded, summaries: try SurveyCommands.summaries(of: loaded.survey, scales: loaded.scales))
      let outcome = SurveyCommands.SummaryOutcome(result: summary)
      return FileResult(kind: kind, outcome: outcome, diagnostics: outcome.diagnostics)
    }
  }

  /// The name of the parameter that carries `optionsParameter`'s digest.
  static let optionsParameterName = "batch_options"

  /// Commands of the runs a rerun looks for: a file's run, or its failure.
  /// Surveys are read again every time (they are small, and their run is
  /// exactly `survey summary`'s, which carries no batch options).
  static let resumableCommands = ["batch track", "batch accelerometer", "batch failed"]

  /// Everything that decides a file's run besides the file, as one digest
  /// stored with each run: the options (not the folders, store, jobs,
  /// shard, fail-fast or rerun, which change where and how fast, not
  /// what), the factor set's and subjects file's contents and EnergyLab's
  /// version. A rerun skips a file stored from the same content under the
  /// same digest, so a killed task or a resubmitted array does only what is
  /// missing, and a change of any option does every file again.
  static func optionsParameter(_ options: Options, factorPath: String) throws -> NamedParameter {
    var decisive = options
    decisive.folders = []
    decisive.databasePath = ""
    decisive.jobs = nil
    decisive.shard = nil
    decisive.failFast = false
    decisive.rerun = false
    decisive.subjectsPath = nil
    var text = "energylab \(EnergyLabVersion.current)\n\(CanonicalDescription.of(decisive))\n"
    text += "factors \(try SHA256.hex(fileAt: factorPath))\n"
    if let subjects = options.subjectsPath { text += "subjects \(try SHA256.hex(fileAt: subjects))\n" }
    return NamedParameter(
      name: optionsParameterName, value: String(SHA256.hex(Array(text.utf8)).prefix(16)),
      meaning:
        "digest of batch's options, factor set, subjects file and version: a rerun skips a file stored with the same content and digest"
    )
  }

  /// Whether the store already holds this file's run (false) or failure
  /// (true) from the same content under the same options; nil when it
  /// must be processed. The size is compared first, so only a file that
  /// may be done is hashed.
  static func storedBefore(_ file: StudyFile, done: [String: [ResultsStore.FileRun]], options: String) throws
    -> Bool?
  {
    let runs = (done[file.storedPath] ?? []).filter { $0.parameter == options }
    guard !runs.isEmpty else { return nil }
    let size = FileStatus.size(file.path)
    let sameSize = runs.filter { $0.input.sizeBytes == size }
    guard !sameSize.isEmpty else { return nil }
    let digest = try SHA256.hex(fileAt: file.path)
    let same = sameSize.filter { $0.input.sha256 == digest }
    guard !same.isEmpty else { return nil }
    return same.allSatisfy { $0.command.hasPrefix("batch failed ") }
  }

  /// The run that stores a file's failure: the file (when it can be
  /// fingerprinted at all; an unreadable file is tried again next time),
  /// the options' digest and the error as a diagnostic.
  static func failureRun(_ file: StudyFile, error: InputError, batchOptions: NamedParameter) throws
    -> RunRecord?
  {
    guard let fingerprint = try? InputFingerprint.stored(path: file.path) else { return nil }
    var run = RunRecord(
      command: "batch failed \(file.storedPath)", recordedAt: nil, inputs: [fingerprint],
      parameters: [batchOptions])
    var location = error.location
    location.file = file.storedPath
    run.diagnostics = [
      DiagnosticRow(
        location: location.description, severity: "error", code: "unreadable-\(error.kind.rawValue)",
        message: "\(error.problem); expected \(error.expected)")
    ]
    return run
  }

  /// What a batch did: the files it took, what each became, which could
  /// not be read (each with its reason) and which activities took the
  /// fallback factor.
  package struct Outcome: Sendable {
    /// Every file under the folders, and those of the shard processed.
    package var discovered: Int
    package var processed: Int
    package var counts: [Kind: Int] = [:]
    /// Files that could not be read: `file:line: problem; expected ...`.
    package var failures: [String] = []
    /// Activities that took the fallback's factor.
    package var fallbacks: [Diagnostic] = []
    /// What the readers noticed in the stored files (stored with each run).
    package var diagnostics: [Diagnostic] = []
    /// The error that stopped the batch (a store failure, or the first
    /// unreadable file with fail-fast), when one did.
    package var stop: (any Error)?

    /// What the walk of the folders passed over, and why.
    package var skipped: [Diagnostic] = []

    /// Files left as they were because the store holds their run (or
    /// their failure) from the same content under the same options.
    package var alreadyStored = 0
    package var failedBefore = 0

    package var stored: Int { counts.values.reduce(0, +) }
  }

  /// Reads, summarises and models every file of the study in parallel and
  /// hands each file's run to `record` (the results store) as it is done,
  /// so a study of any size is never held whole.
  package static func batch(
    _ options: Options, progress: ProgressBar.Display? = nil,
    done: [String: [ResultsStore.FileRun]] = [:],
    record: @escaping @Sendable (RunRecord) throws -> Void
  ) throws -> Outcome {
    _ = try options.track.validated()
    _ = try options.accel.validated()
    let discovery = try discover(options.folders, followLinks: options.followLinks)
    let all = discovery.files
    let files =
      options.shard.map { shard in all.filter { shard.contains(relativePath: $0.relativePath) } } ?? all
    let factorPath = try ShippedData.factorSetPath(options.factorSet)
    let factors = try FactorReaders.emissionFactorSet(path: factorPath)
    let batchOptions = try optionsParameter(options, factorPath: factorPath)
    let workers = max(1, min(options.jobs ?? ProcessInfo.processInfo.activeProcessorCount, files.count))
    let bar = ProgressBar(label: "batch", files: files.map(\.path), display: progress)
    mapLargeAllocations(atLeast: 1 << 20)
    let outcome = Mutex(Outcome(discovered: all.count, processed: files.count))
    _ = parallelMap(count: files.count, workers: workers) { index in
      guard outcome.withLock({ $0.stop == nil }) else { return }
      // What one file took goes back before the next: a worker's memory
      // stays that of its largest file, however many it reads.
      defer { releaseFreedMemory() }
      let file = files[index]
      do {
        if let earlier = try storedBefore(file, done: done, options: batchOptions.value) {
          outcome.withLock { earlier ? ($0.failedBefore += 1) : ($0.alreadyStored += 1) }
          bar.finished(file: index, failed: earlier)
          return
        }
        let result = try process(
          file, options: options, factors: factors, factorPath: factorPath, batchOptions: batchOptions,
          progress: { bar.reading(file: index, bytes: $0) })
        // Stored as every command's outcome is; batch runs carry no time,
        // so shards merge into exactly the runs of one batch.
        try Driver.store(result.outcome, recordedAt: nil, record: record)
        outcome.withLock {
          $0.counts[result.kind, default: 0] += 1
          $0.fallbacks += result.fallbacks
          $0.diagnostics += result.diagnostics
        }
      } catch let error as InputError {
        // The failure is stored with the file, so a rerun knows it and a
        // reader of the store sees why the file has no results.
        do {
          if let run = try failureRun(file, error: error, batchOptions: batchOptions) { try record(run) }
        } catch {
          outcome.withLock { $0.stop = error }
        }
        outcome.withLock {
          $0.failures.append("\(error)")
          if options.failFast { $0.stop = error }
        }
        bar.finished(file: index, failed: true)
        return
      } catch let notTaken as NotTaken {
        outcome.withLock { $0.skipped.append(notTaken.diagnostic) }
      } catch {
        outcome.withLock { $0.stop = error }
      }
      bar.finished(file: index)
    }
    bar.end()
    var result = outcome.withLock { $0 }
    // By file, each file's own in the order found, however the files were
    // spread over the workers.
    func byFile(_ list: [Diagnostic]) -> [Diagnostic] {
      list.enumerated().sorted {
        ($0.element.location ?? "", $0.offset) < ($1.element.location ?? "", $1.offset)
      }
      .map(\.element)
    }
    result.skipped = discovery.skipped + byFile(result.skipped)
    result.fallbacks = byFile(result.fallbacks)
    result.diagnostics = byFile(result.diagnostics)
    return result
  }

  package static func run(_ options: Options, driver: Driver) throws {
    let store = try ResultsStore(path: options.databasePath)
    let done =
      options.rerun
      ? [:] : try store.fileRuns(commands: resumableCommands, parameter: optionsParameterName)
    let display: ProgressBar.Display? =
      driver.context.progressSink.map { .bar($0) } ?? driver.context.progressLog.map { .log($0, every: 60) }
    let result = try batch(options, progress: display, done: done, record: { try store.record($0) })
    var out = driver.rendering()
    render(result, options: options, into: &out)
    try driver.print(out)
    if let error = result.stop { throw error }
    let failed = result.failures.count + result.failedBefore
    if failed > 0 {
      throw RuntimeError(
        "\(failed) of \(result.processed) files could not be read\(result.failedBefore > 0 ? " (\(result.failedBefore) in an earlier run, not tried again; \(Remedy(.rerun).text) tries them)" : ""); \(result.stored + result.alreadyStored) stored"
      )
    }
  }

  /// How many warnings of one kind (code) batch prints before counting the
  /// rest.
  static let warningsPrintedPerKind = 5

  /// The warnings to print: the first `warningsPrintedPerKind` of each
  /// code, in order, and for each code with more a line counting the rest
  /// and the files they are in.
  static func printedWarnings(_ warnings: [Diagnostic]) -> (printed: [Diagnostic], more: [String]) {
    var seen: [String: Int] = [:]
    var moreFiles: [String: Set<String>] = [:]
    var codes: [String] = []
    var printed: [Diagnostic] = []
    for warning in warnings {
      let n = seen[warning.code, default: 0]
      seen[warning.code] = n + 1
      if n < warningsPrintedPerKind {
        printed.append(warning)
      } else {
        if moreFiles[warning.code] == nil { codes.append(warning.code) }
        moreFiles[warning.code, default: []].insert(warning.location.map { Self.fileOf(location: $0) } ?? "")
      }
    }
    let more = codes.map { code in
      let count = seen[code, default: 0] - warningsPrintedPerKind
      let files = moreFiles[code, default: []].count
      return
        "warning: \(count) more \(code) warning\(count == 1 ? "" : "s") in \(files) file\(files == 1 ? "" : "s") not printed (stored; \(Remedy(.storedDiagnostics).text) lists them)"
    }
    return (printed, more)
  }

  /// The file of a diagnostic's location (`file` or `file:line`).
  static func fileOf(location: String) -> String {
    guard let colon = location.lastIndex(of: ":"),
      location[location.index(after: colon)...].allSatisfy(\.isNumber),
      colon != location.index(before: location.endIndex)
    else { return location }
    return fileOf(location: String(location[..<colon]))
  }

  /// The files skipped and why, the fallbacks as `profile` says them, the
  /// stored files' warnings, and one line of counts (with the warnings and
  /// notes stored, which `db export --table diagnostics` lists).
  static func render(_ result: Outcome, options: Options, into out: inout Rendering) {
    for skipped in result.skipped { out.report(skipped) }
    for failure in result.failures { out.warn("energylab: \(failure) (skipped)") }
    // A study of thousands of files would print thousands of lines of the
    // same warning: the first few of each kind are printed, the rest
    // counted (all are stored).
    let shown = printedWarnings(result.fallbacks + result.diagnostics.filter { $0.severity == .warning })
    for diagnostic in shown.printed { out.report(diagnostic) }
    for more in shown.more { out.warn("energylab: \(more)") }
    if let error = result.stop, !(error is InputError) { return }
    let c = result.counts
    let stored = result.diagnostics + result.fallbacks
    let warnings = stored.filter { $0.severity == .warning }.count
    let noticed =
      stored.isEmpty
      ? ""
      : "; \(warnings) warnings and \(stored.count - warnings) notes stored (\(Remedy(.storedDiagnostics).text))"
    let earlier =
      result.alreadyStored + result.failedBefore == 0
      ? ""
      : "; \(result.alreadyStored) already stored and \(result.failedBefore) failed in an earlier run with the same content and options, left as they were (\(Remedy(.rerun).text) does them again)"
    out.write(
      "batch: \(result.processed) files\(options.shard.map { " (shard \($0) of \(result.discovered))" } ?? ""): \(c[.track] ?? 0) tracks, \(c[.accelerometer] ?? 0) accelerometer recordings, \(c[.survey] ?? 0) surveys stored in \(options.databasePath); \(result.failures.count) failed\(result.skipped.isEmpty ? "" : ", \(result.skipped.count) not taken (not regular files, links out of the study or of no kind batch reads)")\(noticed)\(earlier)\n"
    )
  }
}
