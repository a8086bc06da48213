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
///
/// Values inside a recording (a fix's heart rate or speed, a breath's
/// uptake, an epoch's steps) are held to limits of the same kind, each a
/// bound no person or vehicle a study meets goes past: speed, 340 m/s, the
/// speed of sound at sea level (an airliner cruises at about 250 m/s);
/// oxygen uptake, 7,500 mL/min, beyond the highest recorded (about 7.5
/// L/min in elite rowers and skiers); energy, 40 kcal/min, about the
/// uptake limit's 7.5 L/min times 5 kcal/L; steps, 300 per minute, above
/// a sprinter's 4.5-5 steps a second. `RecordLimits` leaves such a value
/// out of its record and counts it.
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
    /// A speed a recording reports for a fix or a breath (a device's
    /// speed field): any way a person travels, up to an airliner's.
    case speed
    /// Oxygen uptake of one breath or sample.
    case oxygenUptake = "oxygen uptake"
    /// Energy expenditure of one breath or sample.
    case energyRate = "energy expenditure rate"
    /// Steps per minute in one epoch of a step or count export.
    case stepRate = "step rate"

    /// Lowest and highest accepted value, in `unit`.
    public var range: ClosedRange<Double> {
      switch self {
      case .bodyMass: return 1...500
      case .age: return 1...125
      case .height: return 0.5...2.8
      case .heartRate, .restingHeartRate, .maximumHeartRate: return 20...300
      case .vo2Max: return 5...100
      case .speed: return 0...340
      case .oxygenUptake: return 0...7500
      case .energyRate: return 0...40
      case .stepRate: return 0...300
      }
    }

    public var unit: String {
      switch self {
      case .bodyMass: return "kg"
      case .age: return "years"
      case .height: return "m"
      case .heartRate, .restingHeartRate, .maximumHeartRate: return "bpm"
      case .vo2Max: return "mL/kg/min"
      case .speed: return "m/s"
      case .oxygenUptake: return "mL/min"
      case .energyRate: return "kcal/min"
      case .stepRate: return "steps/min"
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

/// Holds each value read from a recording's records to `HumanLimits`: a
/// value outside them is left out of its record (read as missing, never
/// used), counted by quantity, and said once per quantity with the first
/// place it was seen. Every reader of recordings (FIT, GPX and TCX, K5 and
/// measured exports, count exports) keeps one, so `energy`, `batch` and
/// every other command leave out the same values.
public struct RecordLimits: Sendable, Hashable {
  /// What a record is called in the messages: `records`, `fixes`, `breaths`.
  public var noun: String
  public private(set) var leftOut: [HumanLimits.Quantity: Int] = [:]
  private var first: [HumanLimits.Quantity: (value: Double, place: String)] = [:]

  public init(noun: String) { self.noun = noun }

  public static func == (a: RecordLimits, b: RecordLimits) -> Bool {
    a.noun == b.noun && a.leftOut == b.leftOut
  }

  public func hash(into hasher: inout Hasher) {
    hasher.combine(noun)
    hasher.combine(leftOut)
  }

  /// `value` when it lies within the quantity's limits (or is nil); nil,
  /// counted, when it does not. `place` names where it was read (`line
  /// 12`, `record 40`) for the message.
  public mutating func keep(
    _ value: Double?, _ quantity: HumanLimits.Quantity, at place: @autoclosure () -> String
  )
    -> Double?
  {
    guard let value else { return nil }
    if HumanLimits.accepts(value, quantity) { return value }
    leftOut[quantity, default: 0] += 1
    if first[quantity] == nil { first[quantity] = (value, place()) }
    return nil
  }

  /// One warning per quantity with values left out, coded
  /// `implausible-<quantity>` (`implausible-heart-rate`).
  public func diagnostics(location: String?) -> [Diagnostic] {
    HumanLimits.Quantity.allCases.compactMap { quantity in
      guard let count = leftOut[quantity], let (value, place) = first[quantity] else { return nil }
      let code = "implausible-" + quantity.rawValue.lowercased().replacingOccurrences(of: " ", with: "-")
      return Diagnostic(
        code: code,
        message:
          "\(count) \(noun) with a \(quantity.rawValue) outside the human and device limits of \(quantity.limitsText): "
          + "left out of \(count == 1 ? "its record" : "their records") (read as missing, never used); the first "
          + "\(HumanLimits.text(value)) \(quantity.unit) at \(place)",
        location: location)
    }
  }
}
