import PropertyBased
import SearchCoreTesting
import TestSupport
import Testing

@testable import SearchEngine

/// Real queries from the sample's own words: prefixes, infixes, two terms, anchors, exclusions,
/// alternatives and fuzzy terms, as people type them (lower case).
private let queries: [String] = {
  guard let corpus = try? Fixtures.wordsSample() else { return [] }
  let words = corpus.model.ids.compactMap {
    corpus.model.values(of: $0, field: 0).first?.lowercased()
  }
  .filter { $0.count >= 6 }
  var result: [String] = []
  for (index, word) in words.enumerated() where index % 41 == 0 {
    let characters = Array(word)
    let middle = String(characters[2..<min(characters.count, 6)])
    switch result.count % 8 {
    case 0: result.append(String(characters.prefix(5)))
    case 1: result.append(middle)
    case 2: result.append(String(characters.prefix(3)) + " " + String(characters.suffix(3)))
    case 3: result.append("^" + String(characters.prefix(4)))
    case 4: result.append(String(characters.suffix(4)) + "$")
    case 5: result.append(middle + " !" + String(characters.prefix(2)))
    case 6: result.append(String(characters.prefix(3)) + " | " + middle)
    default: result.append("'" + String(characters.prefix(2)) + String(characters.suffix(2)))
    }
  }
  return result
}()

@Suite(.tags(.concurrent)) struct IncrementalFilterTests {
  let corpus: SearchCorpus

  init() throws { corpus = try Fixtures.wordsSample() }

  @Test func sampleQueriesAreReal() {
    #expect(queries.count >= 100)
    #expect(corpus.scopeBar.titles.count == 8)
  }

  @Test func fullScanEqualsReference() throws {
    for (number, text) in queries.enumerated() where number % TestBudget.step(3) == 0 {
      let query = try SearchQuery(text, normalizer: corpus.normalizer)
      let scope = number % corpus.scopeBar.scopes.count
      var filter = IncrementalFilter()
      let result = try filter.searching(query, scope: scope, in: corpus)
      #expect(result.path == .fullScan)
      let expected = try ReferenceSearch.search(query, scope: scope, in: corpus)
      #expect(result.items == expected, "\"\(text)\" in scope \(scope)")
    }
  }

  /// The invariant: whatever path the incremental filter takes, its result is the full scan's.
  @Test func incrementalEqualsFullScanWhileTyping() async throws {
    let corpus = self.corpus
    let scopes = corpus.scopeBar.scopes.count
    let sessions = Gen.int(in: 0...(queries.count - 1))
    let actions = Gen.int(in: 0...19).array(of: 8...40)
    let paths = LockedValue<[String: Int]>([:])
    await propertyCheck(count: TestBudget.cases(60), input: sessions, actions) {
      queryIndex, actions in
      var filter = IncrementalFilter()
      var session = TypingSession(target: queries[queryIndex])
      // Of twenty actions: 0 and 1 backspace, 2 another scope button, the rest type.
      let odds = TypingSession.Odds(backspace: 2, selectScope: 1, outOf: 20)
      for action in actions {
        session.press(odds.key(for: action), newScope: { ($0 + 1 + action) % scopes })
        let text = session.text
        let scope = session.scope
        let query = try SearchQuery(text, normalizer: corpus.normalizer)
        let result = try filter.searching(query, scope: scope, in: corpus)
        var fresh = IncrementalFilter()
        let full = try fresh.searching(query, scope: scope, in: corpus)
        #expect(result.items == full.items, "\"\(text)\" scope \(scope) via \(result.path)")
        let path = String("\(result.path)".prefix(6))
        paths.withLock { $0[path, default: 0] += 1 }
      }
    }
    // The sessions took every path, so the invariant was tested where it matters.
    let taken = paths.withLock { $0 }
    #expect(taken["narrow", default: 0] > 0, "\(taken)")
    #expect(taken["cached", default: 0] > 0, "\(taken)")
    #expect(taken["fullSc", default: 0] > 0, "\(taken)")
  }

  @Test func narrowingAndBackspacingUseEarlierResults() throws {
    var filter = IncrementalFilter()
    let normalizer = corpus.normalizer
    let c = try filter.searching(try SearchQuery("c", normalizer: normalizer), scope: 0, in: corpus)
    #expect(c.path == .fullScan)
    let ca = try filter.searching(
      try SearchQuery("ca", normalizer: normalizer), scope: 0, in: corpus)
    #expect(ca.path == .narrowed(from: "c"))
    #expect(ca.items.allSatisfy(c.items.contains))
    let back = try filter.searching(
      try SearchQuery("c", normalizer: normalizer), scope: 0, in: corpus)
    #expect(back.path == .cached)
    #expect(back.items == c.items)
    // A scope change starts over.
    let german = try filter.searching(
      try SearchQuery("ca", normalizer: normalizer), scope: 4, in: corpus)
    #expect(german.path == .fullScan)
  }

  @Test func modelChangesClearTheCache() throws {
    var corpus = self.corpus
    var filter = IncrementalFilter()
    let query = try SearchQuery("zebra", normalizer: corpus.normalizer)
    let before = try filter.searching(query, scope: 0, in: corpus)
    let id = try corpus.append(
      SearchModel.Record(fields: [["Zebraßtreifen"]], attributes: ["German"]))
    let after = try filter.searching(query, scope: 0, in: corpus)
    #expect(after.path == .fullScan)
    #expect(after.items == before.items + [id])
    try corpus.update(id, with: SearchModel.Record(fields: [["Pferd"]], attributes: ["German"]))
    let updated = try filter.searching(query, scope: 0, in: corpus)
    #expect(updated.items == before.items)
    let horse = try #require(
      filter.search(try SearchQuery("pferd", normalizer: corpus.normalizer), scope: 4, in: corpus))
    #expect(horse.items.contains(id))
    try corpus.remove(id)
    let removed = try #require(
      filter.search(try SearchQuery("pferd", normalizer: corpus.normalizer), scope: 4, in: corpus))
    #expect(!removed.items.contains(id))
    #expect(
      try ReferenceSearch.search(
        try SearchQuery("pferd", normalizer: corpus.normalizer), scope: 4, in: corpus)
        == removed.items)
  }

  @Test func insertInTheMiddleKeepsModelOrder() throws {
    var corpus = self.corpus
    let query = try SearchQuery("ß", normalizer: corpus.normalizer)
    let id = try corpus.insert(SearchModel.Record(fields: [["Maß"]], attributes: ["German"]), at: 0)
    var filter = IncrementalFilter()
    let result = try filter.searching(query, scope: 0, in: corpus)
    #expect(result.items.first == id)
    #expect(result.items == (try ReferenceSearch.search(query, scope: 0, in: corpus)))
  }

  @Test func cancelledSearchLeavesNoTrace() throws {
    var filter = IncrementalFilter()
    let query = try SearchQuery("e", normalizer: corpus.normalizer)
    let cancelled = filter.search(query, scope: 0, in: corpus, isCancelled: { true })
    #expect(cancelled == nil)
    #expect(filter.cachedResults.isEmpty)
  }

  /// Typing a long text costs each keystroke one search, whatever was typed before it: 600
  /// keystrokes of `e e e …` (300 sets at the end, each matching most of the 34,006 cities)
  /// and 1,000 letters of one word, each searched as a search field does.
  ///
  /// Before, each keystroke compared every set with every set of each cached query, and every term
  /// that contained an older one listed every character boundary of its text: minutes where this
  /// takes seconds (the limit bounds a hang; it times nothing). Sets that repeat one are evaluated
  /// and ranked once, counted as many times: `e e e …` finds and orders as `e` does.
  @Test(.timeLimit(.minutes(2))) func longTypedTextCostsOneSearchPerKeystroke() throws {
    let cities = try Fixtures.corpus("cities/cities")
    let sets = TestBudget.cases(300)
    var filter = IncrementalFilter()
    var text = ""
    var result: SearchResult?
    for _ in 0..<sets {
      for character in "e " {
        text.append(character)
        result = try filter.searching(
          SearchQuery(text, normalizer: cities.normalizer), scope: 0, in: cities)
      }
    }
    // A space after it, as after the repeated ones: a finished word (see the ranking's
    // exactness).
    let single = try filter.searching(
      SearchQuery("e ", normalizer: cities.normalizer), scope: 0, in: cities)
    let repeated = try #require(result)
    #expect(repeated.query.sets.count == sets)
    #expect(repeated.items == single.items)
    #expect(cities.ranked(repeated) == cities.ranked(single))
    var word = ""
    var random = SplitMix64(seed: 45)
    for _ in 0..<TestBudget.cases(1_000) {
      word.append(Character(Unicode.Scalar(UInt8(0x61 + random.next() % 26))))
      _ = try filter.searching(
        SearchQuery(word, normalizer: cities.normalizer), scope: 0, in: cities)
    }
  }
}

