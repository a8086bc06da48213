import Foundation

/// Student's t distribution, for confidence intervals.
public enum StudentT {
  /// The cumulative probability P(T <= t) with `nu` degrees of freedom:
  /// ```
  /// P(T <= t) = 1 - I_x(nu/2, 1/2) / 2,  x = nu / (nu + t^2),  t >= 0
  /// ```
  /// with I the regularised incomplete beta function.
  public static func cdf(_ t: Double, degreesOfFreedom nu: Double) -> Double {
    let x = nu / (nu + t * t)
    let tail = 0.5 * IncompleteBeta.regularized(x: x, a: nu / 2, b: 0.5)
    return t >= 0 ? 1 - tail : tail
  }

  /// The quantile t with P(T <= t) = p, by bisection on `cdf` to 1e-12.
  public static func quantile(_ p: Double, degreesOfFreedom nu: Double) -> Double {
    guard p > 0, p < 1, nu > 0 else { return .nan }
    if p == 0.5 { return 0 }
    var lo = -1e6
    var hi = 1e6
    for _ in 0..<200 {
      let mid = (lo + hi) / 2
      if cdf(mid, degreesOfFreedom: nu) < p { lo = mid } else { hi = mid }
      if hi - lo < 1e-12 { break }
    }
    return (lo + hi) / 2
  }
}

/// The regularised incomplete beta function I_x(a, b).
public enum IncompleteBeta {
  /// Evaluated by its continued fraction (Abramowitz and Stegun 26.5.8),
  /// with the modified Lentz method, using the symmetry
  /// I_x(a, b) = 1 - I_{1-x}(b, a) where the fraction converges slowly.
  public static func regularized(x: Double, a: Double, b: Double) -> Double {
    if x <= 0 { return 0 }
    if x >= 1 { return 1 }
    if x > (a + 1) / (a + b + 2) {
      return 1 - regularized(x: 1 - x, a: b, b: a)
    }
    let logGammas: Double = lgamma(a + b) - lgamma(a) - lgamma(b)
    let logPowers: Double = a * log(x) + b * log(1 - x)
    return exp(logGammas + logPowers) * continuedFraction(x: x, a: a, b: b) / a
  }

  private static func continuedFraction(x: Double, a: Double, b: Double) -> Double {
    let tiny = 1e-300
    var c = 1.0
    var d = 1 - (a + b) * x / (a + 1)
    if abs(d) < tiny { d = tiny }
    d = 1 / d
    var result = d
    for m in 1...500 {
      let mm = Double(m)
      // Even term d_{2m}.
      var numerator = mm * (b - mm) * x / ((a + 2 * mm - 1) * (a + 2 * mm))
      d = 1 + numerator * d
      if abs(d) < tiny { d = tiny }
      c = 1 + numerator / c
      if abs(c) < tiny { c = tiny }
      d = 1 / d
      result *= d * c
      // Odd term d_{2m+1}.
      numerator = -(a + mm) * (a + b + mm) * x / ((a + 2 * mm) * (a + 2 * mm + 1))
      d = 1 + numerator * d
      if abs(d) < tiny { d = tiny }
      c = 1 + numerator / c
      if abs(c) < tiny { c = tiny }
      d = 1 / d
      let step = d * c
      result *= step
      if abs(step - 1) < 1e-15 { break }
    }
    return result
  }
}

/// The regularised lower incomplete gamma function P(a, x).
public enum IncompleteGamma {
  /// By its series for x < a + 1 and its continued fraction otherwise
  /// (Abramowitz and Stegun 6.5.29 and 6.5.31, modified Lentz).
  public static func regularizedLower(a: Double, x: Double) -> Double {
    if x <= 0 { return 0 }
    let logFront = a * log(x) - x - lgamma(a)
    if x < a + 1 {
      var term = 1 / a
      var sum = term
      var n = 1.0
      while n < 1000 {
        term *= x / (a + n)
        sum += term
        if abs(term) < abs(sum) * 1e-16 { break }
        n += 1
      }
      return exp(logFront) * sum
    }
    let tiny = 1e-300
    var b = x + 1 - a
    var c = 1 / tiny
    var d = 1 / b
    var h = d
    for i in 1...1000 {
      let an = -Double(i) * (Double(i) - a)
      b += 2
      d = an * d + b
      if abs(d) < tiny { d = tiny }
      c = b + an / c
      if abs(c) < tiny { c = tiny }
      d = 1 / d
      let step = d * c
      h *= step
      if abs(step - 1) < 1e-16 { break }
    }
    return 1 - exp(logFront) * h
  }
}

