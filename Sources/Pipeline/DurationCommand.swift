import EnergyLabCore
import Evaluation
import Reporting

/// `duration`: travel times from text, and predicted against actual.
package enum DurationCommand {
  /// A duration read from text, with the actual one when given.
  package struct Reading: Sendable, Hashable {
    package var text: String
    package var minutes: Double
    package var actualMinutes: Double?
    package var differenceMinutes: Double? { actualMinutes.map { minutes - $0 } }
    package var relativeDifferencePercent: Double? {
      actualMinutes.flatMap { $0 > 0 ? 100 * (minutes - $0) / $0 : nil }
    }
  }

  /// Reads every text; `actual` is empty or one per text.
  package static func read(texts: [String], actual: [String]) throws -> [Reading] {
    guard actual.isEmpty || actual.count == texts.count else {
      throw UsageError(.conflict, "give one actual duration per duration (\(texts.count)), or none")
    }
    return try texts.enumerated().map { i, text in
      Reading(
        text: text, minutes: try DurationText.minutes(text),
        actualMinutes: actual.isEmpty ? nil : try DurationText.minutes(actual[i]))
    }
  }

  package static func table(_ readings: [Reading]) -> ResultTable {
    ResultTable(
      name: "durations",
      rows: readings.map { r in
        var row = ResultRecord(["text": .string(r.text), "minutes": .number(r.minutes, 1)])
        if let actual = r.actualMinutes {
          row["actual_minutes"] = .number(actual, 1)
          row["difference_min"] = .number(r.differenceMinutes, 1)
          row["relative_difference_pct"] = .number(r.relativeDifferencePercent, 1)
        }
        return row
      })
  }

  package static func run(texts: [String], actual: [String], format: OutputFormat?, driver: Driver)
    throws
  {
    var out = driver.rendering()
    out.emit(table(try read(texts: texts, actual: actual)), format: format)
    try driver.print(out)
  }
}
