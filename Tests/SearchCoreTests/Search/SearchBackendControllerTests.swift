import SearchCoreTesting
import TestSupport
import Testing

@testable import SearchCore
@testable import SearchEngine

/// The controller over a backend that is ahead of the model: `apply(_:)` sends a batch to the
/// backend first, so for a moment the backend holds items the list does not have yet.
///
/// A search answered in that moment must neither be shown nor reported as a mismatch.
@MainActor
@Suite(.tags(.concurrent)) struct SearchBackendControllerTests {
  let corpus: SearchCorpus

  init() throws { corpus = try Fixtures.corpus("products/products") }

  /// A search answered after the backend took an insertion, before the model installed it,
  /// waits for the batch and runs again on the new model: no error, and the results then
  /// have the new item.
  @Test func anAnswerFromAheadOfTheModelWaitsForTheBatch() async throws {
    let backend = GatedBackend(corpus: corpus)
    let controller = try SearchController(
      corpus: corpus, configuration: SearchConfiguration(mode: .background), backend: backend)
    let log = EventLog(controller)
    controller.begin()
    controller.setText("mac")
    await controller.waitUntilIdle()
    #expect(controller.results?.items.count == 17)

    let batch = Task { @MainActor in
      try await controller.apply([
        .insert(
          SearchModel.Record(fields: [["Macintosh Neo"]], attributes: ["Desktop", "2026", "999"]),
          at: nil)
      ])
    }
    try await backend.waitUntilGated()
    let answersBefore = await backend.answers
    controller.setText("maci")
    try await backend.waitForAnswers(answersBefore + 1)
    // The answer names an item the list does not have yet: nothing is shown of it.
    for _ in 0..<50 { await Task.yield() }
    #expect(controller.results?.query.text == "mac", "the held answer was shown")
    #expect(!controller.isIdle)

    await backend.open()
    let inserted = try await batch.value
    await controller.waitUntilIdle()
    #expect(log.errors == [])
    #expect(controller.results?.query.text == "maci")
    var fresh = IncrementalFilter()
    let expected = try #require(
      fresh.search(
        try SearchQuery("maci", normalizer: corpus.normalizer), scope: 0, in: controller.corpus))
    #expect(controller.results?.items == expected.items)
    #expect(controller.results?.items.contains(inserted[0]) == true)
    #expect(await backend.answers == answersBefore + 2, "the held search ran again")
  }

  /// A batch the backend refuses after a search was held: the held search runs again on the
  /// unchanged model, and the controller comes to rest.
  @Test func aRefusedBatchReleasesTheHeldSearch() async throws {
    let backend = GatedBackend(corpus: corpus, refuses: true)
    let controller = try SearchController(
      corpus: corpus, configuration: SearchConfiguration(mode: .background), backend: backend)
    let log = EventLog(controller)
    controller.begin()
    let batch = Task { @MainActor in
      try await controller.apply([
        .insert(
          SearchModel.Record(fields: [["Macintosh Neo"]], attributes: ["Desktop", "2026", "999"]),
          at: nil)
      ])
    }
    try await backend.waitUntilGated()
    controller.setText("ipad")
    try await backend.waitForAnswers(1)
    await backend.open()
    await #expect(throws: SearchCorpus.Error.self) { try await batch.value }
    await controller.waitUntilIdle()
    #expect(log.errors == [])
    #expect(controller.results?.query.text == "ipad")
    #expect(controller.results?.items.count == 4)
    #expect(controller.corpus.model.count == corpus.model.count)
    #expect(await backend.answers == 2)
  }

  /// A superseded search that fails is dropped with its results: only the newest search's
  /// failure is reported.
  @Test func onlyTheNewestSearchReportsItsFailure() async throws {
    let backend = GatedBackend(corpus: corpus, failsSearches: true)
    let controller = try SearchController(
      corpus: corpus, configuration: SearchConfiguration(mode: .background), backend: backend)
    let log = EventLog(controller)
    controller.begin()
    controller.setText("m")
    controller.setText("ma")
    controller.setText("mac")
    await controller.waitUntilIdle()
    #expect(log.errors.count == 1, "\(log.errors)")
    #expect(log.errors.first?.contains("\"mac\"") == true, "\(log.errors)")
  }
}

/// Collects a controller's error events.
@MainActor
private final class EventLog {
  var errors: [String] = []
  private var token: SearchController.ObservationToken?

  init(_ controller: SearchController) {
    token = controller.observe { [weak self] event in
      if case .error(let message) = event { self?.errors.append(message) }
    }
  }
}

/// A backend that searches a corpus in memory, takes a batch's insertions at once (so its
/// answers name them) and then waits at a gate before `apply` returns; it may refuse the
/// batch at the gate, or fail every search.
private actor GatedBackend: SearchBackend {
  private let base: MemorySearchBackend
  private let refuses: Bool
  private let failsSearches: Bool
  private var inserted: [ItemID] = []
  private var gate: CheckedContinuation<Void, Never>?
  private(set) var answers = 0

  init(corpus: SearchCorpus, refuses: Bool = false, failsSearches: Bool = false) {
    base = MemorySearchBackend(corpus: corpus)
    self.refuses = refuses
    self.failsSearches = failsSearches
  }

  func items(matching query: SearchQuery, scope: Int) async throws -> [ItemID] {
    answers += 1
    if failsSearches {
      throw SearchBackendError(
        .timeout, "the search for \"\(query.text)\" took too long", advice: "")
    }
    // The insertions go last in model order: every one in the tests is an append.
    return try await base.items(matching: query, scope: scope) + inserted
  }

  func apply(_ changes: [BackendChange]) async throws {
    if !refuses {
      for case .insert(let id, _, _) in changes { inserted.append(id) }
    }
    await withCheckedContinuation { gate = $0 }
    if refuses { throw SearchBackendError(.rejected, "refused", advice: "none") }
  }

  func open() {
    gate?.resume()
    gate = nil
  }

  /// Returns once `apply` waits at the gate.
  func waitUntilGated() async throws {
    try await poll { gate != nil }
  }

  /// Returns once this many searches were answered.
  func waitForAnswers(_ count: Int) async throws {
    try await poll { answers >= count }
  }

  private func poll(_ condition: () -> Bool) async throws {
    // A bound on the wait, not on the speed: a broken controller fails here instead of hanging.
    // A minute: under the address sanitizer beside the thread sanitizer, 10 s once ran out.
    for _ in 0..<60_000 where !condition() {
      try await Task.sleep(for: .milliseconds(1))
    }
    if !condition() { throw CancellationError() }
  }
}
