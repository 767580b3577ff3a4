// Unicode classifications the folding pipeline needs, kept in one place.

enum ScalarClasses {
  /// Whether a grapheme-cluster boundary certainly separates this scalar from any neighbour
  /// that is also plain.
  ///
  /// A plain scalar's Grapheme_Cluster_Break value is Other, Control (but not CR), LF, LV or
  /// LVT (a Hangul syllable), and no rule of UAX #29 joins two such scalars (GB6–GB8 need a
  /// leading or trailing jamo, GB9–GB9c a mark, joiner or linker, GB11 a joiner, GB12–GB13
  /// regional indicators).
  ///
  /// Lets the folder find most clusters without asking the grapheme breaker; `plainRanges` lists
  /// them and a test checks every one against Swift's breaker. A scalar outside these ranges is not
  /// necessarily joined; it only goes the slower, exact way.
  @inline(__always)
  static func isPlain(_ value: UInt32) -> Bool {
    if value < 0x300 { return value != 0x0D }
    return contains(value, in: plainRanges)
  }

  /// Whether ascending, disjoint `ranges` contain `value` (a binary search).
  @inline(__always)
  static func contains(_ value: UInt32, in ranges: [ClosedRange<UInt32>]) -> Bool {
    var low = 0
    var high = ranges.count
    while low < high {
      let middle = (low + high) / 2
      if ranges[middle].upperBound < value { low = middle + 1 } else { high = middle }
    }
    return low < ranges.count && ranges[low].contains(value)
  }

  /// The scalars at or above U+0300 that are plain (see ``isPlain(_:)``), ascending: the
  /// letters, digits and punctuation of the scripts in real lists, without their marks, vowel
  /// signs, viramas, prepended marks and jamo.
  static let plainRanges: [ClosedRange<UInt32>] = [
    0x0370...0x0482,  // Greek and Coptic, Cyrillic (not its combining marks)
    0x048A...0x0590,  // Cyrillic, Cyrillic Supplement, Armenian
    0x05D0...0x05EA,  // Hebrew letters
    0x05EF...0x05F4,  // Hebrew ligatures and punctuation
    0x060C...0x060F,  // Arabic comma, date separator, poetic verse signs
    0x0620...0x064A,  // Arabic letters
    0x0660...0x066F,  // Arabic-Indic digits, punctuation, dotless letters
    0x0671...0x06D3,  // Arabic extended letters
    0x0904...0x0939,  // Devanagari vowels and consonants
    0x0966...0x096F,  // Devanagari digits
    0x0985...0x09B9,  // Bengali vowels and consonants
    0x09E6...0x09EF,  // Bengali digits
    0x0A05...0x0A39,  // Gurmukhi vowels and consonants
    0x0A66...0x0A6F,  // Gurmukhi digits
    0x0A85...0x0AB9,  // Gujarati vowels and consonants
    0x0B05...0x0B39,  // Oriya vowels and consonants
    0x0B85...0x0BB9,  // Tamil vowels and consonants
    0x0C05...0x0C39,  // Telugu vowels and consonants
    0x0C85...0x0CB9,  // Kannada vowels and consonants
    0x0D05...0x0D3A,  // Malayalam vowels and consonants
    0x0D85...0x0DC6,  // Sinhala vowels and consonants
    0x0E01...0x0E30,  // Thai consonants and SARA A
    0x0E32...0x0E32,  // Thai SARA AA
    0x0E3F...0x0E46,  // Thai baht sign, leading vowels, MAIYAMOK
    0x0E4F...0x0E5B,  // Thai digits and punctuation
    0x10D0...0x10FF,  // Georgian
    0x1200...0x135A,  // Ethiopic syllables
    0x1E00...0x1FFF,  // Latin Extended Additional (Vietnamese), Greek Extended
    0x2010...0x2027,  // dashes, quotation marks, bullets, ellipsis
    0x2030...0x205E,  // per mille, primes, other punctuation
    0x3000...0x3029,  // CJK symbols and punctuation (not the tone marks)
    0x3041...0x3096,  // Hiragana letters
    0x30A0...0x30FF,  // Katakana letters, middle dot, prolonged sound mark, iteration marks
    0x3400...0x4DBF,  // CJK Unified Ideographs Extension A
    0x4E00...0x9FFF,  // CJK Unified Ideographs
    0xAC00...0xD7A3,  // Hangul syllables (LV and LVT)
    0xF900...0xFAFF,  // CJK Compatibility Ideographs
    0xFF01...0xFF9D,  // fullwidth forms, halfwidth Katakana (not the sound marks)
  ]

