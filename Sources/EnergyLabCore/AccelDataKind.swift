/// What the value columns of a recording hold.
public enum AccelDataKind: String, Sendable, Hashable, Codable {
  /// Raw acceleration, x, y and z, in g.
  case raw
  /// Activity counts per epoch: axis1, axis2, axis3, steps (NaN when the
  /// file has none) and vector magnitude.
  case counts
  /// Mean ENMO per epoch, mg.
  case enmo

  /// Values per row.
  public var width: Int {
    switch self {
    case .raw: return 3
    case .counts: return 5
    case .enmo: return 1
    }
  }
}
