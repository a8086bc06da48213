import Foundation
import TestSupport
import Testing

struct CarbonCommandLineTests {
  /// Walk 10 min at 1.3 m/s, drive 40 min at 20 m/s, walk 10 min, starting
  /// 23:30 BST on 4 July 2020: the drive (48 km) is split 20/20 min over the
  /// two days, 24 km x 0.175 = 4.2 kg CO2e each (Alter Eco factors).
  @Test func profileByDayInLondon() throws {
    let folder = try scratchFolder()
    _ = try energylab(
      [
        "track", "synth", "-o", "d.gpx", "--start", "2020-07-04T22:30:00Z", "--leg", "1.3mps,0,10min",
        "--leg", "20mps,0,40min", "--leg", "1.3mps,0,10min",
      ],
      in: folder)
    try FileManager.default.createDirectory(atPath: "\(folder)/Datasets", withIntermediateDirectories: true)
    try FileManager.default.createSymbolicLink(
      atPath: "\(folder)/Datasets/factors", withDestinationPath: "\(packageRoot)/Datasets/factors")
    let out = try energylab(
      ["profile", "d.gpx", "--by", "day", "--tz", "Europe/London", "--format", "json"], in: folder)
    #expect(out.status == 0, "\(out.stderr)")
    let rows = try #require(JSONSerialization.jsonObject(with: Data(out.stdout.utf8)) as? [[String: Any]])
    #expect(
      rows.map { $0["bin_start"] as? String ?? "" } == [
        "2020-07-04T00:00:00+01:00", "2020-07-04T00:00:00+01:00", "2020-07-05T00:00:00+01:00",
        "2020-07-05T00:00:00+01:00",
      ])
    let cars = rows.filter { $0["mode"] as? String == "car" }
    #expect(cars.allSatisfy { abs(($0["co2_kg"] as? Double ?? 0) - 4.2) < 1e-3 })
    #expect(
      rows.allSatisfy {
        $0["factor_set"] as? String == "alter-eco-2020" && $0["body_mass_kg"] as? Double == 70
      })
    for key in ["bin_start", "mode", "distance_m", "duration_s", "energy_kcal", "co2_kg"] {
      #expect(rows.allSatisfy { $0[key] != nil }, "missing \(key)")
    }
  }

  /// Alter Eco flight check (thesis Fig 5.4, L803-806): STN-CAG and STN-TFS
  /// returns. Haversine (R = 6371 km): 1560.88 and 2996.70 km one way, 9115.16
  /// km flown; x 0.200 = 1.823 t with the app's factor, against 1.58 t and
  /// 1.4 t from two web calculators.
  @Test func alterEcoFlightCheck() throws {
    let out = try energylab(
      [
        "footprint", "flights", "STN-CAG:return", "STN-TFS:return", "--factors", "alter-eco-2020", "--format",
        "json",
      ],
      in: packageRoot)
    #expect(out.status == 0, "\(out.stderr)")
    let rows = try #require(JSONSerialization.jsonObject(with: Data(out.stdout.utf8)) as? [[String: Any]])
    let total = try #require(rows.last)
    expectClose(total["flown_km"] as? Double, 9115.16, tolerance: 0.01, "flown_km")
    expectClose((total["co2_kg_alter-eco-2020"] as? Double ?? 0), 1823.03, tolerance: 0.01)
  }

  @Test func unknownAirportIsAUsageError() throws {
    let out = try energylab(["footprint", "flights", "STN-XYZ"], in: packageRoot)
    #expect(out.status == 64)
    #expect(out.stderr.contains("unknown airport \"XYZ\""))
  }
}
