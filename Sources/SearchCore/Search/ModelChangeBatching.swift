/// A ``SearchController``'s batches of model changes (``SearchController/apply(_:)``): one at a
/// time, in the order of their calls; the backend's sync while one is sent there first; and what
/// the change being installed touched.
///
/// Invariant (``invariantHolds``, asserted after every change): callers wait for their turn only
/// while a batch is applied, and the backend is ahead of the model only then; a search is held
/// only while the backend is ahead; a refresh prepared with a change exists only while its batch
/// is applied.
struct ModelChangeBatching {
  /// Whether a batch is being applied.
  private(set) var isApplying = false
  private var waiters: [CheckedContinuation<Void, Never>] = []
  /// Whether the backend may hold a batch that the model has not installed yet: from the moment
  /// ``SearchController/apply(_:)`` sends it until it is installed or refused.
  private(set) var backendIsAhead = false
  /// The newest background search, answered while the backend was ahead of the model: its items
  /// may not be in the list yet.
  ///
  /// The batch's install runs it again on the new model; a refused batch runs it again on the
  /// old one.
  private(set) var heldSearch: SearchStateMachine.Request?
  /// What the model change being installed touched, for re-evaluating the displayed results.
  private(set) var modelChange = ChangedItems()
  /// The refreshed results of the change being installed, worked out with it.
  private var preparedRefresh: RefreshedResults?
  /// How long the last batch held the main actor.
  private(set) var lastMainActorTime = Duration.zero

  /// Whether the invariant holds: see the type's description.
  var invariantHolds: Bool {
    (isApplying || (waiters.isEmpty && !backendIsAhead && preparedRefresh == nil))
      && (backendIsAhead || heldSearch == nil)
  }

  // MARK: Turns

  /// Starts a batch when none is applied (true); false: the caller waits for its turn
  /// (``waitForTurn(_:)``).
  mutating func beginBatch() -> Bool {
    guard !isApplying else { return false }
    isApplying = true
    assert(invariantHolds)
    return true
  }

  /// Keeps a caller waiting for the batch under way, and those before it, to end; its turn
  /// comes with ``endBatch()``.
  mutating func waitForTurn(_ waiter: CheckedContinuation<Void, Never>) {
    precondition(isApplying, "a batch waits only for another")
    waiters.append(waiter)
  }

  /// Ends the batch under way: returns the caller whose turn it is now, to resume (the next
  /// batch starts), or nil when none waits.
  mutating func endBatch() -> CheckedContinuation<Void, Never>? {
    defer { assert(invariantHolds) }
    guard !waiters.isEmpty else {
      isApplying = false
      return nil
    }
    return waiters.removeFirst()
  }

  /// Records how long the batch held the main actor.
  mutating func recordMainActorTime(_ duration: Duration) {
    lastMainActorTime = duration
  }

  // MARK: The backend

  /// The batch under way is sent to the backend, which may hold it before the model does.
  mutating func sendingToBackend() {
    precondition(isApplying, "only a batch is sent to the backend")
    backendIsAhead = true
    assert(invariantHolds)
  }

  /// The backend refused the batch: returns the held search, to run again on the model.
  mutating func backendRefused() -> SearchStateMachine.Request? {
    backendIsAhead = false
    defer {
      heldSearch = nil
      assert(invariantHolds)
    }
    return heldSearch
  }

  /// The model installed the batch (or gave up on it): the backend is no longer ahead, and a
  /// held search is dropped, since the install restarts it.
  mutating func backendCaughtUp() {
    backendIsAhead = false
    heldSearch = nil
    assert(invariantHolds)
  }

  /// Holds a search answered while the backend is ahead (true); false when it is not.
  mutating func holdIfBackendIsAhead(_ request: SearchStateMachine.Request) -> Bool {
    guard backendIsAhead else { return false }
    heldSearch = request
    assert(invariantHolds)
    return true
  }

  /// Drops the held search of a superseded generation.
  mutating func dropHeldSearch(_ generation: Int) {
    if heldSearch?.generation == generation { heldSearch = nil }
  }

  // MARK: Installing a change

  /// Keeps the results refreshed with the batch's change (nil: none), for its install.
  mutating func prepared(_ refresh: RefreshedResults?) {
    preparedRefresh = refresh
    assert(invariantHolds)
  }

  /// The refresh prepared with the change being installed, when it refreshes the results table
  /// of this version (the results on screen did not change since).
  func preparedRefresh(ofResultsVersion version: Int) -> RefreshedResults? {
    guard let preparedRefresh, preparedRefresh.resultsVersion == version else { return nil }
    return preparedRefresh
  }

  /// A change that touched `items` is being installed.
  mutating func beginInstall(touching items: ChangedItems) {
    modelChange = items
  }

  /// The change is installed.
  mutating func endInstall() {
    modelChange = ChangedItems()
  }
}
