import PropertyBased
import TestSupport
import Testing

@testable import SearchEngine

/// A column scan finds the value of each hit however far it lies from the previous one: next
/// to it, a few values on, or thousands of values on (where the search for the value strides
/// ahead and then bisects), in a column long enough to be scanned in parallel chunks.
@Suite(.tags(.concurrent))
struct ColumnScanTests {
  private func corpus(_ values: [[String]]) throws -> SearchCorpus {
    var model = SearchModel(schema: SearchModel.Schema(fields: [.init(name: "name")]))
    for item in values { _ = try model.append(SearchModel.Record(fields: [item], attributes: [])) }
    return try SearchCorpus(model: model, normalizer: try Normalizer())
  }

  /// Items of filler words with the hits ("qz", "^qz", "qz$") after gaps of the given sizes;
  /// some items hold two values, so that an item's values may straddle a chunk.
  private func items(gaps: [Int]) -> [[String]] {
    let fillers = ["alpha", "bravo", "charlie delta", "echo", "x", "foxtrot golf"]
    var items: [[String]] = []
    for (index, gap) in gaps.enumerated() {
      for filler in 0..<gap { items.append([fillers[(index + filler) % fillers.count]]) }
      switch index % 4 {
      case 0: items.append(["aqzb"])
      case 1: items.append(["qz start"])
      case 2: items.append(["ends qz", "other value"])
      default: items.append(["echo", "in the second value qz"])
      }
    }
    return items
  }

  @Test func hitsFarApartAreFoundInTheirValues() throws {
    // Gaps from neighbours to a large part of the column.
    let gaps = [0, 1, 2, 7, 8, 9, 15, 16, 17, 63, 64, 65, 1_000, 4_095, 4_096, 4_097, 12_000, 0, 3]
    let corpus = try corpus(items(gaps: gaps))
    #expect(corpus.model.count > QueryEvaluator.parallelThreshold, "the scan must be chunked")
    for text in ["qz", "^qz", "qz$", "qz | alpha", "qz !echo"] {
      let query = try SearchQuery(text, normalizer: corpus.normalizer)
      var filter = IncrementalFilter()
      let found = filter.search(query, scope: 0, in: corpus)?.items
      #expect(found == (try ReferenceSearch.search(query, scope: 0, in: corpus)), "\(text)")
    }
    var filter = IncrementalFilter()
    let hits = filter.search(
      try SearchQuery("qz", normalizer: corpus.normalizer), scope: 0, in: corpus)
    #expect(hits?.items.count == gaps.count, "one item per hit")
  }

  @Test func randomGapsFindWhatTheReferenceFinds() async throws {
    let gaps = Gen.int(in: 0...2_500).array(of: 1...16)
    await propertyCheck(count: TestBudget.cases(8), input: gaps) { gaps in
      let corpus = try corpus(items(gaps: gaps))
      for text in ["qz", "^qz", "qz$"] {
        let query = try SearchQuery(text, normalizer: corpus.normalizer)
        var filter = IncrementalFilter()
        let found = filter.search(query, scope: 0, in: corpus)?.items
        #expect(found == (try ReferenceSearch.search(query, scope: 0, in: corpus)), "\(text)")
      }
    }
  }

  /// One value per item (the value map is the identity) and an attribute scope whose runs start
  /// and end inside words of the common letters' bits: a one-letter query in every scope finds
  /// what the reference finds.
  @Test func commonLettersInScopesOfSingleValues() throws {
    let scopes = [
      ScopeBar.Scope(title: "All"),
      ScopeBar.Scope(title: "One", attribute: "group", values: ["one"]),
      ScopeBar.Scope(title: "Two", attribute: "group", values: ["two"]),
    ]
    let schema = SearchModel.Schema(
      fields: [.init(name: "name")], attributes: ["group"], scopeBar: ScopeBar(scopes))
    var model = SearchModel(schema: schema)
    let words = ["seven", "eleven", "tree", "sun", "ant", "ease", "x", "dnes", "a e"]
    // Runs of each group of odd lengths, so that runs start anywhere in a 64-bit word.
    var group = "one"
    var left = 3
    for index in 0..<20_000 {
      if left == 0 {
        group = group == "one" ? "two" : "one"
        left = 1 + (index * 7919) % 97
      }
      left -= 1
      _ = try model.append(
        SearchModel.Record(fields: [[words[(index * 31) % words.count]]], attributes: [group]))
    }
    let corpus = try SearchCorpus(model: model, normalizer: try Normalizer())
    #expect(corpus.index.fields[0]?.commonBytes?.tracks(UInt8(ascii: "e")) == true)
    let letters = ["e", "n", "s", "a", "t", "x", "d"]
    for (index, letter) in letters.enumerated() where index % TestBudget.step(1) == 0 {
      let query = try SearchQuery(letter, normalizer: corpus.normalizer)
      for scope in scopes.indices {
        var filter = IncrementalFilter()
        let found = filter.search(query, scope: scope, in: corpus)?.items
        #expect(
          found == (try ReferenceSearch.search(query, scope: scope, in: corpus)),
          "\(letter) in \(scopes[scope].title)")
      }
    }
  }
}
