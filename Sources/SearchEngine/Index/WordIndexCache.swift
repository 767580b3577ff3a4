/// A corpus's word index, built on first use and shared by the copies of the corpus that have
/// not changed since (as `CompletionCache` is): a program that never searches with typos
/// does not pay for it, at start-up or at all.
///
/// A corpus that changes gets a cache of its own, holding the index brought up to date when this
/// one had it built.
final class WordIndexCache: Sendable {
  private let state: LockedValue<WordIndex?>

  /// A cache holding `index`, or nothing yet.
  init(_ index: WordIndex? = nil) { state = LockedValue(index) }

  /// The index; built by `build` first when it is not built yet.
  func index(orBuild build: () -> WordIndex) -> WordIndex {
    state.withLock { index in
      if let built = index { return built }
      let built = build()
      index = built
      return built
    }
  }

  /// The index, or nil when it is not built.
  var current: WordIndex? { state.withLock { $0 } }
}
