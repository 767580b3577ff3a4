import SearchCore
import SearchEngine
import Testing

@testable import SearchBenchmarks

/// The benchmark's SQLite peer answers what SearchCore answers wherever their folding agrees
/// (ASCII text, which both fold by case alone): every kind of term, `!` and `|`, terms
/// shorter than the trigram index's 3 characters, attribute and field scopes.
@MainActor
struct SQLitePeerTests {
  static let scopes = [
    ScopeBar.Scope(title: "All"),
    ScopeBar.Scope(title: "Europe", attribute: "continent", values: ["Europe"]),
    ScopeBar.Scope(title: "Name", fields: ["name"]),
  ]

  static let items: [(name: String, alternates: [String], continent: String)] = [
    ("Zurich", ["Zuerich", "Zurigo"], "Europe"),
    ("San Francisco", ["SF", "Frisco"], "Americas"),
    ("Santa Cruz", [], "Americas"),
    ("New York", ["NYC", "Big Apple"], "Americas"),
    ("York", ["Eboracum"], "Europe"),
    ("Newcastle upon Tyne", ["Newcastle"], "Europe"),
    ("Saint Louis", ["St. Louis"], "Americas"),
    ("Sankt Gallen", ["St. Gallen", "Saint-Gall"], "Europe"),
    ("Yorktown", [], "Americas"),
    ("Oslo", ["Christiania"], "Europe"),
    ("Percent 100%_done", ["under_score"], "Europe"),
  ]

  static let queries = [
    "z", "zu", "zur", "ZURICH", "san", "^san", "^st", "o$", "ork$", "^york$", "^new !york",
    "new york", "york | oslo", "!a", "!an !o", "'zrh", "'sgl", "gallen$", "st.", "100%", "_",
    "r_s", "apple", "^big", "ne | ^st !louis", "a e i",
  ]

  static func corpus() throws -> SearchCorpus {
    let schema = SearchModel.Schema(
      fields: [
        SearchModel.Schema.Field(name: "name"), SearchModel.Schema.Field(name: "alternate names"),
      ],
      attributes: ["continent"], scopeBar: ScopeBar(scopes))
    var model = SearchModel(schema: schema)
    for item in items {
      _ = try model.append(
        SearchModel.Record(fields: [[item.name], item.alternates], attributes: [item.continent]))
    }
    return try SearchCorpus(model: model, normalizer: try Normalizer())
  }

  @Test func answersAsSearchCoreOnASCIIText() throws {
    let corpus = try Self.corpus()
    let peer = try SQLitePeer(model: corpus.model, scopes: Self.scopes)
    for text in Self.queries {
      let query = try SearchQuery(text, normalizer: corpus.index.normalizer)
      for scope in Self.scopes.indices {
        var filter = IncrementalFilter()
        let searched = filter.search(query, scope: scope, in: corpus)
        let ours = try #require(searched)
        let theirs = try peer.search(query, scope: scope)
        let names = { (ids: [ItemID]) in Set(ids.map { corpus.model.values(of: $0, field: 0)[0] }) }
        #expect(
          names(theirs.map { corpus.model.id(at: $0) }) == names(ours.items),
          "\"\(text)\" in scope \(Self.scopes[scope].title)")
      }
    }
  }

  /// The queries above reach both the index and the LIKE conditions, so that the agreement
  /// covers each of them: a guard against a translation that only ever scans.
  @Test func theIndexAnswersLongTermsAndLikeTheRest() throws {
    let corpus = try Self.corpus()
    let schema = corpus.model.schema
    func sql(_ text: String, scope: Int = 0) throws -> SQLitePeerQuery {
      try SQLitePeerQuery(
        try SearchQuery(text, normalizer: corpus.index.normalizer), scope: Self.scopes[scope],
        schema: schema, fieldColumns: [0: "f0", 1: "f1"], attributeColumns: [0: "a0"])
    }
    let long = try sql("zur")
    #expect(long.text == "SELECT items.rowid FROM items WHERE items MATCH ?")
    #expect(long.bindings == ["\"zur\""])
    let short = try sql("zu")
    #expect(short.text.contains("LIKE") && !short.text.contains("MATCH"))
    #expect(short.bindings == ["%zu%", "%zu%"])
    let anchored = try sql("^san", scope: 2)
    #expect(anchored.text.contains("items MATCH ?") && anchored.text.contains("f0 LIKE"))
    #expect(!anchored.text.contains("f1"))
    #expect(anchored.bindings.first == "{f0}: (\"san\")")
    let excluded = try sql("^new !york", scope: 1)
    #expect(
      excluded.text.contains("NOT (items.rowid IN (SELECT rowid FROM items WHERE items MATCH ?))"))
    // The scope through the indexed table beside the index, the MATCH driving.
    #expect(excluded.text.contains("CROSS JOIN scopes ON scopes.id = items.rowid"))
    #expect(excluded.text.contains("scopes.a0 IN (?)"))
    #expect(excluded.bindings.prefix(2) == ["\"new\"", "Europe"])
  }
}
