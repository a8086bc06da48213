import Foundation

/// A value's stored properties as text that is the same in every process
/// for equal values: structs and enums by their fields in declaration
/// order, dictionaries and sets sorted, time zones by identifier, numbers
/// and strings by their own description. Used to digest option values
/// without listing their fields by hand, so an option added later is
/// covered without a change here. Classes are described by their own
/// description, never by their (mutable, shared) insides.
enum CanonicalDescription {
  static func of(_ value: Any) -> String {
    if let zone = value as? TimeZone { return "TimeZone(\(zone.identifier))" }
    if let date = value as? Date { return "Date(\(date.timeIntervalSince1970))" }
    if let text = value as? String { return String(reflecting: text) }
    let mirror = Mirror(reflecting: value)
    func fields() -> String {
      mirror.children.map { "\($0.label ?? "_"):\(of($0.value))" }.joined(separator: ",")
    }
    switch mirror.displayStyle {
    case .optional:
      return mirror.children.first.map { of($0.value) } ?? "nil"
    case .struct:
      return "\(type(of: value)){\(fields())}"
    case .enum:
      return mirror.children.isEmpty ? "\(type(of: value)).\(value)" : "\(type(of: value)).\(fields())"
    case .tuple:
      return "(\(fields()))"
    case .collection:
      return "[\(mirror.children.map { of($0.value) }.joined(separator: ","))]"
    case .dictionary:
      let entries = mirror.children.map { entry -> String in
        let pair = Mirror(reflecting: entry.value).children.map { of($0.value) }
        return pair.joined(separator: ":")
      }
      return "[\(entries.sorted().joined(separator: ","))]"
    case .set:
      return "{\(mirror.children.map { of($0.value) }.sorted().joined(separator: ","))}"
    default:
      return String(describing: value)
    }
  }
}
