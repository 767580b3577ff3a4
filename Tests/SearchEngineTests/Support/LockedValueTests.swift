import Dispatch
import TestSupport
import Testing

@testable import SearchEngine

@Suite(.tags(.concurrent))
struct LockedValueTests {
  private struct Refusal: Error {}

  /// Every change made from many threads at once lands: none is lost to another thread's.
  @Test func changesFromManyThreadsAllLand() {
    let counts = LockedValue<[Int: Int]>([:])
    DispatchQueue.concurrentPerform(iterations: 16) { thread in
      for _ in 0..<2_000 { counts.withLock { $0[thread % 4, default: 0] += 1 } }
    }
    #expect(counts.withLock { $0 } == [0: 8_000, 1: 8_000, 2: 8_000, 3: 8_000])
  }

  /// An error thrown inside gives the lock back, with what was changed before the throw kept.
  @Test func aThrownErrorGivesTheLockBack() {
    let value = LockedValue(0)
    #expect(throws: Refusal.self) {
      try value.withLock { (number: inout Int) throws(Refusal) in
        number = 1
        throw Refusal()
      }
    }
    // A lock still held would make this wait forever (a default mutex is not recursive).
    #expect(value.withLock { $0 } == 1)
  }

  /// A value that is not Sendable can live behind the lock and come out of it.
  @Test func holdsAValueThatIsNotSendable() {
    final class Counter { var count = 0 }
    let counter = LockedValue(Counter())
    DispatchQueue.concurrentPerform(iterations: 8) { _ in
      for _ in 0..<500 { counter.withLock { $0.count += 1 } }
    }
    #expect(counter.withLock { $0.count } == 4_000)
  }
}
