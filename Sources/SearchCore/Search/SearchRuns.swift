/// A ``SearchController``'s searches: those started in the background and not back yet, those
/// finished and waiting for the state machine to install or discard them, the page
/// ``SearchController/loadMoreResults()`` asked for, and the callers waiting until no search
/// runs.
///
/// Invariant (``invariantHolds``, asserted after every change): fewer searches never come back
/// than were started, so the count in flight is never negative; idle waiters are handed out all
/// at once and forgotten (``takeIdleWaiters(searchPending:)``), so each is resumed exactly once.
struct SearchRuns {
  /// The newest generation, readable by background searches so that a superseded one stops
  /// between chunks.
  let newestGeneration = GenerationCounter()
  /// The backend searches under way, to cancel when they are superseded.
  let backendSearches = BackendSearches()
  /// Background searches started and not yet back, superseded ones included.
  private(set) var inFlight = 0
  /// How many finished searches were dropped because a newer request came first.
  private(set) var discarded = 0
  private var finished: [Int: SearchController.Outcome] = [:]
  private var idleWaiters: [CheckedContinuation<Void, Never>] = []
  /// The search ``SearchController/loadMoreResults()`` started, and how many rows it asks for.
  private var loadingMore: (generation: Int, limit: Int)?

  /// Whether the invariant holds: see the type's description.
  var invariantHolds: Bool { inFlight >= 0 && discarded >= 0 }

  /// Whether no search runs or waits (`searchPending`, the state machine's), and none started
  /// in the background is still winding down.
  func isIdle(searchPending: Bool) -> Bool { !searchPending && inFlight == 0 }

  // MARK: Background searches

  /// A background search started.
  mutating func started() {
    inFlight += 1
    assert(invariantHolds)
  }

  /// A background search came back, with or without an outcome.
  mutating func returned() {
    precondition(inFlight > 0, "a search came back that was never started")
    inFlight -= 1
    assert(invariantHolds)
  }

  // MARK: Finished searches

  /// Keeps a finished search's outcome until the state machine installs or discards it.
  mutating func keep(_ outcome: SearchController.Outcome, of generation: Int) {
    finished[generation] = outcome
  }

  /// The outcome of a generation to install, which is forgotten.
  mutating func takeFinished(_ generation: Int) -> SearchController.Outcome? {
    finished.removeValue(forKey: generation)
  }

  /// Drops the outcome of a superseded generation, and counts it.
  mutating func discard(_ generation: Int) {
    finished[generation] = nil
    discarded += 1
    assert(invariantHolds)
  }

  // MARK: Paging

  /// Records that the search of `generation` asks for `limit` rows (``SearchController/loadMoreResults()``).
  mutating func loadMore(generation: Int, limit: Int) {
    loadingMore = (generation, limit)
  }

  /// How many rows the search of `generation` asks for when it loads more; nil when it does not.
  func moreRows(for generation: Int) -> Int? {
    guard let loadingMore, loadingMore.generation == generation else { return nil }
    return loadingMore.limit
  }

  // MARK: Waiting until idle

  /// Keeps a caller waiting until the controller is idle.
  mutating func waitUntilIdle(_ waiter: CheckedContinuation<Void, Never>) {
    idleWaiters.append(waiter)
  }

  /// The callers to resume now: every waiter when the controller is idle, which are forgotten;
  /// none otherwise.
  mutating func takeIdleWaiters(searchPending: Bool) -> [CheckedContinuation<Void, Never>] {
    guard isIdle(searchPending: searchPending) else { return [] }
    defer { idleWaiters = [] }
    return idleWaiters
  }
}
