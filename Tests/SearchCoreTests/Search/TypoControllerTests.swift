import SearchCoreTesting
import TestSupport
import Testing

@testable import SearchCore
@testable import SearchEngine

/// Typo tolerance through the controller: the configuration's tolerance reaches the query,
/// in memory by default and on a backend only when stated, where a server's refusal is
/// reported instead of a different answer; the word index is built off the main actor.
@MainActor
@Suite(.tags(.concurrent)) struct TypoControllerTests {
  let corpus: SearchCorpus

  init() throws { corpus = try Fixtures.corpus("products/products") }

  /// In memory, words syntax finds "MacBook" for "macbok" with one typo, after nothing
  /// exact; stated off, it finds nothing; extended syntax is always exact.
  @Test func theConfigurationsToleranceReachesTheQuery() throws {
    let words = try SearchController(
      corpus: corpus, configuration: SearchConfiguration(querySyntax: .words))
    words.begin()
    words.setText("macbok")
    let found = words.resultsTable.sections.flatMap(\.items)
    #expect(!found.isEmpty)
    #expect(found.allSatisfy { corpus.model.display($0).lowercased().contains("macbook") })
    #expect(found.allSatisfy { words.typos(of: $0) == 1 })
    words.configuration.typos = .off
    words.setText("macbo")
    words.setText("macbok")
    #expect(words.resultsState == .noResults)
    let extended = try SearchController(corpus: corpus)
    extended.begin()
    extended.setText("macbok")
    #expect(extended.resultsState == .noResults)
  }

  /// On a backend, words are exact unless the configuration states a tolerance: the server is
  /// asked for an exact query.
  ///
  /// Stated, the server's refusal is the search's error.
  @Test func aBackendSearchesExactlyUnlessTyposAreStated() async throws {
    let backend = RecordingBackend(corpus: corpus)
    let controller = try SearchController(
      corpus: corpus, configuration: SearchConfiguration(mode: .background, querySyntax: .words),
      backend: backend)
    var errors: [String] = []
    let token = controller.observe { event in
      if case .error(let message) = event { errors.append(message) }
    }
    controller.begin()
    controller.setText("macbok")
    await controller.waitUntilIdle()
    #expect(await backend.queries.map(\.typos) == [.off])
    #expect(controller.resultsState == .noResults)
    #expect(errors.isEmpty, "\(errors)")
    controller.configuration.typos = .default
    controller.setText("macbook")
    await controller.waitUntilIdle()
    #expect(errors.count == 1)
    #expect(errors.first?.contains("does not match words with typos") == true, "\(errors)")
    withExtendedLifetime(token) {}
  }

  /// A words configuration with typos builds the word index in the background as soon as the
  /// controller exists; an extended one does not build it.
  @Test func theWordIndexIsBuiltInTheBackground() async throws {
    let fresh = try Fixtures.corpus("products/products")
    #expect(!fresh.wordIndexIsBuilt)
    _ = try SearchController(corpus: fresh)
    let words = try Fixtures.corpus("products/products")
    _ = try SearchController(
      corpus: words, configuration: SearchConfiguration(querySyntax: .words))
    for _ in 0..<60_000 where !words.wordIndexIsBuilt {
      try await Task.sleep(for: .milliseconds(1))
    }
    #expect(words.wordIndexIsBuilt)
    #expect(!fresh.wordIndexIsBuilt)
  }
}

/// A backend that answers in memory and records the queries it was asked, refusing those that
/// may match with typos, as a search server does.
private actor RecordingBackend: SearchBackend {
  private let base: MemorySearchBackend
  private(set) var queries: [SearchQuery] = []

  init(corpus: SearchCorpus) { base = MemorySearchBackend(corpus: corpus) }

  func items(matching query: SearchQuery, scope: Int) async throws -> [ItemID] {
    queries.append(query)
    if query.mayMatchWithTypos { throw SearchBackendError.typosUnsupported }
    return try await base.items(matching: query, scope: scope)
  }

  func apply(_ changes: [BackendChange]) async throws { try await base.apply(changes) }
}
