import SearchEngine

extension SectionedTable {
  /// The collation rules of one locale for a table: the order of rows, and the section index
  /// with each text's section title, as UIKit's `UILocalizedIndexedCollation` gives them.
  ///
  /// The index titles are the locale's fixed list from ICU's alphabetic index (CLDR's index
  /// characters), ``otherTitle`` ("#") last: "A" to "Z" in English and German (German "Ärger"
  /// goes under "A"); "Ñ" after "N" in Spanish; "Å", "Ä", "Ö" after "Z" in Swedish, where "über"
  /// goes under "Y"; "CH" after "H" in Czech; the kana rows "あ", "か", … in Japanese; "A" to
  /// "Z" by pinyin in Chinese. A locale whose own index has no Latin letters gets "A" to "Z"
  /// too. Texts that come before the first letter (digits, symbols, the empty text) or in a
  /// script the index has no letters for go under ``otherTitle``.
  ///
  /// A collation is a small value, safe to share between threads: ICU collators are not, so
  /// the one it holds is used under a lock, and a table build works on a private copy; the
  /// index is immutable and needs no lock.
  public struct Collation: Hashable, Sendable {
    /// The locale identifier, such as "es", "sv" or "de"; "" for the root locale.
    public let locale: String

    /// The title of the section, and the last index title, for texts that no letter of the
    /// index files: digits, symbols, other scripts.
    public static let otherTitle = "#"

    private let shared: Shared

    /// Creates the collation of a locale.
    ///
    /// - Throws: ``/SearchEngine/ICUError`` when ICU cannot open a collator or an alphabetic index for the
    ///   locale. (ICU falls back to the root rules for a locale it does not know rather than
    ///   failing.)
    public init(locale: String) throws(ICUError) {
      self.locale = locale
      let index = try SectionIndex(locale: locale)
      shared = Shared(worker: try CollationWorker(locale: locale, index: index), index: index)
    }

    /// The locale's index titles in order, ``otherTitle`` last: what a table's index down the
    /// side shows, as UIKit's `sectionIndexTitles`.
    ///
    /// For example "A" … "Z", "#" in English; "A" … "N", "Ñ", "O" … "Z", "#" in Spanish;
    /// "A" … "Z", "Å", "Ä", "Ö", "#" in Swedish.
    public var indexTitles: [String] { shared.index.titles }

    /// The sort key of a text: comparing keys byte by byte (shorter first when one is a prefix
    /// of the other) orders texts as the locale does.
    public func sortKey(_ text: String) -> [UInt8] {
      shared.worker.withLock { $0.sortKey(text) }
    }

    /// The index title a text is filed under, one of ``indexTitles``: "A" for German "Ärger",
    /// "Ñ" for Spanish "Ñandú", "Y" for Swedish "über", "CH" for Czech "chata", "K" for
    /// full-width "Ｋｅｎｊｉ", ``otherTitle`` for "42".
    ///
    /// - Complexity: O(log *t*) comparisons for *t* index titles, each stopping at the first
    ///   letter that differs.
    public func sectionTitle(for text: String) -> String {
      shared.index.title(for: text)
    }

    /// Distinct section titles in the index's order, with ``otherTitle`` last.
    ///
    /// A title that is not one of ``indexTitles`` goes just after the index title it is filed
    /// under (before ``otherTitle`` when that is "#"); titles in the same place follow the
    /// collation.
    public func orderedSectionTitles(_ titles: some Sequence<String>) -> [String] {
      let titles = Array(Set(titles))
      return shared.worker.withLock { $0.order(titles, otherLast: true) }
    }

    /// The position in ``indexTitles`` of a title, or for a text that is not one, of the title
    /// it is filed under.
    func indexPosition(ofTitle title: String) -> Int { shared.index.position(ofTitle: title) }

    /// A private copy of the collator, for a long run of work on one thread without the lock.
    func makeWorker() throws(ICUError) -> CollationWorker {
      let copy: Result<CollationWorker, ICUError> = shared.worker.withLock { worker in
        do throws(ICUError) { return .success(try worker.copy()) } catch { return .failure(error) }
      }
      return try copy.get()
    }

    /// Two collations are equal when they are for the same locale, so they order alike.
    public static func == (lhs: SectionedTable.Collation, rhs: SectionedTable.Collation) -> Bool {
      lhs.locale == rhs.locale
    }

    /// Hashes the locale.
    public func hash(into hasher: inout Hasher) { hasher.combine(locale) }

    /// The collator that copies of a collation share (ICU collators are not thread-safe), and
    /// the index, which is.
    private final class Shared: Sendable {
      let worker: LockedValue<CollationWorker>
      let index: SectionIndex

      init(worker: sending CollationWorker, index: SectionIndex) {
        self.worker = LockedValue(worker)
        self.index = index
      }
    }
  }
}

/// A collator of one locale at full strength, and the locale's section index.
///
/// One thread at a time.
final class CollationWorker {
  private let collator: ICU.Collator
  private let index: SectionIndex

  init(locale: String, index: SectionIndex) throws(ICUError) {
    collator = try ICU.Collator(locale: locale)
    self.index = index
  }

  private init(collator: ICU.Collator, index: SectionIndex) {
    self.collator = collator
    self.index = index
  }

  func copy() throws(ICUError) -> CollationWorker {
    CollationWorker(collator: try collator.copy(), index: index)
  }

  func sortKey(_ text: String) -> [UInt8] { collator.sortKey(text) }

  /// The index title a text is filed under.
  func sectionTitle(for text: String) -> String { index.title(for: text) }

  /// Titles in order.
  ///
  /// With `otherLast` they are first-letter titles, in the index's order with "#" last
  /// (``SectionIndex/rank(ofTitle:)``); without, in collation order. Titles in the same place keep
  /// a fixed order (collation, then scalars), so a table's section order is stable.
  func order(_ titles: [String], otherLast: Bool) -> [String] {
    let keyed = titles.map { title in
      (title: title, rank: otherLast ? index.rank(ofTitle: title) : 0, key: collator.sortKey(title))
    }
    return keyed.sorted { a, b in
      if a.rank != b.rank { return a.rank < b.rank }
      switch compareKeys(a.key, b.key) {
      case .lessThan: return true
      case .greaterThan: return false
      case .equal: return a.title.unicodeScalars.lexicographicallyPrecedes(b.title.unicodeScalars)
      }
    }
    .map(\.title)
  }
}

/// The outcome of comparing two values.
enum KeyOrder {
  case lessThan
  case equal
  case greaterThan
}

/// Compares two sort keys byte by byte, a prefix first.
func compareKeys(_ a: [UInt8], _ b: [UInt8]) -> KeyOrder {
  let count = min(a.count, b.count)
  return a.withUnsafeBufferPointer { x in
    b.withUnsafeBufferPointer { y in
      for i in 0..<count where x[i] != y[i] { return x[i] < y[i] ? .lessThan : .greaterThan }
      return a.count == b.count ? .equal : (a.count < b.count ? .lessThan : .greaterThan)
    }
  }
}
