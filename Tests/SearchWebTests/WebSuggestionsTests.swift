#if Web
  import Foundation
  import SearchCore
  import SearchEngine
  import Testing

  @testable import SearchWeb

  /// The page's token suggestions and section index, over a real WebSocket: the suggestions
  /// compared with a brute-force count of the data set's values, the index with a table the
  /// engine lays out itself.
  @Suite(.tags(.concurrent), .serialized) struct WebSuggestionsTests {
    typealias Server = SearchWebServerTests

    static var corpus: SearchCorpus { Server.corpus }

    /// The suggestions for `text` counted by brute force: every value of every attribute with
    /// at most 1,000 distinct values, its 200 most frequent, those whose folded value or one
    /// of its folded words starts with the folded text, most items first, then by attribute and
    /// value; at most eight.
    static func expectedSuggestions(
      for text: String, in corpus: SearchCorpus = corpus, excluding: [WebToken] = []
    ) throws -> [WebSuggestion] {
      let model = corpus.model
      let typed = try corpus.normalizer.fold(text.trimmingCharacters(in: .whitespaces))
      var offered: [(suggestion: WebSuggestion, attribute: Int)] = []
      for (attribute, name) in model.schema.attributes.enumerated() {
        var counts: [String: Int] = [:]
        for id in model.ids where !model.attribute(attribute, of: id).isEmpty {
          counts[model.attribute(attribute, of: id), default: 0] += 1
        }
        guard counts.count <= 1_000 else { continue }
        let kept = counts.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }
        for (value, count) in kept.prefix(200) {
          let folded = try corpus.normalizer.fold(value)
          let words = folded.split { !$0.isLetter && !$0.isNumber }
          guard
            typed.isEmpty || folded.hasPrefix(typed)
              || words.contains(where: { $0.hasPrefix(typed) })
          else { continue }
          let token = WebToken(attribute: name, values: [value])
          guard !excluding.contains(token) else { continue }
          offered.append((WebSuggestion(title: value, count: count, token: token), attribute))
        }
      }
      offered.sort { a, b in
        if a.suggestion.count != b.suggestion.count {
          return a.suggestion.count > b.suggestion.count
        }
        if a.attribute != b.attribute { return a.attribute < b.attribute }
        return a.suggestion.title < b.suggestion.title
      }
      return offered.prefix(8).map(\.suggestion)
    }

    /// An update that answers `text` (or, with `table`, shows that table) with nothing pending.
    static func answers(_ text: String, table: String? = nil) -> (WebUpdate) -> Bool {
      { $0.text == text && !$0.pending && (table == nil || $0.table == table) }
    }

    static func json(_ value: some Encodable) throws -> String {
      String(decoding: try JSONEncoder().encode(value), as: UTF8.self)
    }

    @Test func theFieldsTextSuggestsTheOfferedValuesWithAWordThatStartsWithIt() async throws {
      try await Server.withServer { port in
        let tab = WebTab(port: port)
        defer { tab.close() }
        var page = PageModel()
        try await Server.read(tab, into: &page) { $0.table == "original" }
        // Not under way: nothing is suggested.
        #expect(page.last?.suggestions == [])
        tab.send(#"{"type":"begin"}"#)
        // "SP" and "spa" fold as the values do; "e" is a word's start in none but English;
        // the empty text suggests every value, most items first; "zz" none.
        for text in ["SP", "spa", "e", "", "zz", " ger "] {
          tab.send(#"{"type":"text","text":\#(try Self.json(text))}"#)
          try await Server.read(tab, into: &page, until: Self.answers(text))
          let expected = try Self.expectedSuggestions(for: text)
          #expect(page.last?.suggestions == expected, "\(text)")
        }
        #expect(try Self.expectedSuggestions(for: "").count == 7)
        #expect(try Self.expectedSuggestions(for: "SP").map(\.title) == ["Spanish"])
      }
    }

    @Test func aSuggestedTokenFiltersTheRowsAndIsSuggestedNoMore() async throws {
      try await Server.withServer { port in
        let tab = WebTab(port: port)
        defer { tab.close() }
        var page = PageModel()
        tab.send(#"{"type":"visible","first":0,"count":10}"#)
        tab.send(#"{"type":"begin"}"#)
        tab.send(#"{"type":"text","text":"ger"}"#)
        try await Server.read(tab, into: &page, until: Server.settled(text: "ger"))
        let suggestion = try #require(page.last?.suggestions.first)
        #expect(suggestion.token == WebToken(attribute: "language", values: ["German"]))

        // As the page does: the text cleared, then the token sent; then "e" typed.
        tab.send(#"{"type":"text","text":""}"#)
        tab.send(#"{"type":"tokens","tokens":[\#(try Self.json(suggestion.token))]}"#)
        tab.send(#"{"type":"text","text":"e"}"#)
        try await Server.read(tab, into: &page, until: Server.settled(text: "e"))
        let language = try #require(Self.corpus.model.schema.attributeIndex(named: "language"))
        let expected = try Server.reference("e").filter {
          Self.corpus.model.attribute(language, of: ItemID(rawValue: Int32($0.id))) == "German"
        }.enumerated().map { position, row in
          var row = row
          row.position = position
          return row
        }
        try #require(expected.count > 20)
        #expect(page.last?.count == expected.count)
        #expect(page.window == Array(expected.prefix(20)))
        // The token in the field is not suggested again.
        tab.send(#"{"type":"text","text":""}"#)
        try await Server.read(tab, into: &page, until: Self.answers(""))
        let left = try Self.expectedSuggestions(for: "", excluding: [suggestion.token])
        #expect(page.last?.suggestions == left)
        #expect(left.count == 6)
      }
    }

    @Test func offeredValuesAreBoundedPerAttribute() throws {
      // "group": 300 values, the first held by 300 items, the next by fewer; "serial": a value
      // per item, 1,201 in all: too many to offer.
      var model = SearchModel(
        schema: SearchModel.Schema(fields: [.init(name: "name")], attributes: ["group", "serial"]))
      var serial = 0
      for group in 0..<300 {
        for _ in 0..<(group == 0 ? 300 : 3) {
          serial += 1
          _ = try model.append(
            SearchModel.Record(
              fields: [["item \(serial)"]], attributes: ["g\(group)", "s\(serial)"]))
        }
      }
      try #require(serial > 1_000)
      let corpus = try SearchCorpus(model: model, normalizer: try Normalizer())
      let offers = AttributeValueTokens(
        corpus: corpus, maximumDistinctValues: WebTokenOffers.maximumDistinctValues,
        perAttribute: WebTokenOffers.perAttribute)
      #expect(offers.count == 200)
      let all = offers.suggestions(for: "", limit: 1_000)
      #expect(all.allSatisfy { $0.attribute == "group" })
      #expect(all.first?.value == "g0" && all.first?.items == 300)
      for text in ["", "g1", "G29", "s1"] {
        #expect(
          offers.suggestions(for: text, limit: 8).map(\.value)
            == (try Self.expectedSuggestions(for: text, in: corpus)).map(\.title), "\(text)")
      }
    }

    /// The index an engine's own table has: each title and the first row of its section.
    static func expectedIndex(_ table: SectionedTable) -> [WebIndexEntry] {
      var starts: [Int] = []
      var position = 0
      for section in table.sections {
        starts.append(position)
        position += section.items.count
      }
      return (table.sectionIndexTitles ?? []).enumerated().map { index, title in
        WebIndexEntry(
          title: title, position: starts[table.section(forSectionIndexTitle: title, at: index)])
      }
    }

    @Test func sectionsBringAnIndexWhoseTitlesJumpToTheirSections() async throws {
      let corpus = Self.corpus
      let collation = try SectionedTable.Collation(locale: corpus.normalizer.locale ?? "")
      try await Server.withServer { port in
        let tab = WebTab(port: port)
        defer { tab.close() }
        var page = PageModel()
        tab.send(#"{"type":"visible","first":0,"count":10}"#)
        try await Server.read(tab, into: &page) { $0.table == "original" }
        // A plain list has no index.
        #expect(page.last?.sectionIndex == nil && page.last?.sections == "none")

        tab.send(#"{"type":"sections","sections":"letter:word"}"#)
        try await Server.read(tab, into: &page) { $0.sections == "letter:word" }
        let letters = try SectionedTable(
          items: corpus.model.ids, model: corpus.model, sectioning: .firstLetter(field: "word"),
          collation: collation)
        let index = try #require(page.last?.sectionIndex)
        #expect(index == Self.expectedIndex(letters))
        let rows = letters.sections.flatMap(\.items)
        #expect(page.window.map(\.id) == rows.prefix(20).map { Int($0.rawValue) })

        // A title far down: its rows come when the page scrolls there, its section's first.
        let entry = try #require(
          index.last { entry in
            entry.position > 100 && letters.sections.contains { $0.title == entry.title }
          })
        tab.send(#"{"type":"visible","first":\#(entry.position),"count":10}"#)
        try await Server.read(tab, into: &page) {
          $0.start <= entry.position && entry.position < $0.end
        }
        let row = try #require(page.rows[entry.position])
        #expect(row.id == Int(rows[entry.position].rawValue))
        #expect(row.section == entry.title)
        #expect(page.rows[entry.position - 1].map { $0.section != entry.title } ?? false)

        // The results in letters: most letters have none and jump to the next that has rows.
        tab.send(#"{"type":"visible","first":0,"count":10}"#)
        tab.send(#"{"type":"text","text":"über"}"#)
        try await Server.read(tab, into: &page, until: Server.settled(text: "über"))
        let found = try Server.reference("über").map { ItemID(rawValue: Int32($0.id)) }
        let foundLetters = try SectionedTable(
          items: found, model: corpus.model, sectioning: .firstLetter(field: "word"),
          collation: collation)
        try #require(foundLetters.sections.count < 10)
        #expect(page.last?.sectionIndex == Self.expectedIndex(foundLetters))
        #expect(
          page.window.map(\.id)
            == foundLetters.sections.flatMap(\.items).prefix(20).map {
              Int($0.rawValue)
            })

        // The results in sections by language: the index of the engine's table of them.
        tab.send(#"{"type":"sections","sections":"language"}"#)
        tab.send(#"{"type":"text","text":"e"}"#)
        try await Server.read(tab, into: &page) {
          Server.settled(text: "e")($0) && $0.sections == "language"
        }
        let results = try Server.reference("e").map { ItemID(rawValue: Int32($0.id)) }
        let byLanguage = try SectionedTable(
          items: results, model: corpus.model, sectioning: .attribute("language"),
          collation: collation)
        #expect(page.last?.sectionIndex == Self.expectedIndex(byLanguage))
        #expect(
          page.window.map(\.id)
            == byLanguage.sections.flatMap(\.items).prefix(20).map { Int($0.rawValue) })

        // Without sections, no index again; an attribute the data lacks is an error.
        tab.send(#"{"type":"sections","sections":"none"}"#)
        try await Server.read(tab, into: &page) { $0.sections == "none" && !$0.pending }
        #expect(page.last?.sectionIndex == nil)
        tab.send(#"{"type":"sections","sections":"colour"}"#)
        tab.send(#"{"type":"text","text":"ei"}"#)
        try await Server.read(tab, into: &page, until: Server.settled(text: "ei"))
        #expect(page.errors.contains { $0.contains("colour") })
      }
    }
  }
#endif