/// The chi-squared distribution.
public enum ChiSquared {
  /// P(X >= x) with `k` degrees of freedom: 1 - P(k/2, x/2).
  public static func survival(_ x: Double, degreesOfFreedom k: Double) -> Double {
    guard x > 0 else { return 1 }
    return max(0, 1 - IncompleteGamma.regularizedLower(a: k / 2, x: x / 2))
  }
}

/// The standard normal distribution.
public enum StandardNormal {
  /// P(Z <= z) = erfc(-z / sqrt 2) / 2.
  public static func cdf(_ z: Double) -> Double { 0.5 * erfc(-z / 2.0.squareRoot()) }
}

extension StandardNormal {
  /// The quantile z with P(Z <= z) = p, by bisection on `cdf` to 1e-13
  /// (`nan` outside 0 < p < 1).
  public static func quantile(_ p: Double) -> Double {
    guard p > 0, p < 1 else { return .nan }
    return Bisection.root(in: -40...40, tolerance: 1e-13) { cdf($0) - p }
  }
}

extension ChiSquared {
  /// P(X <= x) with `k` degrees of freedom: P(k/2, x/2).
  public static func cdf(_ x: Double, degreesOfFreedom k: Double) -> Double {
    x > 0 ? IncompleteGamma.regularizedLower(a: k / 2, x: x / 2) : 0
  }

  /// The quantile x with P(X <= x) = p, by bisection on `cdf`.
  public static func quantile(_ p: Double, degreesOfFreedom k: Double) -> Double {
    guard p > 0, p < 1, k > 0 else { return .nan }
    let top = k + 60 * (2 * k).squareRoot() + 200
    return Bisection.root(in: 0...top, tolerance: 1e-12 * max(1, k)) { cdf($0, degreesOfFreedom: k) - p }
  }
}

/// Snedecor's F distribution, for the intervals of intraclass
/// correlations.
public enum FDistribution {
  /// P(F <= f) with `d1` and `d2` degrees of freedom:
  /// ```
  /// P(F <= f) = I_u(d1/2, d2/2),  u = d1 f / (d1 f + d2)
  /// ```
  public static func cdf(_ f: Double, d1: Double, d2: Double) -> Double {
    guard f > 0 else { return 0 }
    return IncompleteBeta.regularized(x: d1 * f / (d1 * f + d2), a: d1 / 2, b: d2 / 2)
  }

  /// The quantile f with P(F <= f) = p: bisection on u in (0, 1), where
  /// the distribution function is I_u(d1/2, d2/2), then
  /// f = d2 u / (d1 (1 - u)).
  public static func quantile(_ p: Double, d1: Double, d2: Double) -> Double {
    guard p > 0, p < 1, d1 > 0, d2 > 0 else { return .nan }
    let u = Bisection.root(in: 0...1, tolerance: 1e-15) {
      IncompleteBeta.regularized(x: $0, a: d1 / 2, b: d2 / 2) - p
    }
    return d2 * u / (d1 * (1 - u))
  }
}

