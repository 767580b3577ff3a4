import CICU

/// How many columns of a terminal a text takes, for aligning and cutting rows on a
/// character grid.
///
/// A character is one grapheme cluster: a letter with its combining marks takes one column,
/// an East Asian wide or fullwidth character (CJK ideographs, kana, hangul, fullwidth
/// Latin) and an emoji shown as a picture take two, control and format characters none.
public enum ColumnWidth {
  /// The columns `character` takes: 0, 1 or 2.
  public static func columns(of character: Character) -> Int {
    guard let first = character.unicodeScalars.first else { return 0 }
    switch first.properties.generalCategory {
    case .control, .format, .lineSeparator, .paragraphSeparator: return 0
    // A mark with no base of its own (the cluster starts with it) joins the previous column.
    case .nonspacingMark, .enclosingMark: return 0
    default: break
    }
    if first.properties.isEmojiPresentation
      || (first.properties.isEmoji && character.unicodeScalars.contains("\u{FE0F}"))
    {
      return 2
    }
    switch cicu_east_asian_width(Int32(bitPattern: first.value)) {
    case 3, 5: return 2  // fullwidth, wide
    default: return 1
    }
  }

  /// The columns `text` takes.
  public static func columns(of text: some StringProtocol) -> Int {
    var total = 0
    for character in text { total += columns(of: character) }
    return total
  }

  /// The longest start of `text` that fits in `limit` columns, and the columns it takes;
  /// a wide character that would straddle the limit is left out whole.
  public static func prefix(of text: Substring, fitting limit: Int) -> (Substring, columns: Int) {
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
}
