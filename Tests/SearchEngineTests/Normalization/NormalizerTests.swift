import TestSupport
import Testing

@testable import SearchEngine

/// Texts that must fold alike (`same`) or differently (`different`) under given options.
struct FoldingCase: CustomTestStringConvertible, Sendable {
  var a: String
  var b: String
  var same: Bool
  var folding: Folding = .default
  var locale: String?
  var why: String

  var testDescription: String { "\(why): \"\(a)\" \(same ? "~" : "≁") \"\(b)\" [\(folding)]" }

  static func same(
    _ a: String, _ b: String, _ why: String, _ folding: Folding = .default, locale: String? = nil
  ) -> FoldingCase {
    FoldingCase(a: a, b: b, same: true, folding: folding, locale: locale, why: why)
  }

  static func different(
    _ a: String, _ b: String, _ why: String, _ folding: Folding = .default, locale: String? = nil
  ) -> FoldingCase {
    FoldingCase(a: a, b: b, same: false, folding: folding, locale: locale, why: why)
  }

  /// Folds both texts with the case's options and locale and expects them equal, or not.
  func check(sourceLocation: SourceLocation = #_sourceLocation) throws {
    let normalizer = try Normalizer(folding: folding, locale: locale)
    let a = try normalizer.fold(self.a)
    let b = try normalizer.fold(self.b)
    // Byte-wise comparison: String's == would itself ignore canonical differences.
    #expect(
      Array(a.utf8) == Array(b.utf8) ? same : !same, "\(a) vs \(b)",
      sourceLocation: sourceLocation)
  }
}

private let latin: Folding = [.case, .diacritics, .compatibility, .latin]

