import EnergyLabCore
import Tracks

/// The energy model each transport mode is run through unless another is
/// chosen, shared by every command that estimates energy per mode.
package enum ModeDefaults {
  /// MET of cycling under the `met` model unless told otherwise: 7.5,
  /// "bicycling, general" (Compendium 2011, code 01015).
  package static let cyclingMET = 7.5

  /// The ACSM equations on foot, MET for cycling, and resting VO2 for
  /// passive travel (PEM thesis L1018) and for staying in a place.
  package static func model(for mode: TransportMode) -> String {
    switch mode {
    case .walk: "acsm-walking"
    case .run: "acsm-running"
    case .cycle: "met"
    case .bus, .car, .train, .plane, .vehicle, .stationary: "resting"
    }
  }

  /// `model(for:)` of every mode.
  package static let modelForMode = Dictionary(
    uniqueKeysWithValues: TransportMode.allCases.map { ($0, model(for: $0)) })
}
