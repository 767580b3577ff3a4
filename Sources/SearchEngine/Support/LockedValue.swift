#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A value that one thread at a time reads and changes, behind a POSIX mutex.
///
/// It does the job of the standard library's `Mutex`, whose interface it copies. That one, on
/// Linux, locks with futex system calls made inside the standard library, which
/// ThreadSanitizer neither instruments nor intercepts: two threads taking turns through it look
/// like a data race on everything it guards. `pthread_mutex_lock` is intercepted, so the
/// sanitizer sees the order this lock gives, and a report is a real race.
package struct LockedValue<Value: ~Copyable>: ~Copyable {
  // Both live at fixed addresses: a pthread mutex must not move once initialised.
  private let mutex: UnsafeMutablePointer<pthread_mutex_t>
  private let value: UnsafeMutablePointer<Value>

  package init(_ initialValue: consuming sending Value) {
    mutex = .allocate(capacity: 1)
    mutex.initialize(to: pthread_mutex_t())
    let status = pthread_mutex_init(mutex, nil)
    // Only a lack of memory makes a default mutex fail (EAGAIN, ENOMEM), as allocation would.
    precondition(status == 0, "pthread_mutex_init failed with error \(status)")
    value = .allocate(capacity: 1)
    value.initialize(to: initialValue)
  }

  deinit {
    value.deinitialize(count: 1)
    value.deallocate()
    pthread_mutex_destroy(mutex)
    mutex.deinitialize(count: 1)
    mutex.deallocate()
  }

  /// Runs `body` with the value while holding the lock, and returns what it returns.
  package borrowing func withLock<Result: ~Copyable, E: Error>(
    _ body: (inout sending Value) throws(E) -> sending Result
  ) throws(E) -> sending Result {
    pthread_mutex_lock(mutex)
    defer { pthread_mutex_unlock(mutex) }
    return try body(&value.pointee)
  }
}

extension LockedValue: @unchecked Sendable where Value: ~Copyable {}
