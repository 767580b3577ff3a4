import Testing

@testable import SearchEngine

/// Letters without a decomposition that diacritic folding folds (``LetterFoldings``): ł, ø, đ,
/// ħ, ŧ, ƀ, ı, þ, ð, æ, œ and their capitals.
private let letterCases: [FoldingCase] = [
  .same("Łódź", "lodz", "ł is l with a stroke"),
  .same("Tromsø", "tromso", "ø is o with a stroke"),
  .same("Ærø", "aero", "æ is a and e"),
  .same("Đà Nẵng", "da nang", "đ is d with a stroke"),
  .same("Œuvre", "oeuvre", "œ is o and e"),
  .same("Þingvellir", "thingvellir", "thorn is th"),
  .same("Ħamrun", "hamrun", "ħ is h with a stroke"),
  .same("Ŧ ŧ Ƀ ƀ", "t t b b", "t and b with a stroke"),
  .same("Ísafjörður", "isafjordur", "eth is d"),
  .same("Yarışlı", "yarisli", "dotless ı is i in the root locale"),
  .same("Ǿ", "o", "ø with an acute, composed: the acute goes, then the stroke"),
  .same("Ø\u{301}", "ǿ", "decomposed and composed ǿ"),
  .same("Ǣ", "ae", "æ with a macron"),
  .same("Ɓ ɓ Ɗ ɗ Ƙ ƙ", "b b d d k k", "Hausa hooked letters"),
  .same("Ɖ", "d", "African D, the capital of ɖ d with tail"),
  // Without case folding capitals stay capitals, and a ligature becomes two capitals.
  .same("Łódź", "Lodz", "Ł is L", [.diacritics]),
  .different("Łódź", "lodz", "case kept", [.diacritics]),
  .same("Ærø", "AEro", "Æ is AE", [.diacritics, .compatibility]),
  .same("ÞING", "THING", "Þ is TH", [.diacritics]),
  .same("ı", "i", "ı is i without case folding too", [.diacritics]),
  // Only diacritic folding does it.
  .different("Łódź", "lodz", "no diacritic folding", [.case, .compatibility]),
  .different("æ", "ae", "no diacritic folding", [.case, .compatibility]),
  .same("ø", "ø", "none keeps ø", .none),
  // Turkish and Azeri keep their rules; other letters fold as in the root locale.
  .different("ılık", "ilik", "Turkish tells ı from i", locale: "tr"),
  .different("Yarışlı", "yarisli", "Turkish keeps ı", locale: "tr"),
  .same("IŞIK", "ışık", "Turkish capital I is still ı", locale: "tr"),
  .different("ılık", "ilik", "Azeri tells ı from i", locale: "az"),
  .same("Łódź Ærø", "lodz aero", "other letters fold under Turkish too", locale: "tr"),
  .same(
    "ışık", "isik", "the dotless-i option overrides Turkish", [.case, .diacritics, .dotlessI],
    locale: "tr"),
  // Letters of their own, not a letter with a mark, stay.
  .different("ŋ", "n", "eng is a letter of its own"),
  .different("ə", "e", "schwa is a letter of its own"),
  .different("ʒ", "z", "ezh is a letter of its own"),
  .different("ɕ", "c", "a phonetic letter without a capital stays"),
  .same("ſ", "s", "long s is a compatibility form"),
  // TR #30 foldings left out
  .different("مدرسة", "مدرسه", "Arabic teh marbuta stays apart from heh"),
  .same("أحمد", "احمد", "Arabic hamza above is a mark and goes"),
  .different("コーヒー", "コヒ", "the prolonged sound mark is part of the spelling"),
  .same("col·lecció", "col·leccio", "the Catalan middle dot stays, the accent goes"),
  .different("col·lecció", "colleccio", "the middle dot is punctuation, kept"),
  .same("coŀlecció", "col·leccio", "ŀ is a compatibility form of l and the middle dot"),
  .different("ſ", "s", "long s stays without compatibility and case folding", [.diacritics]),
]

@Suite struct LetterFoldingTests {
  @Test(arguments: letterCases)
  func folding(_ testCase: FoldingCase) throws {
    try testCase.check()
  }

