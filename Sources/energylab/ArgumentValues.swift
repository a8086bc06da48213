import ArgumentParser
import EnergyLabCore
import EnergyModels
import Evaluation
import Foundation
import Ingest
import Pipeline
import Signals
import Tracks

// Typed command-line values: a value is checked when the arguments are
// parsed, and a bad one is a usage error (exit 64) that ArgumentParser
// prefixes with the option's name, so the messages here do not repeat it.

extension Sex: ExpressibleByArgument {
  public init?(argument: String) { self.init(rawValue: argument.lowercased()) }
}
extension AccelFormat: ExpressibleByArgument {}
extension AccelTimeFormat: ExpressibleByArgument {}
extension AccelUnit: ExpressibleByArgument {}
extension DateOrder: ExpressibleByArgument {}
extension NormalizedPowerWindows: ExpressibleByArgument {}
extension MissingPowerRule: ExpressibleByArgument {}
extension TSSDuration: ExpressibleByArgument {}
extension ElevationCleaning.Method: ExpressibleByArgument {}
extension WearLocation: ExpressibleByArgument {
  /// Also the places a waist device is named by: `hip`, `lower-back`.
  public init?(argument: String) {
    let name = argument.lowercased()
    if name == "hip" || name == "lower-back" {
      self = .waist
    } else {
      self.init(rawValue: name)
    }
  }
}

/// A model of the registry, checked when the arguments are parsed: its
/// valid values are the registry's identifiers, listed in help and in the
/// error for any other.
struct ModelID: ExpressibleByArgument, Hashable, Sendable {
  let id: String

  init?(argument: String) {
    guard (try? ModelRegistry.model(id: argument)) != nil else { return nil }
    id = argument
  }

  static var allValueStrings: [String] { ModelRegistry.all.map(\.info.id) }
  static var defaultCompletionKind: CompletionKind { Completions.models }
}

/// A mode's model, `MODE=MODEL` (as `cycle=acsm-cycling`), both parts
/// checked when the arguments are parsed.
struct ModeModel: ExpressibleByArgument, Sendable {
  let mode: TransportMode
  let model: ModelID

  init?(argument: String) {
    let parts = argument.split(separator: "=", maxSplits: 1).map(String.init)
    guard parts.count == 2, let mode = TransportMode(rawValue: parts[0]),
      let model = ModelID(argument: parts[1])
    else { return nil }
    self.mode = mode
    self.model = model
  }

  /// Every mode with every model would be thousands of strings: the help
  /// says the form, and the error the modes and models.
  static var allValueStrings: [String] { [] }
}

/// The kind of movement that sets the default stop speed of a track.
enum Movement: String, CaseIterable, ExpressibleByArgument {
  case walk, run, cycle, drive
  var stopSpeedMetersPerSecond: Double { TrackAnalysisParameters.stopSpeedDefaults[rawValue] ?? 0.3 }
}

/// How `track segments` tells transport modes apart.
enum Classifier: String, CaseIterable, ExpressibleByArgument {
  case epochHMM = "epoch-hmm"
  case speedBands = "speed-bands"
  case alterEco = "alter-eco"
}

/// How `energy --by-mode` and `profile` infer modes where a file declares
/// none.
enum ModeClassifierChoice: String, CaseIterable, ExpressibleByArgument {
  case epochHMM = "epoch-hmm"
  case speedBands = "speed-bands"

  var inference: ModeInference {
    switch self {
    case .epochHMM: return .standard
    case .speedBands: return .speedBands(SpeedBandParameters())
    }
  }
}

/// What `sweep` varies.
extension SweepCommand.Input: ExpressibleByArgument {}

/// Parsers of the values that are more than one word.
enum ArgumentValue {
  /// `COLUMN:UNIT` of a measured reference, as `VO2.kg:mL/kg/min`.
  static func measuredColumn(_ text: String) throws -> (
    column: String, unit: MeasuredEvaluationCommand.MeasuredUnit
  ) {
    let units = MeasuredEvaluationCommand.MeasuredUnit.allCases
    guard let unit = units.first(where: { text.hasSuffix(":\($0.rawValue)") }) else {
      throw ValidationError(
        "expected COLUMN:UNIT with a unit among \(units.map(\.rawValue).joined(separator: ", ")); got \(text)"
      )
    }
    return (String(text.dropLast(unit.rawValue.count + 1)), unit)
  }

  /// An equivalence zone: `10%` of the mean reference, or `0.5` in the
  /// units of the values (above zero).
  static func equivalenceZone(_ text: String) throws -> AgreementIndices.Zone {
    let trimmed = text.trimmingCharacters(in: .whitespaces)
    if trimmed.hasSuffix("%"), let p = Double(trimmed.dropLast()), p > 0, p.isFinite {
      return .percentOfReference(p)
    }
    if let u = Double(trimmed), u > 0, u.isFinite { return .units(u) }
    throw ValidationError(
      "expected a zone above zero, as 10% (of the mean reference) or 0.5 (in the values' unit); got \(text)")
  }

  /// `a,b, c` as its non-empty items.
  static func list(_ text: String) -> [String] {
    text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
  }

  /// Comma-separated model identifiers, each checked against the registry
  /// (with the closest identifier).
  static func models(_ text: String) throws -> [ModelID] {
    try list(text).map { id in
      do { _ = try ModelRegistry.model(id: id) } catch { throw ValidationError("\(error)") }
      guard let model = ModelID(argument: id) else { throw ValidationError("unknown model \(id)") }
      return model
    }
  }

