/// A published reference table transcribed into CSV: a grid of values over
/// two variables (for the Stanford walking table, kcal over body weight in
/// pounds by minutes of walking), with the provenance of the transcription.
///
/// File layout: `# key: value` provenance lines, then a header row whose
/// first cell names the row variable and whose other cells are the column
/// variable's values, then one row per row-variable value.
public struct ReferenceTable: Sendable, Hashable {
  /// Short identifier, the file name without `.csv` (`stanford-walking`).
  public var name: String
  public var source: String
  /// Provenance fields in file order (`source`, `figure`, `units`, ...).
  public var provenance: [ProvenanceField]
  /// The row variable with its unit (`body_mass_lb`).
  public var rowVariable: String
  /// The column variable with its unit (`duration_min`).
  public var columnVariable: String
  /// The tabulated quantity with its unit (`energy_kcal`).
  public var valueVariable: String
  public var rowKeys: [Double]
  public var columnKeys: [Double]
  /// `values[row][column]`.
  public var values: [[Double]]
  /// Inputs the table holds constant, from the `fixed` provenance line
  /// (`# fixed: duration_min=30`), as variable and value.
  public var fixed: [FixedInput]

  public struct FixedInput: Sendable, Hashable {
    public var variable: String
    public var value: Double
    public init(variable: String, value: Double) {
      self.variable = variable
      self.value = value
    }
  }

  public struct ProvenanceField: Sendable, Hashable {
    public var key: String
    public var value: String
    public init(key: String, value: String) {
      self.key = key
      self.value = value
    }
  }

  public init(
    name: String, source: String, provenance: [ProvenanceField], rowVariable: String, columnVariable: String,
    valueVariable: String, rowKeys: [Double], columnKeys: [Double], values: [[Double]],
    fixed: [FixedInput] = []
  ) {
    self.fixed = fixed
    self.name = name
    self.source = source
    self.provenance = provenance
    self.rowVariable = rowVariable
    self.columnVariable = columnVariable
    self.valueVariable = valueVariable
    self.rowKeys = rowKeys
    self.columnKeys = columnKeys
    self.values = values
  }

  public func provenanceValue(_ key: String) -> String? {
    provenance.first(where: { $0.key == key })?.value
  }

  /// Every cell as (row key, column key, value), rows first.
  public var cells: [Cell] {
    var out: [Cell] = []
    out.reserveCapacity(rowKeys.count * columnKeys.count)
    for (r, rowKey) in rowKeys.enumerated() {
      for (c, columnKey) in columnKeys.enumerated() {
        out.append(Cell(rowKey: rowKey, columnKey: columnKey, value: values[r][c]))
      }
    }
    return out
  }

  public struct Cell: Sendable, Hashable {
    public var rowKey: Double
    public var columnKey: Double
    public var value: Double
  }
}
