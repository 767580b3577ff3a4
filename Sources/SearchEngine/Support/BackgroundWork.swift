import Dispatch

/// Long synchronous work (a search, a build, a change's preparation) run on a thread of
/// Dispatch's global queues rather than in a task of Swift concurrency's cooperative pool.
///
/// The pool has a thread per core, and work split over the cores (``Parallel``) that starts
/// on one of them may occupy all of them: while it runs, nothing else in the process that needs
/// the pool runs, an app's `Task.sleep` ending on the main actor included, which then wakes as
/// late as the work is long (half a second during a build of 200,000 items on two cores). On
/// Dispatch's threads the work takes the cores only as the system shares them.
package enum BackgroundWork {
  /// How soon the work is wanted.
  package enum Urgency: Sendable {
    /// Someone waits for it: a search, a build, a change.
    case userInitiated
    /// Ahead of need: an index that a later search may read.
    case utility

    var qos: DispatchQoS.QoSClass {
      switch self {
      case .userInitiated: .userInitiated
      case .utility: .utility
      }
    }
  }

  /// Runs `work` on a Dispatch thread and returns its value.
  package static func run<Value: Sendable>(
    _ urgency: Urgency = .userInitiated, _ work: @escaping @Sendable () -> Value
  ) async -> Value {
    await withCheckedContinuation { continuation in
      DispatchQueue.global(qos: urgency.qos).async { continuation.resume(returning: work()) }
    }
  }

  /// Starts `work` on a Dispatch thread and returns at once.
  package static func start(
    _ urgency: Urgency = .userInitiated, _ work: @escaping @Sendable () -> Void
  ) {
    DispatchQueue.global(qos: urgency.qos).async(execute: work)
  }

  /// Gives the system back the memory the allocator keeps of the blocks a large piece of work
  /// freed: called on a Dispatch thread when a build is done.
  ///
  /// glibc's allocator keeps freed blocks for later (the others return them themselves): the
  /// tables a build makes and drops (the words gathered, the sort keys) stayed resident, a
  /// fifth of an app's memory after a build of 200,000 contacts. `malloc_trim` takes each
  /// arena's lock in turn, for 3 ms in all there; the main thread allocates from an arena
  /// of its own, which the build's threads leave alone.
  package static func releaseFreedMemory() {
    #if canImport(Glibc)
      _ = glibcMallocTrim(0)
    #endif
  }
}

#if canImport(Glibc)
  // glibc's malloc_trim(3), declared in <malloc.h>, which is not part of the Glibc module.
  @_silgen_name("malloc_trim")
  private func glibcMallocTrim(_ pad: Int) -> Int32
#endif
