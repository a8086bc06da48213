import EnergyLabCore
import Foundation

/// Readers of the CSV tables in `Datasets/factors/` and `Datasets/airports/`:
/// `#` provenance lines, then a header and rows, every error naming file,
/// line and column.
public enum FactorReaders {
  struct Parsed {
    var provenance: [String: String]
    var rows: [CSVRow]
  }

  static func parse(path: String, header expected: [String], required: [String]) throws -> Parsed {
    let data = try FileInput.read(path, expected: "a CSV table")
    guard let text = String(data: data, encoding: .utf8) else {
      throw InputError(.encoding, SourceLocation(file: path), "not UTF-8 text", expected: "a UTF-8 CSV file")
    }
    let split = ProvenanceHeader(splitting: text)
    let provenance = split.fields
    let count = split.lines
    // Every missing key at once, so one edit fixes the file.
    let missing = required.filter { provenance[$0] == nil }
    if !missing.isEmpty {
      throw InputError(
        .malformed,
        SourceLocation(file: path, line: max(1, count)),
        "provenance header lacks \(missing.map { "\"\($0)\"" }.joined(separator: ", "))",
        expected: missing.map { "a line \"# \($0): ...\"" }.joined(separator: ", "))
    }
    let rows = try CSVTokenizer.rows(split.body, source: path, firstLine: count + 1)
      .filter { !($0.fields.count == 1 && $0.fields[0].isEmpty) }
    guard let header = rows.first, header.fields == expected else {
      throw InputError(
        .malformed,
        SourceLocation(file: path, line: count + 1), "unexpected header",
        expected: expected.joined(separator: ","))
    }
    for row in rows.dropFirst() where row.fields.count != expected.count {
      throw InputError(
        .malformed,
        SourceLocation(file: path, line: row.line), "row has \(row.fields.count) fields",
        expected: "\(expected.count) fields")
    }
    return Parsed(provenance: provenance, rows: Array(rows.dropFirst()))
  }

  static func number(_ text: String, path: String, row: CSVRow, column: Int, what: String) throws -> Double {
    guard let value = Double(text.trimmingCharacters(in: .whitespaces)), value.isFinite else {
      throw InputError(
        .value,
        SourceLocation(file: path, line: row.line, column: column), "cannot read \"\(text)\" as a number",
        expected: what)
    }
    return value
  }

  /// kg per km for a published unit.
  static func kilogramsPerKilometer(_ value: Double, unit: String) -> Double? {
    switch unit {
    case "kgCO2/km", "kgCO2e/km", "kgCO2/pkm", "kgCO2e/pkm": return value
    case "kgCO2/mile", "kgCO2e/mile": return value / (Units.metersPerMile / 1000)
    default: return nil
    }
  }

  public static func emissionFactorSet(path: String) throws -> EmissionFactorSet {
    let parsed = try parse(
      path: path, header: ["mode", "factor", "unit", "note"],
      required: ["source", "version", "units", "transcribed", "licence"])
    var factors: [EmissionFactor] = []
    for row in parsed.rows {
      let value = try number(row.fields[1], path: path, row: row, column: 2, what: "a factor")
      guard value >= 0 else {
        throw InputError(
          .value,
          SourceLocation(file: path, line: row.line, column: 2), "negative factor", expected: "a factor >= 0")
      }
      guard let perKilometer = kilogramsPerKilometer(value, unit: row.fields[2]) else {
        throw InputError(
          .value,
          SourceLocation(file: path, line: row.line, column: 3), "unknown unit \"\(row.fields[2])\"",
          expected: "kgCO2/km, kgCO2e/km, kgCO2/pkm or kgCO2/mile")
      }
      guard !factors.contains(where: { $0.mode == row.fields[0] }) else {
        throw InputError(
          .value,
          SourceLocation(file: path, line: row.line, column: 1), "mode \(row.fields[0]) listed twice",
          expected: "one row per mode")
      }
      factors.append(
        EmissionFactor(
          mode: row.fields[0], kilogramsPerKilometer: perKilometer, publishedValue: value,
          publishedUnit: row.fields[2],
          note: row.fields[3]))
    }
    let name = URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent
    return EmissionFactorSet(
      name: name, source: parsed.provenance["source"] ?? "", version: parsed.provenance["version"] ?? "",
      factors: factors)
  }

  public static func factorTable(path: String) throws -> FactorTable {
    let parsed = try parse(
      path: path, header: ["key", "value", "unit", "description", "thesis_ref"],
      required: ["source", "licence"])
    let entries = try parsed.rows.map { row in
      FactorTable.Entry(
        key: row.fields[0],
        value: try number(row.fields[1], path: path, row: row, column: 2, what: "a value"),
        unit: row.fields[2], description: row.fields[3])
    }
    return FactorTable(
      name: URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent, entries: entries)
  }

  public static func airports(path: String) throws -> [Airport] {
    let parsed = try parse(
      path: path, header: ["iata", "name", "latitude_deg", "longitude_deg"], required: ["source", "licence"])
    return try parsed.rows.map { row in
      let lat = try number(row.fields[2], path: path, row: row, column: 3, what: "a latitude")
      let lon = try number(row.fields[3], path: path, row: row, column: 4, what: "a longitude")
      guard (-90...90).contains(lat), (-180...180).contains(lon) else {
        throw InputError(
          .value,
          SourceLocation(file: path, line: row.line), "coordinates out of range",
          expected: "latitude -90..90, longitude -180..180")
      }
      return Airport(code: row.fields[0], name: row.fields[1], latitudeDegrees: lat, longitudeDegrees: lon)
    }
  }

  /// Regions of interest (stations, airports) for the Alter Eco classifier:
  /// `name,kind,latitude_deg,longitude_deg,radius_m`.
  public static func regions(path: String) throws -> [RegionRow] {
    let parsed = try parse(
      path: path, header: ["name", "kind", "latitude_deg", "longitude_deg", "radius_m"],
      required: ["source", "licence"])
    return try parsed.rows.map { row in
      guard row.fields[1] == "station" || row.fields[1] == "airport" else {
        throw InputError(
          .value,
          SourceLocation(file: path, line: row.line, column: 2), "unknown kind \"\(row.fields[1])\"",
          expected: "station or airport")
      }
      return RegionRow(
        name: row.fields[0], kind: row.fields[1],
        latitudeDegrees: try number(row.fields[2], path: path, row: row, column: 3, what: "a latitude"),
        longitudeDegrees: try number(row.fields[3], path: path, row: row, column: 4, what: "a longitude"),
        radiusMeters: try number(row.fields[4], path: path, row: row, column: 5, what: "a radius in metres"))
    }
  }
}

/// A row of a regions file.
public struct RegionRow: Sendable, Hashable {
  public var name: String
  public var kind: String
  public var latitudeDegrees: Double
  public var longitudeDegrees: Double
  public var radiusMeters: Double
}
