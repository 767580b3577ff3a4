import SearchCore
import SearchEngine

/// A scheduler that runs nothing by itself: time moves with ``advance(by:)`` and background
/// searches run one by one with ``runNextSearch()``, so a test can interleave keystrokes,
/// timers and completions in any order, without sleeping.
@MainActor
public final class ManualSearchScheduler: SearchScheduler {
  private struct Timer {
    var due: Duration
    var order: Int
    var action: @MainActor @Sendable () -> Void
  }

  /// The time elapsed since the scheduler was made.
  public private(set) var now: Duration = .zero
  private var timers: [Timer] = []
  private var timerCount = 0
  private var searches: [@MainActor () -> Void] = []

  /// Creates a scheduler at time zero with nothing pending.
  public init() {}

  /// The background searches started and not yet run.
  public var pendingSearches: Int { searches.count }

  /// The timers not yet fired.
  public var pendingTimers: Int { timers.count }

  /// Remembers `action` for when the time reaches now + `delay`.
  public func schedule(after delay: Duration, _ action: @escaping @MainActor @Sendable () -> Void) {
    timers.append(Timer(due: now + delay, order: timerCount, action: action))
    timerCount += 1
  }

  /// Queues `work`; ``runNextSearch()`` runs it and then `completion`.
  public func runInBackground<Value: Sendable>(
    _ work: @escaping @Sendable () -> Value,
    then completion: @escaping @MainActor @Sendable (Value) -> Void
  ) {
    searches.append { completion(work()) }
  }

  /// Moves time forward, firing every timer that falls due, in order of due time (and of
  /// scheduling for equal times), each at its own time.
  public func advance(by duration: Duration) {
    let end = now + duration
    while let next = timers.indices.min(by: {
      (timers[$0].due, timers[$0].order) < (timers[$1].due, timers[$1].order)
    }), timers[next].due <= end {
      let timer = timers.remove(at: next)
      now = max(now, timer.due)
      timer.action()
    }
    now = end
  }

  /// Runs the oldest pending background search and its completion; false when none is
  /// pending.
  @discardableResult
  public func runNextSearch() -> Bool {
    guard !searches.isEmpty else { return false }
    searches.removeFirst()()
    return true
  }

  /// Runs pending background searches (including any they start) until none is left.
  public func runAllSearches() {
    while runNextSearch() {}
  }
}
