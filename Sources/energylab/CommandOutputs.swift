import ArgumentParser
import Foundation

/// The files and folders a parsed command writes: its options and
/// arguments named `output`, `charts` or `db`, and the database of its
/// `StoreOptions` (`--db`, or the default one of `--store`). A notebook
/// checks each against its `WritePolicy` before the command runs.
enum CommandOutputs {
  static let labels: Set<String> = ["_output", "_charts", "_db"]

  static func paths(of command: ParsableCommand) -> [String] {
    var paths: [String] = []
    for child in Mirror(reflecting: command).children {
      if let group = child.value as? OptionGroup<StoreOptions> {
        if let path = group.wrappedValue.path { paths.append(path) }
        continue
      }
      guard let label = child.label, labels.contains(label) else { continue }
      switch child.value {
      case let option as Option<String>: paths.append(option.wrappedValue)
      case let option as Option<String?>: if let path = option.wrappedValue { paths.append(path) }
      case let argument as Argument<String>: paths.append(argument.wrappedValue)
      default: break
      }
    }
    return paths
  }

  /// The words of a command line that name an existing file or folder
  /// (an argument, or the value of `--option=value`): what a notebook
  /// checks against its read policy before the command runs. An option's
  /// value given as the next word is itself a word; words that name
  /// nothing on disk (model names, numbers) are passed over.
  static func existingPaths(in arguments: [String]) -> [String] {
    arguments.compactMap { word in
      var value = word
      if word.hasPrefix("-") {
        guard word.hasPrefix("--"), let equals = word.firstIndex(of: "=") else { return nil }
        value = String(word[word.index(after: equals)...])
      }
      return !value.isEmpty && FileManager.default.fileExists(atPath: value) ? value : nil
    }
  }
}
