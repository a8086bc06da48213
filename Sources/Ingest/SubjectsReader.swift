import EnergyLabCore
import Foundation

/// Reads a subjects CSV: a header naming the columns, one row per subject.
///
/// Columns (any order; only `id` is required): `id` (also
/// `participant_id`, `participant`, `subject_id`, `subject`),
/// `body_mass_kg` or `body_mass_lb`, `age_years`, `sex` (male/female,
/// m/f), `height_m` or `height_cm`, `vo2max_ml_kg_min`, `resting_hr_bpm`,
/// `max_hr_bpm`. Empty cells are unknown values; an id must be given once.
public enum SubjectsReader {
  static let known = [
    "id", "body_mass_kg", "body_mass_lb", "age_years", "sex", "height_m", "height_cm", "vo2max_ml_kg_min",
    "resting_hr_bpm", "max_hr_bpm",
  ]
  /// Other names of the id column.
  static let idAliases = ["participant_id", "participant", "subject_id", "subject"]

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
    guard let idColumn = names.firstIndex(of: "id") else {
      throw InputError(
        .malformed,
        SourceLocation(file: source, line: header.line), "no id column", expected: "a column named id")
    }
    var subjects: [Subject] = []
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
        switch name {
        case "body_mass_kg": subject.bodyMassKilograms = value
        case "body_mass_lb": subject.bodyMassKilograms = Units.kilograms(fromPounds: value)
        case "age_years": subject.ageYears = value
        case "height_m": subject.heightMeters = value
        case "height_cm": subject.heightMeters = value / 100
        case "vo2max_ml_kg_min": subject.vo2MaxMillilitersPerKilogramPerMinute = value
        case "resting_hr_bpm": subject.restingHeartRateBeatsPerMinute = value
        case "max_hr_bpm": subject.maximumHeartRateBeatsPerMinute = value
        default: break
        }
      }
      guard !subject.id.isEmpty else {
        throw InputError(
          .value, SourceLocation(file: source, line: row.line, column: idColumn + 1), "empty id",
          expected: "a participant id on every row")
      }
      if subjects.contains(where: { $0.id == subject.id }) {
        throw InputError(
          .value, SourceLocation(file: source, line: row.line, column: idColumn + 1),
          "participant \"\(subject.id)\" is listed twice", expected: "one row per participant")
      }
      subjects.append(subject)
    }
    return subjects
  }
}
