import EnergyLabCore
import Testing

/// Libraries name the setting that resolves a diagnostic or an error; the
/// program that offers it words it. These tests run without the command
/// line's naming, so the settings read in words.
struct RemedyTests {
  @Test func aDiagnosticEndsWithItsRemedy() {
    let d = Diagnostic(
      code: "local-time-as-utc", severity: .note, message: "times carry no offset; read as UTC",
      location: "a.csv",
      remedy: Remedy(.timeZone))
    #expect(
      d.description
        == "a.csv: note: times carry no offset; read as UTC (use the time zone) [local-time-as-utc]")
    #expect(!d.message.contains("time zone)"), "the message itself names no setting")
  }

  @Test func anInputErrorOffersTheSettingsAfterWhatWasExpected() {
    let e = InputError(
      .malformed, SourceLocation(file: "b.csv", line: 2), "no time column", expected: "a time column",
      remedy: Remedy(.sampleRate, .start))
    #expect(
      e.description
        == "b.csv:2: no time column; expected a time column, or the sample rate and the start time")
  }

  /// A message may name the remedy inside its sentence.
  @Test func theRemedyFillsItsSlot() {
    let d = Diagnostic(
      code: "no-start-time", message: "no start was given (\(Remedy.slot)); no dates are reported",
      remedy: Remedy(.start))
    #expect(d.text == "no start was given (the start time); no dates are reported")
    #expect(
      d.description == "warning: no start was given (the start time); no dates are reported [no-start-time]")
    let e = InputError(
      .value, SourceLocation(file: "c.csv", line: 2), "time 5", expected: "seconds (or \(Remedy.slot))",
      remedy: Remedy(.timeFormat))
    #expect(e.description == "c.csv:2: time 5; expected seconds (or the time format)")
  }

  @Test func aValueFollowsTheSetting() {
    #expect(Remedy(.timeFormat, value: "sensor-ns").text == "the time format sensor-ns")
    #expect(
      UsageError(.unsupported, "no scale", remedy: Remedy(.ordinalScale)).description
        == "no scale (use an ordinal scale)")
  }

  @Test func everySettingHasWords() {
    for setting in Remedy.Setting.allCases { #expect(!setting.prose.isEmpty) }
  }
}

/// A value that cannot be used keeps the value and what was expected, and
/// says it in one line.
struct ValueErrorTests {
  @Test func eachKindSaysWhatWasGivenAndExpected() {
    #expect(
      ValueError.unknown("model", "acsm-walkng", among: ["acsm-walking", "cameron-walking"]).description
        == "unknown model \"acsm-walkng\"; did you mean acsm-walking?; expected one of acsm-walking, cameron-walking"
    )
    #expect(
      ValueError(.unreadable, "a speed", value: "fast", expected: "a number with an optional unit")
        .description
        == "cannot read \"fast\" as a speed; expected a number with an optional unit")
    #expect(
      ValueError(.outOfRange, "occupants", value: "0", expected: "at least 1").description
        == "occupants must be at least 1; got 0")
    #expect(
      ValueError(.matches(0), "question", value: "Q9", expected: "a question id").description
        == "no question matches \"Q9\"; expected a question id")
    #expect(
      ValueError(.matches(2), "question", value: "app", expected: "more of the text").description
        == "\"app\" matches 2 questions; expected more of the text")
  }

  /// The parsers keep the evidence, not only the text.
  @Test func parsersKeepTheValue() throws {
    let error = #expect(throws: ValueError.self) { try QuantityParser.speedMetersPerSecond("5") }
    #expect(error?.kind == .unreadable && error?.value == "5" && error?.subject == "a speed")
  }
}
