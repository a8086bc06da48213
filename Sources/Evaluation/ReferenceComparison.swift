import EnergyLabCore

/// One cell of a reference table set against a prediction.
public struct ComparedCell: Sendable, Hashable {
  public var rowKey: Double
  public var columnKey: Double
  public var predicted: Double
  public var reference: Double
  /// predicted minus reference.
  public var difference: Double { predicted - reference }
  /// (predicted - reference) / reference; nil for a zero reference.
  public var relativeDifference: Double? { reference != 0 ? difference / reference : nil }
}

/// A model's predictions over every cell of a reference table, with their
/// error statistics.
public struct ReferenceComparison: Sendable, Hashable {
  public var modelID: String
  public var tableName: String
  public var cells: [ComparedCell]
  public var accumulator: ErrorAccumulator

  /// The agreement of the predictions with the table: limits in the form
  /// the cells support, with their intervals, and the indices beyond them.
  public var agreement: PairedAgreement {
    PairedAgreement(
      predicted: cells.map(\.predicted), reference: cells.map(\.reference),
      statistics: accumulator.statistics())
  }

  /// Compares `predict(rowKey, columnKey)` with every cell of `table`.
  public init(
    modelID: String, table: ReferenceTable, relativeTolerance: Double = 0.20,
    predict: (_ rowKey: Double, _ columnKey: Double) throws -> Double
  ) rethrows {
    self.modelID = modelID
    tableName = table.name
    var accumulator = ErrorAccumulator(relativeTolerance: relativeTolerance)
    var cells: [ComparedCell] = []
    for cell in table.cells {
      let predicted = try predict(cell.rowKey, cell.columnKey)
      cells.append(
        ComparedCell(
          rowKey: cell.rowKey, columnKey: cell.columnKey, predicted: predicted, reference: cell.value))
      accumulator.add(predicted: predicted, reference: cell.value)
    }
    self.cells = cells
    self.accumulator = accumulator
  }
}
