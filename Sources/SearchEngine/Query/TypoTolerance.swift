/// How many typos a word of a ``SearchQuery/Syntax/words`` query may have and still find an item:
/// a budget of edits by the word's length in folded characters.
///
/// A word of fewer than ``oneTypoFrom`` characters must occur exactly; from ``oneTypoFrom``
/// on it may be one edit away from a word of the item (a character inserted, deleted,
/// replaced, or two neighbours swapped), from ``twoTyposFrom`` on two edits. The lengths count
/// grapheme clusters of the folded word, never bytes, so "東京都" is three characters long.
/// A word that is a number never matches with typos. See <doc:QueryLanguage> for the rule.
///
/// The ``default`` is Meilisearch's: one typo from 5 characters, two from 9. ``off`` makes
/// every word exact. Only ``SearchQuery/Syntax/words`` queries use a tolerance; the literal and the
/// extended syntaxes are always exact.
public struct TypoTolerance: Hashable, Sendable, CustomStringConvertible {
  /// The shortest word, in folded characters, that may have one typo; nil when no word may.
  public let oneTypoFrom: Int?
  /// The shortest word, in folded characters, that may have two typos; nil when no word may.
  public let twoTyposFrom: Int?

  /// No typos: every word must occur exactly.
  public static let off = TypoTolerance(unchecked: nil, nil)

  /// One typo from 5 characters, two from 9.
  public static let `default` = TypoTolerance(unchecked: 5, 9)

  private init(unchecked one: Int?, _ two: Int?) {
    oneTypoFrom = one
    twoTyposFrom = two
  }

  /// A tolerance of one typo from `oneTypoFrom` characters and two from `twoTyposFrom`.
  ///
  /// - Parameters:
  ///   - oneTypoFrom: The length in folded characters from which a word may have one typo; at
  ///     least 1.
  ///   - twoTyposFrom: The length from which a word may have two typos; at least
  ///     `oneTypoFrom`.
  /// - Throws: ``TypoTolerance/Error`` when the lengths are out of order or below 1.
  public init(oneTypoFrom: Int, twoTyposFrom: Int) throws(TypoTolerance.Error) {
    guard oneTypoFrom >= 1, twoTyposFrom >= oneTypoFrom else {
      throw TypoTolerance.Error(oneTypoFrom: oneTypoFrom, twoTyposFrom: twoTyposFrom)
    }
    self.init(unchecked: oneTypoFrom, twoTyposFrom)
  }

  /// Whether some word may have a typo.
  public var isOn: Bool { oneTypoFrom != nil }

  /// The number of typos a word of `length` folded characters may have: 0, 1 or 2.
  ///
  /// - Parameter length: The word's length in grapheme clusters of its folded text.
  public func budget(forLength length: Int) -> Int {
    if let two = twoTyposFrom, length >= two { return 2 }
    if let one = oneTypoFrom, length >= one { return 1 }
    return 0
  }

  /// "off", or the two lengths: "5,9".
  public var description: String {
    guard let one = oneTypoFrom, let two = twoTyposFrom else { return "off" }
    return "\(one),\(two)"
  }
}

extension TypoTolerance {
  /// Lengths that make no ``TypoTolerance``: below 1, or two typos from fewer characters than
  /// one.
  public struct Error: Swift.Error, Hashable, Sendable, CustomStringConvertible {
    /// What went wrong, to compare with `==` or branch on with `if`, or `switch` with a
    /// `default`; a release may add codes.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
      private let name: String
      private init(name: String) { self.name = name }

      /// A length is below 1, or two typos start below one.
      public static let invalidLengths = Code(name: "invalidLengths")

      /// The code's name, such as "invalidLengths".
      public var description: String { name }
    }

    /// What went wrong: ``Code/invalidLengths``, the only code so far.
    public var code: Code { .invalidLengths }
    /// The length given for one typo.
    public let oneTypoFrom: Int
    /// The length given for two typos.
    public let twoTyposFrom: Int

    /// The error as one line of text.
    public var description: String {
      "typo lengths \(oneTypoFrom) and \(twoTyposFrom) are not valid: one typo needs a length "
        + "of at least 1, and two typos at least the length of one"
    }
  }
}
