import SearchEngine

/// Finished searches kept for every controller over one corpus: a server's sessions, whose
/// users type the same first letters.
///
/// A search of one or two letters matches most of a large corpus, and ranking and laying out
/// its results costs tens of milliseconds; every session of a server asks for the same few
/// dozen of them. A controller given this (``SearchController/sharedResults``) looks its
/// search up before running it and keeps what it ran; a hit costs a dictionary lookup, and the
/// sessions that show the same results hold one copy of their rows.
///
/// A search is the same when everything its outcome depends on is: the text, scope, tokens,
/// configuration, table layout and the model's version. Only searches in memory are kept,
/// and only those that offer every completion they can (a completion index still being built
/// offers none, and that answer is not kept).
///
/// Bounded by the rows it holds (``itemLimit``) and by its entries (``entryLimit``): past
/// either, the least recently used go first.
package final class SharedSearchResults: Sendable {
  /// What a finished search's outcome depends on.
  struct Key: Hashable, Sendable {
    var text: String
    var scope: Int
    var filter: AttributeFilter
    var configuration: SearchConfiguration
    var countsScopes: Bool
    var completionLimit: Int
    var layout: TableLayout
    var modelVersion: Int
  }

  private struct Entry {
    var outcome: SearchController.Outcome
    var rows: Int
    var lastUse: Int
  }

  private struct State {
    var entries: [Key: Entry] = [:]
    var rows = 0
    var clock = 0
    var hits = 0
    var misses = 0
  }

  /// The most rows (results and their table's rows) kept in all.
  package let itemLimit: Int
  /// The most searches kept.
  package let entryLimit: Int
  private let state = LockedValue(State())

  /// Keeps up to `itemLimit` rows of results, in at most `entryLimit` searches.
  package init(itemLimit: Int, entryLimit: Int = 1024) {
    self.itemLimit = max(itemLimit, 0)
    self.entryLimit = max(entryLimit, 0)
  }

  /// Keeps up to 32 times `corpus`'s items (4 bytes a row: 30 MB for 234,908 items), in 1,024
  /// searches at most: room for the first letters, which match most items (each search keeps
  /// its results and its table's rows), and for many narrower searches.
  package convenience init(for corpus: SearchCorpus) {
    self.init(itemLimit: 32 * max(corpus.model.count, 1024))
  }

  /// How many lookups found a search, and how many did not.
  package var lookups: (hits: Int, misses: Int) {
    state.withLock { ($0.hits, $0.misses) }
  }

  /// How many searches and rows are kept.
  package var kept: (searches: Int, rows: Int) {
    state.withLock { ($0.entries.count, $0.rows) }
  }

  /// The outcome of a search kept for `key`, which counts as used.
  func outcome(for key: Key) -> SearchController.Outcome? {
    state.withLock { state in
      guard var entry = state.entries[key] else {
        state.misses += 1
        return nil
      }
      state.hits += 1
      state.clock += 1
      entry.lastUse = state.clock
      state.entries[key] = entry
      return entry.outcome
    }
  }

  /// Keeps a finished search's outcome (its change set left out: that is the session's own),
  /// making room by forgetting the searches used least recently.
  func keep(_ outcome: SearchController.Outcome, for key: Key) {
    var kept = outcome
    kept.changes = nil
    let rows = outcome.result.items.count + outcome.table.numberOfRows
    guard rows <= itemLimit, entryLimit > 0 else { return }
    state.withLock { state in
      state.clock += 1
      if let old = state.entries.updateValue(
        Entry(outcome: kept, rows: rows, lastUse: state.clock), forKey: key)
      {
        state.rows -= old.rows
      }
      state.rows += rows
      while state.rows > itemLimit || state.entries.count > entryLimit {
        guard let oldest = state.entries.min(by: { $0.value.lastUse < $1.value.lastUse }) else {
          break
        }
        state.rows -= oldest.value.rows
        state.entries[oldest.key] = nil
      }
    }
  }
}
