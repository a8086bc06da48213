import ArgumentParser
import EnergyLabCore
import EnergyModels
import Evaluation
import Foundation
import Ingest
import Pipeline
import Reporting
import Tracks

struct FootprintCLI: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "footprint",
    abstract: "Flight emissions and the carbon gamification thesis's annual calculator.",
    subcommands: [Flights.self, Annual.self])

  struct Flights: DriverCommand {
    static let configuration = CommandConfiguration(
      abstract: "CO2 of flights by great-circle distance between airports (Datasets/airports/airports.csv).",
      discussion:
        "Example: energylab footprint flights STN-CAG:return STN-TFS:return --factors alter-eco-2020 --factors carbon-gamification-2022"
    )
    @Argument(help: "Flights as FROM-TO[:return][:TRIPS].") var flights: [String]
    @Option(help: "Factor set with a plane or flight factor (repeatable; default alter-eco-2020).")
    var factors: [String] = []
    @Option(help: "A published total in tonnes to compare with (repeatable).") var published: [Double] = []
    @Option(help: "Where the published totals come from.") var publishedSource: String?
    @OptionGroup var output: FormatOption
    func execute(in driver: Driver) throws {
      try FootprintCommands.flights(
        trips: flights, factorSets: factors, published: published, publishedSource: publishedSource,
        format: output.format, driver: driver)
    }
  }

  struct Annual: DriverCommand {
    static let configuration = CommandConfiguration(
      abstract: "Annual footprint: home, car, flights, diet and goods (carbon gamification thesis, Fig 7.5).")
    @Option(help: "Electricity used per month, kWh.") var electricityKwh: Double?
    @Option(help: "Electricity bill per month, euro (used when no kWh is given).") var electricityBill:
      Double?
    @Option(help: "Electricity supplier, as electric-ireland (default all-island-mix).") var supplier =
      "all-island-mix"
    @Option(help: "Heating fuel: natural-gas, kerosene, lpg, peat, coal-1 or coal-2.") var heating: String?
    @Option(help: "People in the household.") var occupants: Double = 1
    @Option(help: "Petrol burned per week, litres.") var petrol: Double = 0
    @Option(help: "Diesel burned per week, litres.") var diesel: Double = 0
    @Option(help: "A flight as FROM-TO[:return][:TRIPS] (repeatable).") var flight: [String] = []
    @Option(help: "Diet: vegan, vegetarian, pescatarian, low-meat, medium-meat or high-meat.") var diet =
      "medium-meat"
    @Option(
      help:
        "Servings per week as FOOD=N (beef, pork, poultry, rice, fish, coffee, cheese, milk; repeatable).",
      transform: ArgumentValue.namedNumber)
    var servings: [(name: String, value: Double)] = []
    @Option(help: "Food wasted per week, kg (default the UK average 3.486).") var foodWaste: Double?
    @Option(
      help: "Spending per month as ITEM=EUR (clothing, electronics, streaming; repeatable).",
      transform: ArgumentValue.namedNumber)
    var spend: [(name: String, value: Double)] = []
    @Option(help: "Mobile data per month, GB.") var mobileData: Double = 0
    @OptionGroup var output: FormatOption

    /// Repeated names add up.
    func totals(_ items: [(name: String, value: Double)]) -> [String: Double] {
      items.reduce(into: [:]) { $0[$1.name, default: 0] += $1.value }
    }

    func execute(in driver: Driver) throws {
      var input = AnnualFootprintInput()
      input.electricityKilowattHoursPerMonth = electricityKwh
      input.electricityBillEurosPerMonth = electricityBill
      input.supplier = supplier
      input.heatingFuel = heating
      input.occupants = occupants
      input.petrolLitresPerWeek = petrol
      input.dieselLitresPerWeek = diesel
      if !flight.isEmpty {
        let airports = try FactorReaders.airports(path: FootprintCommands.airportsPath)
        input.flights = try flight.map { try FootprintCommands.trip($0, airports: airports) }
      }
      input.diet = diet
      input.servingsPerWeek = totals(servings)
      input.foodWasteKilogramsPerWeek = foodWaste
      input.goodsEurosPerMonth = totals(spend)
      input.mobileDataGigabytesPerMonth = mobileData
      try FootprintCommands.annual(
        input,
        sources: OptionSources(files: flight.isEmpty ? [] : [FootprintCommands.airportsPath]),
        format: output.format, driver: driver)
    }
  }
}
