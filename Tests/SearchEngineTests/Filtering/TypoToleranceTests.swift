import SearchCoreTesting
import Testing

@testable import SearchEngine

/// Typo tolerance of the words syntax: the rule's edges, ranking, highlights, the syntaxes
/// that stay exact, and the word index under model changes.
@Suite struct TypoToleranceTests {
  /// A corpus of one searched field "name", a second searched field "alias", an unsearched
  /// "note", an attribute "kind" and scopes by attribute and by field.
  static func corpus(_ names: [[String]], folding: Folding = .default) throws -> SearchCorpus {
    let schema = SearchModel.Schema(
      fields: [.init(name: "name"), .init(name: "alias"), .init(name: "note", isSearched: false)],
      attributes: ["kind"],
      scopeBar: ScopeBar([
        ScopeBar.Scope(title: "All"),
        ScopeBar.Scope(title: "Even", attribute: "kind", values: ["even"]),
        ScopeBar.Scope(title: "Name", fields: ["name"]),
      ]),
      displayTemplate: "{name}")
    var model = SearchModel(schema: schema)
    for (index, values) in names.enumerated() {
      try model.append(record(values, index: index))
    }
    return try SearchCorpus(model: model, normalizer: try Normalizer(folding: folding))
  }

  static func record(_ values: [String], index: Int) -> SearchModel.Record {
    SearchModel.Record(
      fields: [[values[0]], Array(values.dropFirst()), ["calfornia note \(index)"]],
      attributes: [index % 2 == 0 ? "even" : "odd"])
  }

  /// The names of the items `text` finds with `typos`, ranked.
  private func found(
    _ text: String, typos: TypoTolerance = .default, syntax: SearchQuery.Syntax = .words,
    scope: Int = 0, in corpus: SearchCorpus
  ) throws -> [String] {
    let query = try SearchQuery(text, syntax: syntax, typos: typos, normalizer: corpus.normalizer)
    var filter = IncrementalFilter()
    guard let result = filter.search(query, scope: scope, in: corpus) else { return [] }
    return corpus.ranked(result).map { corpus.model.values(of: $0, field: 0)[0] }
  }

  // MARK: The rule