  @Test func foldedText() throws {
    let root = try Normalizer()
    #expect(
      try root.fold("Łódź Tromsø Ærø Đà Nẵng Œuvre Þingvellir Ħamrun")
        == "lodz tromso aero da nang oeuvre thingvellir hamrun")
    #expect(try root.fold("Małkowice Yarışlı") == "malkowice yarisli")
    let keepingCase = try Normalizer(folding: [.diacritics, .compatibility])
    #expect(
      try keepingCase.fold("Łódź ÆRØ Ærø Œuvre Þingvellir ĦAMRUN")
        == "Lodz AERO AEro OEuvre THingvellir HAMRUN")
    let turkish = try Normalizer(locale: "tr")
    #expect(try turkish.fold("Yarışlı Łódź IŞIK") == "yarıslı lodz ısık")
  }

  /// The generated table: letters without a decomposition, each folding to ASCII letters of
  /// its own case, and folding through the whole pipeline to the table's letters.
  @Test func everyLetterOfTheTableFolds() throws {
    let nfd = try ICU.Normalizer.nfd.get()
    let keepingCase = try Normalizer(folding: [.diacritics])
    let root = try Normalizer()
    #expect(LetterFoldings.table.count > 150)
    for (value, letters) in LetterFoldings.table {
      let scalar = try #require(Unicode.Scalar(value))
      let letter = String(scalar)
      #expect(try nfd.normalize(Array(letter.utf16)) == Array(letter.utf16), "\(letter)")
      #expect(letters.allSatisfy { $0.isASCII && $0.isLetter }, "\(letter)")
      #expect(scalar.properties.isUppercase == letters.allSatisfy(\.isUppercase), "\(letter)")
      #expect(try keepingCase.fold(letter) == letters, "\(letter)")
      #expect(try root.fold(letter) == letters.lowercased(), "\(letter)")
    }
  }

  // MARK: A list of places

  private static let places = [
    "Małkowice", "Yarışlı", "Đại Tân", "Łódź", "Tromsø", "Ærø", "Đà Nẵng", "Œuvre",
    "Þingvellir", "Ħamrun", "Lodève", "Damascus",
  ]

  private func matches(_ query: String, _ normalizer: Normalizer) throws -> [String] {
    var model = SearchModel(schema: SearchModel.Schema(fields: [.init(name: "name")]))
    for place in Self.places {
      _ = try model.append(SearchModel.Record(fields: [[place]], attributes: []))
    }
    let corpus = try SearchCorpus(model: model, normalizer: normalizer)
    var filter = IncrementalFilter()
    let found = filter.search(try SearchQuery(query, normalizer: normalizer), scope: 0, in: corpus)
    return (found?.items ?? []).map { corpus.model.values(of: $0, field: 0)[0] }
  }

  @Test func theDefaultFoldingFindsThem() throws {
    let root = try Normalizer()
    #expect(try matches("mal", root) == ["Małkowice"])
    #expect(try matches("i", root).contains("Yarışlı"))
    #expect(try matches("isli", root) == ["Yarışlı"])
    #expect(try matches("d", root).contains("Đại Tân"))
    #expect(try matches("dai", root) == ["Đại Tân"])
    #expect(try matches("lodz", root) == ["Łódź"])
    #expect(try matches("tromso", root) == ["Tromsø"])
    #expect(try matches("aero", root) == ["Ærø"])
    #expect(try matches("da nang", root) == ["Đà Nẵng"])
    #expect(try matches("oeuvre", root) == ["Œuvre"])
    #expect(try matches("thingvellir", root) == ["Þingvellir"])
    #expect(try matches("hamrun", root) == ["Ħamrun"])
    #expect(try matches("lod", root) == ["Łódź", "Lodève"])
    // The letter itself still finds it.
    #expect(try matches("łódź", root) == ["Łódź"])
    #expect(try matches("ÆRØ", root) == ["Ærø"])
  }

  @Test func turkishKeepsTheDotlessI() throws {
    let turkish = try Normalizer(locale: "tr")
    #expect(try matches("isli", turkish).isEmpty)
    #expect(try matches("ışlı", turkish) == ["Yarışlı"])
    #expect(try matches("lodz", turkish) == ["Łódź"])
  }
}
