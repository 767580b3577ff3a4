import SearchCoreTesting
import TestSupport
import Testing

@testable import SearchEngine

/// The typo count of each result, as lists show it and order by it: the counts read from the
/// word index for a whole result equal each item's own count (its words against the query's),
/// and the exact-first order is a stable grouping by that count.
@Suite struct TypoOrderTests {
  /// Queries over cities.tsv with one and two typos, several words, a prefix still typed, and
  /// one without a word long enough for a typo.
  static let queries = [
    "zurihc", "calfornia", "lodnon", "new yrok", "buenos aries", "sao paolo", "kalifornja",
    "frankfrut am", "montevidoe ", "rio", "santa", "mosow", "saint peterbsurg",
  ]

  @Test(arguments: queries)
  func countsForAResultEqualEachItemsOwn(_ text: String) throws {
    let corpus = try Fixtures.corpus("cities/cities")
    let query = try SearchQuery(
      text, syntax: .words, typos: .default, normalizer: corpus.normalizer)
    var filter = IncrementalFilter()
    let found = filter.search(query, scope: 0, in: corpus)
    let result = try #require(found)
    // The counts from what the scan learnt, and from the word index alone (a result that did
    // not come from a scan: refreshed after a change, say).
    let learnt = corpus.typoCounts(of: result)
    let searched = corpus.typoCounts(
      of: SearchResult(
        query: query, scope: 0, items: result.items, path: .refreshed,
        modelVersion: result.modelVersion))
    for counts in [learnt, searched] {
      for item in result.items {
        #expect(
          counts.typos(of: item.rawValue) ?? 0 == corpus.typos(of: item, for: query),
          "\(text): \(item)")
      }
      #expect(counts.items.allSatisfy { result.items.contains(ItemID(rawValue: $0)) })
      #expect(counts.typos.allSatisfy { $0 > 0 })
    }
    let ordered = corpus.exactFirst(result)
    #expect(ordered.sorted() == result.items.sorted())
    let orderedCounts = ordered.map { learnt.typos(of: $0.rawValue) ?? 0 }
    #expect(orderedCounts == orderedCounts.sorted(), "\(text): fewest typos first")
    // Each group keeps model order.
    for count in Set(orderedCounts) {
      let group = ordered.filter { learnt.typos(of: $0.rawValue) ?? 0 == count }
      #expect(
        group == result.items.filter { learnt.typos(of: $0.rawValue) ?? 0 == count },
        "\(text): \(count)")
    }
    if !query.mayMatchWithTypos { #expect(learnt.isEmpty) }
  }

  /// A scan tells the counts of the sets it scanned: the words of a one-word query found with
  /// typos, and not the items that contain the word exactly.
  @Test func aScanTellsTheItemsFoundOnlyWithTypos() throws {
    let corpus = try Fixtures.corpus("cities/cities")
    let query = try SearchQuery(
      "calfornia", syntax: .words, typos: .default, normalizer: corpus.normalizer)
    var filter = IncrementalFilter()
    let found = filter.search(query, scope: 0, in: corpus)
    let result = try #require(found)
    #expect(result.path == .fullScan)
    let known = try #require(result.typoOnly[0])
    #expect(!known.isEmpty)
    for item in known.items {
      #expect(corpus.typos(of: ItemID(rawValue: item), for: query) > 0, "\(item)")
    }
  }

  /// The queries find some items with typos and some exactly, so that the test above checks
  /// both kinds.
  @Test func theQueriesFindBothKinds() throws {
    let corpus = try Fixtures.corpus("cities/cities")
    var withTypos = 0
    var exact = 0
    for text in Self.queries {
      let query = try SearchQuery(
        text, syntax: .words, typos: .default, normalizer: corpus.normalizer)
      var filter = IncrementalFilter()
      let found = filter.search(query, scope: 0, in: corpus)
      let result = try #require(found)
      let counts = corpus.typoCounts(of: result)
      withTypos += counts.count
      exact += result.items.count - counts.count
    }
    #expect(withTypos > 50 && exact > 50, "\(withTypos) with typos, \(exact) exact")
  }
}
