import SearchCoreTesting
import TestSupport
import Testing

@testable import SearchCore
@testable import SearchEngine

/// The pure machine alone: no corpus, no driver, no clock.
///
/// The driver's part (running the search) is played by hand.
@Suite(.tags(.plainSwift, .concurrent)) struct SearchStateMachineTests {
  typealias Machine = SearchStateMachine

  private func activeMachine(_ configuration: SearchConfiguration) -> Machine {
    var machine = Machine(
      bar: SearchController.SearchBarState(scopeTitles: ["All", "A"]), configuration: configuration)
    _ = machine.handle(.begin)
    return machine
  }

  @Test func aFinishedSearchOfAnOlderGenerationIsDiscarded() {
    var machine = activeMachine(SearchConfiguration(mode: .background))
    _ = machine.handle(.setText("a"))
    #expect(
      machine.handle(.delegateAnswered(nil)).contains(
        .searchInBackground(Machine.Request(generation: 1, text: "a", scope: 0))))
    _ = machine.handle(.setText("ab"))
    _ = machine.handle(.delegateAnswered(nil))
    // The search of "a" ran to the end anyway (it was past its last chunk): dropped.
    #expect(machine.handle(.searchFinished(generation: 1, rows: 7)) == [.discard(generation: 1)])
    #expect(machine.state == .dimmed)
    #expect(machine.installedGeneration == nil)
    let actions = machine.handle(.searchFinished(generation: 2, rows: 3))
    #expect(actions.contains(.install(generation: 2)))
    #expect(actions.last == .emit(.reload(.deferred, generation: 2, rows: 3)))
    #expect(machine.state == .rows(3))
  }

  @Test func aScopeChangeSupersedesTheRunningSearch() {
    var machine = activeMachine(SearchConfiguration(mode: .background))
    _ = machine.handle(.setText("a"))
    _ = machine.handle(.delegateAnswered(nil))
    let actions = machine.handle(.selectScope(1))
    #expect(actions.first == .cancelSearch(generation: 1))
    #expect(actions.contains(.askDelegate(.searchScope(1))))
    #expect(machine.handle(.searchFinished(generation: 1, rows: 2)) == [.discard(generation: 1)])
  }

  @Test func theDelegateMayOverrideTheDefaultPolicy() {
    // Below the minimum length the default is no; a delegate may still search.
    var machine = activeMachine(SearchConfiguration(minimumLength: 3))
    _ = machine.handle(.setText("a"))
    #expect(
      machine.handle(.delegateAnswered(.now)) == [
        .emit(.decision(.searchString("a"), reload: .now, generation: 1)),
        .searchNow(Machine.Request(generation: 1, text: "a", scope: 0)),
      ])
    // …and may refuse a search the default would run: nothing changes.
    _ = machine.handle(.searchFinished(generation: 1, rows: 4))
    _ = machine.handle(.setText("abcd"))
    #expect(
      machine.handle(.delegateAnswered(SearchEvent.Reload.none)) == [
        .emit(.decision(.searchString("abcd"), reload: .none, generation: 2))
      ])
    #expect(machine.state == .rows(4))
  }

  @Test func aLateAnswerOrTimerOfAnOldGenerationDoesNothing() {
    var machine = activeMachine(
      SearchConfiguration(mode: .background, coalescingInterval: .milliseconds(50)))
    _ = machine.handle(.setText("a"))
    #expect(
      machine.handle(.delegateAnswered(nil)).last
        == .scheduleQuietInterval(generation: 1, after: .milliseconds(50)))
    _ = machine.handle(.setText("ab"))
    #expect(machine.handle(.quietIntervalElapsed(generation: 1)) == [])
    #expect(machine.handle(.delegateAnswered(nil)).count == 2)
    #expect(machine.handle(.delegateAnswered(nil)) == [])  // no question is open
    #expect(
      machine.handle(.quietIntervalElapsed(generation: 2)) == [
        .searchInBackground(Machine.Request(generation: 2, text: "ab", scope: 0))
      ])
  }

  @Test func whitespaceDoesNotCountTowardsTheMinimumLength() {
    var machine = activeMachine(SearchConfiguration(minimumLength: 2))
    _ = machine.handle(.setText(" a "))
    _ = machine.handle(.delegateAnswered(nil))
    #expect(machine.state == .belowThreshold(missing: 1))
  }

  @Test func whiteSpaceAloneIsLikeEmptyText() {
    var machine = activeMachine(SearchConfiguration())
    _ = machine.handle(.setText(" "))
    // No search of every item: the dimmed state, as for empty text.
    #expect(
      machine.handle(.delegateAnswered(nil)) == [
        .emit(.decision(.searchString(" "), reload: .none, generation: 1)), .clearResults,
      ])
    #expect(machine.state == .dimmed)
  }

  @Test func aBeginThatAsksTheDelegateTakesANewGeneration() {
    var machine = activeMachine(SearchConfiguration(mode: .background))
    _ = machine.handle(.selectScope(1))
    _ = machine.handle(.delegateAnswered(nil))
    _ = machine.handle(.searchFinished(generation: 1, rows: 3))
    _ = machine.handle(.cancel)
    #expect(machine.generation == 2)  // the hidden original table's
    #expect(machine.handle(.begin).last == .askDelegate(.begin))
    #expect(
      machine.handle(.delegateAnswered(nil)).last
        == .searchInBackground(Machine.Request(generation: 3, text: "", scope: 1)))
  }

  @Test func aModelChangeTakesAGenerationEvenWhenInactive() {
    var machine = Machine(
      bar: SearchController.SearchBarState(), configuration: SearchConfiguration())
    #expect(machine.handle(.modelChanged) == [])
    #expect(machine.generation == 1)
  }

  @Test func aSearchRestartedByAModelChangeTakesTheGenerationAfterTheRowsOnScreen() {
    var machine = activeMachine(SearchConfiguration(mode: .background))
    _ = machine.handle(.setText("ab"))
    _ = machine.handle(.delegateAnswered(nil))
    // Generation 2 is the changed original table on screen; the search of "ab" runs again
    // as 3.
    #expect(
      machine.handle(.modelChanged) == [
        .cancelSearch(generation: 1),
        .searchInBackground(Machine.Request(generation: 3, text: "ab", scope: 0)),
      ])
    #expect(machine.generation == 3)
  }

  @Test func cancellingWhenInactiveOnlyReportsTheButton() {
    var machine = Machine(
      bar: SearchController.SearchBarState(), configuration: SearchConfiguration())
    #expect(machine.handle(.cancel) == [.emit(.cancelButtonClicked)])
    #expect(machine.handle(.end) == [])
    #expect(machine.state == .hidden)
  }
}
