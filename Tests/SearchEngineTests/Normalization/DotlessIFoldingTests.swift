import Testing

@testable import SearchEngine

private let mixedI: Folding = [.case, .diacritics, .compatibility, .dotlessI]

private let dotlessICases: [FoldingCase] = [
  .same("ışık", "isik", "dotless ı is i", mixedI),
  .same("IŞIK", "isik", "capital I is i", mixedI),
  .same("İstanbul", "istanbul", "dotted capital İ is i", mixedI),
  .same("DİYARBAKIR", "diyarbakır", "both sides become diyarbakir", mixedI),
  .same("DİYARBAKIR", "diyarbakir", "İ and I alike", mixedI),
  .same("İ", "I\u{307}", "decomposed dotted I folds like the composed one", mixedI),
  .same("i\u{307}", "i", "a dot above on i goes", mixedI),
  .same("ı\u{307}", "i", "a dot above on ı goes", mixedI),
  .same("Í", "í", "other marks of an I stay, and diacritic folding removes them", mixedI),
  .same("ḯ", "i", "i with diaeresis and acute", mixedI),
  // With the Turkish locale the option wins: the root rules, with all i's alike.
  .same("IBM", "ibm", "the option overrides the Turkic I", mixedI, locale: "tr"),
  .same("ISPARTA", "isparta", "the option overrides the Turkic I", mixedI, locale: "tr"),
  .same("ışık", "ISIK", "the option overrides the Turkic I", mixedI, locale: "az"),
  .different("IBM", "ibm", "without the option the Turkic rules stay", locale: "tr"),
  .different("ışık", "isik", "without the option Turkish keeps ı its own letter", locale: "tr"),
  .same("ışık", "isik", "the root locale's diacritic folding folds ı too"),
  .different("ışık", "isik", "without the option or diacritic folding ı stays", [.case]),
  // Whatever the other options
  .same("İstanbul", "istanbul", "no diacritic folding: İ still loses its dot", [.case, .dotlessI]),
  .different(
    "İstanbul", "istanbul", "no diacritic folding, no option: the dot stays", [.case]),
  .same("I", "i", "the option alone folds I", [.dotlessI]),
  .same("ı", "İ", "the option alone folds ı and İ", [.dotlessI]),
  .different("A", "a", "the option alone folds no other letter", [.dotlessI]),
  .same("Í", "í", "the option alone lowercases an I with a mark, keeping the mark", [.dotlessI]),
  .different("Í", "i", "the option alone keeps the acute", [.dotlessI]),
  .same("Ｉ", "i", "a full-width I with compatibility folding", [.compatibility, .dotlessI]),
  .same("Ⅰ", "i", "roman numeral one with compatibility folding", mixedI),
]

@Suite struct DotlessIFoldingTests {
  @Test(arguments: dotlessICases)
  func folding(_ testCase: FoldingCase) throws {
    try testCase.check()
  }

  @Test func foldedText() throws {
    let mixed = try Normalizer(folding: mixedI)
    #expect(try mixed.fold("DİYARBAKIR") == "diyarbakir")
    #expect(try mixed.fold("Işık İzmir ıi") == "isik izmir ii")
    #expect(try mixed.fold("I\u{307}") == "i")
    let keepingMarks = try Normalizer(folding: [.case, .compatibility, .dotlessI])
    #expect(try keepingMarks.fold("İstanbul") == "istanbul")
    #expect(try keepingMarks.fold("ÍI\u{307}\u{301}") == "íí")
    let without = try Normalizer(folding: [.case, .compatibility])
    #expect(Array(try without.fold("İ").unicodeScalars) == ["i", "\u{307}"])
    let alone = try Normalizer(folding: [.dotlessI])
    #expect(try alone.fold("ISPARTA İ ı") == "iSPARTA i i")
  }

  @Test func theOptionOverridesTheTurkicLocale() throws {
    let turkish = try Normalizer(locale: "tr")
    #expect(turkish.isTurkic)
    let mixed = try Normalizer(folding: mixedI, locale: "tr")
    #expect(!mixed.isTurkic)
    #expect(mixed.locale == "tr")
    #expect(mixed == (try Normalizer(folding: mixedI)))
    #expect(try mixed.fold("ISPARTA Işık") == "isparta isik")
  }

