import Foundation

/// A second-order IIR section (direct form II transposed) with the
/// low-pass and high-pass designs of R. Bristow-Johnson's "Cookbook
/// formulae for audio EQ biquad filter coefficients" (bilinear transform;
/// Q = 1/sqrt(2) gives a Butterworth response).
struct Biquad: Sendable {
  private var b0 = 0.0, b1 = 0.0, b2 = 0.0, a1 = 0.0, a2 = 0.0
  private var z1 = 0.0, z2 = 0.0

  enum Kind { case lowPass, highPass }

  init(_ kind: Kind, cutoffHz: Double, sampleRateHz: Double, q: Double = 1 / 2.0.squareRoot()) {
    let w0 = 2 * Double.pi * cutoffHz / sampleRateHz
    let alpha = sin(w0) / (2 * q)
    let c = cos(w0)
    let a0 = 1 + alpha
    switch kind {
    case .lowPass:
      b0 = (1 - c) / 2 / a0
      b1 = (1 - c) / a0
      b2 = b0
    case .highPass:
      b0 = (1 + c) / 2 / a0
      b1 = -(1 + c) / a0
      b2 = b0
    }
    a1 = -2 * c / a0
    a2 = (1 - alpha) / a0
  }

  mutating func reset() {
    z1 = 0
    z2 = 0
  }

  mutating func callAsFunction(_ x: Double) -> Double {
    let y = b0 * x + z1
    z1 = b1 * x - a1 * y + z2
    z2 = b2 * x - a2 * y
    return y
  }
}
