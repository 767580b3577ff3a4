/// A corpus's completion index, built on first use and shared by the copies of the corpus
/// that have not changed since.
///
/// Building it costs more than a sixth of the corpus's own build (see the completions
/// benchmark), which a program that never asks for completions should not pay: the first
/// lookup builds it, under a lock, and every later one (on any thread, from any copy sharing
/// the cache) reads it. A corpus that changes gets a cache of its own (see
/// `SearchCorpus.updateCompletions(since:)`), so a cache never changes once built but by its
/// one owner.
final class CompletionCache: Sendable {
  private let state: LockedValue<CompletionIndex?>

  /// A cache holding `index`, or nothing yet.
  init(_ index: CompletionIndex? = nil) { state = LockedValue(index) }

  /// Whether the index is built.
  var isBuilt: Bool { state.withLock { $0 != nil } }

  /// The index; built by `build` first when it is not built yet.
  func index(orBuild build: () -> CompletionIndex) -> CompletionIndex {
    state.withLock { index in
      if let index { return index }
      let built = build()
      index = built
      return built
    }
  }

  /// The index, or nil when it is not built; the cache keeps it.
  var current: CompletionIndex? { state.withLock { $0 } }

  /// The index, or nil; the cache is left empty, so that the index's storage has no other
  /// owner and changes in place.
  func take() -> CompletionIndex? { state.withLock { index in index.take() } }
}
