/// A small, fast generator of repeatable pseudo-random numbers (Steele, Lea and Flood's
/// SplitMix64): the same seed gives the same numbers on every run and every platform, so a
/// randomised test of a search (drawn keystrokes, drawn model changes) fails the same way
/// again.
///
/// Not for anything that must not be guessed.
public struct SplitMix64: RandomNumberGenerator, Sendable {
  private var state: UInt64

  /// A generator that starts from `seed`.
  public init(seed: UInt64) { state = seed }

  /// A generator that starts from `seed`, as a property test's drawn seeds are.
  public init(seed: Int) { state = UInt64(truncatingIfNeeded: seed) }

  /// The next number.
  public mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}
