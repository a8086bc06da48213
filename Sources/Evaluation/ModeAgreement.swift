import EnergyLabCore

/// The classes transport modes are scored in, per epoch: walk (on foot),
/// cycle, vehicle (car, bus, train) and stationary. A finer mode counts as
/// its class: `run` as walk (on foot), `car`, `bus`, `train` and `plane`
/// as vehicle.
public enum ScoredMode: String, Sendable, Hashable, CaseIterable {
  case walk
  case cycle
  case vehicle
  case stationary

  /// The mode's place in `allCases` (rows and columns of a confusion).
  public var index: Int {
    switch self {
    case .walk: 0
    case .cycle: 1
    case .vehicle: 2
    case .stationary: 3
    }
  }

  public init(_ mode: TransportMode) {
    switch mode {
    case .walk, .run: self = .walk
    case .cycle: self = .cycle
    case .bus, .car, .train, .plane, .vehicle: self = .vehicle
    case .stationary: self = .stationary
    }
  }

  /// Whether the class is travel (walk, cycle, vehicle).
  public var isMoving: Bool { self != .stationary }
}

/// The true mode of each epoch from second-by-second observations: the
/// class of the most seconds, when it holds at least `minimumSeconds`;
/// otherwise the epoch is mixed or unknown and is not scored. Mergeable.
///
/// The convention of the PALMS validation folder's README: 30 s epochs
/// starting at whole half-minutes, a class needing 16 of 30 seconds.
public struct TruthEpochs: Sendable, Hashable {
  public var epochSeconds: Double
  public var minimumSeconds: Int
  /// Seconds of each class (and unknown, the last slot) per epoch start.
  public private(set) var seconds: [Double: [Int]] = [:]

  public init(epochSeconds: Double = 30, minimumSeconds: Int = 16) {
    self.epochSeconds = epochSeconds
    self.minimumSeconds = minimumSeconds
  }

  /// One observed second at `secondsSince1970`: a class, or nil for unknown
  /// or mixed.
  public mutating func add(secondsSince1970: Double, mode: ScoredMode?) {
    let start = (secondsSince1970 / epochSeconds).rounded(.down) * epochSeconds
    let slot = mode.map(\.index) ?? ScoredMode.allCases.count
    seconds[start, default: Array(repeating: 0, count: ScoredMode.allCases.count + 1)][slot] += 1
  }

  public mutating func merge(_ other: TruthEpochs) {
    for (start, counts) in other.seconds {
      if var mine = seconds[start] {
        for k in mine.indices { mine[k] += counts[k] }
        seconds[start] = mine
      } else {
        seconds[start] = counts
      }
    }
  }

  /// The epoch's true class, or nil when mixed or unknown.
  public func mode(at epochStart: Double) -> ScoredMode? {
    guard let counts = seconds[epochStart] else { return nil }
    var best = 0
    for k in 1..<ScoredMode.allCases.count where counts[k] > counts[best] { best = k }
    return counts[best] >= minimumSeconds ? ScoredMode.allCases[best] : nil
  }

  /// Epoch starts, in time order.
  public var epochStarts: [Double] { seconds.keys.sorted() }
}

/// Epochs scored against truth: a confusion matrix of true against
/// predicted class, and the epochs left out. Mergeable, so days and files
/// add up.
public struct ModeConfusion: Sendable, Hashable {
  /// `counts[truth][predicted]`; the last predicted column is "no label"
  /// (the predictor gave none for an epoch with a fix).
  public var counts: [[Int]] = Array(
    repeating: Array(repeating: 0, count: ScoredMode.allCases.count + 1), count: ScoredMode.allCases.count)
  /// Epochs whose truth was mixed or unknown.
  public var mixedOrUnknown = 0
  /// Epochs with a clear truth but no GPS fix.
  public var withoutFix = 0

  public init() {}

  public mutating func add(truth: ScoredMode, predicted: ScoredMode?) {
    let t = truth.index
    let p = predicted.map(\.index) ?? ScoredMode.allCases.count
    counts[t][p] += 1
  }

  public mutating func merge(_ other: ModeConfusion) {
    for t in counts.indices {
      for p in counts[t].indices { counts[t][p] += other.counts[t][p] }
    }
    mixedOrUnknown += other.mixedOrUnknown
    withoutFix += other.withoutFix
  }

  func index(_ mode: ScoredMode) -> Int { mode.index }

  /// Epochs of true class `truth` predicted as `predicted` (nil: no label).
  public func count(truth: ScoredMode, predicted: ScoredMode?) -> Int {
    counts[index(truth)][predicted.map(index) ?? ScoredMode.allCases.count]
  }

