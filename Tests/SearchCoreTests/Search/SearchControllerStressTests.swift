import Foundation
import SearchCoreTesting
import Testing

@testable import SearchCore
@testable import SearchEngine

/// Keystrokes of the session: 5,000, or 1,500 under a sanitizer (`.ci/run` sets SANITIZER),
/// where each costs ten times more and the session would be the longest test of the pass.
private let stressKeystrokes = TestBudget.underSanitizer ? 1_500 : 5_000

/// 5,000 keystrokes (``stressKeystrokes``) at random intervals in background mode while another
/// task inserts and deletes items, with real background searches (`TaskSearchScheduler`).
///
/// Every reload belongs to the newest generation when it arrives, every update's change set
/// keeps a mirror equal to the visible table, a generation names one set of rows, the settled
/// results equal a fresh full scan, and nothing arrives after cancel.
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
    let log = StressLog()
    var mirror = TableMirror(controller.originalTable)
    var rowsOfGeneration: [Int: [SectionedTable.Section]] = [:]
    let token = controller.observe { event in
      if case .update(let update) = event {
        // A front that applies every change set to its rows always shows the visible table,
        // and a generation names one set of rows.
        let table = controller.table(update.table)
        mirror.apply(update.changes, new: table)
        if mirror.sections != table.sections {
          log.problems.append("the mirror differs after update #\(update.generation)")
          mirror = TableMirror(table)
        }
        if let seen = rowsOfGeneration[update.generation], seen != table.sections {
          log.problems.append("generation #\(update.generation) names two sets of rows")
        }
        rowsOfGeneration[update.generation] = table.sections
        log.updates += 1
      }
      guard case .reload(_, let generation, let rows) = event else { return }
      log.reloads += 1
      if log.ended { log.problems.append("reload #\(generation) after cancel") }
      if generation != controller.generation {
        log.problems.append("reload #\(generation) while #\(controller.generation) is newest")
      }
      if rows != controller.resultsTable.numberOfRows {
        log.problems.append("reload #\(generation) says \(rows) rows, table has another count")
      }
    }
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
    log.ended = true
    await controller.waitUntilIdle()
    #expect(log.problems == [])
    #expect(log.reloads > 0)
    #expect(log.updates >= log.reloads)
    // Keystrokes came faster than searches finished: some were superseded and dropped.
    #expect(controller.discardedSearches > 0)
    withExtendedLifetime(token) {}
  }
}

@MainActor
private final class StressLog {
  var reloads = 0
  var updates = 0
  var ended = false
  var problems: [String] = []
}
