import SearchEngine

/// Where a search controller's timers and background searches run: the injected clock and
/// executor of its driver.
///
/// `TaskSearchScheduler` uses Swift concurrency and a real clock; `ManualSearchScheduler`, in
/// the `SearchCoreTesting` library, runs nothing until told, for tests and scripts that must not
/// depend on time.
@MainActor
public protocol SearchScheduler: AnyObject {
  /// Calls `action` on the main actor after `delay`.
  func schedule(after delay: Duration, _ action: @escaping @MainActor @Sendable () -> Void)
  /// Runs `work` off the main actor, then `completion` with its value on the main actor.
  func runInBackground<Value: Sendable>(
    _ work: @escaping @Sendable () -> Value,
    then completion: @escaping @MainActor @Sendable (Value) -> Void)
  /// Runs asynchronous `work` (a ``/SearchEngine/SearchBackend``'s search) off the main actor, then
  /// `completion` with its value on the main actor. The default runs it in a detached task.
  func runTask<Value: Sendable>(
    _ work: @escaping @Sendable () async -> Value,
    then completion: @escaping @MainActor @Sendable (Value) -> Void)
}

extension SearchScheduler {
  /// Runs `work` in a detached task, then `completion` on the main actor.
  public func runTask<Value: Sendable>(
    _ work: @escaping @Sendable () async -> Value,
    then completion: @escaping @MainActor @Sendable (Value) -> Void
  ) {
    Task.detached {
      let value = await work()
      await completion(value)
    }
  }
}

/// Timers on a clock, and background searches on Dispatch's threads, which leave Swift
/// concurrency's cooperative pool to the app's tasks (a search may use every core for
/// milliseconds).
@MainActor
@usableFromInline package final class TaskSearchScheduler: SearchScheduler {
  private let clock: any Clock<Duration>

  /// Creates a scheduler whose timers use `clock`.
  public init(clock: any Clock<Duration> = ContinuousClock()) { self.clock = clock }

  /// Calls `action` on the main actor after `delay` on the clock.
  public func schedule(after delay: Duration, _ action: @escaping @MainActor @Sendable () -> Void) {
    let clock = self.clock
    Task { @MainActor in
      try? await clock.sleep(for: delay)
      action()
    }
  }

  /// Runs `work` on a Dispatch thread, then `completion` on the main actor.
  public func runInBackground<Value: Sendable>(
    _ work: @escaping @Sendable () -> Value,
    then completion: @escaping @MainActor @Sendable (Value) -> Void
  ) {
    BackgroundWork.start {
      let value = work()
      Task { @MainActor in completion(value) }
    }
  }
}
