import SearchCoreTesting
import TestSupport
import Testing

@testable import SearchCore
@testable import SearchEngine

/// A controller that asks its backend for a first page (`backendPageSize`): the first rows of
/// the answer and the count, more rows as the list asks for them, and a prefix that stays
/// one (every match up to its last row) through model changes.
@MainActor
@Suite(.tags(.concurrent)) struct BackendFirstPageTests {
  /// The whole answer of a fresh full scan of the controller's corpus.
  static func truth(_ controller: SearchController, _ text: String, scope: Int = 0) throws
    -> [ItemID]
  {
    let query = try controller.configuration.query(
      text, normalizer: controller.corpus.normalizer, onBackend: controller.backend != nil)
    var filter = IncrementalFilter()
    return filter.search(query, scope: scope, in: controller.corpus)?.items ?? []
  }

  @Test func theFirstPageIsThePrefixAndMoreRowsComeAPageAtATime() async throws {
    let corpus = try Fixtures.corpus("cities/cities")
    let controller = try SearchController(
      corpus: corpus, configuration: SearchConfiguration(mode: .background, backendPageSize: 25),
      backend: FollowingBackend())
    FollowingBackend.follow(controller)
    var updates: [SearchController.Update] = []
    let token = controller.observe { if case .update(let update) = $0 { updates.append(update) } }
    controller.begin()
    controller.setText("san")
    await controller.waitUntilIdle()
    let truth = try Self.truth(controller, "san")
    #expect(truth.count > 100)
    let first = try #require(controller.results)
    #expect(first.items == Array(truth.prefix(25)))
    #expect(!first.isComplete && controller.hasMoreResults)
    #expect(first.count == .exact(truth.count))
    #expect(controller.resultsTable.numberOfRows == 25)

    var shown = 25
    while controller.hasMoreResults {
      let generation = controller.generation
      let before = shown
      updates = []
      controller.loadMoreResults()
      await controller.waitUntilIdle()
      shown = min(shown + 25, truth.count)
      #expect(controller.generation == generation + 1)
      #expect(controller.results?.items == Array(truth.prefix(shown)))
      // The new rows arrive as insertions after the rows on screen; none of those moves.
      let changes = try #require(updates.last?.changes)
      #expect(changes.deletedRows.isEmpty && changes.movedRows.isEmpty)
      #expect(changes.insertedRows.count == shown - before)
    }
    #expect(controller.results?.items == truth)
    #expect(controller.results?.isComplete == true)
    #expect(controller.results?.count == .exact(truth.count))
    // Nothing more to load: the call does nothing.
    let generation = controller.generation
    controller.loadMoreResults()
    #expect(controller.generation == generation)
    withExtendedLifetime(token) {}
  }

  @Test func aShortAnswerIsCompleteAndRankedResultsAskForEveryMatch() async throws {
    let corpus = try Fixtures.corpus("cities/cities")
    let backend = FollowingBackend()
    let controller = try SearchController(
      corpus: corpus, configuration: SearchConfiguration(mode: .background, backendPageSize: 25),
      backend: backend)
    FollowingBackend.follow(controller)
    controller.begin()
    controller.setText("zürich")
    await controller.waitUntilIdle()
    let truth = try Self.truth(controller, "zürich")
    #expect(truth.count < 25)
    #expect(controller.results?.items == truth)
    #expect(controller.results?.isComplete == true && !controller.hasMoreResults)

    var configuration = controller.configuration
    configuration.ranksResults = true
    controller.configuration = configuration
    controller.setText("san")
    await controller.waitUntilIdle()
    #expect(controller.results?.isComplete == true)
    #expect(Set(controller.results?.items ?? []) == Set(try Self.truth(controller, "san")))
  }

  /// Random batches of insertions, updates and removals while a first page is on screen:
  /// after each, the rows are every match up to the last of them, in model order, and an
  /// exact count is the true count.
  @Test func aPrefixStaysAPrefixThroughModelChanges() async throws {
    var random = SplitMix64(seed: 0x5eed_f1a7)
    for _ in 0..<TestBudget.cases(40) {
      let model = try EditFixtures.model(limit: 120, using: &random)
      let corpus = try SearchCorpus(model: model, normalizer: try Normalizer())
      let controller = try SearchController(
        corpus: corpus, configuration: SearchConfiguration(mode: .background, backendPageSize: 4),
        backend: FollowingBackend())
      FollowingBackend.follow(controller)
      controller.begin()
      let text = ["a", "e", "o", "m"].randomElement(using: &random) ?? "a"
      controller.setText(text)
      await controller.waitUntilIdle()
      for _ in 0..<6 {
        if Bool.random(using: &random) {
          controller.loadMoreResults()
          await controller.waitUntilIdle()
        }
        _ = try await controller.apply(
          EditFixtures.changes(for: controller.corpus.model, using: &random))
        await controller.waitUntilIdle()
        let truth = try Self.truth(controller, text)
        let shown = try #require(controller.results)
        if shown.isComplete {
          #expect(shown.items == truth)
          continue
        }
        let end =
          shown.items.last.map { last in truth.firstIndex(of: last).map { $0 + 1 } ?? -1 } ?? 0
        #expect(end >= 0, "the last row shown is a match")
        #expect(shown.items == Array(truth.prefix(max(end, 0))), "\(text): not a prefix")
        #expect(shown.count.value > shown.items.count)
        if shown.count.isExact { #expect(shown.count.value == truth.count) }
        #expect(controller.resultsTable.numberOfRows == shown.items.count)
      }
    }
  }

  @Test func countsReadAsAFrontShowsThem() {
    #expect(ResultCount.exact(1_234_567).description == "1,234,567")
    #expect(ResultCount.exact(12).description == "12")
    #expect(ResultCount.estimate(12_345).description == "about 12,000")
    #expect(ResultCount.estimate(987).description == "about 990")
    #expect(ResultCount.estimate(99).description == "about 99")
    #expect(ResultCount.estimate(1_960).description == "about 2,000")
    #expect(ResultCount(atLeast: 51, .estimate(20)) == .estimate(51))
  }
}

/// A backend that answers by a full scan of its controller's corpus as it is when asked: it
/// follows every change the controller makes, as a server does.
private final class FollowingBackend: SearchBackend, @unchecked Sendable {
  @MainActor private weak var controller: SearchController?

  @MainActor static func follow(_ controller: SearchController) {
    (controller.backend as? FollowingBackend)?.controller = controller
  }

  func items(matching query: SearchQuery, scope: Int) async throws -> [ItemID] {
    let corpus = try await MainActor.run { () throws -> SearchCorpus in
      guard let controller else { throw CancellationError() }
      return controller.corpus
    }
    return try await MemorySearchBackend(corpus: corpus).items(matching: query, scope: scope)
  }
}
