import EnergyLabCore
import Evaluation
import Reporting

/// `duration`: travel times from text, and predicted against actual.
public enum DurationCommand {
  public static func run(texts: [String], actual: [String], format: OutputFormat?, context: CommandContext)
    throws
  {
    guard actual.isEmpty || actual.count == texts.count else {
      throw UsageError("give one --actual per duration (\(texts.count)), or none")
    }
    var rows: [ResultRecord] = []
    var accumulator = ErrorAccumulator()
    for (i, text) in texts.enumerated() {
      let minutes = try DurationText.minutes(text)
      var row = ResultRecord(["text": .string(text), "minutes": .number(minutes, 1)])
      if !actual.isEmpty {
        let real = try DurationText.minutes(actual[i])
        row["actual_minutes"] = .number(real, 1)
        row["difference_min"] = .number(minutes - real, 1)
        row["relative_difference_pct"] = .number(real > 0 ? 100 * (minutes - real) / real : nil, 1)
        accumulator.add(predicted: minutes, reference: real)
      }
      rows.append(row)
    }
    context.emit(ResultTable(name: "durations", rows: rows), format: format)
  }
}