extension IncrementalFilter {
  /// `search`, for tests: a search that was not cancelled always has a result.
  fileprivate mutating func searching(_ query: SearchQuery, scope: Int, in corpus: SearchCorpus)
    throws
    -> SearchResult
  {
    guard let result = search(query, scope: scope, in: corpus) else {
      throw CancellationError()
    }
    return result
  }
}

extension IncrementalFilterTests {
  /// One-letter queries go through the common-byte bits; they must agree with the reference,
  /// in a scope, and after changes that move values around (an update, a removal).
  @Test func singleLetterScansEqualReference() throws {
    var corpus = self.corpus
    let letters = "abcdefghijklmnopqrstuvwxyz".map(String.init)
    func check(_ label: String) throws {
      for (index, letter) in letters.enumerated() where index % TestBudget.step(1) == 0 {
        let query = try SearchQuery(letter, normalizer: corpus.normalizer)
        let scope = index / TestBudget.step(1) % 2 == 0 ? 0 : 4
        var filter = IncrementalFilter()
        let result = try filter.searching(query, scope: scope, in: corpus)
        let expected = try ReferenceSearch.search(query, scope: scope, in: corpus)
        #expect(result.items == expected, "\(label): \"\(letter)\" in scope \(scope)")
      }
    }
    try check("as loaded")
    let first = corpus.model.id(at: 0)
    try corpus.update(
      first, with: SearchModel.Record(fields: [["quixotic", "zebra"]], attributes: ["German"]))
    try corpus.remove(corpus.model.id(at: 5))
    try check("after an update and a removal")
  }
}
