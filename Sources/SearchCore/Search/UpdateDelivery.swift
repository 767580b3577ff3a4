import SearchEngine

/// The delivery of a ``SearchController``'s events and updates: it decides what goes out and
/// when, the controller sends it (`SearchController+Updates.swift`).
///
/// The events of a call are queued, then handed out in order while one delivery runs: an observer
/// that changes the controller while it hears of an event queues that call's events behind the
/// rest. At the end of a call, ``publish(_:knownStep:)`` compares what is on screen with the last
/// update and says what the next one reports.
///
/// Invariant (``invariantHolds``, asserted after every change): an event is handed out only while a
/// delivery runs, each once and in the order queued: the next one to hand out is within the queue,
/// and is its first outside a delivery.
struct UpdateDelivery {
  /// What was on screen at an update.
  struct Screen {
    var table: SearchController.TableKind
    /// The version of `table` (``TableStore/version(_:)``).
    var version: Int
    var snapshot: SectionedTable
    var state: SearchController.ResultsTableState
    /// The request the rows answered, whose text and scope the update reported.
    var request: SearchStateMachine.Request
  }

  /// What an update reports besides the screen.
  struct Publication {
    var cause: SearchController.Update.Cause
    var previousTable: SearchController.TableKind
    var originalChanges: TableChanges?
    var diff: SearchController.Update.Diff
  }

  /// The observers, told of each event after the delegate.
  let observers = EventObservers()
  private var events: [SearchEvent] = []
  /// The index in `events` of the next one to hand out.
  private var next = 0
  private(set) var isDelivering = false
  /// What started the call under way, for its update.
  private var cause: SearchController.Update.Cause?
  /// The original table's changes from the model change under way.
  private var originalChanges: TableChanges?
  /// The results table's changes from the refresh under way, for its event.
  private var resultsChanges: TableChanges?
  /// What was on screen at the last update.
  private(set) var published: Screen

  /// Starts with `screen` as the last update.
  init(showing screen: Screen) {
    published = screen
  }

  /// Whether the invariant holds: see the type's description.
  var invariantHolds: Bool {
    next <= events.count && (isDelivering || next == 0)
  }

  // MARK: Events

  /// Queues an event of the call under way.
  mutating func emit(_ event: SearchEvent) {
    events.append(event)
  }

  /// Starts a delivery; false while one runs, which hands out the events queued since too.
  mutating func beginDelivery() -> Bool {
    guard !isDelivering else { return false }
    isDelivering = true
    assert(invariantHolds)
    return true
  }

  /// The next event of the delivery under way; nil when every queued one was handed out.
  mutating func nextEvent() -> SearchEvent? {
    precondition(isDelivering, "events are handed out only during a delivery")
    guard next < events.count else { return nil }
    defer {
      next += 1
      assert(invariantHolds)
    }
    return events[next]
  }

  /// Ends the delivery under way, forgetting the events it handed out.
  mutating func endDelivery() {
    events.removeAll()
    next = 0
    isDelivering = false
    assert(invariantHolds)
  }

  // MARK: The call's update

  /// Records what started the call under way.
  mutating func noteCause(_ cause: SearchController.Update.Cause) {
    self.cause = cause
  }

  /// Records the original table's changes from the model change under way.
  mutating func noteOriginalChanges(_ changes: TableChanges) {
    originalChanges = changes
  }

  /// Records the results table's changes from the refresh under way.
  mutating func noteResultsChanges(_ changes: TableChanges) {
    resultsChanges = changes
  }

  /// The results table's changes from the refresh under way, once.
  mutating func takeResultsChanges() -> TableChanges? {
    defer { resultsChanges = nil }
    return resultsChanges
  }

  /// Ends the call's update, returning what it reports; nil when the screen did not change.
  ///
  /// The screen changed when its rows, its state, or the text, scope or tokens they answer differ
  /// from the last update's; then `screen` becomes the last update. The call's cause and original
  /// changes are forgotten either way.
  ///
  /// - Parameter knownStep: The last replacement of `screen.table` whose changes are known: they
  ///   are the update's diff when it goes from the published version to the one on screen.
  mutating func publish(_ screen: Screen, knownStep: TableStep?) -> Publication? {
    defer {
      cause = nil
      originalChanges = nil
    }
    let request = screen.request
    guard
      screen.table != published.table || screen.version != published.version
        || screen.state != published.state || request.text != published.request.text
        || request.scope != published.request.scope
        || request.filter != published.request.filter
    else { return nil }
    let diff: SearchController.Update.Diff
    if screen.table == published.table && screen.version == published.version {
      diff = SearchController.Update.Diff(TableChanges())
    } else if screen.table == published.table, let knownStep,
      knownStep.from == published.version, knownStep.to == screen.version
    {
      diff = SearchController.Update.Diff(knownStep.changes)
    } else {
      diff = SearchController.Update.Diff(from: published.snapshot, to: screen.snapshot)
    }
    let publication = Publication(
      cause: cause ?? .searchFinished, previousTable: published.table,
      originalChanges: originalChanges, diff: diff)
    published = screen
    return publication
  }
}
