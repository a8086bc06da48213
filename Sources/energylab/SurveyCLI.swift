import ArgumentParser
import EnergyLabCore
import EnergyModels
import Evaluation
import Foundation
import Ingest
import Pipeline
import Reporting
import Tracks

/// How a survey export is read, shared by the survey commands.
struct SurveyInputOptions: ParsableArguments {
  @Argument(
    help:
      "Survey export: Google Forms, Microsoft Forms, Qualtrics, SurveyMonkey, LimeSurvey CSV or an aggregate file."
  )
  var export: String
  @Option(
    help:
      "Scale of a question, as QUESTION=SCALE (agreement5, agreement5-somewhat, agreement7, agreement7-slightly, agreement7-moderately, likelihood5, ease5, quality5, definitely5, yesno, yesmaybeno, points5, points7, severity or one of --scales); repeatable. Without it, a question's scale is inferred from the labels its answers use."
  )
  var scale: [String] = []
  @Option(
    help:
      "CSV of custom scales: scale,label,value,role (role empty, neutral or na); tried before the built-in ones when inferring a question's scale."
  ) var scales: String?
  @Option(help: "A multi-select question whose options share one cell (Google Forms, Qualtrics); repeatable.")
  var multi: [String] = []
  @Option(help: "A reverse-scored question (its scale is coded from the other end); repeatable.")
  var reverse: [String] = []
  @Option(
    help:
      "Export dialect: plain (one row per respondent), qualtrics, google-forms, microsoft-forms, surveymonkey, limesurvey or aggregate (default: detected, plain as the fallback).",
    transform: ArgumentValue.surveyDialect)
  var dialect: SurveyDialect?
  @Option(help: "Cells read as no answer in a plain CSV, comma-separated (default NA,N/A,-99; empty always).")
  var missing: String?
  @Option(help: "The respondent id column of a plain CSV (default: a column named id, respondent_id, ...).")
  var idColumn: String?

  var input: SurveyCommands.Input {
    var input = SurveyCommands.Input(path: export)
    input.dialect = dialect
    if let missing { input.missingCodes = missing.split(separator: ",").map(String.init) }
    input.idColumn = idColumn
    input.scales = scale
    input.scaleFile = scales
    input.multiSelect = multi
    input.reverse = reverse
    return input
  }
}

struct SurveyCLI: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "survey",
    abstract: "Survey exports and published aggregates: summaries, SUS, crosstabs, group tests.",
    subcommands: [Summary.self, Sus.self, Asq.self, Crosstab.self, Compare.self])

  struct Asq: DriverCommand {
    static let configuration = CommandConfiguration(
      commandName: "asq",
      abstract: "After-Scenario Questionnaire per task: mean of three 1-7 items, with 95 % interval.")
    @OptionGroup var survey: SurveyInputOptions
    @Option(
      help: "A task as NAME=ITEM1,ITEM2,ITEM3 (ease, time, support); repeatable.",
      transform: ArgumentValue.task)
    var task: [(name: String, items: [String])] = []
    @OptionGroup var store: StoreOptions
    @OptionGroup var output: FormatOption
    func validate() throws {
      guard !task.isEmpty else { throw ValidationError("survey asq needs at least one --task") }
    }
    func execute(in driver: Driver) throws {
      try SurveyCommands.asq(
        survey.input, tasks: task, databasePath: store.path, format: output.format, driver: driver)
    }
  }

  struct Summary: DriverCommand {
    static let configuration = CommandConfiguration(
      abstract:
        "Per question: n, counts, percentages, median and IQR, top-two-box with Wilson interval; partial data kept partial."
    )
    @OptionGroup var survey: SurveyInputOptions
    @Option(help: "Keyword codebook for open-ended answers: CSV theme,keywords (keywords separated by |).")
    var codebook: String?
    @Option(help: "Write charts (PNG, SVG, .gp, .dat) into this folder.") var charts: String?
    @OptionGroup var store: StoreOptions
    var db: String? { store.path }
    @OptionGroup var output: FormatOption
    func execute(in driver: Driver) throws {
      try SurveyCommands.summary(
        survey.input, codebookPath: codebook, chartsDirectory: charts, databasePath: db,
        format: output.format, driver: driver)
    }
  }

  struct Sus: DriverCommand {
    static let configuration = CommandConfiguration(
      commandName: "sus",
      abstract: "System Usability Scale per respondent and overall, with 95 % interval and adjective.")
    @OptionGroup var survey: SurveyInputOptions
    @Option(help: "The ten SUS items in order, comma-separated (default: the ten questions answered 1-5).")
    var items: String?
    @Option(help: "Write the score distribution chart into this folder.") var charts: String?
    @OptionGroup var store: StoreOptions
    @OptionGroup var output: FormatOption
    func execute(in driver: Driver) throws {
      try SurveyCommands.sus(
        survey.input, items: items?.split(separator: ",").map(String.init) ?? [], chartsDirectory: charts,
        databasePath: store.path, format: output.format, driver: driver)
    }
  }

  struct Crosstab: DriverCommand {
    static let configuration = CommandConfiguration(
      abstract: "Contingency table, chi-square test of independence and Cramer's V.")
    @OptionGroup var survey: SurveyInputOptions
    @Option(help: "Question for rows (id, text or part of it).") var rows: String
    @Option(help: "Question for columns.") var cols: String
    @OptionGroup var store: StoreOptions
    @OptionGroup var output: FormatOption
    func execute(in driver: Driver) throws {
      try SurveyCommands.crosstab(
        survey.input, rows: rows, columns: cols, databasePath: store.path, format: output.format,
        driver: driver)
    }
  }

  struct Compare: DriverCommand {
    static let configuration = CommandConfiguration(
      abstract:
        "An ordinal question across groups: Mann-Whitney U (2 groups) or Kruskal-Wallis H, with effect sizes."
    )
    @OptionGroup var survey: SurveyInputOptions
    @Option(help: "Ordinal question to compare.") var question: String
    @Option(help: "Question whose answers form the groups.") var by: String
    @OptionGroup var store: StoreOptions
    @OptionGroup var output: FormatOption
    func execute(in driver: Driver) throws {
      try SurveyCommands.compare(
        survey.input, question: question, by: by, databasePath: store.path, format: output.format,
        driver: driver)
    }
  }
}
