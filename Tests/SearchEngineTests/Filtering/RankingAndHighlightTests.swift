import SearchCoreTesting
import TestSupport
import Testing

@testable import SearchEngine

@Suite struct RankingAndHighlightTests {
  /// A corpus of one searched field "name", one unsearched field "note", an attribute
  /// "continent", and scopes by attribute and by field.
  private func corpus(_ names: [[String]], continents: [String]? = nil) throws -> SearchCorpus {
    let schema = SearchModel.Schema(
      fields: [.init(name: "name"), .init(name: "alias"), .init(name: "note", isSearched: false)],
      attributes: ["continent"],
      scopeBar: ScopeBar([
        ScopeBar.Scope(title: "All"),
        ScopeBar.Scope(title: "Europe", attribute: "continent", values: ["EU"]),
        ScopeBar.Scope(title: "Name", fields: ["name"]),
      ]),
      displayTemplate: "{name} ({continent})")
    var model = SearchModel(schema: schema)
    for (index, values) in names.enumerated() {
      let continent = continents?[index] ?? "EU"
      try model.append(
        SearchModel.Record(
          fields: [[values[0]], Array(values.dropFirst()), ["note \(index)"]],
          attributes: [continent]))
    }
    return try SearchCorpus(model: model, normalizer: try Normalizer())
  }

  private func names(_ items: [ItemID], in corpus: SearchCorpus) -> [String] {
    items.map { corpus.model.values(of: $0, field: 0)[0] }
  }

  private func search(_ text: String, scope: Int = 0, in corpus: SearchCorpus) throws
    -> SearchResult
  {
    var filter = IncrementalFilter()
    let query = try SearchQuery(text, normalizer: corpus.normalizer)
    guard let result = filter.search(query, scope: scope, in: corpus) else {
      throw CancellationError()
    }
    return result
  }

  @Test func rankingOrdersWholeThenPrefixThenWordThenInside() throws {
    let corpus = try corpus([
      ["Sporting York"], ["Yorkshire"], ["New York"], ["York"], ["Dunyorkia"], ["York Minster"],
    ])
    let result = try search("york", in: corpus)
    // Model order first.
    #expect(
      names(result.items, in: corpus) == [
        "Sporting York", "Yorkshire", "New York", "York", "Dunyorkia", "York Minster",
      ])
    // Whole field; then starts of words (the word is typed, so "York Minster" too), at the
    // start of the field first, shorter first; inside a word.
    #expect(
      names(corpus.ranked(result), in: corpus) == [
        "York", "Yorkshire", "York Minster", "New York", "Sporting York", "Dunyorkia",
      ])
  }

  @Test func rankingTiesKeepModelOrder() throws {
    let corpus = try corpus([["Paris"], ["Lyon"], ["Paris"]])
    let result = try search("paris", in: corpus)
    #expect(corpus.ranked(result) == result.items)
  }

  /// A number that equals a number attribute ranks as a whole field but brings no length of
  /// its own: "mac 2006" orders the Macs of 2006 by their names: "mac", a finished word (the
  /// number follows it), is a whole word of "Mac Pro" and the start of "MacBook", shorter than
  /// "MacBook Pro".
  @Test func aNumberAttributeDoesNotHideTheFieldsLength() throws {
    let products = try Fixtures.corpus("products/products")
    let query = try SearchQuery("mac 2006", normalizer: products.normalizer)
    var filter = IncrementalFilter()
    let found = filter.search(query, scope: 0, in: products)
    let result = try #require(found)
    let names = result.items.map { products.model.values(of: $0, field: 0)[0] }
    #expect(names == ["MacBook", "MacBook Pro", "Mac Pro"], "model order")
    let ranked = products.ranked(result).map { products.model.values(of: $0, field: 0)[0] }
    #expect(ranked == ["Mac Pro", "MacBook", "MacBook Pro"])
  }

  @Test func scopesFilterByAttributeAndByField() throws {
    let corpus = try corpus(
      [
        ["Lima", "Ciudad de los Reyes"], ["Limassol"], ["Reykjavík"], ["Los Reyes", "Lima Norte"],
      ],
      continents: ["SA", "EU", "EU", "NA"])
    #expect(
      names(try search("lima", in: corpus).items, in: corpus) == ["Lima", "Limassol", "Los Reyes"])
    #expect(names(try search("lima", scope: 1, in: corpus).items, in: corpus) == ["Limassol"])
    // "Name" searches the first field only: the alias "Lima Norte" no longer counts.
    #expect(
      names(try search("lima", scope: 2, in: corpus).items, in: corpus) == ["Lima", "Limassol"])
    // A scope filters even with empty text.
    #expect(
      names(try search("", scope: 1, in: corpus).items, in: corpus) == ["Limassol", "Reykjavík"])
    // The unsearched field never matches.
    #expect(try search("note", in: corpus).items.isEmpty)
  }

  @Test func highlightsCoverWholeCharactersInNonLatinText() throws {
    let corpus = try corpus([
      ["Москва", "Moscow"], ["東京都", "Tōkyō"], ["Αθήνα"], ["ガス"], ["👍🏽 café"],
    ])
    func ranges(_ text: String, _ item: Int) throws -> [String] {
      let query = try SearchQuery(text, normalizer: corpus.normalizer)
      return try corpus.highlights(of: corpus.model.id(at: item), for: query).flatMap { highlight in
        highlight.ranges.map { String(highlight.text[$0]) }
      }
    }
    #expect(try ranges("моск", 0) == ["Моск"])
    #expect(try ranges("京", 1) == ["京"])
    #expect(try ranges("tokyo", 1) == ["Tōkyō"])
    #expect(try ranges("ΑΘΗ", 2) == ["Αθή"])
    #expect(try ranges("ガ", 3) == ["ガ"])
    #expect(try ranges("カ", 3) == [])
    #expect(try ranges("cafe", 4) == ["café"])
    #expect(try ranges("👍", 4) == [])
  }

  @Test func highlightsGiveUTF16RangesPerValueAndTerm() throws {
    let corpus = try corpus([["👍🏽 café au lait", "lait d'amande"]])
    let query = try SearchQuery("lait ^cafe", normalizer: corpus.normalizer)
    let highlights = try corpus.highlights(of: corpus.model.id(at: 0), for: query)
    #expect(highlights.map(\.field) == [0, 1])
    #expect(highlights.map(\.value) == [0, 0])
    // "café" does not start the name (the emoji does), so ^cafe marks nothing there.
    #expect(highlights[0].utf16Ranges == [13..<17])
    #expect(highlights[1].utf16Ranges == [0..<4])
  }

  @Test func anchoredAndFuzzyHighlights() throws {
    let corpus = try corpus([["  Straße  "]])
    let id = corpus.model.id(at: 0)
    func marked(_ text: String) throws -> [String] {
      let query = try SearchQuery(text, normalizer: corpus.normalizer)
      return try corpus.highlights(of: id, for: query).flatMap { h in
        h.ranges.map { String(h.text[$0]) }
      }
    }
    #expect(try marked("^stras") == ["Straß"])
    #expect(try marked("sse$") == ["ße"])
    #expect(try marked("^strasse$") == ["Straße"])
    #expect(try marked("'sae") == ["S", "a", "e"])
    #expect(try marked("!x") == [])
  }
}
