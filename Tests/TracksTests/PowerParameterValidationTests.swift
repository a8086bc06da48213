import EnergyLabCore
import Testing

@testable import Tracks

/// A stated FTP checks itself: positive watts (`--ftp` help), named `ftp_w`
/// as a training-load run stores it.
@Suite struct PowerParameterValidationTests {
  @Test(arguments: [0.0, -1, .nan])
  func ftpMustBePositive(watts: Double) throws {
    let error = try #require(throws: ValueError.self) { try PowerParameters.validated(ftpWatts: watts) }
    #expect(error.subject == "ftp_w")
    #expect(error.expected == "a positive number of watts")
  }

  @Test func positiveOrAbsentFTPPasses() throws {
    #expect(try PowerParameters.validated(ftpWatts: 1e-6) == 1e-6)
    #expect(try PowerParameters.validated(ftpWatts: nil) == nil)
  }
}