  /// Whether the scalar is a mark that joins the character before it and nothing after it:
  /// Grapheme_Cluster_Break Extend or SpacingMark (GB9, GB9a), but not a virama (a linker of
  /// GB9c's conjuncts) nor the joiner (GB11).
  ///
  /// A plain scalar (other than a control) followed by such marks and then a plain scalar is one
  /// character, the marks with it: `markRanges` lists them and a test checks every one against
  /// Swift's breaker. A mark outside them goes the slower, exact way.
  @inline(__always)
  static func isAttachingMark(_ value: UInt32) -> Bool {
    value >= 0x300 && contains(value, in: markRanges)
  }

  /// The scalars of ``isAttachingMark(_:)``, ascending: the nonspacing, enclosing and spacing
  /// marks (Unicode 14.0) of the blocks of combining marks and of the scripts in real lists,
  /// without viramas (canonical combining class 9), Myanmar and Tibetan (whose spacing marks
  /// have exceptions), and Thai and Lao SARA AM.
  static let markRanges: [ClosedRange<UInt32>] = [
    0x0300...0x036F,  // combining diacritical marks
    0x0483...0x0489,  // Cyrillic combining marks
    0x0591...0x05BD, 0x05BF...0x05BF, 0x05C1...0x05C2, 0x05C4...0x05C5, 0x05C7...0x05C7,  // Hebrew
    0x0610...0x061A, 0x064B...0x065F, 0x0670...0x0670, 0x06D6...0x06DC, 0x06DF...0x06E4,
    0x06E7...0x06E8, 0x06EA...0x06ED,  // Arabic
    0x0900...0x0903, 0x093A...0x093C, 0x093E...0x094C, 0x094E...0x094F, 0x0951...0x0957,
    0x0962...0x0963,  // Devanagari
    0x0981...0x0983, 0x09BC...0x09BC, 0x09BE...0x09C4, 0x09C7...0x09C8, 0x09CB...0x09CC,
    0x09D7...0x09D7, 0x09E2...0x09E3, 0x09FE...0x09FE,  // Bengali
    0x0A01...0x0A03, 0x0A3C...0x0A3C, 0x0A3E...0x0A42, 0x0A47...0x0A48, 0x0A4B...0x0A4C,
    0x0A51...0x0A51, 0x0A70...0x0A71, 0x0A75...0x0A75,  // Gurmukhi
    0x0A81...0x0A83, 0x0ABC...0x0ABC, 0x0ABE...0x0AC5, 0x0AC7...0x0AC9, 0x0ACB...0x0ACC,
    0x0AE2...0x0AE3, 0x0AFA...0x0AFF,  // Gujarati
    0x0B01...0x0B03, 0x0B3C...0x0B3C, 0x0B3E...0x0B44, 0x0B47...0x0B48, 0x0B4B...0x0B4C,
    0x0B55...0x0B57, 0x0B62...0x0B63,  // Oriya
    0x0B82...0x0B82, 0x0BBE...0x0BC2, 0x0BC6...0x0BC8, 0x0BCA...0x0BCC, 0x0BD7...0x0BD7,  // Tamil
    0x0C00...0x0C04, 0x0C3C...0x0C3C, 0x0C3E...0x0C44, 0x0C46...0x0C48, 0x0C4A...0x0C4C,
    0x0C55...0x0C56, 0x0C62...0x0C63,  // Telugu
    0x0C81...0x0C83, 0x0CBC...0x0CBC, 0x0CBE...0x0CC4, 0x0CC6...0x0CC8, 0x0CCA...0x0CCC,
    0x0CD5...0x0CD6, 0x0CE2...0x0CE3,  // Kannada
    0x0D00...0x0D03, 0x0D3E...0x0D44, 0x0D46...0x0D48, 0x0D4A...0x0D4C, 0x0D57...0x0D57,
    0x0D62...0x0D63,  // Malayalam
    0x0D81...0x0D83, 0x0DCF...0x0DD4, 0x0DD6...0x0DD6, 0x0DD8...0x0DDF, 0x0DF2...0x0DF3,  // Sinhala
    0x0E31...0x0E31, 0x0E34...0x0E39, 0x0E47...0x0E4E,  // Thai
    0x0EB1...0x0EB1, 0x0EB4...0x0EB9, 0x0EBB...0x0EBC, 0x0EC8...0x0ECD,  // Lao
    0x135D...0x135F,  // Ethiopic
    0x1AB0...0x1ACE,  // combining diacritical marks extended
    0x1DC0...0x1DFF,  // combining diacritical marks supplement
    0x20D0...0x20F0,  // combining marks for symbols
    0x3099...0x309A,  // kana voiced sound marks
    0xFE00...0xFE0F,  // variation selectors
    0xFE20...0xFE2F,  // combining half marks
  ]

