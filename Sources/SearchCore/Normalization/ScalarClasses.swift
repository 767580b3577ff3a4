// Unicode classifications the folding pipeline needs, kept in one place.

import CICU

enum ScalarClasses {
  /// Whether a grapheme-cluster boundary certainly separates this scalar from any neighbour
  /// that is also plain: its Grapheme_Cluster_Break value is Other, Control (but not CR), LF,
  /// LV or LVT (a Hangul syllable), and no rule of UAX #29 joins two such scalars (GB6–GB8 need
  /// a leading or trailing jamo, GB9–GB9c a mark, joiner or linker, GB11 a joiner, GB12–GB13
  /// regional indicators). Lets the folder find most clusters without asking the grapheme
  /// breaker; `plainRanges` lists them and a test checks every one against Swift's breaker. A
  /// scalar outside these ranges is not necessarily joined; it only goes the slower, exact way.
  @inline(__always)
  static func isPlain(_ value: UInt32) -> Bool {
    if value < 0x300 { return value != 0x0D }
    var low = 0
    var high = plainRanges.count
    while low < high {
      let middle = (low + high) / 2
      if plainRanges[middle].upperBound < value { low = middle + 1 } else { high = middle }
    }
    return low < plainRanges.count && plainRanges[low].contains(value)
  }

  /// The scalars at or above U+0300 that are plain (see ``isPlain(_:)``), ascending: the
  /// letters, digits and punctuation of the scripts in real lists, without their marks, vowel
  /// signs, viramas, prepended marks and jamo.
  static let plainRanges: [ClosedRange<UInt32>] = [
    0x0370...0x0482,  // Greek and Coptic, Cyrillic (not its combining marks)
    0x048A...0x0590,  // Cyrillic, Cyrillic Supplement, Armenian
    0x05D0...0x05EA,  // Hebrew letters
    0x05EF...0x05F4,  // Hebrew ligatures and punctuation
    0x0620...0x064A,  // Arabic letters
    0x0660...0x066F,  // Arabic-Indic digits, punctuation, dotless letters
    0x0671...0x06D3,  // Arabic extended letters
    0x0904...0x0939,  // Devanagari vowels and consonants
    0x0966...0x096F,  // Devanagari digits
    0x0E01...0x0E30,  // Thai consonants and SARA A
    0x0E32...0x0E32,  // Thai SARA AA
    0x0E3F...0x0E46,  // Thai baht sign, leading vowels, MAIYAMOK
    0x0E4F...0x0E5B,  // Thai digits and punctuation
    0x10D0...0x10FF,  // Georgian
    0x1E00...0x1FFF,  // Latin Extended Additional (Vietnamese), Greek Extended
    0x2010...0x2027,  // dashes, quotation marks, bullets, ellipsis
    0x2030...0x205E,  // per mille, primes, other punctuation
    0x3000...0x3029,  // CJK symbols and punctuation (not the tone marks)
    0x3041...0x3096,  // Hiragana letters
    0x30A1...0x30FA,  // Katakana letters
    0x3400...0x4DBF,  // CJK Unified Ideographs Extension A
    0x4E00...0x9FFF,  // CJK Unified Ideographs
    0xAC00...0xD7A3,  // Hangul syllables (LV and LVT)
    0xF900...0xFAFF,  // CJK Compatibility Ideographs
    0xFF01...0xFF9D,  // fullwidth forms, halfwidth Katakana (not the sound marks)
  ]

