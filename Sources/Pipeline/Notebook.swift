import EnergyLabCore
import Foundation
import Ingest

/// A literate pipeline: Markdown prose with fenced `energylab` blocks of
/// commands, and parameters declared once in an `energylab-parameters`
/// block (`name = value` lines) and used in commands as `${name}`.
package struct Notebook: Sendable, Hashable {
  package enum Part: Sendable, Hashable {
    /// Prose and the notebook line it starts on.
    case prose(String, line: Int)
    case commands([Command])
    case parameters([NamedParameter])
  }

  /// One command of a block: its arguments (after `energylab`) and the line
  /// it starts on in the notebook.
  package struct Command: Sendable, Hashable {
    package var arguments: [String]
    package var line: Int
    /// The name its results are reached by in `{{name.column}}`, from a
    /// `# result: name` line right above it (`NotebookValues`).
    package var resultName: String?
    /// The command as written, parameters substituted.
    package var text: String { (["energylab"] + arguments.map(Notebook.shellQuoted)).joined(separator: " ") }
  }

  package var path: String
  package var name: String
  package var parts: [Part]
  /// Paths outside the project the notebook may write, from `allow-write =
  /// PATH` lines of the parameters blocks before its first command.
  package var allowedWrites: [String] = []
  /// Paths outside the project the notebook may read, from `allow-read =
  /// PATH` lines there.
  package var allowedReads: [String] = []

  package static func read(path: String) throws -> Notebook {
    // Lines of at most 4 MiB and a file of at most 1 GiB, as every text
    // read whole.
    let data = try FileInput.read(path, expected: "a readable Markdown notebook", csvRows: false)
    guard let text = String(data: data, encoding: .utf8) else {
      throw InputError(
        .encoding, SourceLocation(file: path), "not UTF-8 text", expected: "a UTF-8 Markdown notebook")
    }
    return try parse(text, path: path)
  }

  package static func parse(_ text: String, path: String) throws -> Notebook {
    let name = URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent
    let lines = text.components(separatedBy: "\n")
    var parts: [Part] = []
    var prose: [String] = []
    var proseLine = 1
    var parameters: [String: String] = [:]
    var allowedWrites: [String] = []
    var allowedReads: [String] = []
    var i = 0
    func flushProse() {
      if !prose.isEmpty {
        parts.append(.prose(prose.joined(separator: "\n"), line: proseLine))
        prose = []
      }
    }
    while i < lines.count {
      let line = lines[i]
      let trimmed = line.trimmingCharacters(in: .whitespaces)
      guard trimmed == "```energylab" || trimmed == "```energylab-parameters" else {
        if prose.isEmpty { proseLine = i + 1 }
        prose.append(line)
        i += 1
        continue
      }
      let openLine = i + 1
      var body: [(Int, String)] = []
      i += 1
      while i < lines.count, lines[i].trimmingCharacters(in: .whitespaces) != "```" {
        body.append((i + 1, lines[i]))
        i += 1
      }
      guard i < lines.count else {
        throw InputError(
          .malformed,
          SourceLocation(file: path, line: openLine), "unclosed ``` block", expected: "a closing ```")
      }
      i += 1
      flushProse()
      if trimmed == "```energylab-parameters" {
        var declared: [NamedParameter] = []
        for (number, raw) in body {
          let entry = raw.trimmingCharacters(in: .whitespaces)
          if entry.isEmpty || entry.hasPrefix("#") { continue }
          guard let eq = entry.firstIndex(of: "=") else {
            throw InputError(
              .malformed,
              SourceLocation(file: path, line: number), "parameter line without '='", expected: "name = value"
            )
          }
          let key = entry[..<eq].trimmingCharacters(in: .whitespaces)
          let value = entry[entry.index(after: eq)...].trimmingCharacters(in: .whitespaces)
          if key == "allow-write" || key == "allow-read" {
            // Only the header may widen where the notebook writes or reads.
            guard !parts.contains(where: { if case .commands = $0 { true } else { false } }) else {
              throw InputError(
                .malformed,
                SourceLocation(file: path, line: number), "\(key) after the first command",
                expected: "\(key) lines in the notebook's header, before any energylab block")
            }
            if key == "allow-write" { allowedWrites.append(value) } else { allowedReads.append(value) }
          }
          parameters[key] = value
          declared.append(NamedParameter(name: key, value: value, meaning: "notebook parameter"))
        }
        parts.append(.parameters(declared))
      } else {
        parts.append(.commands(try commands(body, parameters: parameters, path: path)))
      }
    }
    flushProse()
    var notebook = Notebook(path: path, name: name, parts: parts)
    notebook.allowedWrites = allowedWrites
    notebook.allowedReads = allowedReads
    return notebook
  }

  /// Joins `\` continuations, substitutes `${name}` and splits each command
  /// into arguments with shell-like quoting.
  static func commands(_ body: [(Int, String)], parameters: [String: String], path: String) throws
    -> [Command]
  {
    var commands: [Command] = []
    var pending = ""
    var pendingLine = 0
    var name: String?
    for (number, raw) in body {
      var line = raw
      if pending.isEmpty {
        let trimmed = line.trimmingCharacters(in: .whitespaces)
        if trimmed.hasPrefix("#") {
          let comment = trimmed.dropFirst().trimmingCharacters(in: .whitespaces)
          if comment.hasPrefix("result:") {
            let given = comment.dropFirst("result:".count).trimmingCharacters(in: .whitespaces)
            guard given.first?.isLetter == true,
              given.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" })
            else {
              throw InputError(
                .malformed, SourceLocation(file: path, line: number), "result name \"\(given)\"",
                expected: "a letter, then letters, digits, _ or -")
            }
            name = given
          }
          continue
        }
        if trimmed.isEmpty { continue }
        pendingLine = number
      }
      let continues = line.hasSuffix("\\")
      if continues { line.removeLast() }
      pending += line + " "
      if continues { continue }
      var words = try split(
        try substitute(pending, parameters: parameters, path: path, line: pendingLine), path: path,
        line: pendingLine)
      if words.first == "energylab" { words.removeFirst() }
      if words.first == "$" { words.removeFirst() }
      guard !words.isEmpty else {
        throw InputError(
          .malformed,
          SourceLocation(file: path, line: pendingLine), "empty command", expected: "an energylab command")
      }
      var command = Command(arguments: words, line: pendingLine)
      command.resultName = name
      name = nil
      commands.append(command)
      pending = ""
    }
    if !pending.isEmpty {
      throw InputError(
        .malformed,
        SourceLocation(file: path, line: pendingLine), "command continues past the block",
        expected: "a last line without '\\'")
    }
    return commands
  }

  static func substitute(_ text: String, parameters: [String: String], path: String, line: Int) throws
    -> String
  {
    var out = ""
    var rest = Substring(text)
    while let start = rest.range(of: "${") {
      out += rest[..<start.lowerBound]
      guard let end = rest[start.upperBound...].firstIndex(of: "}") else {
        throw InputError(
          .malformed, SourceLocation(file: path, line: line), "unclosed ${", expected: "${name}")
      }
      let key = String(rest[start.upperBound..<end])
      guard let value = parameters[key] else {
        throw InputError(
          .value,
          SourceLocation(file: path, line: line), "unknown parameter ${\(key)}",
          expected: "a name declared in an energylab-parameters block above")
      }
      out += value
      rest = rest[rest.index(after: end)...]
    }
    return out + rest
  }

  /// Splits a command line into words: whitespace separates, single and
  /// double quotes group, backslash escapes the next character.
  static func split(_ text: String, path: String, line: Int) throws -> [String] {
    var words: [String] = []
    var word = ""
    var inWord = false
    var quote: Character?
    var escaped = false
    // Inside `{{...}}` (a value of a named result) spaces do not split.
    var braces = 0
    var previous: Character?
    for c in text {
      defer { previous = c }
      if c == "{" && previous == "{" && quote == nil { braces += 1 }
      if c == "}" && previous == "}" && quote == nil && braces > 0 { braces -= 1 }
      if braces > 0 && (c == " " || c == "\t") {
        word.append(c)
        continue
      }
      if escaped {
        word.append(c)
        escaped = false
        continue
      }
      if let q = quote {
        if c == q { quote = nil } else if c == "\\" && q == "\"" { escaped = true } else { word.append(c) }
        continue
      }
      switch c {
      case "\\": escaped = true; inWord = true
      case "'", "\"": quote = c; inWord = true
      case " ", "\t":
        if inWord { words.append(word) }
        word = ""
        inWord = false
      default:
        word.append(c)
        inWord = true
      }
    }
    if quote != nil {
      throw InputError(
        .malformed, SourceLocation(file: path, line: line), "unclosed quote", expected: "a closing quote")
    }
    if inWord { words.append(word) }
    return words
  }

  static func shellQuoted(_ word: String) -> String {
    let safe = word.allSatisfy { $0.isLetter || $0.isNumber || "-_./=,:%+@".contains($0) }
    return safe && !word.isEmpty ? word : "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
  }
}