  /// What the folder's way of finding characters needs to know of each scalar below U+10000
  /// (where all of ``plainRanges`` and ``markRanges`` lie): ``plain`` (``isPlain(_:)``),
  /// ``attachingMark`` (``isAttachingMark(_:)``) or 0; one lookup instead of two searches.
  static let bmpKinds: [UInt8] = {
    var kinds = [UInt8](repeating: 0, count: 0x10000)
    for value in 0..<0x300 where value != 0x0D { kinds[value] = plain }
    for range in plainRanges { for value in range { kinds[Int(value)] = plain } }
    for range in markRanges { for value in range { kinds[Int(value)] = attachingMark } }
    return kinds
  }()
  static let plain: UInt8 = 1
  static let attachingMark: UInt8 = 2

  /// Whether diacritic folding removes this scalar: a nonspacing mark in the blocks of generic
  /// combining diacritics, or a Hebrew, Arabic or Syriac vowel point.
  ///
  /// Marks that make another letter in scripts where they are essential (Japanese voicing marks
  /// U+3099/U+309A, Indic vowel signs and viramas, Thai and Lao signs) are outside these ranges and
  /// stay.
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
  /// the soft hyphen, the zero-width non-joiner and the zero-width joiner.
  ///
  /// A joiner between two emoji, which holds an emoji ZWJ sequence together, is kept by the caller,
  /// which knows the neighbours (see ``isExtendedPictographic(_:)``).
  static func isDroppedIgnorable(_ scalar: Unicode.Scalar) -> Bool {
    scalar.properties.isDefaultIgnorableCodePoint
  }

  /// Whether the scalar is Extended_Pictographic, the emoji of the grapheme-cluster rule GB11
  /// (an emoji, a zero-width joiner, an emoji: one character).
  static func isExtendedPictographic(_ scalar: Unicode.Scalar) -> Bool {
    scalar.value >= 0xA9 && ICU.isExtendedPictographic(scalar.value)
  }

  /// Whether the scalar extends the character before it without ending an emoji sequence
  /// (Grapheme_Cluster_Break Extend: marks, variation selectors, skin-tone modifiers), so
  /// that a zero-width joiner after "👨🏽" still follows an emoji.
  static func isExtend(_ scalar: Unicode.Scalar) -> Bool {
    scalar.properties.isGraphemeExtend || scalar.properties.isEmojiModifier
  }

  /// Whether a cluster whose folded text starts with this scalar might join the folded text
  /// before it into one character (marks, joiners, regional indicators, Hangul jamo).
  ///
  /// A superset: the folder confirms with the grapheme breaker.
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

  /// Whether every folding but ``Folding/latin`` leaves the scalar as it is.
  ///
  /// These scalars are the CJK unified ideographs of the Basic Multilingual Plane (no
  /// decomposition, canonical or compatibility, and no case) and the Hangul syllables (whose
  /// canonical decomposition into jamo NFC composes again, with no mark to remove and no case).
  ///
  /// Their folded form needs no ICU, and they are most of the characters of a multilingual list; a
  /// test checks every one against the pipeline.
  static func foldsToItself(_ value: UInt32) -> Bool {
    (0x3400...0x4DBF).contains(value) || (0x4E00...0x9FFF).contains(value)
      || (0xAC00...0xD7A3).contains(value)
  }

  static func isRegionalIndicator(_ value: UInt32) -> Bool { (0x1F1E6...0x1F1FF).contains(value) }

  static func isHangul(_ value: UInt32) -> Bool {
    (0x1100...0x11FF).contains(value) || (0xA960...0xA97F).contains(value)
      || (0xD7B0...0xD7FF).contains(value) || (0xAC00...0xD7A3).contains(value)
  }
}
