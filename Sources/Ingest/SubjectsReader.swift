import EnergyLabCore
import Foundation

/// Reads a subjects CSV: a header naming the columns, one row per subject.
///
/// Columns (any order; only `id` is required): `id` (also
/// `participant_id`, `participant`, `subject_id`, `subject`),
/// `body_mass_kg` or `body_mass_lb`, `age_years`, `sex` (male/female,
/// m/f), `height_m` or `height_cm`, `vo2max_ml_kg_min`, `resting_hr_bpm`,
/// `max_hr_bpm`. Empty cells are unknown values; an id must be given once;
/// each value has one column (not `body_mass_kg` and `body_mass_lb`) and
/// lies within `HumanLimits`.
public enum SubjectsReader {
  static let known = [
    "id", "body_mass_kg", "body_mass_lb", "age_years", "sex", "height_m", "height_cm", "vo2max_ml_kg_min",
    "resting_hr_bpm", "max_hr_bpm",
  ]
  /// Other names of the id column.
  static let idAliases = ["participant_id", "participant", "subject_id", "subject"]
  /// The value each column gives, where two columns give one value in
  /// different units.
  static let valueNames = [
    "body_mass_kg": "body mass", "body_mass_lb": "body mass", "height_m": "height", "height_cm": "height",
  ]
  /// The quantity of each numeric column, in the unit `HumanLimits` states.
  static let quantities: [String: (HumanLimits.Quantity, @Sendable (Double) -> Double)] = [
    "body_mass_kg": (.bodyMass, { $0 }), "body_mass_lb": (.bodyMass, Units.kilograms(fromPounds:)),
    "age_years": (.age, { $0 }), "height_m": (.height, { $0 }), "height_cm": (.height, { $0 / 100 }),
    "vo2max_ml_kg_min": (.vo2Max, { $0 }), "resting_hr_bpm": (.restingHeartRate, { $0 }),
    "max_hr_bpm": (.maximumHeartRate, { $0 }),
  ]

  public static func read(path: String) throws -> [Subject] {
    let data = try FileInput.read(path, expected: "a subjects CSV")
    guard let text = String(data: data, encoding: .utf8) else {
      throw InputError(.encoding, SourceLocation(file: path), "not UTF-8 text", expected: "a UTF-8 CSV file")
    }
    return try parse(text, source: path)
  }

  public static func parse(_ text: String, source: String) throws -> [Subject] {
    let rows = try CSVTokenizer.rows(text, source: source).filter {
      !($0.fields.count == 1 && $0.fields[0].isEmpty)
    }
    guard let header = rows.first else {
      throw InputError(
        .empty,
        SourceLocation(file: source, line: 1), "empty file", expected: "a header with an id column")
    }
    let names = header.fields.map { field -> String in
      let name = field.trimmingCharacters(in: .whitespaces).lowercased()
      return idAliases.contains(name) ? "id" : name
    }
    for (i, name) in names.enumerated() where !known.contains(name) {
      throw InputError(
        .malformed,
        SourceLocation(file: source, line: header.line, column: i + 1), "unknown column \"\(name)\"",
        expected: known.joined(separator: ", "))
    }
    // One column per value: `body_mass_kg` and `body_mass_lb` (or a
    // repeated name) would let the later column win silently.
    var columnOfValue: [String: Int] = [:]
    for (i, name) in names.enumerated() {
      let value = valueNames[name] ?? name
      if let earlier = columnOfValue[value] {
        throw InputError(
          .malformed,
          SourceLocation(file: source, line: header.line, column: i + 1),
          "column \(i + 1) \"\(name)\" gives the \(value) that column \(earlier + 1) \"\(names[earlier])\" gives",
          expected: "one column per value")
      }
      columnOfValue[value] = i
    }
    guard let idColumn = names.firstIndex(of: "id") else {
      throw InputError(
        .malformed,
        SourceLocation(file: source, line: header.line), "no id column", expected: "a column named id")
    }
    var subjects: [Subject] = []
    var ids = Set<String>()
    for row in rows.dropFirst() {
      guard row.fields.count == names.count else {
        throw InputError(
          .malformed,
          SourceLocation(file: source, line: row.line), "row has \(row.fields.count) fields",
          expected: "\(names.count) fields like the header")
      }
      var subject = Subject(id: row.fields[idColumn].trimmingCharacters(in: .whitespaces))
      for (i, name) in names.enumerated() where name != "id" {
        let cell = row.fields[i].trimmingCharacters(in: .whitespaces)
        if cell.isEmpty { continue }
        let location = SourceLocation(file: source, line: row.line, column: i + 1)
        if name == "sex" {
          switch cell.lowercased() {
          case "male", "m": subject.sex = .male
          case "female", "f": subject.sex = .female
          default:
            throw InputError(
              .value, location, "cannot read sex \"\(cell)\"", expected: "male, female, m or f")
          }
          continue
        }
        guard let value = Double(cell), value.isFinite, value > 0 else {
          let hint = cell.contains(",") ? " (a ',' decimal separator is not accepted)" : ""
          throw InputError(
            .value,
            location, "cannot read \(name) \"\(cell)\" as a positive number\(hint)",
            expected: "a number with '.' decimals")
        }
        guard let (quantity, convert) = quantities[name] else { continue }
        let converted = convert(value)
        guard HumanLimits.accepts(converted, quantity) else {
          throw InputError(
            .value, location,
            "\(name) \(HumanLimits.text(value)) is outside the human limits of \(quantity.rawValue)",
            expected: quantity.limitsText)
        }
        switch quantity {
        case .bodyMass: subject.bodyMassKilograms = converted
        case .age: subject.ageYears = converted
        case .height: subject.heightMeters = converted
        case .vo2Max: subject.vo2MaxMillilitersPerKilogramPerMinute = converted
        case .restingHeartRate: subject.restingHeartRateBeatsPerMinute = converted
        case .maximumHeartRate: subject.maximumHeartRateBeatsPerMinute = converted
        case .heartRate, .speed, .oxygenUptake, .energyRate, .stepRate: break
        }
      }
      guard !subject.id.isEmpty else {
        throw InputError(
          .value, SourceLocation(file: source, line: row.line, column: idColumn + 1), "empty id",
          expected: "a participant id on every row")
      }
      guard ids.insert(subject.id).inserted else {
        throw InputError(
          .value, SourceLocation(file: source, line: row.line, column: idColumn + 1),
          "participant \"\(subject.id)\" is listed twice", expected: "one row per participant")
      }
      subjects.append(subject)
    }
    return subjects
  }
}
