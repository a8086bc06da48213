import EnergyLabCore
import Foundation

/// Command-line parsers of the quantities whose bare-number exception the
/// user should hear about.
enum CommandLineQuantity {
  /// A grade; a bare fraction (the documented exception) is accepted with
  /// a note saying how it was read.
  static func grade(_ text: String) throws -> Double {
    let value = try QuantityParser.gradeFraction(text)
    let trimmed = text.trimmingCharacters(in: .whitespaces)
    if value != 0, Double(trimmed) != nil {
      Terminal.writeError(
        "energylab: note: grade \(trimmed) read as a fraction, \(Fixed.shortest(value * 100))% (write \(Fixed.shortest(value * 100))% to say so)\n"
      )
    }
    return value
  }
}
