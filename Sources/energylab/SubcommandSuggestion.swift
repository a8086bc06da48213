import ArgumentParser
import EnergyLabCore

/// "Did you mean ...?" for a misspelt subcommand: `energylab enrgy` or
/// `energylab survey sumary` names the nearest command instead of
/// ArgumentParser's bare "unexpected argument".
enum SubcommandSuggestion {
  /// Throws a usage error when a word in a subcommand's place names none of
  /// the subcommands of the command before it.
  static func check(_ arguments: [String], root: ParsableCommand.Type = EnergyLab.self) throws {
    var command = root
    var path = [root._commandName]
    for word in arguments {
      let subcommands = command.configuration.subcommands
      guard !subcommands.isEmpty, command.configuration.defaultSubcommand == nil else { return }
      // Options (and what follows them) are ArgumentParser's to judge.
      guard !word.hasPrefix("-"), word != "help" else { return }
      let names = subcommands.flatMap { [$0._commandName] + $0.configuration.aliases }
      guard
        let next = subcommands.first(where: { ([$0._commandName] + $0.configuration.aliases).contains(word) })
      else {
        let listed = subcommands.map { $0._commandName }
        throw UsageError(
          .invalid,
          "unknown command \"\(path.joined(separator: " ")) \(word)\"\(NameSuggestion.hint(for: word, among: names)); expected one of \(listed.joined(separator: ", "))"
        )
      }
      command = next
      path.append(next._commandName)
    }
  }
}
