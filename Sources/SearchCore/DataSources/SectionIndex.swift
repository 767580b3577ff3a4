import SearchEngine

/// The index down the side of a table in one locale, from ICU's alphabetic index (CLDR's
/// index characters): a fixed list of titles, and the title each text is filed under.
///
/// ICU files a text under the last letter that sorts at or before it at primary strength, so
/// full-width "Ｋｅｎｊｉ" goes under "K", Swedish "über" under "Y" (CLDR's Swedish sorts ü as y),
/// Czech "chata" under "CH" (a letter of two characters after "H"), Chinese "北京" under "B"
/// (its pinyin) and Japanese "さくら" under "さ" (its kana row). Texts before the first letter,
/// between two scripts or after the last letter (digits, "東京" in English) share
/// ``SectionedTable/Collation/otherTitle``, the last title.
///
/// Immutable and safe to share between threads, as ICU's immutable index is.
struct SectionIndex: Sendable {
  /// The titles in the index's order, ``SectionedTable/Collation/otherTitle`` last and once.
  let titles: [String]
  private let index: ICU.AlphabeticIndex
  /// For each of the index's buckets, the position of its title in ``titles``.
  private let positionOfBucket: [Int]
  private let positionOfTitle: [String: Int]

  /// The index of a locale; ICU uses the root locale's for a locale it does not know.
  init(locale: String) throws(ICUError) {
    var index = try ICU.AlphabeticIndex(locale: locale)
    // An index of another script (Japanese kana, Russian Cyrillic, Chinese strokes) would file
    // every Latin name under "#"; as UIKit's does, it gets the letters A to Z as well. A Latin
    // index keeps its own letters (Lithuanian has no Q, W or X).
    let latin = try index.bucketIndex(of: "A")
    if index.buckets[latin].kind != .letter {
      index = try ICU.AlphabeticIndex(locale: locale, extraLabelsLocale: "en")
    }
    var titles: [String] = []
    var positionOfBucket: [Int] = []
    for bucket in index.buckets {
      if bucket.kind == .letter {
        positionOfBucket.append(titles.count)
        titles.append(bucket.label)
      } else {
        positionOfBucket.append(-1)  // the other title's, known once every letter is counted
      }
    }
    let other = titles.count
    titles.append(SectionedTable.Collation.otherTitle)
    self.titles = titles
    self.positionOfBucket = positionOfBucket.map { $0 < 0 ? other : $0 }
    self.positionOfTitle = Dictionary(
      titles.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
    self.index = index
  }

  /// The title a text is filed under: a title of the index.
  ///
  /// - Complexity: O(log *b*) comparisons for *b* buckets, each stopping at the first letter
  ///   that differs; cheaper than a sort key, so titles are not cached.
  func title(for text: String) -> String { titles[position(of: text)] }

  /// The position in ``titles`` of the title a text is filed under.
  func position(of text: String) -> Int {
    // ICU's lookup fails only when handed a failure, which it is not; "#" is the safe answer.
    guard let bucket = try? index.bucketIndex(of: text) else { return titles.count - 1 }
    return positionOfBucket[bucket]
  }

  /// The position in ``titles`` of a title, or for a text that is not one, of the title it
  /// is filed under.
  func position(ofTitle title: String) -> Int {
    positionOfTitle[title] ?? position(of: title)
  }

  /// Where a section titled `title` goes in the index's order: a title of the index at its
  /// position, with ``SectionedTable/Collation/otherTitle`` last; any other text just after the title it
  /// is filed under (German "Äpfel" after "A"), or before "#" when filed under "#".
  func rank(ofTitle title: String) -> Int {
    if let position = positionOfTitle[title] { return 2 * position }
    let position = self.position(of: title)
    return position == titles.count - 1 ? 2 * position - 1 : 2 * position + 1
  }
}
