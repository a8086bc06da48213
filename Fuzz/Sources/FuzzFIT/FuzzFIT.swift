import EnergyLabCore
import Foundation
import FuzzSupport
import Ingest
import Tracks

/// Any bytes as a FIT file, read as is and, where the bytes end early, up
/// to their last whole message: the reader must return a track or throw an
/// `InputError`, never crash, hang or leak; whatever it reads must
/// summarise. Small chunks make messages straddle chunk boundaries.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzFIT(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let bytes = Data(bytes: data, count: size)
  for reader in [FITReader(), FITReader(ignoreCRC: true, readTruncated: true, chunkSizeBytes: 37)] {
    do {
      let track = try reader.read(data: bytes, source: "fuzz.fit")
      _ = TrackAnalysis().summary(of: track)
    } catch is InputError {
    } catch {
      fatalError("unexpected error type: \(error)")
    }
  }
  return 0
}

/// The entry point SwiftPM gives an executable target; it hands over to libFuzzer.
@_cdecl("FuzzFIT_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
  runFuzzer(argc, argv) { fuzzFIT($0, $1) }
}

/// Header-field mutations besides libFuzzer's own (FuzzSupport).
@_cdecl("LLVMFuzzerCustomMutator")
public func customMutator(
  _ data: UnsafeMutablePointer<UInt8>, _ size: Int, _ maxSize: Int, _ seed: CUnsignedInt
) -> Int {
  mutateHeaderField(data, size, maxSize, seed)
}
