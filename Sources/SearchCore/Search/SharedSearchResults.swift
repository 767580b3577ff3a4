import Dispatch
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
/// A search that another controller is running already is waited for, not run again: the
/// first letters of many users come at once.
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

  /// A search under way, which controllers that need the same one wait for.
  final class Flight: Sendable {
    fileprivate let group = DispatchGroup()
    init() { group.enter() }
  }

  /// What a controller does about a search: show the one kept, run it (and say when it ends),
  /// or nothing, as its own search was superseded while it waited.
  enum Take {
    case kept(SearchController.Outcome)
    case run(Flight)
    case superseded
  }

  private struct State {
    var entries: [Key: Entry] = [:]
    var flights: [Key: Flight] = [:]
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

  /// Keeps up to 64 times `corpus`'s items (4 bytes a row: 60 MB for 234,908 items), in 1,024
  /// searches at most: room for the first letters, which match most items (each search keeps
  /// its results and its table's rows, two rows an item), and for many narrower searches.
  package convenience init(for corpus: SearchCorpus) {
    self.init(itemLimit: 64 * max(corpus.model.count, 1024))
  }

  /// How many lookups found a search, and how many did not.
  package var lookups: (hits: Int, misses: Int) {
    state.withLock { ($0.hits, $0.misses) }
  }

  /// How many searches and rows are kept.
  package var kept: (searches: Int, rows: Int) {
    state.withLock { ($0.entries.count, $0.rows) }
  }

  /// The outcome of a search kept for `key` (which counts as used); else, when another
  /// controller runs the same search, waits for it, checking `isCancelled` every few
  /// milliseconds; else the search is the caller's to run, and to end with
  /// ``finish(_:for:with:)``.
  func take(_ key: Key, isCancelled: () -> Bool) -> Take {
    enum Step {
      case take(Take)
      case wait(Flight)
    }
    while true {
      let step = state.withLock { state -> Step in
        if var entry = state.entries[key] {
          state.hits += 1
          state.clock += 1
          entry.lastUse = state.clock
          state.entries[key] = entry
          return .take(.kept(entry.outcome))
        }
        if let flight = state.flights[key] { return .wait(flight) }
        state.misses += 1
        let flight = Flight()
        state.flights[key] = flight
        return .take(.run(flight))
      }
      switch step {
      case .take(let take): return take
      case .wait(let flight):
        while flight.group.wait(timeout: .now() + .milliseconds(5)) == .timedOut {
          if isCancelled() { return .superseded }
        }
      // Kept by now, or not (cancelled, or not to keep): looked up again.
      }
    }
  }

  /// Ends a search ``take(_:isCancelled:)`` gave the caller to run: keeps its outcome, if
  /// any, and wakes those waiting for it.
  func finish(_ flight: Flight, for key: Key, with outcome: SearchController.Outcome?) {
    state.withLock { state in
      if state.flights[key] === flight { state.flights[key] = nil }
    }
    if let outcome { keep(outcome, for: key) }
    flight.group.leave()
  }

  /// Keeps a finished search's outcome (its change set left out: that is the session's own),
  /// making room by forgetting the searches used least recently.
  private func keep(_ outcome: SearchController.Outcome, for key: Key) {
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
