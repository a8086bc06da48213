import EnergyLabCore

/// An input a model can need, named as the command line names it (without
/// the dashes); `words` says it in prose.
public enum ModelInputName: String, Sendable, Hashable, CaseIterable {
  case speed, mass, power, age, sex, met, activity, steps, stride, height, minutes, distance, efficiency
  case stepRate = "step-rate"
  case stepHeight = "step-height"
  case heartRate = "heart-rate"
  case kilocaloriesPerStep = "kcal-per-step"
  case enmo, mad
  case verticalCounts = "counts"
  case vectorMagnitudeCounts = "vm-counts"
  case restingHeartRate = "resting-hr"
  case maximumHeartRate = "max-hr"
  case vo2Max = "vo2max"
  case countsVariation = "counts-cv"

  public var words: String {
    switch self {
    case .speed: return "a speed"
    case .mass: return "a body mass"
    case .power: return "an ergometer power"
    case .age: return "an age"
    case .sex: return "a sex"
    case .met: return "a MET value"
    case .activity: return "an activity code"
    case .steps: return "a step count"
    case .stride: return "a stride length"
    case .height: return "a body height"
    case .minutes: return "a duration"
    case .distance: return "a distance"
    case .efficiency: return "a mechanical efficiency"
    case .stepRate: return "a stepping rate"
    case .stepHeight: return "a step height"
    case .heartRate: return "a heart rate"
    case .kilocaloriesPerStep: return "an energy per step"
    case .enmo: return "an ENMO (mg)"
    case .mad: return "a MAD (mg)"
    case .verticalCounts: return "vertical-axis counts per minute"
    case .vectorMagnitudeCounts: return "vector-magnitude counts per minute"
    case .restingHeartRate: return "a resting heart rate"
    case .maximumHeartRate: return "a maximal heart rate"
    case .vo2Max: return "a VO2max (mL/kg/min)"
    case .countsVariation: return "the coefficient of variation of 10 s counts (%)"
    }
  }
}

/// A model that cannot be evaluated on its input: an input missing, or one
/// outside what the equation accepts. The command line names the option
/// that gives the input; other callers say it in words.
public struct ModelError: Error, Sendable, Hashable, CustomStringConvertible {
  public enum Kind: Sendable, Hashable {
    /// None of these inputs was given; any one of them would do.
    case missing([ModelInputName])
    /// An input outside what the equation accepts.
    case invalid(ModelInputName, value: Double, expected: String)
  }

  public var model: String
  public var kind: Kind

  public init(model: String, _ kind: Kind) {
    self.model = model
    self.kind = kind
  }

  /// The message with each input named by `name` (its words by default).
  public func message(naming name: (ModelInputName) -> String = \.words) -> String {
    switch kind {
    case .missing(let inputs):
      return "model \(model) needs \(inputs.map(name).joined(separator: " or "))"
    case .invalid(let input, let value, let expected):
      return "model \(model) needs \(name(input)) \(expected); got \(Fixed.shortest(value))"
    }
  }

  public var description: String { message() }
}
