import Foundation
import SearchCoreTesting
import TestSupport
import Testing

@testable import SearchCore
@testable import SearchEngine

/// Controllers that share finished searches answer as a controller alone does: a search is
/// shared only with one that would give the same rows, and the rows kept stay within bounds.
@MainActor
@Suite(.tags(.concurrent)) struct SharedSearchResultsTests {
  let corpus: SearchCorpus

  init() throws { corpus = try Fixtures.corpus("products/products") }

  private func controller(
    sharing shared: SharedSearchResults?,
    configuration: SearchConfiguration = SearchConfiguration(ranksResults: true, countsScopes: true)
  ) throws -> SearchController {
    let controller = try SearchController(corpus: corpus, configuration: configuration)
    controller.sharedResults = shared
    controller.begin()
    return controller
  }

  private func rows(_ controller: SearchController) -> [ItemID] {
    controller.resultsTable.sections.flatMap(\.items)
  }

  @Test func aSearchAnotherControllerFinishedIsTheSameSearch() throws {
    let shared = SharedSearchResults(for: corpus)
    let (first, second) = (try controller(sharing: shared), try controller(sharing: shared))
    let alone = try controller(sharing: nil)
    var expected = (hits: 0, misses: 0)
    // Each step: one controller's input, and whether its search was kept before.
    let steps: [(SearchController, (SearchController) throws -> Void, Bool)] = [
      (first, { $0.setText("i") }, false),
      (second, { $0.setText("i") }, true),
      (second, { $0.setText("ip") }, false),
      (first, { $0.setText("ip") }, true),
      // Another scope, other tokens, another text are other searches.
      (first, { try $0.selectScope(1) }, false),
      (second, { try $0.selectScope(1) }, true),
      (
        second, { $0.setFilter(AttributeFilter([.number(attribute: "year", in: 2010...2030)])) },
        false
      ),
      (
        first, { $0.setFilter(AttributeFilter([.number(attribute: "year", in: 2010...2030)])) },
        true
      ),
      (first, { $0.setText("ip ") }, false),
    ]
    for (controller, input, isKept) in steps {
      try input(controller)
      if isKept { expected.hits += 1 } else { expected.misses += 1 }
      #expect(shared.lookups == expected)
      // The controller alone, given the same text, scope and tokens, shows the same rows.
      alone.setText(controller.searchBar.text)
      if alone.searchBar.selectedScope != controller.searchBar.selectedScope {
        try alone.selectScope(controller.searchBar.selectedScope)
      }
      alone.setFilter(controller.searchBar.filter)
      #expect(rows(controller) == rows(alone) && !rows(alone).isEmpty)
      #expect(controller.scopeCounts == alone.scopeCounts)
      #expect(controller.results?.items == alone.results?.items)
    }
  }

  @Test func anotherConfigurationOrAChangedModelIsAnotherSearch() throws {
    let shared = SharedSearchResults(for: corpus)
    let ranked = try controller(sharing: shared)
    let inModelOrder = try controller(
      sharing: shared, configuration: SearchConfiguration(countsScopes: true))
    ranked.setText("air")
    inModelOrder.setText("air")
    #expect(shared.lookups == (0, 2))
    #expect(Set(rows(ranked)) == Set(rows(inModelOrder)) && rows(ranked) != rows(inModelOrder))
    // A new item that matches: the model's version changed, and the search runs again.
    let added = try ranked.insert(
      SearchModel.Record(fields: [["MacBook Air 15"]], attributes: ["Mac", "2023", "1299.00"]))
    let other = try SearchController(
      corpus: ranked.corpus,
      configuration: SearchConfiguration(ranksResults: true, countsScopes: true))
    other.sharedResults = shared
    other.begin()
    other.setText("air")
    #expect(shared.lookups.hits == 0)
    #expect(rows(other).contains(added))
  }

  @Test func theRowsKeptStayWithinTheLimitsTheLeastRecentlyUsedGoingFirst() throws {
    let shared = SharedSearchResults(itemLimit: 60, entryLimit: 3)
    let typing = try controller(sharing: shared)
    for text in ["a", "i", "ip", "ipa", "ipad", "m", "ma", "mac"] {
      typing.setText(text)
      let kept = shared.kept
      #expect(kept.rows <= 60 && kept.searches <= 3)
    }
    let misses = shared.lookups.misses
    // The newest three are kept: "mac" is a hit; "ipad" went first, "a" was too broad to keep.
    let other = try controller(sharing: shared)
    other.setText("mac")
    #expect(shared.lookups == (1, misses))
    other.setText("ipad")
    other.setText("a")
    #expect(shared.lookups == (1, misses + 2))
  }

  @Test func aSearchUnderWayIsWaitedForNotRunAgain() async throws {
    let shared = SharedSearchResults(for: corpus)
    let layout = try SearchController.Tables(corpus: corpus, options: .init()).resultsLayout
    func key(_ text: String) -> SharedSearchResults.Key {
      SharedSearchResults.Key(
        text: text, scope: 0, filter: AttributeFilter([]), configuration: SearchConfiguration(),
        countsScopes: false, completionLimit: 0, layout: layout, modelVersion: corpus.model.version)
    }
    guard case .run(let flight) = shared.take(key("ip")) else {
      Issue.record("the first search of a text is to run")
      return
    }
    // A second controller's search of the same text waits for the first, in a task.
    guard case .wait(let awaited) = shared.take(key("ip")), awaited === flight else {
      Issue.record("a search under way was not waited for")
      return
    }
    let ended = LockedValue(false)
    let waiting = Task.detached {
      await awaited.ended()
      ended.withLock { $0 = true }
    }
    try await Task.sleep(for: .milliseconds(100))
    #expect(!ended.withLock { $0 })
    let result = try Fixtures.search(
      try SearchQuery("ip", normalizer: corpus.normalizer), in: corpus)
    let outcome = SearchController.Outcome(
      result: result, table: try layout.table(result.items, of: corpus.model))
    shared.finish(flight, for: key("ip"), with: outcome)
    await waiting.value
    #expect(ended.withLock { $0 })
    guard case .kept(let kept) = shared.take(key("ip")) else {
      Issue.record("the waiting search found no outcome")
      return
    }
    #expect(kept.result.items == result.items && !result.items.isEmpty)
    #expect(shared.lookups == (1, 1))
    // A search that ended with nothing to keep is run again by the next.
    guard case .run(let second) = shared.take(key("mac")) else {
      Issue.record("another text is another search")
      return
    }
    shared.finish(second, for: key("mac"), with: nil)
    guard case .run(let third) = shared.take(key("mac")) else {
      Issue.record("a search that kept nothing was not run again")
      return
    }
    // Every search given to run is ended, as a controller's job ends it.
    shared.finish(third, for: key("mac"), with: nil)
  }

  @Test func backgroundSearchesOfOneTextRunItOnceAndShowTheSameRows() async throws {
    let shared = SharedSearchResults(for: corpus)
    let configuration = SearchConfiguration(
      mode: .background, ranksResults: true, countsScopes: true)
    let controllers = try (0..<8).map { _ in
      try controller(sharing: shared, configuration: configuration)
    }
    for controller in controllers { controller.setText("ip") }
    for controller in controllers { await controller.waitUntilIdle() }
    // One ran it; the others waited for it, or found it kept.
    #expect(shared.lookups.misses == 1)
    let alone = try controller(sharing: nil)
    alone.setText("ip")
    for controller in controllers {
      #expect(rows(controller) == rows(alone) && !rows(alone).isEmpty)
    }
  }

  @Test func theLeastRecentlyUsedGoFirstThroughManyUses() throws {
    let layout = try SearchController.Tables(corpus: corpus, options: .init()).resultsLayout
    let texts = ["a", "i", "ip", "ipa", "m", "ma", "mac", "air", "pro", "s", "se", "e"]
    var outcomes: [String: SearchController.Outcome] = [:]
    for text in texts {
      let result = try Fixtures.search(
        try SearchQuery(text, normalizer: corpus.normalizer), in: corpus)
      outcomes[text] = SearchController.Outcome(
        result: result, table: try layout.table(result.items, of: corpus.model))
    }
    func key(_ text: String) -> SharedSearchResults.Key {
      SharedSearchResults.Key(
        text: text, scope: 0, filter: AttributeFilter([]), configuration: SearchConfiguration(),
        countsScopes: false, completionLimit: 0, layout: layout, modelVersion: corpus.model.version)
    }
    let entryLimit = 4
    let shared = SharedSearchResults(itemLimit: Int.max, entryLimit: entryLimit)
    // The reference: the kept texts, least recently used first.
    var reference: [String] = []
    var generator = SplitMix64(seed: 50)
    for _ in 0..<3000 {
      let text = texts.randomElement(using: &generator)!
      switch shared.take(key(text)) {
      case .kept:
        #expect(reference.contains(text))
        reference.removeAll { $0 == text }
        reference.append(text)
      case .run(let flight):
        #expect(!reference.contains(text))
        shared.finish(flight, for: key(text), with: outcomes[text])
        reference.append(text)
        if reference.count > entryLimit { reference.removeFirst() }
      case .wait:
        Issue.record("no search of \(text) was under way")
      }
      #expect(texts.filter { shared.isKept(key($0)) }.sorted() == reference.sorted())
    }
  }
}