private let foldingCases: [FoldingCase] = [
  // Case
  .same("Straße", "STRASSE", "full case folding of ß"),
  .same("ẞ", "ss", "capital sharp s"),
  .same("ΣΟΦΟΣ", "σοφος", "Greek capital sigma"),
  .same("σοφος", "σοφοσ", "final sigma folds to sigma"),
  .same("Οδυσσεύς", "ΟΔΥΣΣΕΥΣ", "Greek tonos and final sigma together"),
  .different("Café", "café", "case kept without case folding", [.diacritics, .compatibility]),
  // Turkish and Azeri
  .same("DİYARBAKIR", "diyarbakır", "Turkish dotted capital I and dotless i", locale: "tr"),
  .same("IŞIK", "ışık", "Turkish capital I is dotless", locale: "tr"),
  .same("İstanbul", "istanbul", "Turkish dotted capital I", locale: "tr"),
  .same("İ", "I\u{307}", "decomposed dotted I folds like the composed one", locale: "tr"),
  .same("DİYARBAKIR", "diyarbakir", "root locale: İ loses its dot, I becomes i"),
  .same("DİYARBAKIR", "diyarbakır", "root locale: diacritic folding folds ı to i"),
  .different("ılık", "ilik", "Turkish keeps ı apart from i", locale: "tr"),
  .same("AZƏRBAYCAN", "azərbaycan", "Azeri uses the Turkic rules", locale: "az"),
  // Diacritics
  .same("café", "cafe", "acute accent"),
  .same("cafe\u{301}", "café", "decomposed and composed é"),
  .same("Việt Nam", "viet nam", "stacked Vietnamese marks"),
  .same("Ёлка", "елка", "Cyrillic diaeresis"),
  .same("Ærøskøbing", "aeroskobing", "æ is ae, ø is o with a stroke"),
  .same("Łódź", "lodz", "ł is l with a stroke"),
  .same("đ", "d", "đ is d with a stroke, without a decomposition"),
  .different("Łódź", "lodz", "ł kept without diacritic folding", [.case, .compatibility]),
  .same("שָׁלוֹם", "שלום", "Hebrew niqqud"),
  .same("مُحَمَّد", "محمد", "Arabic harakat"),
  .different("ガ", "カ", "Japanese voicing mark makes another kana"),
  .same("カ\u{3099}", "ガ", "decomposed voiced kana"),
  .different("パン", "ハン", "Japanese semi-voicing mark"),
  .different("कि", "क", "Devanagari vowel sign"),
  .different("कु", "क", "Devanagari nonspacing vowel sign"),
  .different("ก่า", "กา", "Thai tone mark"),
  .different("café", "cafe", "diacritics kept without diacritic folding", [.case, .compatibility]),
  // Compatibility
  .same("ＡＢＣ１２３", "abc123", "full-width Latin and digits"),
  .same("ｶﾀｶﾅ", "カタカナ", "half-width katakana"),
  .same("ﬁle", "file", "fi ligature"),
  .same("ﬀ", "ff", "ff ligature"),
  .same("ĳs", "ijs", "Dutch ij ligature"),
  .same("①", "1", "circled digit"),
  .same("x²", "x2", "superscript"),
  .same("co\u{AD}op", "coop", "soft hyphen is ignorable"),
  .same("a\u{200B}b", "ab", "zero-width space is ignorable"),
  .same("❤️", "❤", "emoji variation selector is ignorable"),
  .same("ﬁle", "file", "full case folding itself expands the fi ligature", [.case]),
  .different("x²", "x2", "superscript kept without compatibility folding", [.case, .diacritics]),
  .different("ＡＢＣ", "abc", "full-width kept without compatibility folding", [.case]),
  // Canonical equivalence always holds
  .same("e\u{301}", "é", "decomposed é under none", .none),
  .same("한국", "\u{1112}\u{1161}\u{11AB}\u{1100}\u{116E}\u{11A8}", "Hangul syllables and jamo"),
  .same("한국", "\u{1112}\u{1161}\u{11AB}\u{1100}\u{116E}\u{11A8}", "Hangul under none", .none),
  .same("Å", "A\u{30A}", "Å with ring above under none", .none),
  .different("é", "e", "none keeps accents", .none),
  .different("É", "é", "none keeps case", .none),
  // Emoji are kept whole
  .same("👨‍👩‍👧", "👨‍👩‍👧", "ZWJ sequence is stable"),
  .different("👨‍👩‍👧", "👨👩👧", "the ZWJ between emoji stays"),
  .same("❤️‍🔥", "❤\u{200D}🔥", "the variation selector goes, the ZWJ after it stays"),
  .different("❤️‍🔥", "❤🔥", "a ZWJ after an emoji and its variation selector stays"),
  // Joiners elsewhere, as in Indic conjuncts, go
  .same("क्\u{200D}ष", "क्ष", "ZWJ inside a Devanagari conjunct"),
  .same("क्\u{200C}ष", "क्ष", "ZWNJ inside a Devanagari conjunct"),
  .same("র\u{200D}্যাব", "র্যাব", "ZWJ in a Bengali ra with ya-phala"),
  .same("ක්\u{200D}ෂ", "ක්ෂ", "ZWJ in a Sinhala conjunct"),
  .same("a\u{200D}b", "ab", "ZWJ between letters"),
  .same("ന്\u{200D}", "ന്", "old-style Malayalam chillu: na and virama"),
  .different("ൻ", "ന്", "the atomic chillu stays itself"),
  .same("می\u{200C}رود", "میرود", "ZWNJ in a Persian word"),
  .same("👍\u{200D}a", "👍a", "ZWJ between an emoji and a letter"),
  .different(
    "क्\u{200D}ष", "क्ष", "joiners kept without compatibility folding", [.case, .diacritics]),
  // The virama stays: a conjunct is not its consonants side by side
  .different("क्ष", "कष", "Devanagari virama kept by diacritic folding"),
  .different("ক্ষ", "কষ", "Bengali virama kept by diacritic folding"),
  .different("👍🏽", "👍", "skin tone is part of the emoji"),
  // Transliteration
  .same("Москва", "moskva", "Cyrillic to Latin", latin),
  .same("Ærøskøbing", "aeroskobing", "æ and ø transliterated", latin),
  .same("Łódź", "lodz", "ł transliterated", latin),
  .same("Αθήνα", "athena", "Greek to Latin", latin),
  .different("Москва", "moskva", "no transliteration by default"),
]

