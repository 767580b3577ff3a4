import Synchronization

/// A corpus's completion index, built on first use and shared by the copies of the corpus
/// that have not changed since.
///
/// Building it costs 1.6 to 2.3 times the corpus's own build (cities500 and W1, in the
/// completions benchmark), which a program that never asks for completions should not pay:
/// the first lookup builds it, under a lock, and every later one (on any thread, from any copy sharing
/// the cache) reads it. A corpus that changes gets a cache of its own (see
/// `SearchCorpus.updateCompletions(since:)`), so a cache never changes once built but by its
/// one owner.
///
/// It also keeps the ``AdmittedRank`` of the sets of items that lookups ask for again: a set
/// asked for a second time (a scope, as the user types in it) gets one, built under the
/// lock, so that its lookups cost what unrestricted ones do; a set asked for once (a
/// passing token filter) costs only its lookup. At most ``rankLimit`` are kept.
final class CompletionCache: Sendable {
  /// Whether the index is built, read without the lock (which a build holds for a second).
  private let built = Atomic<Bool>(false)

  private struct State: Sendable {
    var index: CompletionIndex?
    var ranks: [AdmittedRank] = []
    /// The hashes of the sets asked for once, most recent last.
    var seen: [Int] = []
  }

  private let state: LockedValue<State>

  /// The most sets whose ranks are kept (the oldest goes first), and of sets remembered as
  /// asked for once.
  static let rankLimit = 8

  /// A cache holding `index`, or nothing yet.
  init(_ index: CompletionIndex? = nil) {
    state = LockedValue(State(index: index))
    built.store(index != nil, ordering: .releasing)
  }

  /// Whether the index is built; never waits for a build under way.
  var isBuilt: Bool { built.load(ordering: .acquiring) }

  /// The index; built by `build` first when it is not built yet.
  func index(orBuild build: () -> CompletionIndex) -> CompletionIndex {
    state.withLock { state in
      if let index = state.index { return index }
      let index = build()
      state.index = index
      built.store(true, ordering: .releasing)
      return index
    }
  }

  /// The index (built by `build` first when it is not built yet) and, when `admitted` was
  /// asked for before, its rank.
  func index(admitted: Bitset?, orBuild build: () -> CompletionIndex) -> (
    CompletionIndex, AdmittedRank?
  ) {
    state.withLock { state in
      let index: CompletionIndex
      if let built = state.index {
        index = built
      } else {
        index = build()
        state.index = index
        built.store(true, ordering: .releasing)
      }
      guard let admitted else { return (index, nil) }
      if let rank = state.ranks.first(where: { $0.admitted == admitted }) { return (index, rank) }
      let hash = admitted.hashValue
      guard let position = state.seen.firstIndex(of: hash) else {
        state.seen.append(hash)
        if state.seen.count > Self.rankLimit { state.seen.removeFirst() }
        return (index, nil)
      }
      state.seen.remove(at: position)
      let rank = AdmittedRank(index: index, admitted: admitted)
      state.ranks.append(rank)
      if state.ranks.count > Self.rankLimit { state.ranks.removeFirst() }
      return (index, rank)
    }
  }

  /// The index, or nil when it is not built; the cache keeps it.
  var current: CompletionIndex? { state.withLock { $0.index } }

  /// The index, or nil; the cache is left empty, so that the index's storage has no other
  /// owner and changes in place.
  func take() -> CompletionIndex? { state.withLock { state in state.index.take() } }
}
