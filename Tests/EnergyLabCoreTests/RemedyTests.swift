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
      SourceLocation(file: "b.csv", line: 2), "no time column", expected: "a time column",
      remedy: Remedy(.sampleRate, .start))
    #expect(
      e.description
        == "b.csv:2: no time column; expected a time column, or the sample rate and the start time")
  }

  @Test func aValueFollowsTheSetting() {
    #expect(Remedy(.timeFormat, value: "sensor-ns").text == "the time format sensor-ns")
    #expect(
      UsageError("no scale", remedy: Remedy(.ordinalScale)).description == "no scale (use an ordinal scale)")
  }

  @Test func everySettingHasWords() {
    for setting in Remedy.Setting.allCases { #expect(!setting.prose.isEmpty) }
  }
}
