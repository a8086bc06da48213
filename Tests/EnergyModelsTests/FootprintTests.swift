import EnergyLabCore
import EnergyModels
import Foundation
import TestSupport
import Testing

/// The carbon gamification thesis's annual calculator (L573-647) over a small
/// table with the Fig 7.5 values it needs.
struct CarbonFootprintTests {
  let table = FactorTable(
    name: "t",
    entries: [
      ("household-heating-annual", 11000), ("electricity-price", 0.2396), ("heating-natural-gas", 0.201),
      ("fuel-petrol", 2.35), ("fuel-diesel", 2.65), ("flight", 0.09), ("food-waste", 1.9),
      ("food-waste-weekly", 3.486),
      ("diet-medium-meat", 2054.95), ("diet-vegan", 1058.5), ("food-beef", 11.44), ("goods-clothing", 0.35),
      ("goods-mobile-data", 1.18), ("supplier-electric-ireland", 0.179), ("supplier-all-island-mix", 0.236),
    ].map { FactorTable.Entry(key: $0.0, value: $0.1, unit: "", description: "") })

  /// Worked example by hand: 350 kWh/month from Electric Ireland, gas
  /// heating, 2 occupants: (350 x 12 x 0.179 + 11000 x 0.201) / 2 = 1481.4;
  /// 20 l petrol a week: 20 x 52 x 2.35 = 2444; medium meat with 2 beef
  /// servings a week (2 x 52 x 11.44 = 1189.76 < 2054.95): 2054.95; waste
  /// 3.486 x 52 x 1.9 = 344.4168; clothing 50 EUR/month: 600 x 0.35 = 210.
  @Test func workedExample() throws {
    var input = AnnualFootprintInput()
    input.electricityKilowattHoursPerMonth = 350
    input.supplier = "electric-ireland"
    input.heatingFuel = "natural-gas"
    input.occupants = 2
    input.petrolLitresPerWeek = 20
    input.servingsPerWeek = ["beef": 2]
    input.goodsEurosPerMonth = ["clothing": 50]
    let result = try CarbonFootprintCalculator(table: table).annual(input)
    expectClose(result.homeKilograms, 1481.4, tolerance: 1e-9)
    expectClose(result.carKilograms, 2444, tolerance: 1e-9)
    #expect(result.dietKilograms == 2054.95)
    #expect(result.dietBasis == "diet average")
    expectClose(result.foodWasteKilograms, 344.4168, tolerance: 1e-9)
    expectClose(result.goodsKilograms, 210, tolerance: 1e-9)
    expectClose(result.totalKilograms, (1481.4 + 2444 + 2054.95 + 344.4168 + 210), tolerance: 1e-9)
  }

  /// The larger diet figure wins: a vegan eating 5 beef servings a week
  /// (5 x 52 x 11.44 = 2974.4 > 1058.5) is counted by servings.
  @Test func servingsOverrideAnUnderestimatedDiet() throws {
    var input = AnnualFootprintInput()
    input.diet = "vegan"
    input.servingsPerWeek = ["beef": 5]
    let result = try CarbonFootprintCalculator(table: table).annual(input)
    expectClose(result.dietKilograms, 2974.4, tolerance: 1e-9)
    #expect(result.dietBasis == "servings")
  }

  /// A bill instead of kWh: 100 EUR / 0.2396 = 417.36 kWh a month.
  @Test func billToKilowattHours() throws {
    var input = AnnualFootprintInput()
    input.electricityBillEurosPerMonth = 100
    input.supplier = "electric-ireland"
    let result = try CarbonFootprintCalculator(table: table).annual(input)
    expectClose(result.homeKilograms, 100 / 0.2396 * 12 * 0.179, tolerance: 1e-9)
  }

  @Test func unknownSupplierListsTheKnownOnes() {
    var input = AnnualFootprintInput()
    input.supplier = "nobody"
    let error = #expect(throws: ValueError.self) { try CarbonFootprintCalculator(table: table).annual(input) }
    #expect(error?.kind == .unknown(known: ["electric-ireland", "all-island-mix"]))
    #expect(error?.description.contains("electric-ireland") == true)
  }

  /// Haversine with R = 6371.0 km (thesis Fig 7.6): one degree of longitude
  /// on the equator is 6371 x pi / 180 = 111.1949 km; return doubles it.
  @Test func flightDistance() {
    let a = Airport(code: "A", name: "a", latitudeDegrees: 0, longitudeDegrees: 0)
    let b = Airport(code: "B", name: "b", latitudeDegrees: 0, longitudeDegrees: 1)
    let trip = FlightTrip(from: a, to: b, isReturn: true, tripsPerYear: 3)
    expectClose(trip.greatCircleKilometers, 6371 * Double.pi / 180, tolerance: 1e-9)
    expectClose(trip.kilometersPerYear, 6 * 6371 * Double.pi / 180, tolerance: 1e-9)
  }
}
