import ArgumentParser
import EnergyLabCore
import EnergyModels
import Evaluation
import Foundation
import Ingest
import Pipeline
import Reporting
import Store
import Tracks

struct DatabaseCLI: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "db", abstract: "Inspect, check and export the results store.",
    discussion: "Without --db the store is $ENERGYLAB_DB, else energylab.sqlite in the current folder.",
    subcommands: [Info.self, Export.self, Check.self, Merge.self, Compare.self])

  struct Merge: DriverCommand {
    static let configuration = CommandConfiguration(
      abstract: "Combine shard databases into one, idempotently (runs of the same key are replaced).")
    @Argument(help: "The merged database (created when missing).") var output: String
    @Argument(help: "Shard databases.") var shards: [String]
    func execute(in driver: Driver) throws {
      try DatabaseCommands.merge(output: output, shards: shards, driver: driver)
    }
  }

  struct Compare: DriverCommand {
    static let configuration = CommandConfiguration(
      abstract: "Whether two databases hold the same results; exit 1 with the first difference if not.")
    @Argument(help: "A database.") var a: String
    @Argument(help: "Another database.") var b: String
    func execute(in driver: Driver) throws { try DatabaseCommands.compare(a, b, driver: driver) }
  }

  struct Check: DriverCommand {
    static let configuration = CommandConfiguration(
      abstract: "Run SQLite's integrity check; exit 1 unless it says ok.")
    @Option(help: "Database file.") var db: String = DatabaseCommands.defaultPath
    func execute(in driver: Driver) throws { try DatabaseCommands.check(path: db, driver: driver) }
  }

  struct Info: DriverCommand {
    static let configuration = CommandConfiguration(abstract: "Applied migrations and rows per table.")
    @Option(help: "Database file.") var db: String = DatabaseCommands.defaultPath
    @OptionGroup var output: FormatOption
    func execute(in driver: Driver) throws {
      try DatabaseCommands.info(path: db, format: output.format, driver: driver)
    }
  }

  struct Export: DriverCommand {
    static let configuration = CommandConfiguration(abstract: "Print a table of the store.")
    @Option(help: "Database file.") var db: String = DatabaseCommands.defaultPath
    @Option(
      help:
        "Table: \(ResultsStore.tables.dropLast().joined(separator: ", ")) or \(ResultsStore.tables.last ?? "")."
    )
    var table: String
    @OptionGroup var output: FormatOption
    func validate() throws {
      guard ResultsStore.tables.contains(table) else {
        throw ValidationError(
          "unknown table \"\(table)\"; expected one of \(ResultsStore.tables.joined(separator: ", "))")
      }
    }
    func execute(in driver: Driver) throws {
      try DatabaseCommands.export(path: db, table: table, format: output.format, driver: driver)
    }
  }
}
