import SearchCoreTesting
import TestSupport
import Testing

@testable import SearchCore
@testable import SearchEngine

/// The parts that hold SearchController's state, each alone.
///
/// What each decides and the invariant it keeps; the controller's behaviour is the other suites'.
@MainActor
@Suite(.tags(.concurrent)) struct ControllerPartsTests {
  typealias Request = SearchStateMachine.Request

  let corpus: SearchCorpus

  init() throws { corpus = try Fixtures.corpus("products/products") }

  /// A controller showing the 4 results of "ipad".
  private func controllerShowingIPads() throws -> SearchController {
    let controller = try SearchController(corpus: corpus)
    controller.begin()
    controller.setText("ipad")
    #expect(controller.resultsTable.numberOfRows == 4)
    return controller
  }

  // MARK: The controller

  @Test func theControllerKeepsAtMostTwelveStoredProperties() throws {
    let controller = try SearchController(corpus: corpus)
    let stored = Mirror(reflecting: controller).children.compactMap(\.label)
    #expect(stored.count <= 12, "stored properties: \(stored)")
  }

  // MARK: UpdateDelivery

  private func screen(
    _ table: SearchController.TableKind = .original, version: Int = 0,
    snapshot: SectionedTable, state: SearchController.ResultsTableState = .hidden,
    text: String = ""
  ) -> UpdateDelivery.Screen {
    UpdateDelivery.Screen(
      table: table, version: version, snapshot: snapshot, state: state,
      request: Request(generation: 0, text: text, scope: 0))
  }

  @Test func eventsOfANestedCallAreHandedOutAfterTheRestEachOnce() throws {
    let empty = try SearchController(corpus: corpus).resultsTable
    var delivery = UpdateDelivery(showing: screen(snapshot: empty))
    delivery.emit(.textDidChange("a"))
    delivery.emit(.textDidChange("b"))
    #expect(delivery.beginDelivery() == true)
    #expect(delivery.nextEvent() == .textDidChange("a"))
    // An observer's call queues its events and finds a delivery under way.
    delivery.emit(.textDidChange("c"))
    #expect(delivery.beginDelivery() == false)
    #expect(delivery.nextEvent() == .textDidChange("b"))
    #expect(delivery.nextEvent() == .textDidChange("c"))
    #expect(delivery.nextEvent() == nil)
    delivery.endDelivery()
    #expect(delivery.invariantHolds)
    // The next delivery hands out only what was queued since.
    delivery.emit(.textDidChange("d"))
    #expect(delivery.beginDelivery() == true)
    #expect(delivery.nextEvent() == .textDidChange("d"))
    #expect(delivery.nextEvent() == nil)
    delivery.endDelivery()
    #expect(delivery.invariantHolds && !delivery.isDelivering)
  }

  @Test func anUpdateIsPublishedOnlyWhenTheScreenChangedWithTheCallsCause() throws {
    let empty = try SearchController(corpus: corpus).resultsTable
    var delivery = UpdateDelivery(showing: screen(snapshot: empty))
    delivery.noteCause(.textChanged)
    #expect(delivery.publish(screen(snapshot: empty), knownStep: nil) == nil)
    // The cause went with the call that published nothing.
    let changed = delivery.publish(screen(snapshot: empty, text: "a"), knownStep: nil)
    #expect(changed?.cause == .searchFinished)
    #expect(changed?.diff.value.isEmpty == true)
    delivery.noteCause(.began)
    let dimmed = delivery.publish(
      screen(snapshot: empty, state: .dimmed, text: "a"), knownStep: nil)
    #expect(dimmed?.cause == .began)
    #expect(delivery.published.state == .dimmed)
    #expect(
      delivery.publish(screen(snapshot: empty, state: .dimmed, text: "a"), knownStep: nil) == nil)
  }

  @Test func anUpdatesDiffIsTheKnownStepWhenItSpansThePublishedVersion() throws {
    let controller = try controllerShowingIPads()
    let empty = try SearchController(corpus: corpus).resultsTable
    let ipads = controller.resultsTable
    // A known step that is not the real change set, to tell it from a diff of the tables.
    let known = TableStep(from: 0, to: 1, changes: TableChanges())
    let shown = screen(.results, version: 1, snapshot: ipads, state: .rows(4), text: "ipad")

    var delivery = UpdateDelivery(showing: screen(.results, snapshot: empty))
    #expect(delivery.publish(shown, knownStep: known)?.diff.value == TableChanges())

    delivery = UpdateDelivery(showing: screen(.results, snapshot: empty))
    let stale = TableStep(from: 1, to: 1, changes: TableChanges())
    let diffed = delivery.publish(shown, knownStep: stale)?.diff.value
    #expect(diffed == TableChanges(from: empty, to: ipads))
    #expect(diffed?.isEmpty == false)
  }

  // MARK: TableStore

  @Test func everyReplacementOfATableIsCountedAndItsKnownStepEndsThere() throws {
    let controller = try controllerShowingIPads()
    var tables = TableStore(try SearchController.Tables(corpus: corpus, options: .init()))
    let original = tables.original
    tables.replaceOriginal(with: original, changes: TableChanges())
    #expect(tables.version(.original) == 1)
    #expect(tables.knownStep(.original).map { [$0.from, $0.to] } == [0, 1])

    // Changes worked out against another version are not the step to this one.
    let result = try #require(controller.results)
    tables.showResults(
      result, completions: [], table: controller.resultsTable,
      changes: (from: 5, changes: TableChanges()))
    #expect(tables.version(.results) == 1 && tables.knownStep(.results) == nil)
    tables.showResults(
      result, completions: [], table: controller.resultsTable,
      changes: (from: 1, changes: TableChanges()))
    #expect(tables.knownStep(.results).map { [$0.from, $0.to] } == [1, 2])
    tables.reorderResults(controller.resultsTable)
    #expect(tables.version(.results) == 3)
    // A refresh whose table could not be laid out keeps the table and its version.
    tables.refreshResults(result, table: nil, changes: TableChanges())
    #expect(tables.version(.results) == 3)
    #expect(tables.knownStep(.results).map { [$0.from, $0.to] } == [3, 3])

    tables.clearResults(of: corpus.model)
    #expect(tables.results == nil && tables.resultsTable.numberOfRows == 0)
    #expect(tables.version(.results) == 4)
    #expect(tables.knownStep(.results)?.changes == TableChanges.emptying(controller.resultsTable))
    // Already empty: nothing is replaced.
    tables.clearResults(of: corpus.model)
    #expect(tables.version(.results) == 4)
    #expect(tables.invariantHolds)
  }

  // MARK: SearchRuns

  @Test func idleWaitersAreResumedOnceWhenNoSearchRuns() async {
    var runs = SearchRuns()
    await withCheckedContinuation { waiter in
      runs.started()
      runs.waitUntilIdle(waiter)
      #expect(!runs.isIdle(searchPending: false))
      #expect(runs.takeIdleWaiters(searchPending: false).isEmpty)
      runs.returned()
      #expect(runs.takeIdleWaiters(searchPending: true).isEmpty)
      let resumed = runs.takeIdleWaiters(searchPending: false)
      #expect(resumed.count == 1)
      #expect(runs.takeIdleWaiters(searchPending: false).isEmpty)
      if resumed.isEmpty { waiter.resume() }
      for waiter in resumed.prefix(1) { waiter.resume() }
    }
    #expect(runs.isIdle(searchPending: false) && runs.invariantHolds)
  }

  @Test func aFinishedSearchIsInstalledOnceOrDiscardedAndCounted() throws {
    let controller = try controllerShowingIPads()
    let outcome = SearchController.Outcome(
      result: try #require(controller.results), table: controller.resultsTable)
    var runs = SearchRuns()
    runs.keep(outcome, of: 1)
    runs.keep(outcome, of: 2)
    #expect(runs.takeFinished(1)?.table.numberOfRows == 4)
    #expect(runs.takeFinished(1) == nil)
    runs.discard(2)
    #expect(runs.takeFinished(2) == nil)
    #expect(runs.discarded == 1)
    runs.loadMore(generation: 3, limit: 40)
    #expect(runs.moreRows(for: 3) == 40)
    #expect(runs.moreRows(for: 4) == nil)
  }

  // MARK: ModelChangeBatching

  @Test func batchesTakeTurnsInTheOrderOfTheirCalls() async {
    var batching = ModelChangeBatching()
    #expect(batching.beginBatch() == true)
    #expect(batching.beginBatch() == false)
    await withCheckedContinuation { waiter in
      batching.waitForTurn(waiter)
      let next = batching.endBatch()
      // The turn passes on: the next batch is under way.
      #expect(next != nil)
      #expect(batching.isApplying)
      (next ?? waiter).resume()
    }
    #expect(batching.endBatch() == nil)
    #expect(!batching.isApplying && batching.invariantHolds)
    #expect(batching.beginBatch() == true)
  }

  @Test func aSearchIsHeldOnlyWhileTheBackendIsAhead() {
    var batching = ModelChangeBatching()
    let request = Request(generation: 3, text: "a", scope: 0)
    #expect(batching.holdIfBackendIsAhead(request) == false)
    #expect(batching.beginBatch() == true)
    batching.sendingToBackend()
    #expect(batching.holdIfBackendIsAhead(request) == true)
    #expect(batching.heldSearch == request)
    // A refused batch hands the held search back, to run again.
    #expect(batching.backendRefused() == request)
    #expect(!batching.backendIsAhead && batching.heldSearch == nil)
    #expect(batching.holdIfBackendIsAhead(request) == false)

    batching.sendingToBackend()
    #expect(batching.holdIfBackendIsAhead(request) == true)
    batching.dropHeldSearch(2)
    #expect(batching.heldSearch == request)
    batching.dropHeldSearch(3)
    #expect(batching.heldSearch == nil)
    #expect(batching.holdIfBackendIsAhead(request) == true)
    batching.backendCaughtUp()
    #expect(!batching.backendIsAhead && batching.heldSearch == nil)
    #expect(batching.endBatch() == nil)
    #expect(batching.invariantHolds)
  }

  // MARK: IndexBuilds

  @Test func anIndexIsAskedForOnceForEachModelVersion() {
    var builds = IndexBuilds()
    #expect(builds.startCompletions(forModelVersion: 1) == true)
    #expect(builds.startCompletions(forModelVersion: 1) == false)
    #expect(builds.startWordIndex(forModelVersion: 1) == true)
    #expect(builds.startWordIndex(forModelVersion: 1) == false)
    #expect(builds.startCompletions(forModelVersion: 2) == true)
    #expect(builds.startCompletions(forModelVersion: 2) == false)
  }
}