  /// `NAME=NUMBER` with a number of at least 0.
  static func namedNumber(_ text: String) throws -> (name: String, value: Double) {
    let parts = text.split(separator: "=").map(String.init)
    guard parts.count == 2, !parts[0].isEmpty, let value = Double(parts[1]), value >= 0 else {
      throw ValidationError("expected NAME=NUMBER with a number of at least 0, as beef=2")
    }
    return (parts[0], value)
  }

  /// `MODE=MODEL`, as `cycle=acsm-cycling`: the modes listed, the model
  /// checked against the registry (with the closest identifier).
  static func modeModel(_ text: String) throws -> ModeModel {
    let parts = text.split(separator: "=", maxSplits: 1).map(String.init)
    guard parts.count == 2, TransportMode(rawValue: parts[0]) != nil, !parts[1].isEmpty else {
      throw ValidationError(
        "expected MODE=MODEL with MODE one of \(TransportMode.allCases.map(\.rawValue).joined(separator: ", ")), as cycle=acsm-cycling"
      )
    }
    do { _ = try ModelRegistry.model(id: parts[1]) } catch { throw ValidationError("\(error)") }
    guard let value = ModeModel(argument: text) else { throw ValidationError("expected MODE=MODEL") }
    return value
  }

  /// An ASQ task, `NAME=ITEM1,ITEM2,ITEM3`.
  static func task(_ text: String) throws -> (name: String, items: [String]) {
    guard let eq = text.firstIndex(of: "="), eq != text.startIndex else {
      throw ValidationError("expected NAME=Q1,Q2,Q3")
    }
    let items = list(String(text[text.index(after: eq)...]))
    guard !items.isEmpty else { throw ValidationError("expected NAME=Q1,Q2,Q3: the task names no item") }
    return (String(text[..<eq]), items)
  }

  /// A synthetic track leg, `SPEED,GRADE,DURATION`.
  static func leg(_ text: String) throws -> SyntheticTrackSpec.Leg {
    let parts = text.split(separator: ",").map(String.init)
    guard parts.count == 3 else { throw ValidationError("expected SPEED,GRADE,DURATION, as 1.3mps,0,10min") }
    return SyntheticTrackSpec.Leg(
      speedMetersPerSecond: try QuantityParser.speedMetersPerSecond(parts[0]),
      gradeFraction: try QuantityParser.gradeFraction(parts[1]),
      durationSeconds: try QuantityParser.durationSeconds(parts[2]))
  }

  /// A synthetic recording leg, `MOVEMENT,DURATION`, as walk,10min.
  static func recordingLeg(_ text: String) throws -> (movement: SyntheticMovement, seconds: Double) {
    let parts = text.split(separator: ",").map(String.init)
    guard parts.count == 2, let movement = SyntheticMovement.presets.first(where: { $0.name == parts[0] })
    else {
      throw ValidationError(
        "expected MOVEMENT,DURATION with MOVEMENT one of \(SyntheticMovement.presets.map(\.name).joined(separator: ", ")), as walk,10min"
      )
    }
    return (movement, try QuantityParser.durationSeconds(parts[1]))
  }

  /// An ISO-8601 instant, s since 1970; `requireOffset` refuses a time
  /// without a zone.
  static func instant(_ text: String, requireOffset: Bool) throws -> Double {
    guard let t = ISO8601.parse(text), t.hadOffset || !requireOffset else {
      throw ValidationError(
        requireOffset
          ? "expected ISO-8601 with an offset, as 2024-03-01T08:00:00Z"
          : "expected ISO-8601, as 2012-05-08T09:00:00Z")
    }
    return t.secondsSince1970
  }

  /// An IANA time zone (any case), parsed once; an unknown name is a
  /// usage error with the closest known names.
  static func timeZone(_ text: String) throws -> NamedTimeZone {
    do { return try NamedTimeZone(named: text) } catch { throw ValidationError("\(error)") }
  }

  /// Accelerometer cut-points by name.
  static func cutPoints(_ text: String) throws -> CutPoints {
    guard let c = CutPoints.named(text) else {
      throw ValidationError("expected one of \(CutPoints.all.map(\.id).joined(separator: ", "))")
    }
    return c
  }

  /// A survey export dialect.
  static func surveyDialect(_ text: String) throws -> SurveyDialect {
    do {
      return try SurveyDialect(named: text)
    } catch {
      // The library's words: what is expected, and the closest name.
      throw ValidationError("\(error)")
    }
  }

  /// A balance user, `NAME:INTAKE:STEPS:ALLOWANCE`.
  static func balanceUser(_ text: String) throws -> (
    name: String, intake: Double, steps: Double, allowance: Double
  ) {
    let parts = text.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
    guard parts.count == 4, !parts[0].isEmpty, let intake = Double(parts[1]), let steps = Double(parts[2]),
      let allowance = Double(parts[3]), steps >= 0, allowance > 0
    else {
      throw ValidationError(
        "expected NAME:INTAKE_KCAL:STEPS:ALLOWANCE_KCAL with steps of at least 0 and an allowance above 0, as ana:2100:8000:2000"
      )
    }
    return (parts[0], intake, steps, allowance)
  }
}

extension SubjectMatch: ExpressibleByArgument {}