  @Test func theOptionParses() throws {
    #expect(try Folding(parsing: "case,dotless-i") == [.case, .dotlessI])
    let all = try Folding(parsing: "case,diacritics,compatibility,dotless-i")
    #expect(all == mixedI)
    #expect(all.description == "case,diacritics,compatibility,dotless-i")
    #expect(!Folding.default.contains(.dotlessI))
    let error = #expect(throws: Folding.ParseError.self) { try Folding(parsing: "dotless") }
    #expect(
      error?.description
        == "unknown folding \"dotless\" in \"dotless\"; use a comma list of case, diacritics,"
        + " compatibility, latin, dotless-i, or none")
  }

  /// With case folding, an ASCII capital I stays on the table's fast path, as in the root
  /// locale; only the option without case folding sends it to the folder's cache.
  @Test func asciiStaysOnTheFastPath() throws {
    let folder = try Normalizer(folding: mixedI, locale: "tr").makeFolder()
    #expect(try folder.fold("ISPARTA, Iowa and IBM") == "isparta, iowa and ibm")
    #expect(folder.cachedCharacterCount == 0)
    let alone = try Normalizer(folding: [.dotlessI]).makeFolder()
    #expect(try alone.fold("IBM") == "iBM")
    #expect(alone.cachedCharacterCount == 1)
  }

  // MARK: A list of many languages

  private static let places = [
    "Isparta", "ISPARTA", "ışık", "Işıklar", "IBM", "İstanbul", "Diyarbakır", "DİYARBAKIR",
    "Iowa City", "Pisa", "Ísafjörður",
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

  @Test(arguments: [nil, "tr"])
  func aMixedListFindsEveryI(_ locale: String?) throws {
    let normalizer = try Normalizer(folding: mixedI, locale: locale)
    #expect(try matches("isparta", normalizer) == ["Isparta", "ISPARTA"])
    #expect(try matches("isik", normalizer) == ["ışık", "Işıklar"])
    #expect(try matches("ışık", normalizer) == ["ışık", "Işıklar"])
    #expect(try matches("ibm", normalizer) == ["IBM"])
    #expect(try matches("istanbul", normalizer) == ["İstanbul"])
    #expect(try matches("diyarbakir", normalizer) == ["Diyarbakır", "DİYARBAKIR"])
    #expect(try matches("DIYARBAKIR", normalizer) == ["Diyarbakır", "DİYARBAKIR"])
    #expect(try matches("isa", normalizer) == ["Pisa", "Ísafjörður"])
  }

  @Test func withoutTheOptionSomeAreMissed() throws {
    // The root locale's default folding finds every i already: diacritic folding folds ı.
    let root = try Normalizer()
    #expect(try matches("isik", root) == ["ışık", "Işıklar"])
    #expect(try matches("diyarbakir", root) == ["Diyarbakır", "DİYARBAKIR"])
    // Without diacritic folding, ı stays and İ keeps its dot.
    let keepingMarks = try Normalizer(folding: [.case, .compatibility])
    #expect(try matches("isik", keepingMarks).isEmpty)
    #expect(try matches("istanbul", keepingMarks).isEmpty)
    let turkish = try Normalizer(locale: "tr")
    #expect(try matches("ibm", turkish).isEmpty)
    #expect(try matches("isparta", turkish).isEmpty)
  }

  // MARK: Highlights

  /// The original text each match of `pattern` covers.
  private func highlighted(_ pattern: String, in text: String, _ folding: Folding) throws
    -> [String]
  {
    let normalizer = try Normalizer(folding: folding)
    let folded = try normalizer.foldedText(text)
    let found = try FoldedPattern(pattern, normalizer: normalizer)
    return found.originalRanges(in: folded).map { String(folded.original[$0]) }
  }

  @Test func highlightsCoverWholeCharacters() throws {
    #expect(try highlighted("ist", in: "İstanbul", mixedI) == ["İst"])
    #expect(try highlighted("i", in: "İstanbul", mixedI) == ["İ"])
    #expect(try highlighted("kir", in: "Diyarbakır", mixedI) == ["kır"])
    #expect(try highlighted("isi", in: "ışık", mixedI) == ["ışı"])
    #expect(try highlighted("ii", in: "Iİıi", mixedI) == ["Iİ", "ıi"])
    // The decomposed İ is one character of two scalars: a match covers both.
    let decomposed = "I\u{307}stanbul"
    let covered = try highlighted("is", in: decomposed, mixedI)
    #expect(covered.map { Array($0.unicodeScalars) } == [["I", "\u{307}", "s"]])
    #expect(try highlighted("i", in: "İ", [.case, .dotlessI]) == ["İ"])
  }

  @Test func markedDisplayMarksTheWholeLetter() throws {
    let normalizer = try Normalizer(folding: mixedI, locale: "tr")
    var model = SearchModel(
      schema: SearchModel.Schema(fields: [.init(name: "name")], displayTemplate: "{name} (TR)"))
    _ = try model.append(
      SearchModel.Record(fields: [["İstanbul Işık Üniversitesi"]], attributes: []))
    let corpus = try SearchCorpus(model: model, normalizer: normalizer)
    let query = try SearchQuery("isik ist", normalizer: normalizer)
    let marked = try corpus.markedDisplay(of: corpus.model.ids[0], for: query)
    let shown = marked.runs.map { $0.isMarked ? "[\($0.text)]" : String($0.text) }.joined()
    #expect(shown == "[İst]anbul [Işık] Üniversitesi (TR)")
  }
}
