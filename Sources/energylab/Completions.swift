import ArgumentParser
import EnergyModels
import Pipeline

/// Shell completion (`energylab --generate-completion-script bash|zsh|fish`)
/// of the names a researcher types: model ids, and the reference tables
/// and factor sets the binary finds.
enum Completions {
  static let models = CompletionKind.list(ModelRegistry.all.map(\.info.id))
  static let references = CompletionKind.custom { _, _, _ in
    ShippedData.names(in: "Datasets/reference", ext: ".csv").names
  }
  static let factorSets = CompletionKind.custom { _, _, _ in
    ShippedData.names(in: "Datasets/factors", ext: ".csv").names
  }
}
