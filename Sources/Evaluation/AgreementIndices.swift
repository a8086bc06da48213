import EnergyLabCore
import Foundation

/// Agreement beyond the Bland-Altman limits, each with its interval:
/// intraclass correlations, Lin's concordance, Deming regression and an
/// equivalence test. a is the predicted (model) value, b the reference.
public struct AgreementIndices: Sendable, Hashable {
  /// An index and its interval.
  public struct Estimate: Sendable, Hashable {
    public var value: Double
    public var interval: ConfidenceInterval
  }

  /// ICC(A,1), absolute agreement of single measurements, two-way model
  /// (McGraw and Wong 1996, Psychol Methods 1:30-46, case 2A / 3A):
  /// ```
  /// ICC(A,1) = (MSR - MSE) / (MSR + (k - 1) MSE + k (MSC - MSE) / n)
  /// ```
  /// with the pairs as the n targets, the two methods as the k = 2
  /// raters, MSR, MSC and MSE the row, column and error mean squares. The
  /// interval is McGraw and Wong's (table 7), with Satterthwaite's degrees
  /// of freedom v.
  public var iccAbsolute: Estimate
  /// ICC(C,1), consistency of single measurements:
  /// ```
  /// ICC(C,1) = (MSR - MSE) / (MSR + (k - 1) MSE)
  /// ```
  /// interval from F = MSR / MSE on n - 1 and (n - 1)(k - 1) degrees of
  /// freedom.
  public var iccConsistency: Estimate
  /// Lin's concordance correlation (Lin 1989, Biometrics 45:255-268;
  /// moments over n), interval by the z-transform z = atanh(rho_c) with
  /// Lin's asymptotic variance
  /// ```
  /// var z = 1/(n-2) [ (1 - r^2) rho_c^2 / ((1 - rho_c^2) r^2)
  ///                  + 2 rho_c^3 (1 - rho_c) u^2 / (r (1 - rho_c^2)^2)
  ///                  - rho_c^4 u^4 / (2 r^2 (1 - rho_c^2)^2) ]
  /// u = (mean a - mean b) / sqrt(s_a s_b)
  /// ```
  public var concordance: Estimate?
  /// Deming regression of a on b with equal error variances
  /// (orthogonal regression):
  /// ```
  /// slope = (Saa - Sbb + sqrt((Saa - Sbb)^2 + 4 Sab^2)) / (2 Sab)
  /// intercept = mean a - slope mean b
  /// ```
  /// intervals by the jackknife (Linnet 1990, Stat Med 9:1463-1473):
  /// estimate -/+ t_{g-1} SE over g leave-one-out groups (pairs, or
  /// participants for repeated measures).
  public var demingSlope: Estimate?
  public var demingIntercept: Estimate?
  /// Present when a zone was given.
  public var equivalence: Equivalence?
  /// Pairs behind the indices.
  public var count: Int

  /// An equivalence zone around zero difference.
  public enum Zone: Sendable, Hashable {
    /// -/+ this many units of the values.
    case units(Double)
    /// -/+ this percentage of the mean reference.
    case percentOfReference(Double)
  }

  /// Two one-sided tests (Schuirmann 1987) of the bias against a zone:
  /// ```
  /// t_lower = (bias - (-delta)) / SE,  p_lower = P(T >= t_lower)
  /// t_upper = (bias - delta) / SE,     p_upper = P(T <= t_upper)
  /// p = max(p_lower, p_upper); equivalent when p < alpha, that is, when
  /// the (1 - 2 alpha) interval of the bias lies inside -/+ delta
  /// ```
  /// with the bias, SE and degrees of freedom of `ConstantLimits`.
  public struct Equivalence: Sendable, Hashable {
    public var zone: Zone
    /// delta in the units of the values.
    public var margin: Double
    public var pLower: Double
    public var pUpper: Double
    public var pValue: Double { max(pLower, pUpper) }
    /// The (1 - 2 alpha) interval of the bias.
    public var interval: ConfidenceInterval
    public var alpha: Double
    public var isEquivalent: Bool { pValue < alpha }
  }

