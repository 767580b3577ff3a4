/// Which differences between two texts the normaliser ignores.
///
/// Canonical equivalence is always ignored: a composed "é" (U+00E9) and a decomposed one
/// ("e" + U+0301) fold alike under every set of options, including ``none``.
public struct Folding: OptionSet, Hashable, Sendable {
  /// The option bits.
  public let rawValue: UInt8

  /// Creates a set of folding options from its raw bits.
  public init(rawValue: UInt8) { self.rawValue = rawValue }

  /// Full case folding: "Straße" ~ "STRASSE", "ΣΟΦΟΣ" ~ "σοφος" (final sigma).
  public static let `case` = Folding(rawValue: 1 << 0)
  /// Accents and other diacritics: "café" ~ "cafe".
  ///
  /// Latin letters with a stroke, bar or hook drawn on them, which have no decomposition, fold to
  /// their letter, and ligatures to their letters, as Unicode TR #30's diacritic folding did:
  /// "Łódź" ~ "lodz", "Tromsø" ~ "tromso", "Đà Nẵng" ~ "da nang", "Ħamrun" ~ "hamrun", "Ærø" ~
  /// "aero", "Œuvre" ~ "oeuvre", "Þingvellir" ~ "thingvellir" (thorn is "th", eth "d"); a capital
  /// folds to capitals ("Æ" to "AE") when case is not folded. Dotless "ı" folds to "i" in the root
  /// locale; the Turkish and Azeri locales keep it apart, as their case rules do. Marks that
  /// make a different letter in scripts where they are essential are kept: Japanese voicing
  /// marks (ガ is not カ), Indic vowel signs and viramas, Thai tone marks. Other letters of
  /// their own stay: "ŋ", "ə", "ʒ" (see ``latin``).
  public static let diacritics = Folding(rawValue: 1 << 1)
  /// Compatibility forms: full-width and half-width forms, ligatures ("ﬁ" ~ "fi"),
  /// superscripts and circled digits ("²" ~ "2", "①" ~ "1"); default-ignorable characters
  /// such as the soft hyphen are dropped, and so are the zero-width joiner and non-joiner
  /// ("क्‍ष" ~ "क्ष"), except a joiner between two emoji, which holds 👨‍👩‍👧 together.
  public static let compatibility = Folding(rawValue: 1 << 2)
  /// Transliteration of every script to Latin ASCII: "Москва" ~ "moskva", "Ærøskøbing" ~
  /// "aeroskobing".
  ///
  /// A run of one script's characters is transliterated as a whole, so that letters are read in
  /// context: "Οδυσσεύς" ~ "odysseus", "コーヒー" ~ "kohi"; Han syllables are written together, "你好" ~
  /// "nihao", and a query term with a space also matches without it (`ni\ hao` finds 你好). Off by
  /// default.
  public static let latin = Folding(rawValue: 1 << 3)
  /// The four Latin i's as one letter, for a list of many languages: "I", "i", dotless "ı"
  /// (U+0131) and dotted "İ" (U+0130) all fold to "i", so "isik" finds "ışık", "istanbul"
  /// finds "İstanbul" and "ibm" finds "IBM".
  ///
  /// A dot above (U+0307) on any of them goes too. Off by default; `dotless-i` in a
  /// ``init(parsing:)`` list.
  ///
  /// It applies whatever the other options are: with this option alone "I" folds to "i"
  /// while "A" stays "A", and without ``diacritics`` "İ" still loses its dot. It overrides the
  /// Turkic case rules of the Turkish and Azeri locales, whose whole difference lies in these
  /// letters: ``Normalizer/isTurkic`` is then false, and `Normalizer(locale: "tr")` with this
  /// option folds every text as the root locale with it does. Without it, a Turkish or Azeri
  /// normaliser keeps the exact Turkic rules ("I" ~ "ı", "İ" ~ "i").
  public static let dotlessI = Folding(rawValue: 1 << 4)

  /// No folding beyond canonical equivalence.
  public static let none: Folding = []
  /// Case, diacritics and compatibility forms: what a search field usually wants.
  public static let `default`: Folding = [.case, .diacritics, .compatibility]

  static let names: [(String, Folding)] = [
    ("case", .case), ("diacritics", .diacritics), ("compatibility", .compatibility),
    ("latin", .latin), ("dotless-i", .dotlessI),
  ]
}

extension Folding: CustomStringConvertible {
  /// A comma-separated list such as "case,diacritics,compatibility" or
  /// "case,diacritics,compatibility,dotless-i", or "none".
  public var description: String {
    let parts = Self.names.filter { contains($0.1) }.map(\.0)
    return parts.isEmpty ? "none" : parts.joined(separator: ",")
  }
}

extension Folding {
  /// An error in a folding list such as "case,accents".
  public struct ParseError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The list as given.
    public var text: String
    /// The word that is not an option, or "none" given with others.
    public var word: String

    /// The error as one line of text.
    public var description: String {
      if word == "none" {
        return "\"none\" in \"\(text)\" must stand alone (it means no folding at all);"
          + " to take an option away, write it with a minus: -case"
      }
      let known = Folding.names.map(\.0).joined(separator: ", ")
      let what = word.isEmpty ? "an empty item" : "unknown folding \"\(word)\""
      return "\(what) in \"\(text)\"; use a comma list of \(known), or none"
    }
  }

  /// Parses a comma-separated list of the options wanted, such as "case,diacritics",
  /// "case,dotless-i", or "none" alone.
  public init(parsing text: String) throws(ParseError) {
    let words = try Self.words(of: text)
    if words == ["none"] {
      self = []
      return
    }
    var result: Folding = []
    for word in words {
      guard let option = Self.option(word) else { throw ParseError(text: text, word: word) }
      result.insert(option)
    }
    self = result
  }

  /// Parses a change to `base` (the default folding unless given): "latin" or "+latin" adds
  /// an option, "-case" takes one away, "none" alone folds nothing.
  ///
  /// So `--fold latin` keeps case and diacritics folding and adds transliteration, as a user
  /// expects.
  public init(changing base: Folding = .default, by text: String) throws(ParseError) {
    let words = try Self.words(of: text)
    if words == ["none"] {
      self = []
      return
    }
    var result = base
    for word in words {
      let removes = word.hasPrefix("-")
      let name = removes || word.hasPrefix("+") ? String(word.dropFirst()) : word
      guard let option = Self.option(name) else { throw ParseError(text: text, word: word) }
      if removes { result.remove(option) } else { result.insert(option) }
    }
    self = result
  }

  private static func words(of text: String) throws(ParseError) -> [String] {
    let words = text.split(separator: ",", omittingEmptySubsequences: false).map {
      String($0.trimmingCharacters(in: " "))
    }
    if words.count > 1, words.contains("none") { throw ParseError(text: text, word: "none") }
    return words
  }

  private static func option(_ name: String) -> Folding? {
    names.first { $0.0 == name }?.1
  }
}

extension Substring {
  fileprivate func trimmingCharacters(in character: Character) -> Substring {
    var slice = self
    while slice.first == character { slice.removeFirst() }
    while slice.last == character { slice.removeLast() }
    return slice
  }
}