  /// Whether diacritic folding removes this scalar: a nonspacing mark in the blocks of generic
  /// combining diacritics, or a Hebrew, Arabic or Syriac vowel point. Marks that make another
  /// letter in scripts where they are essential (Japanese voicing marks U+3099/U+309A, Indic
  /// vowel signs and viramas, Thai and Lao signs) are outside these ranges and stay.
  static func isRemovableDiacritic(_ scalar: Unicode.Scalar) -> Bool {
    let value = scalar.value
    let inRange: Bool
    switch value {
    case 0x0300...0x036F, 0x0483...0x0487, 0x1AB0...0x1AFF, 0x1DC0...0x1DFF, 0x20D0...0x20FF,
      0xFE20...0xFE2F:
      inRange = true
    case 0x0591...0x05BD, 0x05BF, 0x05C1...0x05C2, 0x05C4...0x05C5, 0x05C7:
      inRange = true  // Hebrew cantillation and niqqud
    case 0x0610...0x061A, 0x064B...0x065F, 0x0670, 0x06D6...0x06DC, 0x06DF...0x06E4,
      0x06E7...0x06E8, 0x06EA...0x06ED:
      inRange = true  // Arabic harakat and Quranic marks
    case 0x0730...0x074A:
      inRange = true  // Syriac vowel points
    default:
      inRange = false
    }
    return inRange && scalar.properties.generalCategory == .nonspacingMark
  }

  /// Whether compatibility folding drops this scalar: default-ignorable code points such as
  /// the soft hyphen, the zero-width non-joiner and the zero-width joiner. A joiner between
  /// two emoji, which holds an emoji ZWJ sequence together, is kept by the caller, which
  /// knows the neighbours (see ``isExtendedPictographic(_:)``).
  static func isDroppedIgnorable(_ scalar: Unicode.Scalar) -> Bool {
    scalar.properties.isDefaultIgnorableCodePoint
  }

  /// Whether the scalar is Extended_Pictographic, the emoji of the grapheme-cluster rule GB11
  /// (an emoji, a zero-width joiner, an emoji: one character).
  static func isExtendedPictographic(_ scalar: Unicode.Scalar) -> Bool {
    scalar.value >= 0xA9 && cicu_is_extended_pictographic(Int32(bitPattern: scalar.value)) != 0
  }

  /// Whether the scalar extends the character before it without ending an emoji sequence
  /// (Grapheme_Cluster_Break Extend: marks, variation selectors, skin-tone modifiers), so
  /// that a zero-width joiner after "👨🏽" still follows an emoji.
  static func isExtend(_ scalar: Unicode.Scalar) -> Bool {
    scalar.properties.isGraphemeExtend || scalar.properties.isEmojiModifier
  }

  /// Whether a cluster whose folded text starts with this scalar might join the folded text
  /// before it into one character (marks, joiners, regional indicators, Hangul jamo). A
  /// superset: the folder confirms with the grapheme breaker.
  static func mayJoinPrevious(_ scalar: Unicode.Scalar) -> Bool {
    let value = scalar.value
    if value < 0x300 { return false }
    switch scalar.properties.generalCategory {
    case .nonspacingMark, .spacingMark, .enclosingMark: return true
    default: break
    }
    return scalar.properties.isGraphemeExtend || value == 0x200D || isRegionalIndicator(value)
      || isHangul(value) || (0x1F3FB...0x1F3FF).contains(value)
  }

  /// Whether a cluster whose folded text ends with this scalar might join the folded text
  /// after it (CR before LF, prepended concatenation marks, joiners, viramas, regional
  /// indicators, Hangul).
  static func mayJoinNext(_ scalar: Unicode.Scalar) -> Bool {
    let value = scalar.value
    if value < 0x300 { return value == 0x0D }
    switch value {
    case 0x200D, 0x094D, 0x09CD, 0x0ACD, 0x0B4D, 0x0C4D, 0x0D4D: return true
    case 0x0600...0x0605, 0x06DD, 0x070F, 0x0890...0x0891, 0x08E2, 0x110BD, 0x110CD: return true
    default: return isRegionalIndicator(value) || isHangul(value)
    }
  }

  static func isRegionalIndicator(_ value: UInt32) -> Bool { (0x1F1E6...0x1F1FF).contains(value) }

  static func isHangul(_ value: UInt32) -> Bool {
    (0x1100...0x11FF).contains(value) || (0xA960...0xA97F).contains(value)
      || (0xD7B0...0xD7FF).contains(value) || (0xAC00...0xD7A3).contains(value)
  }
}
