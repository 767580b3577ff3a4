/// Folds text for comparison: items and queries go through the same folding, and a match is a
/// byte-wise substring match of the folded forms.
///
/// A normaliser is a small value, safe to share between threads. Folding one string is
/// ``fold(_:)``; folding many, or folding with a map back to the original for highlighting,
/// goes through a ``Folder``, which caches the folded form of every character it has seen and
/// belongs to one thread at a time.
///
/// Pure-ASCII text never reaches ICU. Other characters are folded by ICU once per folder
/// and then served from the folder's cache.
///
/// The pipeline, applied to each grapheme cluster of the input:
/// 1. with ``Folding/latin``: ICU's "Any-Latin; Latin-ASCII" transliteration (of a whole run
///    of a script's characters at once, whose result then goes through the steps below
///    character by character; see <doc:Normalization>);
/// 2. NFC, or NFKC with ``Folding/compatibility``;
/// 3. with ``Folding/dotlessI``: "I", "ı" and "İ" become "i", and a dot above an i goes;
/// 4. with ``Folding/case``: full case folding (Turkic mappings for Turkish and Azeri);
/// 5. with ``Folding/compatibility``: NFKC again and default-ignorable characters dropped
///    (the zero-width joiner too, unless it stands between two emoji);
/// 6. with ``Folding/diacritics``: NFD, removable marks dropped, letters with a stroke or bar
///    and ligatures written as their base letters ("ø" as "o", "æ" as "ae"), NFC;
/// repeated until the result no longer changes, so folding is idempotent.
public struct Normalizer: Sendable {
  /// What the normaliser ignores.
  public let folding: Folding
  /// The locale whose case rules apply, such as "tr"; nil for the root locale.
  public let locale: String?
  /// Whether the Turkic case mappings apply (Turkish and Azeri: "I" ~ "ı", "İ" ~ "i"): the
  /// locale is Turkish or Azeri and the folding has no ``Folding/dotlessI``, which overrides
  /// them.
  public let isTurkic: Bool

  let shared: Shared

  /// The version of the folding rules: raised whenever a change folds some text differently
  /// (2: letters without a decomposition under ``Folding/diacritics``, joiners outside emoji
  /// under ``Folding/compatibility``; 3: runs of a script transliterated as wholes under
  /// ``Folding/latin``).
  package static let rulesVersion = 3

  /// The rules this normaliser folds by, beyond its options: the rules' version and the ICU
  /// data behind them.
  ///
  /// A store of folded text (a search server's table) records it, so that text folded by other
  /// rules is noticed and folded again rather than searched as if equal.
  package var rulesIdentity: String { "rules \(Self.rulesVersion), ICU \(ICU.version)" }

  /// Creates a normaliser, loading the ICU data it needs.
  ///
  /// - Throws: ``ICUError`` when ICU cannot provide a normaliser or the transliterator.
  public init(folding: Folding = .default, locale: String? = nil) throws(ICUError) {
    self.folding = folding
    self.locale = locale
    let language = locale.map { String($0.prefix { $0 != "_" && $0 != "-" }).lowercased() }
    self.isTurkic = (language == "tr" || language == "az") && !folding.contains(.dotlessI)
    for form in [ICU.Normalizer.nfc, ICU.Normalizer.nfd, ICU.Normalizer.nfkc] { _ = try form.get() }
    self.shared = try Shared(latin: folding.contains(.latin))
  }

  /// Whether ICU knows the language of `locale` ("tr", "sv_SE", "de-AT"; "" is the root
  /// locale): an unknown one would fold and collate as the root locale without a word, so a
  /// program can refuse it instead.
  public static func isKnownLocale(_ locale: String) -> Bool {
    guard locale.utf8.allSatisfy({ $0 != 0 }) else { return false }
    return ICU.isAvailable(locale: locale)
  }

  /// Folds one string.
  ///
  /// - Complexity: O(*n*) in the length of `text`.
  public func fold(_ text: String) throws(ICUError) -> String {
    let folder = try makeFolder()
    return try folder.fold(text)
  }

  /// Folds one string and keeps the map back to it, for highlighting.
  public func foldedText(_ text: String) throws(ICUError) -> FoldedText {
    let folder = try makeFolder()
    return try folder.foldedText(text)
  }

  /// A folder for one thread: it caches the folded form of every character it meets.
  public func makeFolder() throws(ICUError) -> Folder {
    try Folder(normalizer: self, transliterator: shared.makeTransliterator())
  }

  /// What a normaliser shares between its copies: the transliterator that folders clone, and
  /// the ones that folders gave back.
  final class Shared: Sendable {
    static let transliteratorID = "Any-Latin; Latin-ASCII"
    /// How many given-back transliterators are kept for the next folders.
    static let idleLimit = 8
    // ICU transliterators are not thread-safe; the prototype is only ever cloned, under a lock.
    private let prototype: LockedValue<ICU.Transliterator?>
    /// Transliterators of folders that are gone.
    ///
    /// ICU's "Any-Latin" makes a transliterator for each script the first time it meets it and
    /// keeps it; a clone of the prototype starts without any, so a folder made for each query (each
    /// keystroke) would make them again: a reused one has them already.
    private let idle = LockedValue<[ICU.Transliterator]>([])
    /// The folded form of each character a folder has folded with ICU: folders ask here before
    /// ICU, so that the folders of a parallel fold (one per core) fold each character once
    /// between them, and a folder made later (a query's) finds the characters of the text.
    ///
    /// Past ``characterLimit`` characters nothing more is kept. Keyed by the character's UTF-8,
    /// which hashes and compares without the normalisation a `String` key costs.
    private let characters = LockedValue<[[UInt8]: String]>([:])
    /// The most characters kept in the shared cache (a few megabytes at most).
    static let characterLimit = 1 << 16

    init(latin: Bool) throws(ICUError) {
      let transliterator = latin ? try ICU.Transliterator(id: Self.transliteratorID) : nil
      prototype = LockedValue(transliterator)
    }

    /// The folded form of the character whose UTF-8 is `character`, if a folder has folded it.
    func foldedCharacter(_ character: [UInt8]) -> String? {
      characters.withLock { $0[character] }
    }

    /// Keeps the folded form of the character whose UTF-8 is `character` for the other
    /// folders.
    func remember(_ character: [UInt8], folded: String) {
      characters.withLock { characters in
        if characters.count < Self.characterLimit { characters[character] = folded }
      }
    }

    /// Takes back the transliterator of a folder that is gone, for a later folder.
    func recycle(_ transliterator: ICU.Transliterator) {
      idle.withLock { idle in
        if idle.count < Self.idleLimit { idle.append(transliterator) }
      }
    }

    func makeTransliterator() throws(ICUError) -> ICU.Transliterator? {
      if let reused = idle.withLock({ $0.popLast() }) { return reused }
      let result: Result<ICU.Transliterator?, ICUError> = prototype.withLock { prototype in
        guard let prototype else { return .success(nil) }
        do throws(ICUError) { return .success(try prototype.copy()) } catch {
          return .failure(error)
        }
      }
      return try result.get()
    }
  }
}

extension Normalizer: Hashable {
  /// Two normalisers are equal when they fold every text alike.
  public static func == (lhs: Normalizer, rhs: Normalizer) -> Bool {
    lhs.folding == rhs.folding && lhs.isTurkic == rhs.isTurkic
  }

  /// Hashes the folding options and the case rules.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(folding)
    hasher.combine(isTurkic)
  }
}
