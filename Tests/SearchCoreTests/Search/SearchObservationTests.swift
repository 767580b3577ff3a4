import Foundation
import SearchCoreTesting
import TestSupport
import Testing

@testable import SearchCore
@testable import SearchEngine

/// Observers end by themselves when their token goes; the delegate hears the lifecycle in
/// UIKit's order; events also arrive as an `AsyncSequence`.
@MainActor
@Suite(.tags(.concurrent)) struct SearchObservationTests {
  let corpus: SearchCorpus

  init() throws { corpus = try Fixtures.corpus("products/products") }

  @Test func releasingTheTokenEndsTheObservation() throws {
    let controller = try SearchController(corpus: corpus, scheduler: ManualSearchScheduler())
    var seen: [SearchEvent] = []
    var token: SearchController.ObservationToken? = controller.observe { seen.append($0) }
    controller.begin()
    #expect(seen.count == 4)
    #expect(Array(seen.prefix(3)) == [.willBeginSearch, .didBeginSearch, .stateDidChange(.dimmed)])
    // The update comes last: the original table, now dimmed, with no row changed.
    guard case .update(let update) = seen.last else {
      Issue.record("no update after begin: \(seen)")
      return
    }
    #expect(update.cause == .began && update.state == .dimmed && update.table == .original)
    #expect(update.changes.isEmpty && !update.switchedTable)
    withExtendedLifetime(token) {}
    token = nil
    controller.setText("ipad")
    #expect(seen.count == 4)
  }

  /// A handler may hold the last reference to another observation's token.
  ///
  /// Releasing the first token releases the handler, whose release ends the second
  /// observation. The removals run on a thread of their own, so that one waiting for itself
  /// fails the test rather than hanging the run.
  @Test func aTokenReleasedByAnotherObserversReleaseEndsItsObservation() throws {
    final class Holder: @unchecked Sendable { var token: SearchController.ObservationToken? }
    let controller = try SearchController(corpus: corpus, scheduler: ManualSearchScheduler())
    var outer: SearchController.ObservationToken?
    do {
      let holder = Holder()
      holder.token = controller.observe { _ in }
      outer = controller.observe { _ in withExtendedLifetime(holder) {} }
    }
    #expect(!controller.delivery.observers.isEmpty)
    let released = DispatchSemaphore(value: 0)
    let releasing = Holder()
    releasing.token = outer
    outer = nil
    Thread {
      releasing.token = nil
      released.signal()
    }.start()
    // On a failure the lock stays taken: nothing after this line may take it.
    try #require(released.wait(timeout: .now() + 10) == .success, "the removal waits for itself")
    #expect(controller.delivery.observers.isEmpty)
  }

  @Test func cancellingTheTokenEndsTheObservation() throws {
    let controller = try SearchController(corpus: corpus, scheduler: ManualSearchScheduler())
    var count = 0
    let token = controller.observe { _ in count += 1 }
    controller.begin()
    token.cancel()
    controller.setText("ipad")
    #expect(count == 4)  // three lifecycle events and the update
  }

  @Test func theDelegateHearsTheLifecycleAndDecides() throws {
    let scheduler = ManualSearchScheduler()
    let controller = try SearchController(corpus: corpus, scheduler: scheduler)
    let delegate = RecordingDelegate()
    controller.delegate = delegate
    controller.begin()
    controller.setText("i")
    controller.setText("ipad")
    try controller.selectScope(1)
    controller.clickSearchButton()
    controller.cancel()
    #expect(
      delegate.calls == [
        "willBegin", "didBegin", "textDidChange i", "shouldReload i", "textDidChange ipad",
        "shouldReload ipad", "didLoad", "willShow", "didShow", "scopeDidChange 1",
        "shouldReloadScope 1", "searchButton", "cancel", "willEnd", "willHide", "didHide",
        "willUnload", "didEnd",
      ])
    // The delegate refused the one-letter search and deferred the scope's, which cancel
    // superseded: when it runs, it stops and is dropped.
    #expect(scheduler.pendingSearches == 1)
    scheduler.runAllSearches()
    #expect(controller.discardedSearches == 1)
    #expect(delegate.calls.last == "didEnd")
  }

  @Test func eventsArriveAsAnAsyncSequence() async throws {
    let controller = try SearchController(corpus: corpus, scheduler: ManualSearchScheduler())
    let stream = controller.events()
    controller.begin()
    controller.setText("ipad")
    controller.cancel()
    var received: [SearchEvent] = []
    for await event in stream {
      received.append(event)
      if event == .didEndSearch { break }
    }
    #expect(received.first == .willBeginSearch)
    #expect(received.contains(.reload(.now, generation: 1, rows: 4)))
    #expect(received.last == .didEndSearch)
  }
}

@MainActor
private final class RecordingDelegate: SearchControllerDelegate {
  var calls: [String] = []

  func searchController(_ controller: SearchController, shouldReloadForSearchString text: String)
    -> SearchEvent.Reload?
  {
    calls.append("shouldReload \(text)")
    return text.count < 2 ? SearchEvent.Reload.none : nil
  }

  func searchController(_ controller: SearchController, shouldReloadForSearchScope scope: Int)
    -> SearchEvent.Reload?
  {
    calls.append("shouldReloadScope \(scope)")
    return .deferred
  }

  func searchControllerWillBeginSearch(_ controller: SearchController) { calls.append("willBegin") }
  func searchControllerDidBeginSearch(_ controller: SearchController) { calls.append("didBegin") }
  func searchControllerWillEndSearch(_ controller: SearchController) { calls.append("willEnd") }
  func searchControllerDidEndSearch(_ controller: SearchController) { calls.append("didEnd") }
  func searchControllerDidLoadResultsTable(_ controller: SearchController) {
    calls.append("didLoad")
  }
  func searchControllerWillUnloadResultsTable(_ controller: SearchController) {
    calls.append("willUnload")
  }
  func searchControllerWillShowResultsTable(_ controller: SearchController) {
    calls.append("willShow")
  }
  func searchControllerDidShowResultsTable(_ controller: SearchController) {
    calls.append("didShow")
  }
  func searchControllerWillHideResultsTable(_ controller: SearchController) {
    calls.append("willHide")
  }
  func searchControllerDidHideResultsTable(_ controller: SearchController) {
    calls.append("didHide")
  }
  func searchController(_ controller: SearchController, textDidChange text: String) {
    calls.append("textDidChange \(text)")
  }
  func searchController(_ controller: SearchController, scopeDidChange scope: Int) {
    calls.append("scopeDidChange \(scope)")
  }
  func searchControllerSearchButtonClicked(_ controller: SearchController) {
    calls.append("searchButton")
  }
  func searchControllerCancelButtonClicked(_ controller: SearchController) {
    calls.append("cancel")
  }
}
