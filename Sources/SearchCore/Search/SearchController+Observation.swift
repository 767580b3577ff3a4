import SearchEngine

// Observation and waiting: observers, the event stream, idleness.

extension SearchController {
  // MARK: Observation

  /// Calls `handler` with every event from now on, until the token is released.
  public func observe(_ handler: @escaping @MainActor @Sendable (SearchEvent) -> Void)
    -> SearchController.ObservationToken
  {
    delivery.observers.add(handler)
  }

  /// The events from now on, as an asynchronous sequence; it ends when the consumer stops
  /// iterating.
  ///
  /// Events are buffered without limit, so none is lost to a slow consumer.
  public func events() -> AsyncStream<SearchEvent> {
    let (stream, continuation) = AsyncStream.makeStream(of: SearchEvent.self)
    let token = delivery.observers.add { continuation.yield($0) }
    continuation.onTermination = { _ in token.cancel() }
    return stream
  }

  /// The driver's state in one line, for a test that reports a controller which never comes
  /// to rest.
  package var diagnosticDescription: String {
    "pending \(machine.pending.map { "\($0)" } ?? "none"), generation \(machine.generation), "
      + "searches in flight \(runs.inFlight), "
      + "held \(batching.heldSearch.map { "#\($0.generation)" } ?? "none"), "
      + "backend ahead \(batching.backendIsAhead), applying a batch \(batching.isApplying), "
      + "active \(machine.bar.isActive)"
  }

  /// Whether no search runs or waits, and no superseded background search is still winding
  /// down.
  public var isIdle: Bool { runs.isIdle(searchPending: machine.isSearchPending) }

  /// Returns when the controller is idle (for scripts: "wait"): every search started so far
  /// has been delivered or dropped.
  public func waitUntilIdle() async {
    guard !isIdle else { return }
    await withCheckedContinuation { runs.waitUntilIdle($0) }
  }
}
