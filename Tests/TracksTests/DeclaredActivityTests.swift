import EnergyLabCore
import Testing
import Tracks

/// FIT session sports as the reader declares them, `sport` or
/// `sport/sub_sport` (FIT Profile enum names), and the modes they name.
@Test(arguments: [
  ("running", TransportMode.run), ("running/treadmill", .run), ("cycling", .cycle),
  ("cycling/indoor_cycling", .cycle), ("cycling/commuting", .cycle), ("e_biking", .cycle),
  ("walking/casual_walking", .walk), ("hiking", .walk),
])
func fitSportNamesAMode(_ text: String, _ mode: TransportMode) {
  #expect(TransportMode(declaredSport: text) == mode)
}

@Test(arguments: [
  "generic", "transition", "swimming/open_water", "fitness_equipment/indoor_rowing", "/cycling",
])
func fitSportNamingNoCostedMode(_ text: String) {
  #expect(TransportMode(declaredSport: text) == nil)
}
