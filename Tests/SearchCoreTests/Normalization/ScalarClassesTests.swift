import Testing

@testable import SearchCore

/// The folder's shortcut for finding characters agrees with Swift's grapheme breaker.
struct ScalarClassesTests {
  /// Every plain scalar is a character apart from every other plain one, on either side:
  /// checked against one of each range (its first, middle and last scalars), ASCII, tab and
  /// line feed, and itself.
  @Test func plainScalarsNeverJoin() {
    var neighbours: [Unicode.Scalar] = ["a", ",", " ", "\t", "\n", "~"]
    for range in ScalarClasses.plainRanges {
      for value in [range.lowerBound, (range.lowerBound + range.upperBound) / 2, range.upperBound] {
        if let scalar = Unicode.Scalar(value) { neighbours.append(scalar) }
      }
    }
    var joined: [String] = []
    for range in ScalarClasses.plainRanges {
      for value in range {
        guard let scalar = Unicode.Scalar(value) else { continue }
        #expect(ScalarClasses.isPlain(value))
        for other in neighbours + [scalar] {
          for (first, second) in [(scalar, other), (other, scalar)] {
            var text = ""
            text.unicodeScalars.append(first)
            text.unicodeScalars.append(second)
            if text.count != 2 {
              joined.append(
                "U+\(String(first.value, radix: 16)) U+\(String(second.value, radix: 16))")
            }
          }
        }
      }
    }
    #expect(joined.isEmpty, "\(joined.prefix(20))")
  }

  /// Scalars around the ranges that do join stay out: marks, a virama, a prepended mark, Thai
  /// SARA AM, a Hangul jamo, a regional indicator, a joiner, a halfwidth sound mark, CR.
  @Test func joiningScalarsAreNotPlain() {
    for value: UInt32 in [
      0x0D, 0x0301, 0x0483, 0x05B0, 0x0600, 0x064B, 0x0670, 0x06DD, 0x093F, 0x094D, 0x0E31,
      0x0E33, 0x0E47, 0x1100, 0x11A8, 0x1F1E6, 0x200D, 0x302A, 0xFF9E,
    ] {
      #expect(!ScalarClasses.isPlain(value), "U+\(String(value, radix: 16))")
    }
  }
}
