// The folding pipeline for one character, run by ICU when a folder first meets it.

extension Folder {
  /// The folded form of one character (grapheme cluster), iterated until it is stable so that
  /// folding a folded text changes nothing.
  func foldCharacter(_ character: String) throws(ICUError) -> String {
    var units = Array(character.utf16)
    for _ in 0..<4 {
      let next = try foldOnce(units)
      if next == units { break }
      units = next
    }
    return String(decoding: units, as: UTF16.self)
  }

  private func foldOnce(_ input: [UInt16]) throws(ICUError) -> [UInt16] {
    let folding = normalizer.folding
    let nfc = try ICU.Normalizer.nfc.get()
    var units = input
    if folding.contains(.latin), let transliterator {
      units = try transliterator.transliterate(try nfc.normalize(units))
    }
    if folding.contains(.compatibility) {
      units = try ICU.Normalizer.nfkc.get().normalize(units)
    } else {
      units = try nfc.normalize(units)
    }
    if folding.contains(.dotlessI) {
      units = try nfc.normalize(
        Self.foldingDottedAndDotlessI(try ICU.Normalizer.nfd.get().normalize(units)))
    }
    if folding.contains(.case) {
      units = try ICU.foldCase(units, turkic: normalizer.isTurkic)
    }
    if folding.contains(.compatibility) {
      units = try ICU.Normalizer.nfkc.get().normalize(units)
      units = Self.removingIgnorables(units)
    }
    units = try nfc.normalize(units)
    if folding.contains(.diacritics) {
      units = try ICU.Normalizer.nfd.get().normalize(units)
      units = Self.removingDiacritics(units, keepsDotlessI: normalizer.isTurkic)
      units = try nfc.normalize(units)
    }
    return units
  }

  /// NFD text with "I", "ı" (U+0131) and "i" as "i", and every dot above (U+0307) among the
  /// marks of such a letter dropped.
  ///
  /// In NFD, "İ" (U+0130) is "I" with a dot above, so all four letters, composed or decomposed,
  /// become the same "i", and their other marks stay ("Í" becomes "í").
  ///
  /// A mark belongs to the letter before it until the next scalar of canonical combining class 0.
  private static func foldingDottedAndDotlessI(_ units: [UInt16]) -> [UInt16] {
    let text = String(decoding: units, as: UTF16.self)
    var result = String.UnicodeScalarView()
    var afterI = false
    for scalar in text.unicodeScalars {
      switch scalar.value {
      case 0x49, 0x69, 0x131:
        result.append("i")
        afterI = true
      case 0x307 where afterI:
        continue
      default:
        result.append(scalar)
        if scalar.properties.canonicalCombiningClass == .notReordered { afterI = false }
      }
    }
    return Array(String(result).utf16)
  }

  /// NFD text without its removable marks, and with the letters of ``LetterFoldings`` (ø,
  /// ł, đ, þ, æ ...) written as their base letters.
  ///
  /// Under the Turkic rules dotless "ı" stays: Turkish and Azeri tell it from "i".
  private static func removingDiacritics(_ units: [UInt16], keepsDotlessI: Bool) -> [UInt16] {
    let text = String(decoding: units, as: UTF16.self)
    var result = String.UnicodeScalarView()
    for scalar in text.unicodeScalars where !ScalarClasses.isRemovableDiacritic(scalar) {
      if !(keepsDotlessI && scalar.value == 0x131), let letters = LetterFoldings.table[scalar.value]
      {
        result.append(contentsOf: letters.unicodeScalars)
      } else {
        result.append(scalar)
      }
    }
    return Array(String(result).utf16)
  }

  /// Text without its default-ignorable characters (``ScalarClasses/isDroppedIgnorable(_:)``),
  /// except a zero-width joiner between two emoji (GB11: an Extended_Pictographic scalar, any
  /// extenders such as a skin tone, the joiner, another Extended_Pictographic), which makes
  /// 👨‍👩‍👧 one character.
  ///
  /// Every other joiner goes, and the non-joiner with it: inside an Indic conjunct (क्‍ष, র‍্য)
  /// they choose how the conjunct is drawn, not what is written.
  private static func removingIgnorables(_ units: [UInt16]) -> [UInt16] {
    let scalars = Array(String(decoding: units, as: UTF16.self).unicodeScalars)
    var kept = String.UnicodeScalarView()
    var afterEmoji = false
    for (i, scalar) in scalars.enumerated() {
      if scalar.value == 0x200D, afterEmoji, i + 1 < scalars.count,
        ScalarClasses.isExtendedPictographic(scalars[i + 1])
      {
        kept.append(scalar)
      } else if !ScalarClasses.isDroppedIgnorable(scalar) {
        kept.append(scalar)
      }
      if ScalarClasses.isExtendedPictographic(scalar) {
        afterEmoji = true
      } else if !ScalarClasses.isExtend(scalar) {
        afterEmoji = false
      }
    }
    return Array(String(kept).utf16)
  }
}
