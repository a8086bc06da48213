import EnergyLabCore
import EnergyModels
import Foundation
import Ingest
import Reporting
import Tracks

/// `footprint flights` and `footprint annual`: the flight emissions and the
/// annual calculator of the carbon gamification thesis, and the Alter Eco
/// flight check.
public enum FootprintCommands {
  public static var airportsPath: String { ShippedData.path("Datasets/airports/airports.csv") }
  public static var calculatorTablePath: String {
    ShippedData.path("Datasets/factors/carbon-gamification-2022.csv")
  }

  /// Parses `STN-CAG`, `STN-CAG:return` or `STN-CAG:return:2`.
  public static func trip(_ text: String, airports: [Airport]) throws -> FlightTrip {
    let parts = text.split(separator: ":").map(String.init)
    let ends = parts.first?.split(separator: "-").map { String($0).uppercased() } ?? []
    guard ends.count == 2, parts.count <= 3 else {
      throw UsageError("cannot read flight \"\(text)\"; expected FROM-TO[:return][:TRIPS], as STN-CAG:return")
    }
    func airport(_ code: String) throws -> Airport {
      guard let found = airports.first(where: { $0.code == code }) else {
        throw UsageError(
          "unknown airport \(code); \(airportsPath) lists \(airports.map(\.code).joined(separator: ", "))")
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
        throw UsageError(
          "cannot read \"\(extra)\" in flight \"\(text)\"; expected return or a number of trips")
      }
    }
    return FlightTrip(
      from: try airport(ends[0]), to: try airport(ends[1]), isReturn: isReturn, tripsPerYear: trips)
  }

  /// kg CO2 per km of a flight under a factor set: the `plane` mode of a
  /// transport set, or the `flight` row of the calculator table.
  static func flightFactor(_ name: String) throws -> (kilogramsPerKilometer: Double, label: String) {
    if name == "carbon-gamification-2022" {
      let table = try FactorReaders.factorTable(path: try ProfileCommand.factorSetPath(name))
      return (try table.value("flight"), "\(name) flight 0.09 kgCO2/pkm")
    }
    let set = try FactorReaders.emissionFactorSet(path: try ProfileCommand.factorSetPath(name))
    guard let plane = set.factors.first(where: { $0.mode == "plane" }) else {
      throw UsageError(
        "factor set \(name) has no plane factor; it lists \(set.modes.joined(separator: ", "))")
    }
    return (
      plane.kilogramsPerKilometer,
      "\(name) plane \(Fixed.shortest(plane.publishedValue)) \(plane.publishedUnit)"
    )
  }

  public static func flights(
    trips tripTexts: [String], factorSets: [String], published: [Double], publishedSource: String?,
    format: OutputFormat?, context: CommandContext
  ) throws {
    let airports = try FactorReaders.airports(path: airportsPath)
    _ = try context.recordInput(airportsPath)
    let trips = try tripTexts.map { try trip($0, airports: airports) }
    guard !trips.isEmpty else {
      throw UsageError("footprint flights needs at least one flight, as STN-CAG:return")
    }
    let sets = factorSets.isEmpty ? [ProfileCommand.defaultFactorSet] : factorSets
    let factors = try sets.map(flightFactor)
    for name in sets { _ = try context.recordInput(try ProfileCommand.factorSetPath(name)) }
    var rows: [ResultRecord] = []
    for t in trips {
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
      for (name, factor) in zip(sets, factors) {
        row["co2_kg_\(name)"] = .number(t.kilometersPerYear * factor.kilogramsPerKilometer, 1)
      }
      rows.append(row)
    }
    let flown = trips.reduce(0) { $0 + $1.kilometersPerYear }
    var total = ResultRecord(["from": .string("total"), "flown_km": .number(flown, 1)])
    for (name, factor) in zip(sets, factors) {
      total["co2_kg_\(name)"] = .number(flown * factor.kilogramsPerKilometer, 1)
    }
    rows.append(total)
    context.provenance.addParameters(
      zip(sets, factors).map {
        NamedParameter(
          name: "flight_factor_\($0)", value: Fixed.shortest($1.kilogramsPerKilometer), meaning: $1.label)
      }
        + [
          NamedParameter(
            name: "flight_distance", value: "haversine, R = 6371.0 km",
            meaning: "as the carbon gamification thesis, Fig 7.6")
        ])
    context.emit(ResultTable(name: "flights", rows: rows), format: format)
    guard !published.isEmpty else { return }
    var comparison: [ResultRecord] = []
    for value in published {
      for (name, factor) in zip(sets, factors) {
        let ours = flown * factor.kilogramsPerKilometer / 1000
        comparison.append(
          ResultRecord([
            "published_t": .number(value, 2), "factor_set": .string(name), "energylab_t": .number(ours, 3),
            "difference_t": .number(ours - value, 3),
            "relative_difference_pct": .number(100 * (ours - value) / value, 1),
            "source": .string(publishedSource ?? ""),
          ]))
      }
    }
    context.write("\n")
    context.emit(ResultTable(name: "flights-published", rows: comparison), format: format)
  }

  public static func annual(_ input: AnnualFootprintInput, format: OutputFormat?, context: CommandContext)
    throws
  {
    let table = try FactorReaders.factorTable(path: calculatorTablePath)
    _ = try context.recordInput(calculatorTablePath)
    let result = try CarbonFootprintCalculator(table: table).annual(input)
    let irish = try table.value("irish-average-annual") * 1000
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
    context.provenance.addParameters([
      NamedParameter(name: "factor_table", value: table.name, meaning: "carbon gamification thesis Fig 7.5"),
      NamedParameter(
        name: "diet_basis", value: result.dietBasis, meaning: "larger of servings and diet average (thesis)"),
      NamedParameter(
        name: "goods_period", value: "monthly x 12",
        meaning: "EnergyLab's reading; the thesis says annual totals"),
    ])
    if (format ?? context.defaultFormat) != .json {
      context.write(
        "Irish average \(Fixed.format(irish / 1000, digits: 1)) t CO2e per person per year; diet from the \(result.dietBasis)\n"
      )
    }
    context.emit(ResultTable(name: "annual-footprint", rows: rows), format: format)
  }
}