/// The non-central t distribution, for exact intervals of limits of
/// agreement (Carkeet 2015).
public enum NoncentralT {
  /// P(T <= t) with `nu` degrees of freedom and non-centrality `delta`.
  /// For t >= 0 (Lenth 1989, algorithm AS 243, summed here from the
  /// largest Poisson weight outwards):
  /// ```
  /// P(T <= t) = Phi(-delta) + 1/2 sum_j [ p_j I_x(j + 1/2, nu/2) + q_j I_x(j + 1, nu/2) ]
  /// x   = t^2 / (t^2 + nu),  lambda = delta^2 / 2
  /// p_j = e^-lambda lambda^j / j!
  /// q_j = delta / sqrt 2  e^-lambda lambda^j / Gamma(j + 3/2)
  /// ```
  /// and for t < 0, P(T <= t) = 1 - P(T' <= -t) with T' of non-centrality
  /// -delta. With delta = 0 it is Student's t.
  public static func cdf(_ t: Double, degreesOfFreedom nu: Double, noncentrality delta: Double) -> Double {
    guard t.isFinite else { return t > 0 ? 1 : 0 }
    if t < 0 { return 1 - cdf(-t, degreesOfFreedom: nu, noncentrality: -delta) }
    let front = StandardNormal.cdf(-delta)
    guard t > 0 else { return front }
    let x = t * t / (t * t + nu)
    let lambda = delta * delta / 2
    guard lambda > 0 else {
      return front + 0.5 * IncompleteBeta.regularized(x: x, a: 0.5, b: nu / 2)
    }
    let logLambda = log(lambda)
    let logHalfDelta = log(abs(delta) / 2.0.squareRoot())
    let sign: Double = delta < 0 ? -1 : 1
    func term(_ j: Int) -> (sum: Double, weight: Double) {
      let jj = Double(j)
      let logPoisson = -lambda + jj * logLambda
      let p = exp(logPoisson - lgamma(jj + 1))
      let q = sign * exp(logHalfDelta + logPoisson - lgamma(jj + 1.5))
      let value =
        p * IncompleteBeta.regularized(x: x, a: jj + 0.5, b: nu / 2)
        + q * IncompleteBeta.regularized(x: x, a: jj + 1, b: nu / 2)
      return (value, p + abs(q))
    }
    let mode = Int(lambda.rounded(.down))
    var sum = 0.0
    var j = mode
    while true {
      let (value, weight) = term(j)
      sum += value
      if weight < 1e-17 && j > mode { break }
      j += 1
    }
    j = mode - 1
    while j >= 0 {
      let (value, weight) = term(j)
      sum += value
      if weight < 1e-17 { break }
      j -= 1
    }
    return min(1, max(0, front + 0.5 * sum))
  }

  /// The quantile t with P(T <= t) = p, by bisection on `cdf` around the
  /// normal approximation (delta + z_p sqrt(1 + delta^2 / (2 nu))), to a
  /// relative 1e-12.
  public static func quantile(_ p: Double, degreesOfFreedom nu: Double, noncentrality delta: Double) -> Double
  {
    guard p > 0, p < 1, nu > 0 else { return .nan }
    let spread = (1 + delta * delta / (2 * nu)).squareRoot()
    let guess = delta + StandardNormal.quantile(p) * spread
    var width = 8 * spread + 8
    var lower = guess - width
    var upper = guess + width
    // Heavy tails at small nu: widen until the root is bracketed.
    while cdf(lower, degreesOfFreedom: nu, noncentrality: delta) > p { width *= 4; lower = guess - width }
    while cdf(upper, degreesOfFreedom: nu, noncentrality: delta) < p { width *= 4; upper = guess + width }
    return Bisection.root(in: lower...upper, tolerance: 1e-12 * max(1, abs(guess))) {
      cdf($0, degreesOfFreedom: nu, noncentrality: delta) - p
    }
  }
}

/// Root finding by bisection for the quantile functions.
enum Bisection {
  /// A root of an increasing `f` in `range`, to `tolerance`.
  static func root(in range: ClosedRange<Double>, tolerance: Double, _ f: (Double) -> Double) -> Double {
    var lower = range.lowerBound
    var upper = range.upperBound
    for _ in 0..<400 {
      let middle = (lower + upper) / 2
      if f(middle) < 0 { lower = middle } else { upper = middle }
      if upper - lower < tolerance { break }
    }
    return (lower + upper) / 2
  }
}
