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
}
