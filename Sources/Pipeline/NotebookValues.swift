import EnergyLabCore
import Foundation
import Reporting

/// Values of a notebook's named results, put into its prose and commands,
/// so that no figure is typed by hand: prose and the tables beside it
/// cannot disagree, and a figure moves when the run that computes it does.
///
/// A command is named by a comment line right above it in its block,
/// `# result: walks`; what it printed (every table, in order) is then
/// reachable as
///
/// ```
/// {{walks.energy_kcal}}                  first table, first row
/// {{walks.energy_kcal[3]}}               third row
/// {{walks.energy_kcal[activity=3]}}      the row whose activity is 3
/// {{walks/accel-days.wear_h[2]}}         the table named accel-days
/// {{(walks.grade_min_pct[1] + walks.grade_max_pct[1]) / 2 :2}}
/// {{100 * (a.energy_kcal / b.energy_kcal[activity=1] - 1) :+1}}
/// ```
///
/// A single value prints as its table prints it (the same digits); an
/// expression (numbers, `+ - * / ^` with spaces around a minus, brackets)
/// needs its digits after a colon (`:+1`: one digit and a sign; a colon,
/// not a bar, so a placeholder can stand in a Markdown table). An unknown
/// value (an empty cell) prints as "unknown"; a name, table, column or row
/// that does not exist is an error naming the notebook and line.
/// Placeholders work in prose anywhere in the notebook (filled once every
/// command has run) and in commands (filled from the results above them).
package struct NotebookValues: Sendable {
  package private(set) var results: [String: [ResultTable]] = [:]

  package init() {}

  package mutating func add(_ name: String, tables: [ResultTable]) {
    results[name] = tables
  }

  /// `text` with every `{{...}}` replaced by its value.
  package func interpolate(_ text: String, path: String, line: Int?) throws -> String {
    var out = ""
    var rest = Substring(text)
    while let open = rest.range(of: "{{") {
      out += rest[..<open.lowerBound]
      guard let close = rest[open.upperBound...].range(of: "}}") else {
        throw error(path, line, "unclosed {{", expected: "{{name.column}}")
      }
      let body = String(rest[open.upperBound..<close.lowerBound])
      let at = line.map { $0 + text[..<open.lowerBound].filter { $0 == "\n" }.count }
      out += try value(of: body, path: path, line: at)
      rest = rest[close.upperBound...]
    }
    return out + rest
  }

  /// The text of one placeholder's body.
  func value(of body: String, path: String, line: Int?) throws -> String {
    var expression = body
    var format: (digits: Int, sign: Bool)?
    // The digits after the last colon (a colon inside a `[...]` selector,
    // as a time, is not one).
    if let colon = body.lastIndex(of: ":"), !body[colon...].contains("]") {
      expression = String(body[..<colon])
      var spec = body[body.index(after: colon)...].trimmingCharacters(in: .whitespaces)
      let sign = spec.hasPrefix("+")
      if sign { spec.removeFirst() }
      guard let digits = Int(spec), (0...12).contains(digits) else {
        throw error(path, line, "{{\(body)}}: digits \"\(spec)\"", expected: ":N or :+N, N from 0 to 12")
      }
      format = (digits, sign)
    }
    var parser = Parser(text: expression, values: self, path: path, line: line, body: body)
    let result = try parser.parse()
    switch (result, format) {
    case (.missing, _):
      return "unknown"
    case (.cell(let value), nil):
      return ResultRenderer.text(value, fixed: true)
    case (.number, nil):
      throw error(
        path, line, "{{\(body)}}: a computed value without its digits",
        expected: "{{expression :N}}, N the digits to print")
    case (let r, let format?):
      guard let x = r.number else {
        throw error(path, line, "{{\(body)}}: not a number", expected: "a numeric column")
      }
      let text = Fixed.format(x, digits: format.digits)
      return format.sign && x >= 0 && !text.hasPrefix("-") ? "+" + text : text
    }
  }

  /// A reference's value: the named result's table, column and row.
  func cell(_ reference: String, path: String, line: Int?, body: String) throws -> ResultValue {
    var text = Substring(reference)
    var selector: String?
    if text.hasSuffix("]"), let open = text.lastIndex(of: "[") {
      selector = String(text[text.index(after: open)..<text.index(before: text.endIndex)])
      text = text[..<open]
    }
    guard let dot = text.firstIndex(of: ".") else {
      throw error(path, line, "{{\(body)}}: \"\(reference)\"", expected: "name.column, as walks.energy_kcal")
    }
    var name = String(text[..<dot])
    let column = String(text[text.index(after: dot)...])
    var tableName: String?
    if let slash = name.firstIndex(of: "/") {
      tableName = String(name[name.index(after: slash)...])
      name = String(name[..<slash])
    }
    guard let tables = results[name] else {
      let known = results.keys.sorted()
      throw error(
        path, line, "{{\(body)}}: no result named \(name)",
        expected: known.isEmpty
          ? "a command named by a \"# result: \(name)\" line above it in its block"
          : "one of \(known.joined(separator: ", "))")
    }
    guard
      let table = tableName.map({ wanted in tables.first { $0.name == wanted } }) ?? tables.first
    else {
      throw error(
        path, line, "{{\(body)}}: \(name) has no table \(tableName ?? "")",
        expected: "one of \(tables.map(\.name).joined(separator: ", "))")
    }
    let row: ResultRecord
    if let selector, let eq = selector.firstIndex(of: "=") {
      let key = String(selector[..<eq])
      let wanted = String(selector[selector.index(after: eq)...])
      let matches = table.rows.filter { $0[key].map { ResultRenderer.text($0, fixed: false) } == wanted }
      guard matches.count == 1, let only = matches.first else {
        throw error(
          path, line, "{{\(body)}}: \(matches.count) rows of \(table.name) with \(key) = \(wanted)",
          expected: "exactly one")
      }
      row = only
    } else {
      let index = selector.map { Int($0) } ?? 1
      guard let index, index >= 1, index <= table.rows.count else {
        throw error(
          path, line, "{{\(body)}}: row \(selector ?? "1") of \(table.name)",
          expected: "a row from 1 to \(table.rows.count), or [column=value]")
      }
      row = table.rows[index - 1]
    }
    guard let value = row[column] else {
      throw error(
        path, line, "{{\(body)}}: \(table.name) has no column \(column)",
        expected: "one of \(table.columns.joined(separator: ", "))")
    }
    return value
  }

  func error(_ path: String, _ line: Int?, _ problem: String, expected: String) -> InputError {
    InputError(.malformed, SourceLocation(file: path, line: line), problem, expected: expected)
  }

  /// What an expression comes to: one cell as printed, a number computed,
  /// or unknown (an empty cell anywhere in it).
  enum Result {
    case cell(ResultValue)
    case number(Double)
    case missing

    var number: Double? {
      switch self {
      case .number(let x): return x
      case .cell(.number(let x, _)): return x
      case .cell(.integer(let i)): return Double(i)
      default: return nil
      }
    }
  }

  /// A recursive-descent parser of `+ - * /`, brackets, numbers and
  /// references.
  struct Parser {
    var text: String
    var values: NotebookValues
    var path: String
    var line: Int?
    var body: String
    var tokens: [String] = []
    var position = 0

    init(text: String, values: NotebookValues, path: String, line: Int?, body: String) {
      self.text = text
      self.values = values
      self.path = path
      self.line = line
      self.body = body
    }

    /// Splits into tokens: brackets, `+` and `*` always; `-` and `/` only
    /// where no word is being read (names hold hyphens, and a slash names
    /// a table, as `walks/accel-days.wear_h`), so a minus or a division
    /// takes a space (or a bracket) before it; words are numbers and
    /// references, with their `[...]` selectors.
    static func tokens(_ text: String) -> [String] {
      var tokens: [String] = []
      var word = ""
      var depth = 0
      func flush() {
        if !word.isEmpty { tokens.append(word) }
        word = ""
      }
      for c in text {
        if depth > 0 {
          word.append(c)
          if c == "]" { depth -= 1 }
          continue
        }
        switch c {
        case "[":
          depth += 1
          word.append(c)
        case " ", "\t", "\n":
          flush()
        case "(", ")", "+", "*", "^":
          flush()
          tokens.append(String(c))
        case "-" where word.isEmpty, "/" where word.isEmpty:
          tokens.append(String(c))
        default:
          word.append(c)
        }
      }
      flush()
      return tokens
    }

    mutating func parse() throws -> Result {
      tokens = Self.tokens(text)
      guard !tokens.isEmpty else {
        throw values.error(path, line, "{{\(body)}}: empty", expected: "name.column or an expression")
      }
      let result = try sum()
      guard position == tokens.count else {
        throw values.error(
          path, line, "{{\(body)}}: unexpected \"\(tokens[position])\"", expected: "an operator or the end")
      }
      return result
    }

    mutating func sum() throws -> Result {
      var left = try product()
      while position < tokens.count, tokens[position] == "+" || tokens[position] == "-" {
        let op = tokens[position]
        position += 1
        let right = try product()
        left = try combine(left, right) { op == "+" ? $0 + $1 : $0 - $1 }
      }
      return left
    }

    mutating func product() throws -> Result {
      var left = try power()
      while position < tokens.count, tokens[position] == "*" || tokens[position] == "/" {
        let op = tokens[position]
        position += 1
        let right = try power()
        left = try combine(left, right) { op == "*" ? $0 * $1 : $0 / $1 }
      }
      return left
    }

    /// `a ^ b`, right to left (`2 ^ 3 ^ 2` is 2 ^ 9), binding tighter
    /// than `*` and `/`: a published equation's exponent (`0.97 ^ (0 - 1 / 0.56)`).
    mutating func power() throws -> Result {
      let base = try factor()
      guard position < tokens.count, tokens[position] == "^" else { return base }
      position += 1
      let exponent = try power()
      return try combine(base, exponent) { Foundation.pow($0, $1) }
    }

    mutating func factor() throws -> Result {
      guard position < tokens.count else {
        throw values.error(path, line, "{{\(body)}}: ends early", expected: "a value after the operator")
      }
      let token = tokens[position]
      position += 1
      if token == "(" {
        let inner = try sum()
        guard position < tokens.count, tokens[position] == ")" else {
          throw values.error(path, line, "{{\(body)}}: unclosed bracket", expected: "a closing )")
        }
        position += 1
        return inner
      }
      if token == "-" {
        return try combine(.number(0), try factor()) { $0 - $1 }
      }
      if let x = Double(token) { return .number(x) }
      let value = try values.cell(token, path: path, line: line, body: body)
      return value == .null ? .missing : .cell(value)
    }

    func combine(_ a: Result, _ b: Result, _ op: (Double, Double) -> Double) throws -> Result {
      if case .missing = a { return .missing }
      if case .missing = b { return .missing }
      guard let x = a.number, let y = b.number else {
        throw values.error(
          path, line, "{{\(body)}}: arithmetic on a value that is not a number", expected: "numbers")
      }
      let r = op(x, y)
      return r.isFinite ? .number(r) : .missing
    }
  }
}
