import EnergyLabCore
import Foundation
import FuzzSupport
import Ingest

/// Any text as a reference table, a subjects CSV or a MET table.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzReferenceTables(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
  do { _ = try ReferenceTableReader.parse(text, source: "fuzz.csv", name: "fuzz") } catch is InputError {
  } catch {
    fatalError("unexpected error type: \(error)")
  }
  do { _ = try SubjectsReader.parse(text, source: "fuzz.csv") } catch is InputError {} catch {
    fatalError("unexpected error type: \(error)")
  }
  do { _ = try METTableReader.parse(text, source: "fuzz.csv") } catch is InputError {} catch {
    fatalError("unexpected error type: \(error)")
  }
  return 0
}

/// The entry point SwiftPM gives an executable target; it hands over to libFuzzer.
@_cdecl("FuzzReferenceTables_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
  runFuzzer(argc, argv) { fuzzReferenceTables($0, $1) }
}
