/// The limits a value about a person must lie within to be a human value:
/// one statement, checked wherever the value comes from (the command line,
/// a subjects file, a FIT user profile), so every command takes or refuses
/// the same values.
///
/// The limits are wide on purpose: they catch a wrong unit, a field's
/// "invalid" marker (a FIT weight of 6553.4 kg is 0xFFFE), an overflow or a
/// typing slip, never an unusual person. Sources of the bounds: body mass,
/// the heaviest and lightest adults recorded (about 635 kg and 2.1 kg)
/// rounded to what the command line has always taken, 1-500 kg; age, the
/// longest documented life, 122 years (Jeanne Calment); height, the
/// tallest recorded man, 2.72 m (Robert Wadlow), and the shortest adult,
/// 0.55 m (Chandra Bahadur Dangi); heart rate, the slowest recorded sinus
/// rhythm near 25 bpm and the fastest about 300 bpm in arrhythmia (220 -
/// age is the usual maximum); VO2max, below 10 in severe heart failure and
/// about 97 in the best endurance athletes.
public enum HumanLimits {
  /// A quantity about a person with its stated limits.
  public enum Quantity: String, Sendable, Hashable, CaseIterable {
    case bodyMass = "body mass"
    case age
    case height
    case heartRate = "heart rate"
    case restingHeartRate = "resting heart rate"
    case maximumHeartRate = "maximal heart rate"
    case vo2Max = "VO2max"

    /// Lowest and highest accepted value, in `unit`.
    public var range: ClosedRange<Double> {
      switch self {
      case .bodyMass: return 1...500
      case .age: return 1...125
      case .height: return 0.5...2.8
      case .heartRate, .restingHeartRate, .maximumHeartRate: return 20...300
      case .vo2Max: return 5...100
      }
    }

    public var unit: String {
      switch self {
      case .bodyMass: return "kg"
      case .age: return "years"
      case .height: return "m"
      case .heartRate, .restingHeartRate, .maximumHeartRate: return "bpm"
      case .vo2Max: return "mL/kg/min"
      }
    }

    /// The limits as text: `1-500 kg`.
    public var limitsText: String {
      "\(Fixed.shortest(range.lowerBound))-\(Fixed.shortest(range.upperBound)) \(unit)"
    }
  }

  /// Whether `value` (in the quantity's unit) is a human value.
  public static func accepts(_ value: Double, _ quantity: Quantity) -> Bool {
    value.isFinite && quantity.range.contains(value)
  }

  /// `value` if it is a human value, else a `ValueError` naming the
  /// quantity, the value and the limits.
  @discardableResult
  public static func check(_ value: Double, _ quantity: Quantity) throws -> Double {
    guard accepts(value, quantity) else { throw outOfRange(value, quantity) }
    return value
  }

  /// The error for a value outside the limits.
  public static func outOfRange(_ value: Double, _ quantity: Quantity) -> ValueError {
    ValueError(
      .outOfRange, "a human \(quantity.rawValue)", value: "\(text(value)) \(quantity.unit)",
      expected: quantity.limitsText)
  }

  /// A value as the user wrote it: shortest form, with exponents kept
  /// readable for absurd magnitudes.
  public static func text(_ value: Double) -> String {
    guard value.isFinite, abs(value) < 1e15 else { return "\(value)" }
    return Fixed.shortest(value)
  }
}
