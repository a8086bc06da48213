import EnergyLabCore
import Foundation
import Reporting
import Store

/// Runs one parsed command of a notebook through the notebook's driver;
/// supplied by the command-line layer, which owns argument parsing.
package typealias CommandExecutor = (_ arguments: [String], _ driver: Driver) throws -> Void

/// Executes notebooks into `Reports/<name>/`: report.md (prose with each
/// block's output inline), figures/ (PNG, SVG, .gp, .dat), data/ (a CSV of
/// every table) and results.sqlite. The report is built in a temporary
/// folder and swapped in only when every block succeeded, so a failed run
/// leaves the previous report as it was.
package struct NotebookRunner {
  package var reportsDirectory: String
  package var reproducible: Bool
  package var executor: CommandExecutor
  /// Called with a line of progress for each block (stderr in the CLI).
  package var progress: (String) -> Void

  package init(
    reportsDirectory: String = "Reports", reproducible: Bool, executor: @escaping CommandExecutor,
    progress: @escaping (String) -> Void = { _ in }
  ) {
    self.reportsDirectory = reportsDirectory
    self.reproducible = reproducible
    self.executor = executor
    self.progress = progress
  }

  /// The notebooks of a folder, by name.
  package static func notebooks(in folder: String) throws -> [String] {
    guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else {
      throw InputError(
        .unreadable,
        SourceLocation(file: folder), "cannot list folder", expected: "a folder of .md notebooks")
    }
    return names.filter { $0.hasSuffix(".md") && $0 != "README.md" }.sorted().map { "\(folder)/\($0)" }
  }

  /// Runs a notebook; returns the report folder.
  @discardableResult
  package func run(notebookAt path: String) throws -> String {
    let notebook = try Notebook.read(path: path)
    let fm = FileManager.default
    // A reports folder this run creates goes again if the run fails before
    // anything is in it.
    let createdReports = !fm.fileExists(atPath: reportsDirectory)
    var succeeded = false
    defer {
      if createdReports && !succeeded
        && ((try? fm.contentsOfDirectory(atPath: reportsDirectory))?.isEmpty ?? false)
      {
        try? fm.removeItem(atPath: reportsDirectory)
      }
    }
    let final = "\(reportsDirectory)/\(notebook.name)"
    Self.recoverInterruptedRuns(in: reportsDirectory)
    let temporary = TemporaryFiles.name(for: final, kind: "tmp")
    let previous = TemporaryFiles.name(for: final, kind: "old")
    try? fm.removeItem(atPath: temporary)
    TemporaryFiles.register(temporary)
    defer { TemporaryFiles.unregister(temporary) }
    do {
      try fm.createDirectory(atPath: "\(temporary)/figures", withIntermediateDirectories: true)
      try fm.createDirectory(atPath: "\(temporary)/data", withIntermediateDirectories: true)
    } catch {
      throw RuntimeError(
        "\(temporary): cannot create report folder (\((error as NSError).localizedDescription))")
    }
    do {
      try build(notebook, into: temporary, replacing: final)
    } catch {
      try? fm.removeItem(atPath: temporary)
      throw error
    }
    if fm.fileExists(atPath: final) { try fm.moveItem(atPath: final, toPath: previous) }
    do {
      try fm.moveItem(atPath: temporary, toPath: final)
    } catch {
      if fm.fileExists(atPath: previous) { try? fm.moveItem(atPath: previous, toPath: final) }
      throw RuntimeError(
        "\(final): cannot move the new report into place (\((error as NSError).localizedDescription))")
    }
    try? fm.removeItem(atPath: previous)
    succeeded = true
    return final
  }

  /// What a killed run left in the reports folder: its half-built report
  /// folders are removed, and a previous report it had moved aside but not
  /// yet replaced is put back. Returns the names acted on.
  @discardableResult
  package static func recoverInterruptedRuns(in reportsDirectory: String) -> [String] {
    let fm = FileManager.default
    guard let names = try? fm.contentsOfDirectory(atPath: reportsDirectory) else { return [] }
    var done: [String] = []
    for name in names.sorted() {
      guard let (target, kind, pid) = TemporaryFiles.parse(name), kind == "old", pid != getpid(),
        !TemporaryFiles.isRunning(pid)
      else { continue }
      let final = "\(reportsDirectory)/\(target)"
      let moved = "\(reportsDirectory)/\(name)"
      if fm.fileExists(atPath: final) {
        try? fm.removeItem(atPath: moved)
      } else {
        try? fm.moveItem(atPath: moved, toPath: final)
      }
      done.append(name)
    }
    return done + TemporaryFiles.removeStale(in: reportsDirectory, kinds: ["tmp", "partial"])
  }

  private func build(_ notebook: Notebook, into folder: String, replacing final: String) throws {
    let report = OutputBuffer()
    let context = CommandContext(sink: { report.text += $0 })
    context.writePolicy = WritePolicy(
      projectRoot: FileManager.default.currentDirectoryPath, reportFolder: folder,
      allowed: notebook.allowedWrites, allowedReads: notebook.allowedReads)
    let printer = Printer(
      context: context, defaultFormat: .markdown, figuresDirectory: "\(folder)/figures",
      figuresLink: "figures/")
    printer.reportFolders = Printer.ReportFolders(building: folder, final: final)
    let driver = Driver(
      printer: printer, databasePath: "\(folder)/results.sqlite", reproducible: reproducible)
    let recorder = driver.recorder
    var commandNumber = 0
    var writtenTables = 0
    // Prose is filled with the values of named results once every command
    // has run (prose may speak of a result printed below it); until then
    // each prose part stands in the report as a marker.
    var values = NotebookValues()
    var prose: [(text: String, line: Int)] = []
    func marker(_ k: Int) -> String { "\u{0}prose \(k)\u{0}" }
    recorder.provenance.addInput(try InputFingerprint.of(path: notebook.path))
    for part in notebook.parts {
      switch part {
      case .prose(let text, let line):
        report.text += marker(prose.count) + "\n"
        prose.append((text, line))
      case .parameters(let list):
        recorder.provenance.addParameters(list)
        report.text += "Parameters of this notebook:\n\n| name | value |\n| --- | --- |\n"
        for p in list {
          report.text += "| \(Markdown.escapeTableCell(p.name)) | \(Markdown.escapeTableCell(p.value)) |\n"
        }
        report.text += "\n"
      case .commands(let commands):
        for var command in commands {
          commandNumber += 1
          // Values of results above it, as `{{walks.grade_pct[1]}}`.
          command.arguments = try command.arguments.map {
            $0.contains("{{") ? try values.interpolate($0, path: notebook.path, line: command.line) : $0
          }
          progress("\(notebook.name): [\(commandNumber)] \(command.text)")
          recorder.provenance.commands.append(command.text)
          report.text += "```sh\n$ \(command.text)\n```\n\n"
          let skippedBefore = recorder.provenance.skipped.count
          // The reasons of files skipped by the command, so the message
          // says which file failed and why, not only how many.
          func failure(_ error: Error) -> RuntimeError {
            let reasons = recorder.provenance.skipped.dropFirst(skippedBefore)
            let detail = reasons.isEmpty ? "" : " (" + reasons.joined(separator: "; ") + ")"
            return RuntimeError("\(notebook.path):\(command.line): command failed: \(error)\(detail)")
          }
          do {
            try executor(command.arguments, driver)
          } catch let error as any ReportedError {
            throw failure(error)
          }
          report.text += "\n"
          for table in printer.emittedTables.dropFirst(writtenTables) {
            let file = String(format: "%02d", commandNumber) + "-\(GnuplotChart.safeFileStem(table.name)).csv"
            try AtomicFile.write(ResultRenderer.csv(table), to: "\(folder)/data/\(file)")
          }
          if let name = command.resultName {
            values.add(name, tables: Array(printer.emittedTables.dropFirst(writtenTables)))
          }
          writtenTables = printer.emittedTables.count
        }
      }
    }
    for (k, part) in prose.enumerated() {
      report.text = report.text.replacingOccurrences(
        of: marker(k), with: try values.interpolate(part.text, path: notebook.path, line: part.line))
    }
    report.text += provenanceSection(recorder.provenance)
    try AtomicFile.write(normalized(report.text), to: "\(folder)/report.md")
  }

  /// Collapses runs of blank lines left between prose and outputs.
  private func normalized(_ text: String) -> String {
    var out = text.replacingOccurrences(of: "\n{3,}", with: "\n\n", options: .regularExpression)
    while out.hasSuffix("\n\n") { out.removeLast() }
    return out
  }

  private func provenanceSection(_ p: Provenance) -> String {
    var out = "\n## Provenance\n\n"
    out += "- EnergyLab \(EnergyLabVersion.current)"
    if let digest = Self.sourceDigest() {
      out += ", source digest \(digest) (SHA-256 of Package.swift and Sources/)"
    }
    if !reproducible {
      out +=
        ", commit \(Self.gitCommit() ?? "unknown"), run at \(ISO8601.formatUTC(Date().timeIntervalSince1970))"
    } else {
      out +=
        "; reproducible mode: the commit and wall-clock time are left out so that a commit can hold its own reports"
    }
    out += "\n- Commands, in order:\n\n```sh\n" + p.commands.joined(separator: "\n") + "\n```\n\n"
    out += "Inputs:\n\n| file | bytes | sha256 |\n| --- | ---: | --- |\n"
    for input in p.inputs {
      out += "| \(Markdown.escapeTableCell(input.path)) | \(input.sizeBytes) | `\(input.sha256)` |\n"
    }
    out += "\nParameters and defaults used:\n\n| name | value | meaning |\n| --- | --- | --- |\n"
    var seen = Set<String>()
    for parameter in p.parameters where seen.insert("\(parameter.name)=\(parameter.value)").inserted {
      out +=
        "| \(Markdown.escapeTableCell(parameter.name)) | \(Markdown.escapeTableCell(parameter.value)) | \(Markdown.escapeTableCell(parameter.meaning)) |\n"
    }
    out += "\nDiagnostics:\n\n"
    var diagnostics: [String] = []
    for d in p.diagnostics where !diagnostics.contains(d.description) { diagnostics.append(d.description) }
    out +=
      diagnostics.isEmpty
      ? "- none\n" : diagnostics.map { "- " + Markdown.escapeInline($0) }.joined(separator: "\n") + "\n"
    if !p.skipped.isEmpty {
      out +=
        "\nSkipped:\n\n" + p.skipped.map { "- " + Markdown.escapeInline($0) }.joined(separator: "\n") + "\n"
    }
    return out
  }

  /// SHA-256 over Package.swift and every Swift file under Sources/ (paths
  /// sorted, each path and its bytes), when run from an EnergyLab checkout:
  /// names the exact code a report came from without depending on a commit.
  package static func sourceDigest(root: String = ".") -> String? {
    let fm = FileManager.default
    guard let manifest = fm.contents(atPath: root + "/Package.swift"),
      String(decoding: manifest, as: UTF8.self).contains("name: \"EnergyLab\""),
      let enumerator = fm.enumerator(atPath: root + "/Sources")
    else { return nil }
    var files: [String] = []
    while let item = enumerator.nextObject() as? String {
      if item.hasSuffix(".swift") || item.hasSuffix(".modulemap") || item.hasSuffix(".h") {
        files.append("Sources/" + item)
      }
    }
    var hasher = SHA256()
    hasher.update(Array("Package.swift\n".utf8))
    hasher.update(manifest)
    for file in files.sorted() {
      guard let data = fm.contents(atPath: root + "/" + file) else { continue }
      hasher.update(Array((file + "\n").utf8))
      data.withUnsafeBytes { hasher.update(buffer: $0) }
    }
    return String(hasher.finalizeHex().prefix(16))
  }

  static func gitCommit() -> String? {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["git", "rev-parse", "--short=12", "HEAD"]
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = FileHandle.nullDevice
    guard (try? process.run()) != nil else { return nil }
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else { return nil }
    return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
  }
}
