/// How many columns of a terminal a text takes, for aligning and cutting rows on a
/// character grid.
///
/// Text is cut only between characters (grapheme clusters), but a terminal advances its cursor
/// by each code point, as `wcwidth` counts them, so a character's columns are the sum of its
/// code points': a letter takes one, an East Asian wide or fullwidth character (CJK
/// ideographs, kana, hangul syllables, fullwidth Latin) two, a combining mark, a format or
/// control character and a medial or final hangul jamo none; a spacing vowel sign (Tamil
/// "ூ" in "சூ", Devanagari "ि") takes one of its own. An emoji shown as a picture takes two
/// whatever its code points.
package enum ColumnWidth {
  /// The columns `character` takes: 0 or more (two for a wide character, more for a cluster
  /// of spacing signs).
  package static func columns(of character: Character) -> Int {
    let scalars = character.unicodeScalars
    guard let first = scalars.first else { return 0 }
    if first.properties.isEmojiPresentation
      || (first.properties.isEmoji && scalars.contains("\u{FE0F}"))
    {
      return 2
    }
    var total = 0
    for scalar in scalars { total += columns(of: scalar) }
    return total
  }

  /// The columns the terminal's cursor moves for `scalar` alone.
  static func columns(of scalar: Unicode.Scalar) -> Int {
    switch scalar.properties.generalCategory {
    case .control, .format, .lineSeparator, .paragraphSeparator: return 0
    case .nonspacingMark, .enclosingMark: return 0
    default: break
    }
    switch scalar.value {
    // Hangul jungseong and jongseong: the vowel and final consonant of a syllable spelled out
    // in jamo, drawn in the leading consonant's two columns.
    case 0x1160...0x11FF, 0xD7B0...0xD7FF: return 0
    default: break
    }
    switch ICU.eastAsianWidth(of: scalar.value) {
    case 3, 5: return 2  // fullwidth, wide
    default: return 1
    }
  }

  /// The columns `text` takes.
  package static func columns(of text: some StringProtocol) -> Int {
    var total = 0
    for character in text { total += columns(of: character) }
    return total
  }

  /// The longest start of `text` that fits in `limit` columns, and the columns it takes;
  /// a wide character that would straddle the limit is left out whole.
  package static func prefix(of text: Substring, fitting limit: Int) -> (Substring, columns: Int) {
    var used = 0
    var end = text.startIndex
    for index in text.indices {
      let width = columns(of: text[index])
      if used + width > limit { break }
      used += width
      end = text.index(after: index)
    }
    // Zero-width characters right after the cut belong to nothing shown; leave them out too.
    return (text[text.startIndex..<end], used)
  }

  /// The longest end of `text` that fits in `limit` columns (one walk back from the end,
  /// however long the text).
  package static func suffix(of text: Substring, fitting limit: Int) -> Substring {
    var used = 0
    var start = text.endIndex
    while start > text.startIndex {
      let previous = text.index(before: start)
      used += columns(of: text[previous])
      if used > limit { break }
      start = previous
    }
    return text[start...]
  }
}
