/// The background builds of a corpus's indexes a ``SearchController`` started: the model version
/// each kind of index was last asked for.
///
/// Invariant (checked in one place, ``start(_:_:)``): a kind of index is asked for at most once
/// in a row for the same model version; a new version (a changed corpus) asks again.
struct IndexBuilds {
  /// The model version whose completion index a background task builds.
  private var completions: Int?
  /// The model version whose word index (for typos) a background task builds.
  private var wordIndex: Int?

  /// Whether to start building the completion index of a model version: false when it was
  /// the last one asked for.
  mutating func startCompletions(forModelVersion version: Int) -> Bool {
    Self.start(&completions, version)
  }

  /// Whether to start building the word index of a model version: false when it was the last
  /// one asked for.
  mutating func startWordIndex(forModelVersion version: Int) -> Bool {
    Self.start(&wordIndex, version)
  }

  private static func start(_ last: inout Int?, _ version: Int) -> Bool {
    guard last != version else { return false }
    last = version
    return true
  }
}
