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
