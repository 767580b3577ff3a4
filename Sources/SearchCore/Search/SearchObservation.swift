import SearchEngine

extension SearchController {
  /// Keeps an observation of a search controller's events alive: when the token is released
  /// (or ``cancel()`` is called), the observation ends by itself, and no event reaches the
  /// observer afterwards.
  ///
  /// Nobody has to remember to unregister.
  public final class ObservationToken: Sendable {
    private let observers: EventObservers
    private let id: Int

    init(observers: EventObservers, id: Int) {
      self.observers = observers
      self.id = id
    }

    /// Ends the observation now.
    public func cancel() { observers.remove(id) }

    deinit { observers.remove(id) }
  }
}

/// The observers of one controller.
///
/// Removal takes a lock rather than the main actor, so that a token released on any thread stops
/// its observer at once.
final class EventObservers: Sendable {
  typealias Handler = @MainActor @Sendable (SearchEvent) -> Void

  private let state = LockedValue<(next: Int, handlers: [(id: Int, handler: Handler)])>((0, []))

  func add(_ handler: @escaping Handler) -> SearchController.ObservationToken {
    let id = state.withLock { state in
      defer { state.next += 1 }
      state.handlers.append((state.next, handler))
      return state.next
    }
    return SearchController.ObservationToken(observers: self, id: id)
  }

  /// Removes an observer, and releases its handler only once the lock is free: the handler
  /// may hold the last reference to something that holds another token of these observers,
  /// whose release removes that one in turn (under the lock, it would wait for itself).
  func remove(_ id: Int) {
    let removed = state.withLock { state -> Handler? in
      guard let index = state.handlers.firstIndex(where: { $0.id == id }) else { return nil }
      return state.handlers.remove(at: index).handler
    }
    withExtendedLifetime(removed) {}
  }

  var isEmpty: Bool { state.withLock { $0.handlers.isEmpty } }

  /// Calls every observer registered now, in registration order; one removed by an earlier
  /// observer's reaction is skipped.
  @MainActor
  func send(_ event: SearchEvent) {
    let ids = state.withLock { $0.handlers.map(\.id) }
    for id in ids {
      guard let handler = state.withLock({ $0.handlers.first { $0.id == id }?.handler }) else {
        continue
      }
      handler(event)
    }
  }
}
