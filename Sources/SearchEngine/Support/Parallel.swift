import Dispatch

#if canImport(Glibc)
  import Glibc
#endif

/// Work split into chunks over all cores.
package enum Parallel {
  /// Runs `body` for each chunk index on all cores and returns the results in chunk order.
  package static func map<T: Sendable>(chunks: Int, _ body: @Sendable (Int) -> T) -> [T] {
    if chunks <= 1 { return (0..<chunks).map(body) }
    let results = ResultSlots<T>(count: chunks)
    DispatchQueue.concurrentPerform(iterations: chunks) { index in
      results.store(body(index), at: index)
    }
    return results.values()
  }

  /// Runs `first` and `second` at once, on two cores where there are two, and returns both
  /// results.
  package static func both<A: Sendable, B: Sendable>(
    _ first: @Sendable () -> A, _ second: @Sendable () -> B
  ) -> (A, B) {
    let firsts = ResultSlots<A>(count: 1)
    let seconds = ResultSlots<B>(count: 1)
    DispatchQueue.concurrentPerform(iterations: 2) { index in
      if index == 0 { firsts.store(first(), at: 0) } else { seconds.store(second(), at: 0) }
    }
    return (firsts.values()[0], seconds.values()[0])
  }

  /// The number of cores the process may use.
  package static let activeProcessorCount: Int = {
    #if canImport(Glibc)
      return max(sysconf(Int32(_SC_NPROCESSORS_ONLN)), 1)
    #else
      return 1
    #endif
  }()

  /// Half-open ranges that split `0..<count` into pieces of about `size` elements.
  package static func ranges(count: Int, size: Int) -> [Range<Int>] {
    stride(from: 0, to: count, by: max(size, 1)).map { $0..<min($0 + size, count) }
  }
}

/// One slot per chunk; each slot is written by exactly one thread, then read after all are
/// done, so no two threads ever touch the same memory.
private final class ResultSlots<T: Sendable>: @unchecked Sendable {
  private let slots: UnsafeMutableBufferPointer<T?>

  init(count: Int) {
    slots = .allocate(capacity: count)
    slots.initialize(repeating: nil)
  }

  deinit {
    slots.deinitialize()
    slots.deallocate()
  }

  func store(_ value: T, at index: Int) { slots[index] = value }

  func values() -> [T] {
    slots.map { slot in
      guard let slot else { preconditionFailure("a parallel chunk produced no result") }
      return slot
    }
  }
}

/// Memory that several threads write at once, each thread only elements no other touches
/// (bits of words of its own, bytes of its own ranges), read after every thread is done.
final class DisjointWrites<Element: BitwiseCopyable>: @unchecked Sendable {
  private let storage: UnsafeMutableBufferPointer<Element>

  /// `count` elements, each `initial`.
  init(count: Int, initial: Element) {
    storage = .allocate(capacity: max(count, 1))
    storage.initialize(repeating: initial)
  }

  deinit { storage.deallocate() }

  subscript(index: Int) -> Element {
    get { storage[index] }
    set { storage[index] = newValue }
  }

  /// The elements of `range`, as an array.
  func array(_ range: Range<Int>) -> [Element] { Array(storage[range]) }
}
