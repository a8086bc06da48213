import EnergyLabCore
import Foundation
import FuzzSupport
import Ingest
import Surveys

/// Any text as a survey export: read, then summarise every question.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSurveys(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
  do {
    let survey = try SurveyReader(multiSelect: ["multi"]).parse(text, source: "fuzz.csv", name: "fuzz")
    for q in survey.questions { _ = try? SurveyStatistics.summary(q, scale: nil) }
  } catch is InputError {
  } catch is UsageError {
  } catch {
    fatalError("unexpected error type: \(error)")
  }
  return 0
}

/// The entry point SwiftPM gives an executable target; it hands over to libFuzzer.
@_cdecl("FuzzSurveys_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
  runFuzzer(argc, argv) { fuzzSurveys($0, $1) }
}
