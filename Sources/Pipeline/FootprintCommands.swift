import EnergyLabCore
import EnergyModels
import Foundation
import Ingest
import Reporting
import Tracks

/// `footprint flights` and `footprint annual`: the flight emissions and the
/// annual calculator of the carbon gamification thesis, and the Alter Eco
/// flight check.
package enum FootprintCommands {
  package static var airportsPath: String { ShippedData.path("Datasets/airports/airports.csv") }
  package static var calculatorTablePath: String {
    ShippedData.path("Datasets/factors/carbon-gamification-2022.csv")
  }

  /// Parses `STN-CAG`, `STN-CAG:return` or `STN-CAG:return:2`.
  package static func trip(_ text: String, airports: [Airport]) throws -> FlightTrip {
    let parts = text.split(separator: ":").map(String.init)
    let ends = parts.first?.split(separator: "-").map { String($0).uppercased() } ?? []
    guard ends.count == 2, parts.count <= 3 else {
      throw ValueError(
        .unreadable, "a flight", value: text, expected: "FROM-TO[:return][:TRIPS], as STN-CAG:return")
    }
    func airport(_ code: String) throws -> Airport {
      guard let found = airports.first(where: { $0.code == code }) else {
        throw ValueError.unknown("airport", code, among: airports.map(\.code), in: airportsPath)
      }
      return found
    }
    var isReturn = false
    var trips = 1.0
    for extra in parts.dropFirst() {
      if extra == "return" {
        isReturn = true
      } else if let n = Double(extra), n > 0 {
        trips = n
      } else {
        throw ValueError(
          .unreadable, "the return or trips of flight \(text)", value: extra,
          expected: "return or a number of trips")
      }
    }
    return FlightTrip(
      from: try airport(ends[0]), to: try airport(ends[1]), isReturn: isReturn, tripsPerYear: trips)
  }

  /// kg CO2 per km of a flight under a factor set: the `plane` mode of a
  /// transport set, or the `flight` row of the calculator table.
  static func flightFactor(_ name: String) throws -> (kilogramsPerKilometer: Double, label: String) {
    if name == "carbon-gamification-2022" {
      let table = try FactorReaders.factorTable(path: try ShippedData.factorSetPath(name))
      return (try table.value("flight"), "\(name) flight 0.09 kgCO2/pkm")
    }
    let set = try FactorReaders.emissionFactorSet(path: try ShippedData.factorSetPath(name))
    guard let plane = set.factors.first(where: { $0.mode == "plane" }) else {
      throw ValueError(
        .unknown(known: set.modes), "mode", value: "plane",
        expected: "a mode of factor set \(name): \(set.modes.joined(separator: ", "))",
        remedy: Remedy(.factorSet))
    }
    return (
      plane.kilogramsPerKilometer,
      "\(name) plane \(Fixed.shortest(plane.publishedValue)) \(plane.publishedUnit)"
    )
  }

  /// Flights and their CO2 under each factor set, with the published
  /// totals they are set beside.
  package struct Flights: Sendable {
    package struct Factor: Sendable, Hashable {
      package var set: String
      package var kilogramsPerKilometer: Double
      package var label: String
    }
    package var trips: [FlightTrip]
    package var factors: [Factor]
    /// Published totals, t CO2.
    package var published: [Double]
    package var inputs: [String]
    package var parameters: [NamedParameter] {
      factors.map {
        NamedParameter(
          name: "flight_factor_\($0.set)", value: Fixed.shortest($0.kilogramsPerKilometer), meaning: $0.label)
      }
        + [
          NamedParameter(
            name: "flight_distance", value: "haversine, R = 6371.0 km",
            meaning: "as the carbon gamification thesis, Fig 7.6")
        ]
    }
    /// Kilometres flown in a year, all trips.
    package var flownKilometers: Double { trips.reduce(0) { $0 + $1.kilometersPerYear } }
    /// kg CO2 of a year's flying under factor `k`.
    package func totalKilograms(_ k: Int) -> Double { flownKilometers * factors[k].kilogramsPerKilometer }
  }

  /// Reads the trips (`STN-CAG:return`) and the flight factor of each set
  /// (default alter-eco-2020).
  package static func flights(trips tripTexts: [String], factorSets: [String], published: [Double] = [])
    throws
    -> Flights
  {
    let airports = try FactorReaders.airports(path: airportsPath)
    let trips = try tripTexts.map { try trip($0, airports: airports) }
    guard !trips.isEmpty else {
      throw UsageError(.missing, "footprint flights needs at least one flight, as STN-CAG:return")
    }
    let sets = factorSets.isEmpty ? [ShippedData.defaultFactorSet] : factorSets
    let factors = try sets.map { name in
      let f = try flightFactor(name)
      return Flights.Factor(set: name, kilogramsPerKilometer: f.kilogramsPerKilometer, label: f.label)
    }
    return Flights(
      trips: trips, factors: factors, published: published,
      inputs: [airportsPath] + (try sets.map { try ShippedData.factorSetPath($0) }))
  }

  /// The `flights` table (one row per trip and a total), then the
  /// published comparison.
  package static func render(
    _ flights: Flights, publishedSource: String?, format: OutputFormat?, into out: inout Rendering
  ) {
    var rows: [ResultRecord] = []
    for t in flights.trips {
      let geodesic =
        Geodesy.distanceMeters(
          fromLatitude: t.from.latitudeDegrees, longitude: t.from.longitudeDegrees,
          toLatitude: t.to.latitudeDegrees,
          longitude: t.to.longitudeDegrees) / 1000
      var row = ResultRecord([
        "from": .string(t.from.code), "to": .string(t.to.code), "return": .bool(t.isReturn),
        "trips": .number(t.tripsPerYear, 0), "haversine_km": .number(t.greatCircleKilometers, 1),
        "geodesic_km": .number(geodesic, 1), "flown_km": .number(t.kilometersPerYear, 1),
      ])
      for factor in flights.factors {
        row["co2_kg_\(factor.set)"] = .number(t.kilometersPerYear * factor.kilogramsPerKilometer, 1)
      }
      rows.append(row)
    }
    var total = ResultRecord(["from": .string("total"), "flown_km": .number(flights.flownKilometers, 1)])
    for (k, factor) in flights.factors.enumerated() {
      total["co2_kg_\(factor.set)"] = .number(flights.totalKilograms(k), 1)
    }
    rows.append(total)
    out.emit(ResultTable(name: "flights", rows: rows), format: format)
    guard !flights.published.isEmpty else { return }
    var comparison: [ResultRecord] = []
    for value in flights.published {
      for (k, factor) in flights.factors.enumerated() {
        let ours = flights.totalKilograms(k) / 1000
        comparison.append(
          ResultRecord([
            "published_t": .number(value, 2), "factor_set": .string(factor.set),
            "energylab_t": .number(ours, 3),
            "difference_t": .number(ours - value, 3),
            "relative_difference_pct": .number(100 * (ours - value) / value, 1),
            "source": .string(publishedSource ?? ""),
          ]))
      }
    }
    out.write("\n")
    out.emit(ResultTable(name: "flights-published", rows: comparison), format: format)
  }

  /// What `footprint flights` computed, with the source of published values.
  struct FlightsOutcome: CommandOutcome {
    var inputs: [String]
    var parameters: [NamedParameter]
    var diagnostics: [Diagnostic] { [] }
    var result: Flights
    var publishedSource: String?
    var format: OutputFormat?

    func render(_ request: RenderRequest) throws -> Rendering {
      var out = Rendering(request)
      FootprintCommands.render(result, publishedSource: publishedSource, format: format, into: &out)
      return out
    }
  }

  /// `footprint flights`: compute, record inputs and factors, print.
  package static func flights(
    trips tripTexts: [String], factorSets: [String], published: [Double], publishedSource: String?,
    format: OutputFormat?, driver: Driver
  ) throws {
    let result = try flights(trips: tripTexts, factorSets: factorSets, published: published)
    try driver.finish(
      FlightsOutcome(
        inputs: result.inputs, parameters: result.parameters, result: result,
        publishedSource: publishedSource, format: format), database: nil)
  }

  /// The annual calculator's result with the Irish average it is set
  /// beside, kg CO2e per person per year.
  package struct Annual: Sendable {
    package var footprint: AnnualFootprint
    package var irishAverageKilograms: Double
    package var tableName: String
    package var inputs: [String]
    package var parameters: [NamedParameter] {
      [
        NamedParameter(name: "factor_table", value: tableName, meaning: "carbon gamification thesis Fig 7.5"),
        NamedParameter(
          name: "diet_basis", value: footprint.dietBasis,
          meaning: "larger of servings and diet average (thesis)"),
        NamedParameter(
          name: "goods_period", value: "monthly x 12",
          meaning: "EnergyLab's reading; the thesis says annual totals"),
      ]
    }
  }

  package static func annual(_ input: AnnualFootprintInput) throws -> Annual {
    let table = try FactorReaders.factorTable(path: calculatorTablePath)
    return Annual(
      footprint: try CarbonFootprintCalculator(table: table).annual(input),
      irishAverageKilograms: try table.value("irish-average-annual") * 1000, tableName: table.name,
      inputs: [calculatorTablePath])
  }

  package static func render(_ annual: Annual, format: OutputFormat?, into out: inout Rendering) {
    let result = annual.footprint
    let irish = annual.irishAverageKilograms
    let rows: [ResultRecord] = [
      ("home", result.homeKilograms), ("car", result.carKilograms), ("flights", result.flightKilograms),
      ("diet", result.dietKilograms), ("food waste", result.foodWasteKilograms),
      ("goods", result.goodsKilograms),
      ("total", result.totalKilograms),
    ].map { name, value in
      ResultRecord([
        "category": .string(name), "co2_kg_per_year": .number(value, 1),
        "share_of_irish_average_pct": .number(100 * value / irish, 1),
      ])
    }
    if (format ?? out.defaultFormat) != .json {
      out.write(
        "Irish average \(Fixed.format(irish / 1000, digits: 1)) t CO2e per person per year; diet from the \(result.dietBasis)\n"
      )
    }
    out.emit(ResultTable(name: "annual-footprint", rows: rows), format: format)
  }

  /// What `footprint annual` computed.
  struct AnnualOutcome: CommandOutcome {
    var inputs: [String]
    var parameters: [NamedParameter]
    var diagnostics: [Diagnostic] { [] }
    var result: Annual
    var format: OutputFormat?

    func render(_ request: RenderRequest) throws -> Rendering {
      var out = Rendering(request)
      FootprintCommands.render(result, format: format, into: &out)
      return out
    }
  }

  /// `footprint annual`: compute, then record the table, the files the
  /// options were read from (the airports of `--flight`) and the rules,
  /// and print.
  package static func annual(
    _ input: AnnualFootprintInput, sources: OptionSources = OptionSources(), format: OutputFormat?,
    driver: Driver
  ) throws {
    let result = try annual(input)
    try driver.finish(
      AnnualOutcome(
        inputs: result.inputs + sources.files, parameters: result.parameters + sources.parameters,
        result: result, format: format),
      database: nil)
  }
}
