import EnergyLabCore
import Foundation
import FuzzSupport
import Ingest
import Signals

/// Any bytes as an accelerometer CSV: the reader must return rows or throw
/// an `InputError`, never crash, hang or leak; whatever it reads must go
/// through epochs, steps and days. Small chunks put line breaks at chunk
/// edges.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzAccelerometer(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let bytes = Array(UnsafeBufferPointer(start: data, count: size))
  let reader = AccelReader(workers: 1, chunkBytes: 256)
  var analyzer: AccelAnalyzer?
  do {
    _ = try reader.read(
      chunks: LineChunks(bytes: bytes, source: "fuzz.csv", maximumLineBytes: 1 << 16),
      onLayout: { analyzer = AccelAnalyzer(kind: $0.kind, declaredRateHz: $0.declaredRateHz) },
      onBlock: { analyzer!.add(time: $0.time, values: $0.values) })
    _ = analyzer?.finish()
  } catch is InputError {
  } catch {
    fatalError("unexpected error type: \(error)")
  }
  return 0
}

/// The entry point SwiftPM gives an executable target; it hands over to libFuzzer.
@_cdecl("FuzzAccelerometer_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
  runFuzzer(argc, argv) { fuzzAccelerometer($0, $1) }
}

/// Header-field mutations besides libFuzzer's own (FuzzSupport).
@_cdecl("LLVMFuzzerCustomMutator")
public func customMutator(
  _ data: UnsafeMutablePointer<UInt8>, _ size: Int, _ maxSize: Int, _ seed: CUnsignedInt
) -> Int {
  mutateHeaderField(data, size, maxSize, seed)
}