  @Test func budgetsByLength() throws {
    let typos = TypoTolerance.default
    #expect(
      (0...12).map { typos.budget(forLength: $0) } == [0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2])
    #expect((0...3).map { TypoTolerance.off.budget(forLength: $0 * 10) } == [0, 0, 0, 0])
    let custom = try TypoTolerance(oneTypoFrom: 3, twoTyposFrom: 3)
    #expect(custom.budget(forLength: 2) == 0 && custom.budget(forLength: 3) == 2)
    #expect(throws: TypoTolerance.Error.self) { try TypoTolerance(oneTypoFrom: 0, twoTyposFrom: 4) }
    #expect(throws: TypoTolerance.Error.self) { try TypoTolerance(oneTypoFrom: 5, twoTyposFrom: 4) }
    #expect(TypoTolerance.default.description == "5,9" && TypoTolerance.off.description == "off")
  }

  @Test func distanceCountsEditsOnCharacters() {
    func d(_ a: String, _ b: String, prefix: Bool = false) -> Int {
      var codes = CharacterCodes()
      return TypoDistance.distance(
        a.map { codes.code(of: $0) }, b.map { codes.code(of: $0) }, prefix: prefix)
    }
    #expect(d("california", "california") == 0)
    #expect(d("calefornia", "california") == 1)  // substitution
    #expect(d("callifornia", "california") == 1)  // insertion
    #expect(d("califrnia", "california") == 1)  // deletion
    #expect(d("califronia", "california") == 1)  // transposition
    #expect(d("ca", "abc") == 3)  // optimal string alignment: no edit of a transposed pair
    #expect(d("zürich", "zurich") == 1)  // one character, two bytes
    #expect(d("calfo", "california", prefix: true) == 1)
    #expect(d("calfo", "california") == 5)
    #expect(d("", "abc", prefix: true) == 0)
  }

  /// The banded distance with early exit is the full table's, capped one above the budget.
  @Test func bandedDistanceIsTheFullOneCapped() {
    var random = SplitMix64(seed: 11)
    let letters: [UInt32] = [97, 98, 99, 100]
    for _ in 0..<3_000 {
      let query = (0..<(1 + random.next() % 9)).map { _ in letters[Int(random.next() % 4)] }
      let word = (0..<(1 + random.next() % 11)).map { _ in letters[Int(random.next() % 4)] }
      for budget in 1...2 {
        for prefix in [false, true] {
          let full = TypoDistance.distance(query, word, prefix: prefix)
          let banded = query.withUnsafeBufferPointer { q in
            word.withUnsafeBufferPointer { w in
              TypoDistance.distance(q, w, prefix: prefix, budget: budget)
            }
          }
          #expect(banded == min(full, budget + 1), "\(query) \(word) \(budget) \(prefix)")
        }
      }
    }
  }

  @Test func wordLengthsGiveTheBudget() throws {
    let corpus = try Self.corpus([["kiwi"], ["lemon"], ["mandarin"], ["pineapple"]])
    // Followed by a space, so that each word is whole.
    #expect(try found("kiwo ", in: corpus) == [])  // 4: none
    #expect(try found("lemin ", in: corpus) == ["lemon"])  // 5: one
    #expect(try found("lxmxn ", in: corpus) == [])
    #expect(try found("mandxrin ", in: corpus) == ["mandarin"])  // 8: one
    #expect(try found("mxndxrin ", in: corpus) == [])
    #expect(try found("pxneapplx ", in: corpus) == ["pineapple"])  // 9: two
    #expect(try found("pxnxapplx ", in: corpus) == [])
  }

  @Test func editsOfEveryKindCountOne() throws {
    let corpus = try Self.corpus([["California"], ["Nevada"]])
    for text in ["calefornia", "callifornia", "califrnia", "califronia", "acliforni "] {
      #expect(try found(text, in: corpus) == ["California"], "\(text)")
    }
    #expect(try found("califronia", typos: .off, in: corpus) == [])
  }

  @Test func lastWordIsAPrefixEarlierWordsAreWhole() throws {
    let corpus = try Self.corpus([["California Republic"], ["Nevada"]])
    #expect(try found("calfo", in: corpus) == ["California Republic"])
    #expect(try found("calfo ", in: corpus) == [])
    #expect(try found("calfo repub", in: corpus) == [])
    #expect(try found("repub calfornia", in: corpus) == ["California Republic"])
    #expect(try found("rrpublic calfo", in: corpus) == ["California Republic"])
  }

  @Test func marksAndPrecomposedCharactersAreCharacters() throws {
    let corpus = try Self.corpus([["Zürich"], ["Zu\u{308}g"], ["Bern"]])
    #expect(try found("zurich", typos: .off, in: corpus) == ["Zürich"])  // folding: 0 typos
    #expect(try found("zurihc", in: corpus) == ["Zürich"])
    #expect(try found("zu\u{308}rihc", in: corpus) == ["Zürich"])
    #expect(try found("zurihc", typos: .off, in: corpus) == [])
    // Without diacritic folding "ü" stays a character of its own: one substitution, not two
    // edits of bytes.
    let marked = try Self.corpus([["Zürich"], ["Zu\u{308}richberg"]], folding: [.case])
    #expect(try found("zurich ", in: marked) == ["Zürich"])
    #expect(try found("zu\u{308}rihcberg", in: marked) == ["Zu\u{308}richberg"])
  }

  @Test func shortCJKWordsAndNumbersStayExact() throws {
    let corpus = try Self.corpus([["東京都庁"], ["release 20081"], ["release 2007"]])
    #expect(try found("東京府", in: corpus) == [])
    #expect(try found("東京都", in: corpus) == ["東京都庁"])
    #expect(try found("20071", in: corpus) == [])
    #expect(try found("20081", in: corpus) == ["release 20081"])
    #expect(try found("relaese 20081", in: corpus) == ["release 20081"])
  }

  @Test func exactBeforeOneTypoBeforeTwo() throws {
    let corpus = try Self.corpus([
      ["Kalifornja"], ["Californa"], ["California Dreaming"], ["California"], ["Oregon"],
    ])
    #expect(
      try found("california", in: corpus) == [
        "California", "California Dreaming", "Californa", "Kalifornja",
      ])
    #expect(
      try found("california", typos: .off, in: corpus) == ["California", "California Dreaming"])
    // Among items with as many typos, the usual order: the whole value, its start, a word.
    let springs = try Self.corpus([["Hot Springs"], ["Springfield"], ["Spring"], ["Oregon"]])
    #expect(try found("spirng", in: springs) == ["Spring", "Springfield", "Hot Springs"])
  }

  @Test func otherSyntaxesAndTyposOffStayExact() throws {
    let corpus = try Self.corpus([["California"], ["Calfornia Motel"]])
    for syntax in [SearchQuery.Syntax.literal, .extended] {
      let query = try SearchQuery(
        "califronia", syntax: syntax, typos: .default, normalizer: corpus.normalizer)
      #expect(query.typos == .off)
      #expect(try found("califronia", syntax: syntax, in: corpus) == [])
    }
    // Typos off: exactly today's words search.
    #expect(try found("calfornia", typos: .off, in: corpus) == ["Calfornia Motel"])
    #expect(try found("calfornia", in: corpus) == ["Calfornia Motel", "California"])
  }

  /// A search server matches exactly only: a query with typos on is refused, never answered
  /// otherwise than in memory.
  @Test func serverQueriesRefuseTypos() throws {
    let corpus = try Self.corpus([["California"]])
    let schema = corpus.model.schema
    let typo = try SearchQuery(
      "calfornia", syntax: .words, typos: .default, normalizer: corpus.normalizer)
    #expect(throws: SearchCorpus.Error.backend(.typosUnsupported)) {
      try ServerQuery(typo, scope: 0, schema: schema)
    }
    let exact = try SearchQuery("calfornia", syntax: .words, normalizer: corpus.normalizer)
    _ = try ServerQuery(exact, scope: 0, schema: schema)
  }

  @Test func unsearchedFieldsAndScopesBoundTypoMatches() throws {
    // "calfornia" is in every item's unsearched note: never a match there.
    let corpus = try Self.corpus([["Oregon", "Califronia"], ["Nevada"], ["Utah", "Califronia"]])
    #expect(try found("california", in: corpus) == ["Oregon", "Utah"])
    #expect(try found("california", scope: 1, in: corpus) == ["Oregon", "Utah"])
    #expect(try found("california", scope: 2, in: corpus) == [])
    let odd = try Self.corpus([["Nevada"], ["Oregon", "Califronia"]])
    #expect(try found("california", scope: 1, in: odd) == [])
  }

  @Test func highlightsMarkTheWordInTheOriginalText() throws {
    let corpus = try Self.corpus([["Zürich Airport"], ["California State"]])
    func marked(_ text: String, item: Int32) throws -> [String] {
      let query = try SearchQuery(
        text, syntax: .words, typos: .default, normalizer: corpus.normalizer)
      return try corpus.highlights(of: ItemID(rawValue: item), for: query).flatMap { highlight in
        highlight.ranges.map { String(highlight.text[$0]) }
      }
    }
    #expect(try marked("zurihc", item: 0) == ["Zürich"])
    #expect(try marked("airport zurihc", item: 0) == ["Zürich", "Airport"])
    #expect(try marked("calfo", item: 1) == ["Califo"])
    #expect(try marked("califronia ", item: 1) == ["California"])
    #expect(try marked("state", item: 1) == ["State"])
  }

  // MARK: Model changes

  @Test func modelChangesKeepTheWordIndexRight() throws {
    let names = [["California"], ["Nevada", "Calfornia"], ["Oregon"], ["Zürich"], ["Kalifornja"]]
    var corpus = try Self.corpus(names)
    let queries = ["california", "zurihc", "nevda", "orgeon", "arizna", "calfo", "montan"]
    _ = try found("california", in: corpus)  // builds the word index
    #expect(corpus.wordIndexCache.current != nil)
    var records = names.enumerated().map { Self.record($0.element, index: $0.offset) }
    try corpus.append(Self.record(["Arizona"], index: 5))
    records.append(Self.record(["Arizona"], index: 5))
    try corpus.remove(ItemID(rawValue: 1))
    records[1] = Self.record(["-"], index: 1)
    try corpus.update(ItemID(rawValue: 3), with: Self.record(["Montana"], index: 3))
    records[3] = Self.record(["Montana"], index: 3)
    #expect(corpus.wordIndexCache.current != nil)
    var fresh = SearchModel(schema: corpus.model.schema)
    for record in records { try fresh.append(record) }
    try fresh.apply([.remove(ItemID(rawValue: 1))])
    let expected = try SearchCorpus(model: fresh, normalizer: corpus.normalizer)
    for text in queries {
      for scope in 0..<3 {
        let a = try found(text, scope: scope, in: corpus)
        #expect(a == (try found(text, scope: scope, in: expected)), "\(text) \(scope)")
      }
    }
    #expect(try found("zurihc", in: corpus) == [])
    #expect(try found("montnaa", in: corpus) == ["Montana"])
    #expect(try found("arizna", in: corpus) == ["Arizona"])
  }

  @Test func manyAddedWordsRebuildTheIndex() throws {
    var corpus = try Self.corpus([["California"]])
    _ = try found("california", in: corpus)
    var random = SplitMix64(seed: 7)
    var words: [String] = []
    for index in 0..<700 {
      let word = String(
        (0..<7).map { _ in Character(UnicodeScalar(97 + UInt8(random.next() % 26))) })
      words.append(word)
      try corpus.append(Self.record([word], index: index + 1))
    }
    let index = try #require(corpus.wordIndexCache.current)
    let added = index.added.count
    #expect(added < 700)  // rebuilt on the way
    for word in words.prefix(50) {
      var typo = Array(word)
      typo.swapAt(2, 3)
      #expect(try found(String(typo), in: corpus).contains(word))
    }
  }
}
