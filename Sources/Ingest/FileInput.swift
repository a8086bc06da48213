import EnergyLabCore
import Foundation

/// Reads a whole input file, turning the operating system's refusal into an
/// `InputError` that names the file and what was expected.
public enum FileInput {
  public static func read(_ path: String, expected: String) throws -> Data {
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
      throw InputError(.unreadable, SourceLocation(file: path), "no such file", expected: expected)
    }
    guard !isDirectory.boolValue else {
      throw InputError(.unreadable, SourceLocation(file: path), "is a folder", expected: expected)
    }
    guard let data = FileManager.default.contents(atPath: path) else {
      throw InputError(
        .unreadable,
        SourceLocation(file: path), "cannot read file (permission denied?)", expected: expected)
    }
    return data
  }
}
