import EnergyLabCore
import Tracks

/// The energy model each transport mode is run through unless another is
/// chosen, shared by every command that estimates energy per mode.
public enum ModeDefaults {
  /// MET of cycling under the `met` model unless told otherwise: 7.5,
  /// "bicycling, general" (Compendium 2011, code 01015).
  public static let cyclingMET = 7.5

  /// The ACSM equations on foot, MET for cycling, and resting VO2 for
  /// passive travel (PEM thesis L1018) and for staying in a place.
  public static let modelForMode: [TransportMode: String] = [
    .walk: "acsm-walking", .run: "acsm-running", .cycle: "met", .bus: "resting", .car: "resting",
    .train: "resting", .plane: "resting", .vehicle: "resting", .stationary: "resting",
  ]
}
