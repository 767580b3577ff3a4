import Synchronization

/// The collation rules of one locale for a table: the order of rows and section titles, and
/// the first-letter title of a text (as UIKit's `UILocalizedIndexedCollation` gives).
///
/// Under Spanish rules "Ñ" is a letter of its own after "N"; under Swedish rules "Å", "Ä"
/// and "Ö" are letters after "Z"; under German rules "Ä" sorts with "A". A text that does not
/// start with a letter has the title ``otherTitle`` ("#"), which sorts after every letter.
///
/// A collation is a small value, safe to share between threads: ICU collators are not, so
/// the one it holds is used under a lock, and a table build works on a private copy.
public struct TableCollation: Hashable, Sendable {
  /// The locale identifier, such as "es", "sv" or "de"; "" for the root locale.
  public let locale: String

  /// The title of the section for texts that do not start with a letter.
  public static let otherTitle = "#"

  private let shared: Shared

  /// Creates the collation of a locale.
  ///
  /// - Throws: ``ICUError`` when ICU cannot open a collator for the locale. (ICU falls back
  ///   to the root rules for a locale it does not know rather than failing.)
  public init(locale: String) throws(ICUError) {
    self.locale = locale
    shared = Shared(worker: try CollationWorker(locale: locale))
  }

  /// The sort key of a text: comparing keys byte by byte (shorter first when one is a prefix
  /// of the other) orders texts as the locale does.
  public func sortKey(_ text: String) -> [UInt8] {
    shared.worker.withLock { $0.sortKey(text) }
  }

  /// The first-letter title of a text, such as "A" for German "Ärger", "Ñ" for Spanish
  /// "Ñandú" or ``otherTitle`` for "42".
  ///
  /// A letter's title is the letter in upper case, or its base letter (without diacritics)
  /// when the locale sorts the two as the same letter.
  public func sectionTitle(for text: String) -> String {
    shared.worker.withLock { $0.sectionTitle(for: text) }
  }

  /// Distinct section titles in the locale's order, with ``otherTitle`` last.
  public func orderedSectionTitles(_ titles: some Sequence<String>) -> [String] {
    let titles = Array(Set(titles))
    return shared.worker.withLock { $0.order(titles, otherLast: true) }
  }

  /// A private copy of the collator, for a long run of work on one thread without the lock.
  func makeWorker() throws(ICUError) -> CollationWorker {
    let copy: Result<CollationWorker, ICUError> = shared.worker.withLock { worker in
      do throws(ICUError) { return .success(try worker.copy()) } catch { return .failure(error) }
    }
    return try copy.get()
  }

  /// Two collations are equal when they are for the same locale, so they order alike.
  public static func == (lhs: TableCollation, rhs: TableCollation) -> Bool {
    lhs.locale == rhs.locale
  }

  /// Hashes the locale.
  public func hash(into hasher: inout Hasher) { hasher.combine(locale) }

  /// The collator that copies of a collation share; ICU collators are not thread-safe.
  private final class Shared: Sendable {
    let worker: Mutex<CollationWorker>

    init(worker: sending CollationWorker) { self.worker = Mutex(worker) }
  }
}

/// A collator of one locale at full strength, its primary-strength twin for the same-letter
/// test, and the titles found so far. One thread at a time.
final class CollationWorker {
  private let collator: ICU.Collator
  private let primary: ICU.Collator
  // Titles depend only on the first character, and a table has few distinct ones.
  private var titles: [Character: String] = [:]

  init(locale: String) throws(ICUError) {
    collator = try ICU.Collator(locale: locale)
    primary = try collator.copy()
    primary.setStrength(0)
  }

  private init(collator: ICU.Collator, primary: ICU.Collator) {
    self.collator = collator
    self.primary = primary
  }

  func copy() throws(ICUError) -> CollationWorker {
    CollationWorker(collator: try collator.copy(), primary: try primary.copy())
  }

  func sortKey(_ text: String) -> [UInt8] { collator.sortKey(text) }

  func sectionTitle(for text: String) -> String {
    guard let first = text.first, first.isLetter else { return TableCollation.otherTitle }
    if let title = titles[first] { return title }
    // "ß" upper-cases to "SS": a title is one letter.
    let upper = first.uppercased().first.map(String.init) ?? String(first)
    let title = baseLetter(of: upper)
    titles[first] = title
    return title
  }

  /// The letter without the diacritics that the locale ignores at primary strength: the
  /// shortest prefix of its decomposition (base, then base and its first marks, …) that
  /// compares equal to it, so Swedish "Ǻ" gives "Å" and German "Ä" gives "A".
  private func baseLetter(of letter: String) -> String {
    guard let nfd = try? ICU.Normalizer.nfd.get().normalize(Array(letter.utf16)) else {
      return letter
    }
    let scalars = Array(String(decoding: nfd, as: UTF16.self).unicodeScalars)
    guard scalars.count > 1 else { return letter }
    for length in 1..<scalars.count {
      // Only marks may be dropped: a Hangul syllable decomposes into letters (jamo).
      guard scalars[length...].allSatisfy(Self.isMark) else { continue }
      var prefix = String.UnicodeScalarView()
      prefix.append(contentsOf: scalars[..<length])
      let candidate = compose(String(prefix))
      if primary.compare(candidate, letter) == 0 { return candidate }
    }
    return letter
  }

  private func compose(_ text: String) -> String {
    guard let nfc = try? ICU.Normalizer.nfc.get().normalize(Array(text.utf16)) else {
      return text
    }
    return String(decoding: nfc, as: UTF16.self)
  }

  private static func isMark(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.properties.generalCategory {
    case .nonspacingMark, .spacingMark, .enclosingMark: return true
    default: return false
    }
  }

  /// Titles in collation order; with `otherLast`, "#" after all others. Titles that collate
  /// alike keep a fixed order (by their scalars), so a table's section order is stable.
  func order(_ titles: [String], otherLast: Bool) -> [String] {
    let keyed = titles.map { (title: $0, key: collator.sortKey($0)) }
    return keyed.sorted { a, b in
      if otherLast {
        let aOther = a.title == TableCollation.otherTitle
        let bOther = b.title == TableCollation.otherTitle
        if aOther != bOther { return bOther }
      }
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
