import EnergyLabCore
import Foundation

/// A flight of the annual calculator: from, to, one way or return, how many
/// times a year.
public struct FlightTrip: Sendable, Hashable {
  public var from: Airport
  public var to: Airport
  public var isReturn: Bool
  public var tripsPerYear: Double

  public init(from: Airport, to: Airport, isReturn: Bool, tripsPerYear: Double = 1) {
    self.from = from
    self.to = to
    self.isReturn = isReturn
    self.tripsPerYear = tripsPerYear
  }

  /// Great-circle distance by the haversine formula with the radius the
  /// carbon gamification thesis prints (6371.0 km, Fig 7.6), km.
  public var greatCircleKilometers: Double {
    let phi1 = from.latitudeDegrees * .pi / 180
    let phi2 = to.latitudeDegrees * .pi / 180
    let dPhi = phi2 - phi1
    let dLambda = (to.longitudeDegrees - from.longitudeDegrees) * .pi / 180
    let a = pow(sin(dPhi / 2), 2) + cos(phi1) * cos(phi2) * pow(sin(dLambda / 2), 2)
    return 2 * asin(sqrt(a)) * 6371.0
  }

  /// Kilometres flown a year: distance x 2 for a return x trips.
  public var kilometersPerYear: Double { greatCircleKilometers * (isReturn ? 2 : 1) * tripsPerYear }
}

/// What a person tells the annual calculator. Frequencies follow the
/// thesis where it states them (electricity monthly, fuel weekly, food
/// servings weekly); goods spending is taken per month and multiplied by 12,
/// EnergyLab's choice where the thesis says only "annual totals".
public struct AnnualFootprintInput: Sendable, Hashable {
  /// Electricity used per month, kWh; or the monthly bill in euro, divided
  /// by the average price (0.2396 EUR/kWh).
  public var electricityKilowattHoursPerMonth: Double?
  public var electricityBillEurosPerMonth: Double?
  /// Supplier key of the factor table (`electric-ireland`); default the
  /// all-island fuel mix.
  public var supplier = "all-island-mix"
  /// Heating fuel key (`natural-gas`, `kerosene`, `lpg`, `peat`, `coal-1`,
  /// `coal-2`); nil for no fuel heating.
  public var heatingFuel: String?
  public var occupants = 1.0
  public var petrolLitresPerWeek = 0.0
  public var dieselLitresPerWeek = 0.0
  public var flights: [FlightTrip] = []
  /// Diet key (`vegan`, `vegetarian`, `pescatarian`, `low-meat`,
  /// `medium-meat`, `high-meat`).
  public var diet = "medium-meat"
  /// Servings per week by food key (`beef`, `pork`, `poultry`, `rice`, `fish`,
  /// `coffee`, `cheese`, `milk`).
  public var servingsPerWeek: [String: Double] = [:]
  /// Food wasted per week, kg; default the UK average of the table.
  public var foodWasteKilogramsPerWeek: Double?
  /// Spending per month by goods key (`clothing`, `electronics`, `streaming`), euro.
  public var goodsEurosPerMonth: [String: Double] = [:]
  public var mobileDataGigabytesPerMonth = 0.0

  public init() {}
}

/// The annual footprint by category, kg CO2e.
public struct AnnualFootprint: Sendable, Hashable {
  public var homeKilograms: Double
  public var carKilograms: Double
  public var flightKilograms: Double
  public var dietKilograms: Double
  /// Which diet figure was used: the servings or the diet average, whichever
  /// is larger (thesis L643).
  public var dietBasis: String
  public var foodWasteKilograms: Double
  public var goodsKilograms: Double
  public var totalKilograms: Double {
    homeKilograms + carKilograms + flightKilograms + dietKilograms + foodWasteKilograms + goodsKilograms
  }
}

/// The carbon gamification thesis's annual footprint calculator (UCD 2022,
/// L573-647), over its factor table (Fig 7.5):
/// ```
/// home    = (kWh/month x 12 x supplier + 11000 kWh x heating fuel) / occupants
/// car     = petrol l/week x 52 x 2.35 + diesel l/week x 52 x 2.65
/// flights = sum of haversine km x (2 if return) x trips x 0.09
/// diet    = max(sum of servings/week x factor x 52, diet average)
///         + waste kg/week x 52 x 1.9
/// goods   = sum of annual spending x factor (+ GB of mobile data x 1.18)
/// ```
/// kg CO2e per person per year, compared with the Irish average of 12.6 t.
public struct CarbonFootprintCalculator: Sendable {
  public let table: FactorTable

  public init(table: FactorTable) { self.table = table }

  func factor(_ prefix: String, _ key: String) throws -> Double {
    guard table.entries.contains(where: { $0.key == prefix + key }) else {
      throw ValueError.unknown(String(prefix.dropLast()), key, among: table.keys(withPrefix: prefix))
    }
    return try table.value(prefix + key)
  }

  public func annual(_ input: AnnualFootprintInput) throws -> AnnualFootprint {
    guard input.occupants >= 1 else {
      throw ValueError(.outOfRange, "occupants", value: String(input.occupants), expected: "at least 1")
    }
    var kWhPerMonth = input.electricityKilowattHoursPerMonth ?? 0
    if input.electricityKilowattHoursPerMonth == nil, let bill = input.electricityBillEurosPerMonth {
      kWhPerMonth = bill / (try table.value("electricity-price"))
    }
    let electricity = kWhPerMonth * 12 * (try factor("supplier-", input.supplier))
    let heating =
      try input.heatingFuel.map { try table.value("household-heating-annual") * factor("heating-", $0) } ?? 0
    let home = (electricity + heating) / input.occupants
    let car =
      input.petrolLitresPerWeek * 52 * (try table.value("fuel-petrol")) + input.dieselLitresPerWeek * 52
      * (try table.value("fuel-diesel"))
    let flights = try input.flights.reduce(0) { $0 + $1.kilometersPerYear } * table.value("flight")
    var servings = 0.0
    for (food, count) in input.servingsPerWeek { servings += count * 52 * (try factor("food-", food)) }
    let average = try factor("diet-", input.diet)
    let wastePerWeek = try input.foodWasteKilogramsPerWeek ?? table.value("food-waste-weekly")
    let waste = wastePerWeek * 52 * (try table.value("food-waste"))
    var goods = input.mobileDataGigabytesPerMonth * 12 * (try table.value("goods-mobile-data"))
    for (item, euros) in input.goodsEurosPerMonth { goods += euros * 12 * (try factor("goods-", item)) }
    return AnnualFootprint(
      homeKilograms: home, carKilograms: car, flightKilograms: flights, dietKilograms: max(servings, average),
      dietBasis: servings > average ? "servings" : "diet average", foodWasteKilograms: waste,
      goodsKilograms: goods)
  }
}
