import TestSupport
import Testing

@testable import Evaluation

/// Bland and Altman (1999) regression of differences on means, checked
/// against scipy.stats.linregress 1.17 on the same five pairs:
/// reference 10, 20, 30, 40, 50 and predicted 11, 19, 33, 41, 56 give
/// slope 0.11890, intercept -1.68589, standard error 0.059743, p 0.140657;
/// the percentage differences (numpy, ddof 1) have mean 5.5419 and limits
/// -7.9095 and 18.9932.
struct ProportionalBiasTests {
  @Test func matchesScipyLinregress() throws {
    let p = try #require(ProportionalBias(predicted: [11, 19, 33, 41, 56], reference: [10, 20, 30, 40, 50]))
    expectClose(p.slope, 0.1188997338065661, tolerance: 1e-12)
    expectClose(p.intercept, -1.6858917480035491, tolerance: 1e-12)
    expectClose(p.slopeStandardError, 0.05974270889300254, tolerance: 1e-12)
    expectClose(p.pValue, 0.14065706675224424, tolerance: 1e-6, "p = \(p.pValue)")
    #expect(!p.isProportional)
    #expect(p.limitsOfAgreement.form == .absolute)
    expectClose(p.percentBias, 5.541860887772837, tolerance: 1e-9)
    expectClose(p.percentLimitsLower, -7.909487597830174, tolerance: 1e-9)
    expectClose(p.percentLimitsUpper, 18.993209373375848, tolerance: 1e-9)
  }

  /// A model 10 % high everywhere: the difference is exactly 2/21 of the
  /// mean (0.1 r / 1.05 r), a slope of 0.0952 with no scatter, so the
  /// percentage form applies with bias 9.52 % and zero-width limits.
  @Test func constantRatioIsProportional() throws {
    let reference = [10.0, 20, 30, 40]
    let p = try #require(ProportionalBias(predicted: reference.map { $0 * 1.1 }, reference: reference))
    expectClose(p.slope, 2.0 / 21, tolerance: 1e-12)
    #expect(p.isProportional)
    expectClose(p.percentBias, 200.0 / 21, tolerance: 1e-9)
    expectClose(p.percentLimitsUpper, p.percentLimitsLower, tolerance: 1e-9)
    #expect(p.limitsOfAgreement.form == .percentage)
  }

  @Test func tooFewPairs() {
    #expect(ProportionalBias(predicted: [1, 2], reference: [1, 2]) == nil)
  }
}
