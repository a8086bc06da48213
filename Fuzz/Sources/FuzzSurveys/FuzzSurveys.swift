import EnergyLabCore
import Foundation
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

@_silgen_name("LLVMFuzzerRunDriver")
func runFuzzer(
  _ argc: UnsafeMutablePointer<CInt>,
  _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
  _ callback: @convention(c) (UnsafePointer<UInt8>, Int) -> CInt
) -> CInt

/// The entry point SwiftPM gives an executable target; it hands over to libFuzzer.
@_cdecl("FuzzSurveys_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
  var count = argc
  var arguments = argv
  return runFuzzer(&count, &arguments) { data, size in fuzzSurveys(data, size) }
}