@Suite(.tags(.concurrent)) struct NormalizerTests {
  @Test(arguments: foldingCases)
  func folding(_ testCase: FoldingCase) throws {
    try testCase.check()
  }

  @Test func defaultFoldingProducesExpectedText() throws {
    let normalizer = try Normalizer()
    #expect(try normalizer.fold("Straße") == "strasse")
    #expect(try normalizer.fold("ÀÉÎÕÜ") == "aeiou")
    #expect(try normalizer.fold("ﬁ①²") == "fi12")
    #expect(try normalizer.fold("Ærøskøbing") == "aeroskobing")
    let family = "👨‍👩‍👧"
    #expect(Array(try normalizer.fold(family).utf8) == Array(family.utf8))
  }

  /// A folder gives its transliterator back when it goes, warmed up with the scripts it met,
  /// and the next folder starts from it: the same folding, whichever transliterator a folder
  /// gets, on one thread after another or on many at once.
  @Test func transliteratorsGivenBackFoldAlike() async throws {
    let normalizer = try Normalizer(folding: latin)
    let texts = ["Москва", "東京", "Αθήνα", "Łódź", "서울", "القاهرة", "Москва 東京"]
    let expected = try texts.map { try normalizer.makeFolder().fold($0) }
    // Each character is transliterated alone (東 dōng, 京 jīng), so Han syllables join.
    #expect(
      expected == ["moskva", "dongjing", "athena", "lodz", "seoul", "alqahrt", "moskva dongjing"])
    for _ in 0..<3 {
      #expect(try texts.map { try normalizer.fold($0) } == expected)
    }
    // The next folder gets the transliterator the last one gave back.
    // (Held here, so that a new one could not take its address.)
    let given = try #require(try normalizer.makeFolder().transliterator)
    #expect(try normalizer.makeFolder().transliterator === given)
    let folded = try await withThrowingTaskGroup(of: [String].self) { group in
      for _ in 0..<8 {
        group.addTask { try texts.reversed().map { try normalizer.fold($0) }.reversed() }
      }
      return try await group.reduce(into: []) { $0.append($1) }
    }
    #expect(folded == Array(repeating: expected, count: 8))
  }

  @Test func asciiTextFoldsByTable() throws {
    let normalizer = try Normalizer()
    let folder = try normalizer.makeFolder()
    #expect(try folder.fold("Hello, World! 123") == "hello, world! 123")
    // Only ASCII was seen, so nothing went through ICU into the cache.
    #expect(folder.cachedCharacterCount == 0)
    _ = try folder.fold("é")
    #expect(folder.cachedCharacterCount == 1)
  }

  @Test func turkicAsciiCapitalIIsNotTheTableFold() throws {
    let turkish = try Normalizer(locale: "tr_TR")
    #expect(turkish.isTurkic)
    #expect(try turkish.fold("ISPARTA") == "ısparta")
    let root = try Normalizer(locale: "en")
    #expect(!root.isTurkic)
    #expect(try root.fold("ISPARTA") == "isparta")
  }

  @Test func emptyAndIgnorableTextFoldsToNothing() throws {
    let normalizer = try Normalizer()
    #expect(try normalizer.fold("") == "")
    #expect(try normalizer.fold("\u{AD}") == "")
    #expect(try normalizer.fold("\u{AD}\u{200B}\u{2060}") == "")
  }

  @Test func foldingIsSafeOnSeveralThreads() async throws {
    let normalizer = try Normalizer(folding: latin)
    let words = ["Москва", "Straße", "café", "Ærøskøbing", "Αθήνα", "東京", "ガス"]
    let expected = try words.map { try normalizer.fold($0) }
    try await withThrowingTaskGroup(of: [String].self) { group in
      for _ in 0..<8 {
        group.addTask {
          let folder = try normalizer.makeFolder()
          var result: [String] = []
          for _ in 0..<50 { result = try words.map { try folder.fold($0) } }
          return result
        }
      }
      for try await result in group { #expect(result == expected) }
    }
  }

  @Test func foldingListsParse() throws {
    #expect(try Folding(parsing: "case,diacritics") == [.case, .diacritics])
    #expect(try Folding(parsing: "none") == [])
    #expect(try Folding(parsing: "case,diacritics,compatibility") == .default)
    #expect(Folding.default.description == "case,diacritics,compatibility")
    #expect(Folding.none.description == "none")
    #expect(throws: Folding.ParseError.self) { try Folding(parsing: "case,accents") }
    do {
      _ = try Folding(parsing: "case,accents")
    } catch {
      #expect(error.word == "accents")
      #expect(error.description.contains("\"accents\""))
    }
    // "none" means nothing at all: with other options it is a contradiction.
    #expect(throws: Folding.ParseError(text: "latin,none", word: "none")) {
      try Folding(parsing: "latin,none")
    }
  }

  /// A list on the command line changes the default: adding transliteration keeps case and
  /// diacritics folding, a minus takes an option away, "none" alone is nothing.
  @Test func foldingChangesParse() throws {
    #expect(
      try Folding(changing: .default, by: "latin") == [.case, .diacritics, .compatibility, .latin])
    #expect(try Folding(by: "+dotless-i,-compatibility") == [.case, .diacritics, .dotlessI])
    #expect(try Folding(by: "-case,-diacritics,-compatibility") == [])
    #expect(try Folding(by: "none") == [])
    #expect(try Folding(by: "case,diacritics,compatibility") == .default)
    #expect(try Folding(changing: [.case], by: "latin") == [.case, .latin])
    let error = #expect(throws: Folding.ParseError.self) { try Folding(by: "latin,none") }
    #expect(error?.description.contains("-case") == true)
    #expect(throws: Folding.ParseError(text: "-accents", word: "-accents")) {
      try Folding(by: "-accents")
    }
    // Transliteration with the default still folds case: Москва finds "moskva".
    let normalizer = try Normalizer(folding: try Folding(by: "latin"))
    #expect(try normalizer.fold("Москва") == normalizer.fold("moskva"))
  }
}