  /// `nil` with fewer than three pairs. `groups` (participant of each
  /// pair) make the jackknife leave out participants; `bias` gives the
  /// equivalence test its bias and standard error.
  public init?(
    predicted a: [Double], reference b: [Double], groups: [Int]? = nil, bias: ConstantLimits?,
    zone: Zone? = nil, confidenceLevel: Double = 0.95, equivalenceAlpha: Double = 0.05
  ) {
    let n = min(a.count, b.count)
    guard n >= 3 else { return nil }
    count = n
    let alpha = 1 - confidenceLevel
    let level = Fixed.shortest(100 * confidenceLevel)
    let moments = Moments(a: a[..<n], b: b[..<n])
    // Two-way analysis of variance, k = 2 methods.
    let k = 2.0
    let nn = Double(n)
    let grand = (moments.meanA + moments.meanB) / 2
    var ssRows = 0.0
    for i in 0..<n {
      let row = (a[i] + b[i]) / 2
      ssRows += k * (row - grand) * (row - grand)
    }
    let ssColumns =
      nn
      * ((moments.meanA - grand) * (moments.meanA - grand) + (moments.meanB - grand) * (moments.meanB - grand))
    let ssTotal =
      moments.saa + moments.sbb + nn
      * ((moments.meanA - grand) * (moments.meanA - grand) + (moments.meanB - grand) * (moments.meanB - grand))
    let ssError = max(0, ssTotal - ssRows - ssColumns)
    let msr = ssRows / (nn - 1)
    let msc = ssColumns / (k - 1)
    let mse = ssError / ((nn - 1) * (k - 1))
    let consistency = (msr - mse) / (msr + (k - 1) * mse)
    let f = msr / mse
    let df1 = nn - 1
    let df2 = (nn - 1) * (k - 1)
    let fLow = f / FDistribution.quantile(1 - alpha / 2, d1: df1, d2: df2)
    let fHigh = f * FDistribution.quantile(1 - alpha / 2, d1: df2, d2: df1)
    iccConsistency = Estimate(
      value: consistency,
      interval: ConfidenceInterval(
        (fLow - 1) / (fLow + k - 1), (fHigh - 1) / (fHigh + k - 1),
        method: "\(level) % F interval (McGraw and Wong 1996)"))
    let absolute = (msr - mse) / (msr + (k - 1) * mse + k * (msc - mse) / nn)
    let ac = k * absolute / (nn * (1 - absolute))
    let bc = 1 + k * absolute * (nn - 1) / (nn * (1 - absolute))
    let v =
      (ac * msc + bc * mse) * (ac * msc + bc * mse)
      / ((ac * msc) * (ac * msc) / (k - 1) + (bc * mse) * (bc * mse) / ((nn - 1) * (k - 1)))
    let fStar = FDistribution.quantile(1 - alpha / 2, d1: nn - 1, d2: v)
    let fStarStar = FDistribution.quantile(1 - alpha / 2, d1: v, d2: nn - 1)
    iccAbsolute = Estimate(
      value: absolute,
      interval: ConfidenceInterval(
        nn * (msr - fStar * mse) / (fStar * (k * msc + (k * nn - k - nn) * mse) + nn * msr),
        nn * (fStarStar * msr - mse) / (k * msc + (k * nn - k - nn) * mse + nn * fStarStar * msr),
        method: "\(level) % F interval with Satterthwaite's degrees of freedom (McGraw and Wong 1996)"))

    // Lin's concordance and its z-transform interval.
    let r = moments.sab / (moments.saa * moments.sbb).squareRoot()
    let va = moments.saa / nn
    let vb = moments.sbb / nn
    let d = moments.meanA - moments.meanB
    let rc = 2 * moments.sab / nn / (va + vb + d * d)
    if rc.isFinite, abs(rc) < 1, r.isFinite, r != 0, n > 2 {
      let u = d / (va * vb).squareRoot().squareRoot()
      let one = 1 - rc * rc
      let variance =
        ((1 - r * r) * rc * rc / (one * r * r) + 2 * rc * rc * rc * (1 - rc) * u * u / (r * one * one)
          - rc * rc * rc * rc * u * u * u * u / (2 * r * r * one * one)) / (nn - 2)
      let z = atanh(rc)
      let zq = StandardNormal.quantile(1 - alpha / 2)
      concordance = Estimate(
        value: rc,
        interval: ConfidenceInterval(
          tanh(z - zq * variance.squareRoot()), tanh(z + zq * variance.squareRoot()),
          method: "\(level) % z-transform interval (Lin 1989)"))
    } else {
      concordance =
        rc.isFinite
        ? Estimate(value: rc, interval: ConfidenceInterval(.nan, .nan, method: "none: no spread")) : nil
    }

    // Deming regression with the jackknife over pairs or participants.
    if let full = moments.deming {
      var clusters: [[Int]] = []
      if let groups, groups.count == n {
        var byGroup: [Int: [Int]] = [:]
        for (i, g) in groups.enumerated() { byGroup[g, default: []].append(i) }
        clusters = byGroup.keys.sorted().compactMap { byGroup[$0] }
      } else {
        clusters = (0..<n).map { [$0] }
      }
      let g = Double(clusters.count)
      var slopes: [Double] = []
      var intercepts: [Double] = []
      for left in clusters {
        let out = Set(left)
        let kept = (0..<n).filter { !out.contains($0) }
        guard let fit = Moments(a: kept.map { a[$0] }[...], b: kept.map { b[$0] }[...]).deming else {
          continue
        }
        slopes.append(g * full.slope - (g - 1) * fit.slope)
        intercepts.append(g * full.intercept - (g - 1) * fit.intercept)
      }
      if slopes.count == clusters.count, clusters.count >= 3 {
        let t = StudentT.quantile(1 - alpha / 2, degreesOfFreedom: g - 1)
        func interval(_ pseudo: [Double], _ estimate: Double) -> ConfidenceInterval {
          let mean = pseudo.reduce(0, +) / g
          let se = (pseudo.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / (g - 1) / g).squareRoot()
          return ConfidenceInterval(
            estimate - t * se, estimate + t * se,
            method:
              "\(level) % jackknife interval over \(clusters.count) \(groups == nil ? "pairs" : "participants") (Linnet 1990)"
          )
        }
        demingSlope = Estimate(value: full.slope, interval: interval(slopes, full.slope))
        demingIntercept = Estimate(value: full.intercept, interval: interval(intercepts, full.intercept))
      } else {
        demingSlope = nil
        demingIntercept = nil
      }
    } else {
      demingSlope = nil
      demingIntercept = nil
    }

    // Two one-sided tests.
    if let zone, let bias, bias.biasStandardError > 0 {
      let margin: Double
      switch zone {
      case .units(let u): margin = abs(u)
      case .percentOfReference(let p): margin = abs(p) / 100 * abs(moments.meanB)
      }
      let df = bias.biasDegreesOfFreedom
      let se = bias.biasStandardError
      let tLower = (bias.bias + margin) / se
      let tUpper = (bias.bias - margin) / se
      let tq = StudentT.quantile(1 - equivalenceAlpha, degreesOfFreedom: df)
      equivalence = Equivalence(
        zone: zone, margin: margin, pLower: 1 - StudentT.cdf(tLower, degreesOfFreedom: df),
        pUpper: StudentT.cdf(tUpper, degreesOfFreedom: df),
        interval: ConfidenceInterval(
          bias.bias - tq * se, bias.bias + tq * se,
          method:
            "\(Fixed.shortest(100 * (1 - 2 * equivalenceAlpha))) % t interval of the bias, \(Fixed.shortest(df)) degrees of freedom"
        ), alpha: equivalenceAlpha)
    } else {
      equivalence = nil
    }
  }

  /// Means and sums of squares and products about the means.
  private struct Moments {
    var meanA = 0.0
    var meanB = 0.0
    var saa = 0.0
    var sbb = 0.0
    var sab = 0.0

    init(a: ArraySlice<Double>, b: ArraySlice<Double>) {
      let n = Double(a.count)
      meanA = a.reduce(0, +) / n
      meanB = b.reduce(0, +) / n
      for (x, y) in zip(a, b) {
        saa += (x - meanA) * (x - meanA)
        sbb += (y - meanB) * (y - meanB)
        sab += (x - meanA) * (y - meanB)
      }
    }

    /// Deming slope and intercept of a on b (error ratio 1); `nil` when
    /// a and b do not covary.
    var deming: (slope: Double, intercept: Double)? {
      guard sab != 0, sab.isFinite else { return nil }
      let slope = (saa - sbb + ((saa - sbb) * (saa - sbb) + 4 * sab * sab).squareRoot()) / (2 * sab)
      return (slope, meanA - slope * meanB)
    }
  }
}
