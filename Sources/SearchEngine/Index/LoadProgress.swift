import Synchronization

/// How far a load has come: a data file being read, then its text being indexed.
///
/// The loader and the index write it as they go; another thread may read it at any time, e.g. to
/// draw a progress bar.
package final class LoadProgress: Sendable {
  /// The steps of a load, in order.
  package enum Phase: Int, Sendable, CustomStringConvertible {
    case reading = 0
    case indexing = 1
    case done = 2

    /// The step's name, as a progress bar shows it.
    public var description: String {
      switch self {
      case .reading: "reading"
      case .indexing: "indexing"
      case .done: "done"
      }
    }
  }

  private let phaseValue = Atomic<Int>(Phase.reading.rawValue)
  private let completed = Atomic<Int>(0)
  private let total = Atomic<Int>(0)

  /// Creates a progress at the start of reading.
  package init() {}

  /// The step the load is in.
  package var phase: Phase { Phase(rawValue: phaseValue.load(ordering: .acquiring)) ?? .done }

  /// The share of the current step done, from 0 to 1 (0 while its size is not known yet).
  package var fraction: Double {
    let total = total.load(ordering: .relaxed)
    guard total > 0 else { return phase == .done ? 1 : 0 }
    return min(1, Double(completed.load(ordering: .relaxed)) / Double(total))
  }

  /// Starts a step of `total` units (bytes read, values folded).
  package func begin(_ phase: Phase, total: Int) {
    completed.store(0, ordering: .relaxed)
    self.total.store(total, ordering: .relaxed)
    phaseValue.store(phase.rawValue, ordering: .releasing)
  }

  /// Adds `units` to the current step.
  package func advance(by units: Int) {
    completed.add(units, ordering: .relaxed)
  }

  /// Sets the current step's count of units done.
  package func set(completed units: Int) {
    completed.store(units, ordering: .relaxed)
  }

  /// The load is over.
  package func finish() {
    phaseValue.store(Phase.done.rawValue, ordering: .releasing)
  }
}
