import Foundation
import SearchCoreTesting
import TestSupport
import Testing

@testable import SearchCore
@testable import SearchEngine

/// Keystrokes of the session: 5,000, or 1,500 under a sanitizer (`.ci/run` sets SANITIZER),
/// where each costs ten times more and the session would be the longest test of the pass.
private let stressKeystrokes = TestBudget.underSanitizer ? 1_500 : 5_000

/// 5,000 keystrokes (``stressKeystrokes``) at random intervals in background mode while another
/// task inserts and deletes items, with real background searches (`TaskSearchScheduler`).
///
/// The controller keeps its promises to a front (``ControllerInvariants``: every reload belongs
/// to the newest generation when it arrives, every update's change set keeps a mirror equal to
/// the visible table, a generation names one set of rows, nothing arrives after cancel), and the
/// settled results equal a fresh full scan.
///
/// `.ci/run` runs this under both sanitizers too.
@MainActor
@Suite(.tags(.plainSwift, .concurrent)) struct SearchControllerStressTests {
  @Test func typingWhileTheModelChanges() async throws {
    let corpus = try Fixtures.wordsSample()
    let controller = try SearchController(
      corpus: corpus, configuration: SearchConfiguration(mode: .background))
    let words = corpus.model.ids.compactMap { corpus.model.values(of: $0, field: 0).first }
    var random = SplitMix64(seed: 0x5EA5C4)
    let invariants = ControllerInvariants(watching: controller)
    controller.begin()

    let mutator = Task { @MainActor in
      var random = SplitMix64(seed: 0xD1CE)
      for step in 0..<400 {
        let model = controller.corpus.model
        if step % 3 == 2, model.count > 1 {
          try controller.remove(model.id(at: Int(random.next() % UInt64(model.count))))
        } else {
          let word = words[Int(random.next() % UInt64(words.count))] + "x"
          try controller.insert(
            SearchModel.Record(fields: [[word]], attributes: ["English"]),
            at: Int(random.next() % UInt64(model.count + 1)))
        }
        for _ in 0..<(random.next() % 40) { await Task.yield() }
      }
    }

    // Of ten keys: two backspaces, one fresh start on a word's first five letters, seven
    // letters typed.
    let targets = words.map { String($0.lowercased().prefix(5)) }
    let odds = TypingSession.Odds(backspace: 2, startOver: 1, outOf: 10)
    var session = TypingSession(target: "a")
    for _ in 0..<stressKeystrokes {
      session.pressRandomKey(odds, using: &random, targets: targets)
      controller.setText(session.text)
      for _ in 0..<(random.next() % 4) { await Task.yield() }
    }
    try await mutator.value
    controller.setText("ab")  // settle on a query with results in every model state
    await controller.waitUntilIdle()

    let query = try SearchQuery("ab", normalizer: controller.corpus.normalizer)
    var fresh = IncrementalFilter()
    let expected = fresh.search(query, scope: 0, in: controller.corpus)?.items
    #expect(controller.results?.items == expected)
    #expect(controller.resultsTable.numberOfRows == expected?.count)
    #expect(controller.results?.modelVersion == controller.corpus.model.version)

    // Cancel with searches in flight: none of them may arrive.
    controller.setText("abc")
    controller.setText("abd")
    controller.cancel()
    invariants.end()
    await controller.waitUntilIdle()
    #expect(invariants.problems == [])
    #expect(invariants.reloads > 0)
    #expect(invariants.updates >= invariants.reloads)
    // Keystrokes came faster than searches finished: some were superseded and dropped.
    #expect(controller.discardedSearches > 0)
    withExtendedLifetime(invariants) {}
  }
}
