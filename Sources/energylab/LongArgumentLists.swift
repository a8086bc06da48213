import ArgumentParser

/// A command whose positional arguments are a list of input files or folders.
protocol FileListCommand: ParsableCommand {
  var files: [String] { get set }
}

extension TrackCLI.Summary: FileListCommand {}
extension AccelCLI.Summary: FileListCommand {}
extension EnergyCLI: FileListCommand {}
extension AgreementCLI: FileListCommand {}
extension ProfileCLI: FileListCommand {}
extension BatchCLI: FileListCommand {
  var files: [String] {
    get { folders }
    set { folders = newValue }
  }
}

/// Parses the command line, fast also for a shell glob of many thousand
/// files. ArgumentParser merges the record of every earlier value into each
/// new one, so a list of n positional values costs time in n squared (10,000
/// files took 2.7 s before the first was read). Each long run of arguments
/// that do not start with "-" is therefore parsed with its tail folded into
/// one placeholder, which must come back as a single element of the
/// command's file list, where the tail is spliced in again. The first two
/// arguments of a run stay in place, so a run that begins with an option's
/// value still hands the placeholder to a positional argument. When any
/// placeholder is not found in a file list, or the folded line does not
/// parse, the whole line is parsed as given, so errors and meaning are those
/// of the plain parse.
enum LongArgumentLists {
  /// Runs of more than this many plain arguments are folded.
  static let threshold = 64

  static func parse(_ arguments: [String]) throws -> ParsableCommand {
    var folded: [String] = []
    var tails: [String: ArraySlice<String>] = [:]
    var i = 0
    while i < arguments.count {
      var j = i
      while j < arguments.count && !arguments[j].hasPrefix("-") { j += 1 }
      if j == i {
        // "--" ends option parsing: leave everything after it as written.
        if arguments[i] == "--" {
          folded += arguments[i...]
          break
        }
        folded.append(arguments[i])
        i += 1
        continue
      }
      if j - i > threshold {
        let placeholder = "\u{1}energylab-argument-run-\(tails.count)"
        folded += arguments[i..<(i + 2)]
        folded.append(placeholder)
        tails[placeholder] = arguments[(i + 2)..<j]
      } else {
        folded += arguments[i..<j]
      }
      i = j
    }
    guard !tails.isEmpty else { return try EnergyLab.parseAsRoot(arguments) }
    if var command = (try? EnergyLab.parseAsRoot(folded)) as? FileListCommand {
      var files: [String] = []
      var spliced = 0
      for argument in command.files {
        if let tail = tails[argument] {
          files += tail
          spliced += 1
        } else {
          files.append(argument)
        }
      }
      if spliced == tails.count {
        command.files = files
        return command
      }
    }
    return try EnergyLab.parseAsRoot(arguments)
  }
}
