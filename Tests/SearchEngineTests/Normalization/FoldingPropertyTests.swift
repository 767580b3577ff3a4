import PropertyBased
import TestSupport
import Testing

@testable import SearchEngine

/// Scalars from many scripts, with combining marks, joiners and ignorables, so that random
/// strings meet every path of the folder: ASCII runs, cached characters, clusters the grapheme
/// breaker decides, and characters that join across an ignorable.
private let scalarPool: [Unicode.Scalar] = {
  let values: [UInt32] = [
    0x61, 0x41, 0x7A, 0x49, 0x69, 0x20, 0x2D, 0x31, 0x0D, 0x0A,  // ASCII, CR, LF
    0xE9, 0xC5, 0xDF, 0x1E9E, 0xF8, 0xC6, 0x142, 0x111, 0x133,  // Latin
    0xD8, 0x141, 0x110, 0x127, 0x126, 0x167, 0x180, 0x189,  // strokes and bars: Ø Ł Đ ħ Ħ ŧ ƀ Ɖ
    0xFE, 0xDE, 0xF0, 0xE6, 0x153, 0x152, 0x1FE, 0x1E2,  // þ Þ ð æ œ Œ Ǿ Ǣ
    0x130, 0x131, 0xCD, 0x1ECA, 0xFF29,  // the i's: İ, ı, Í, Ị, full-width I
    0x300, 0x301, 0x308, 0x323, 0x307, 0x34F,  // combining marks, grapheme joiner
    0x391, 0x3A3, 0x3C2, 0x3AC, 0x390,  // Greek
    0x41C, 0x451, 0x439,  // Cyrillic
    0x5E9, 0x5B8, 0x5C1, 0x627, 0x64F, 0x651,  // Hebrew, Arabic with points
    0x600,  // Arabic number sign (prepended)
    0x915, 0x93F, 0x941, 0x94D, 0x937,  // Devanagari with vowel signs and virama
    0x9B0, 0x9CD, 0x9AF, 0xD28, 0xD4D,  // Bengali ra, virama, ya; Malayalam na, virama
    0x1F680, 0x2764,  // emoji that join with a ZWJ
    0xE01, 0xE48,  // Thai with tone mark
    0x30AB, 0x3099, 0x309A, 0x304B, 0xFF76, 0xFF9E,  // kana, voicing marks, half-width
    0x1112, 0x1161, 0x11AB, 0xD55C,  // Hangul jamo and syllable
    0x4E1C, 0x4EAC,  // ideographs
    // Runs transliterated with context under latin: Greek ε υ γ κ ύ, Katakana コ ヒ ー キ ョ ッ,
    // half-width ｰ, Hiragana ょ, Han 你 好 々, Cyrillic в а
    0x3B5, 0x3C5, 0x3B3, 0x3BA, 0x3CD, 0x30B3, 0x30D2, 0x30FC, 0x30AD, 0x30E7, 0x30C3, 0xFF70,
    0x3087, 0x4F60, 0x597D, 0x3005, 0x432, 0x430,
    0xFB01, 0xFF21, 0x2460, 0xB2,  // compatibility forms
    0xAD, 0x200B, 0x200C, 0x200D, 0xFE0F, 0x2060,  // ignorables, joiners
    0x1F44D, 0x1F3FD, 0x1F468, 0x1F469, 0x2764, 0x1F1EB, 0x1F1F7, 0x1F1E9, 0x1F1EA,  // emoji
  ]
  return values.compactMap(Unicode.Scalar.init)
}()

private let randomText = Gen<Unicode.Scalar?>.element(of: scalarPool).array(of: 0...14).map {
  (scalars: [Unicode.Scalar?]) -> String in
  var text = String.UnicodeScalarView()
  for case let scalar? in scalars { text.append(scalar) }
  return String(text)
}

private let foldings: [Folding] = [
  .default, .none, [.case], [.diacritics], [.compatibility],
  [
    .case, .diacritics, .compatibility, .latin,
  ],
  [.case, .diacritics, .compatibility, .dotlessI], [.dotlessI], [.case, .dotlessI],
]

@Suite struct FoldingPropertyTests {
  /// UTF-8 offsets of every character boundary of `text`, the end included.
  private func characterBoundaries(_ text: String) -> Set<Int> {
    var result: Set<Int> = [text.utf8.count]
    for index in text.indices {
      result.insert(text.utf8.distance(from: text.startIndex, to: index))
    }
    return result
  }

