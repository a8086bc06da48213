import Foundation
import TestSupport
import Testing

/// The built `energylab`, run as a user would: ENERGYLAB_BIN or the debug build.
let binary = ProcessInfo.processInfo.environment["ENERGYLAB_BIN"] ?? "\(packageRoot)/.build/debug/energylab"

struct Outcome {
  var status: Int32
  var stdout: String
  var stderr: String
}

/// Runs energylab in `folder`; with `stdin`, those bytes are piped to its
/// standard input and the pipe closed.
func energylab(_ arguments: [String], in folder: String, stdin: Data? = nil) throws -> Outcome {
  try run([URL(fileURLWithPath: binary).path] + arguments, in: folder, stdin: stdin)
}

/// Runs any program (`arguments[0]`) in `folder`.
func run(_ arguments: [String], in folder: String, stdin: Data? = nil) throws -> Outcome {
  let process = Process()
  process.executableURL = URL(fileURLWithPath: arguments[0])
  process.arguments = Array(arguments.dropFirst())
  process.currentDirectoryURL = URL(fileURLWithPath: folder)
  let out = Pipe()
  let err = Pipe()
  let input = Pipe()
  process.standardOutput = out
  process.standardError = err
  if stdin != nil { process.standardInput = input }
  try process.run()
  if let stdin {
    input.fileHandleForWriting.write(stdin)
    try input.fileHandleForWriting.close()
  }
  let stdout = out.fileHandleForReading.readDataToEndOfFile()
  let stderr = err.fileHandleForReading.readDataToEndOfFile()
  process.waitUntilExit()
  return Outcome(
    status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
    stderr: String(decoding: stderr, as: UTF8.self))
}

func scratchFolder() throws -> String {
  let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
    "energylab-e2e-\(UUID().uuidString)"
  ).path
  try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
  return folder
}
