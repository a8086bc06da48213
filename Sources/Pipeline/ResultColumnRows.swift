import EnergyLabCore
import Store

extension ResultColumns {
  /// The stored rows of `value` under `subject`: each known number under
  /// its name (no unit in it), its unit in its own column.
  static func storedRows<Value>(_ columns: [ResultColumn<Value>], of value: Value, subject: String)
    -> [ResultRow]
  {
    numbers(columns, of: value).map {
      ResultRow(subject: subject, metric: $0.name, value: $0.value, unit: $0.unit)
    }
  }
}
