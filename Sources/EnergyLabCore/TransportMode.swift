/// Ways of travelling, as the theses' activity domains name them (PEM
/// thesis: Walk, Run, Car, Bus, Train; plus cycling), and what a GPS track
/// alone tells apart: `vehicle` (car, bus or train, not told apart) and
/// `stationary` (staying in a place, not travelling).
public enum TransportMode: String, Sendable, Hashable, CaseIterable {
  case walk
  case run
  case cycle
  case bus
  case car
  case train
  case plane
  case vehicle
  case stationary

  /// The modes speed bands give.
  public static let speedBandModes: [TransportMode] = [.walk, .run, .cycle, .bus, .car, .train, .plane]

  /// The mode's place in `allCases`.
  var position: Int {
    switch self {
    case .walk: 0
    case .run: 1
    case .cycle: 2
    case .bus: 3
    case .car: 4
    case .train: 5
    case .plane: 6
    case .vehicle: 7
    case .stationary: 8
    }
  }
}

/// A value for every transport mode, so looking one up cannot fail (a
/// dictionary by mode could lack one).
public struct PerMode<Value> {
  /// In the order of `TransportMode.allCases`.
  private var values: [Value]

  public init(_ make: (TransportMode) throws -> Value) rethrows {
    values = try TransportMode.allCases.map(make)
  }

  public subscript(mode: TransportMode) -> Value {
    get { values[mode.position] }
    set { values[mode.position] = newValue }
  }
}

extension PerMode: Sendable where Value: Sendable {}