  /// Scored epochs.
  public var epochs: Int { counts.reduce(0) { $0 + $1.reduce(0, +) } }
  /// Epochs whose truth is walk, cycle or vehicle.
  public var movingEpochs: Int {
    ScoredMode.allCases.filter(\.isMoving).reduce(0) { $0 + counts[index($1)].reduce(0, +) }
  }

  /// Share of scored epochs predicted right; nil without epochs.
  public var accuracy: Double? {
    epochs == 0
      ? nil : Double(ScoredMode.allCases.reduce(0) { $0 + count(truth: $1, predicted: $1) }) / Double(epochs)
  }

  /// Share of moving epochs predicted right (their own class); nil
  /// without moving epochs.
  public var movingAccuracy: Double? {
    movingEpochs == 0
      ? nil
      : Double(ScoredMode.allCases.filter(\.isMoving).reduce(0) { $0 + count(truth: $1, predicted: $1) })
        / Double(movingEpochs)
  }

  /// Share of true walking epochs predicted as cycling; nil without
  /// walking epochs.
  public var walkAsCycleShare: Double? {
    let walking = counts[index(.walk)].reduce(0, +)
    return walking == 0 ? nil : Double(count(truth: .walk, predicted: .cycle)) / Double(walking)
  }

  /// Recall of a class: its true epochs predicted as it; nil without any.
  public func recall(_ mode: ScoredMode) -> Double? {
    let n = counts[index(mode)].reduce(0, +)
    return n == 0 ? nil : Double(count(truth: mode, predicted: mode)) / Double(n)
  }

  /// Precision of a class: epochs predicted as it that truly are; nil when
  /// nothing was predicted as it.
  public func precision(_ mode: ScoredMode) -> Double? {
    let n = counts.reduce(0) { $0 + $1[index(mode)] }
    return n == 0 ? nil : Double(count(truth: mode, predicted: mode)) / Double(n)
  }

  /// F1 of a class: the harmonic mean of precision and recall; nil when
  /// either is unknown or both are 0.
  public func f1(_ mode: ScoredMode) -> Double? {
    guard let p = precision(mode), let r = recall(mode), p + r > 0 else { return nil }
    return 2 * p * r / (p + r)
  }
}

extension ScoredMode {
  /// The class of an observer's label in the PALMS validation study's truth
  /// files: Walk and In-Out Walk are walk, Bike is cycle, Car and Bus are
  /// vehicle, Stand, Sit and Some Movement are stationary; combinations
  /// (`Some Movement/Walk`), `-1` and empty are unknown (nil).
  public init?(observed label: String) {
    switch label {
    case "Walk", "In-Out Walk": self = .walk
    case "Bike": self = .cycle
    case "Car", "Bus": self = .vehicle
    case "Stand", "Sit", "Some Movement": self = .stationary
    default: return nil
    }
  }

  /// The class of PALMS's `tripMode`: pedestrian, bicycle, vehicle,
  /// stationary.
  public init?(palmsTripMode label: String) {
    switch label {
    case "pedestrian": self = .walk
    case "bicycle": self = .cycle
    case "vehicle": self = .vehicle
    case "stationary": self = .stationary
    default: return nil
    }
  }
}

extension ModeConfusion {
  /// Every score, in printed order, declared once: `evaluate modes`
  /// prints each predictor's row, stores its error summaries and each
  /// day's results from this list. Counts of epochs and fractions from 0
  /// to 1 (4 decimals); a score that cannot be computed (no epoch of a
  /// class) is unknown: printed empty, not stored.
  public static let scoreColumns: [ResultColumn<ModeConfusion>] = {
    var out: [ResultColumn<ModeConfusion>] = [
      .integer("epochs") { $0.epochs },
      .integer("moving_epochs") { $0.movingEpochs },
      .number("moving_accuracy", .fraction, digits: 4) { $0.movingAccuracy },
      .number("accuracy", .fraction, digits: 4) { $0.accuracy },
      .number("walk_as_cycle", .fraction, digits: 4) { $0.walkAsCycleShare },
    ]
    for mode in ScoredMode.allCases {
      out += [
        .number("\(mode.rawValue)_precision", .fraction, digits: 4) { $0.precision(mode) },
        .number("\(mode.rawValue)_recall", .fraction, digits: 4) { $0.recall(mode) },
        .number("\(mode.rawValue)_f1", .fraction, digits: 4) { $0.f1(mode) },
      ]
    }
    out += [
      .integer("mixed_or_unknown_epochs") { $0.mixedOrUnknown },
      .integer("epochs_without_fix") { $0.withoutFix },
    ]
    return out
  }()
}
