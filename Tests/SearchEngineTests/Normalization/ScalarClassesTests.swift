import Testing

@testable import SearchEngine

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

  /// Every attaching mark joins a letter before it, alone or after another mark, and a plain
  /// scalar after it is a character of its own: checked against one letter of each plain range
  /// and plain followers of every kind (letters, punctuation, space, tab, line feed).
  @Test func attachingMarksJoinTheLetterBeforeThem() {
    var letters: [Unicode.Scalar] = ["a", "Z", "~"]
    for range in ScalarClasses.plainRanges {
      if let scalar = Unicode.Scalar(range.lowerBound) { letters.append(scalar) }
    }
    let followers: [Unicode.Scalar] = [
      "a", ",", " ", "\t", "\n", "\u{0416}", "\u{0915}", "\u{0995}", "\u{4E00}", "\u{AC00}",
      "\u{30FC}",
    ]
    let marks = ScalarClasses.markRanges.flatMap { $0 }.compactMap(Unicode.Scalar.init)
    var wrong: [String] = []
    for (k, mark) in marks.enumerated() {
      #expect(ScalarClasses.isAttachingMark(mark.value))
      let other = marks[(k + 1) % marks.count]
      for letter in letters {
        for follower in followers {
          for sequence in [[letter, mark, follower], [letter, other, mark, follower]] {
            var text = ""
            text.unicodeScalars.append(contentsOf: sequence)
            let characters = text.map { String($0).unicodeScalars.count }
            if characters != [sequence.count - 1, 1] {
              wrong.append(
                sequence.map { "U+" + String($0.value, radix: 16) }.joined(separator: " "))
            }
          }
        }
      }
    }
    #expect(wrong.isEmpty, "\(wrong.count): \(wrong.prefix(20))")
  }

  /// The lookup table says what the two searches say, for every scalar below U+10000.
  @Test func theTableAgreesWithTheRanges() {
    for value in UInt32(0)..<0x10000 {
      let expected: UInt8 =
        ScalarClasses.isPlain(value)
        ? ScalarClasses.plain
        : ScalarClasses.isAttachingMark(value) ? ScalarClasses.attachingMark : 0
      #expect(ScalarClasses.bmpKinds[Int(value)] == expected, "U+\(String(value, radix: 16))")
    }
  }

  /// A control, a virama, the joiner and a mark outside the ranges are not attaching marks.
  @Test func otherScalarsAreNotAttachingMarks() {
    for value: UInt32 in [0x0A, 0x41, 0x094D, 0x09CD, 0x0E3A, 0x200D, 0x0E33, 0x102B, 0x0F71] {
      #expect(!ScalarClasses.isAttachingMark(value), "U+\(String(value, radix: 16))")
    }
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