  @Test(arguments: foldings)
  func foldingIsIdempotent(_ folding: Folding) async throws {
    // Turkish where its rules apply, and where the dotless-i option overrides them.
    let turkish = folding == .default || folding.isSuperset(of: [.case, .dotlessI])
    let normalizer = try Normalizer(folding: folding, locale: turkish ? "tr" : nil)
    await propertyCheck(count: TestBudget.cases(1000), input: randomText) { text in
      let once = try normalizer.fold(text)
      let twice = try normalizer.fold(once)
      #expect(Array(once.utf8) == Array(twice.utf8), "\(Array(text.unicodeScalars))")
    }
  }

  @Test(arguments: foldings)
  func composedAndDecomposedFoldAlike(_ folding: Folding) async throws {
    let normalizer = try Normalizer(folding: folding)
    let nfc = try ICU.Normalizer.nfc.get()
    let nfd = try ICU.Normalizer.nfd.get()
    await propertyCheck(count: TestBudget.cases(1000), input: randomText) { text in
      let composed = String(decoding: try nfc.normalize(Array(text.utf16)), as: UTF16.self)
      let decomposed = String(decoding: try nfd.normalize(Array(text.utf16)), as: UTF16.self)
      let a = try normalizer.fold(composed)
      let b = try normalizer.fold(decomposed)
      #expect(Array(a.utf8) == Array(b.utf8), "\(Array(text.unicodeScalars))")
    }
  }

  @Test(arguments: foldings)
  func everyMatchMapsToWholeOriginalCharacters(_ folding: Folding) async throws {
    let normalizer = try Normalizer(folding: folding)
    // Every pair of folded boundaries of each text, so fewer texts than the tests above.
    await propertyCheck(count: TestBudget.cases(300), input: randomText) { text in
      let folded = try normalizer.foldedText(text)
      let boundaries = characterBoundaries(text)
      let foldedCharacters = characterBoundaries(folded.folded)
      // Every range between folded character boundaries maps to whole original characters,
      // and the folded text of what it maps to contains what was matched.
      let offsets = foldedCharacters.sorted()
      for (i, lower) in offsets.enumerated() {
        for upper in offsets[(i + 1)...] {
          let original = try #require(
            folded.originalUTF8Range(forFolded: lower..<upper),
            "\(Array(text.unicodeScalars)) \(lower)..<\(upper)")
          #expect(boundaries.contains(original.lowerBound), "\(Array(text.unicodeScalars))")
          #expect(boundaries.contains(original.upperBound), "\(Array(text.unicodeScalars))")
          let piece = Array(folded.utf8[lower..<upper])
          if folding.contains(.latin) {
            // Inside a run a letter is read in context ("υ" is "u" after "ε", "y" alone), so
            // the highlighted characters alone may fold otherwise; the text up to the end of
            // the highlight folds to a text that starts with everything up to the match's end.
            let before = String(decoding: Array(text.utf8)[..<original.upperBound], as: UTF8.self)
            let refolded = Array(try normalizer.fold(before).utf8)
            #expect(
              refolded.starts(with: folded.utf8[..<upper]),
              "\(Array(text.unicodeScalars)) \(lower)..<\(upper)")
          } else {
            let highlighted = String(decoding: Array(text.utf8)[original], as: UTF8.self)
            let refolded = Array(try normalizer.fold(highlighted).utf8)
            #expect(
              refolded.contains(piece), "\(Array(text.unicodeScalars)) \(lower)..<\(upper)")
          }
        }
      }
      // Scalar boundaries inside a folded character are never match boundaries.
      var offset = 0
      for scalar in folded.folded.unicodeScalars {
        #expect(folded.isCharacterBoundary(offset) == foldedCharacters.contains(offset))
        offset += UTF8.width(scalar)
      }
    }
  }
}

extension Array where Element == UInt8 {
  fileprivate func contains(_ piece: [UInt8]) -> Bool {
    if piece.isEmpty { return true }
    guard piece.count <= count else { return false }
    for start in 0...(count - piece.count)
    where self[start..<start + piece.count].elementsEqual(piece) {
      return true
    }
    return false
  }
}
