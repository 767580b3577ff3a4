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
/// A search that another controller is running already is waited for, not run again (the
/// first letters of many users come at once), by a background search that holds no thread
/// while it waits; a search on the main actor runs it instead of waiting.
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

    /// Returns when the search has ended, holding no thread meanwhile.
    func ended() async {
      await withCheckedContinuation { continuation in
        group.notify(queue: .global(qos: .userInitiated)) { continuation.resume() }
      }
    }
  }

  /// What a controller does about a search: show the one kept, run it (and say when it ends
  /// with ``finish(_:for:with:)``), or wait for another controller's run of it.
  enum Take {
    case kept(SearchController.Outcome)
    case run(Flight)
    case wait(Flight)
  }

  private struct State {
    var entries: [Key: Entry] = [:]
    var flights: [Key: Flight] = [:]
    /// Each use of an entry, oldest first, from `usesStart` on.
    ///
    /// A use is current when its stamp is its entry's `lastUse`; the others are skipped.
    /// Forgetting the least recently used so costs no scan of the entries.
    var uses: [(key: Key, stamp: Int)] = []
    var usesStart = 0
    var rows = 0
    var clock = 0
    var hits = 0
    var misses = 0

    /// Marks `key`'s entry as used now.
    mutating func use(_ key: Key) {
      clock += 1
      entries[key]?.lastUse = clock
      uses.append((key, clock))
      compactUses()
    }

    /// Forgets the entry used least recently; false when there is none.
    mutating func forgetOldest() -> Bool {
      while usesStart < uses.count {
        let (key, stamp) = uses[usesStart]
        usesStart += 1
        guard let entry = entries[key], entry.lastUse == stamp else { continue }
        rows -= entry.rows
        entries[key] = nil
        return true
      }
      return false
    }

    /// Drops the uses read past, and those no longer current when they outnumber the entries
    /// many times over (a few searches used again and again).
    mutating func compactUses() {
      if usesStart > 1024, usesStart * 2 > uses.count {
        uses.removeFirst(usesStart)
        usesStart = 0
      }
      if uses.count - usesStart > 8 * entries.count + 1024 {
        uses = uses[usesStart...].filter { entries[$0.key]?.lastUse == $0.stamp }
        usesStart = 0
      }
    }
  }

  /// The most rows (results and their table's rows) kept in all.
  package let itemLimit: Int
  /// The most searches kept.
  package let entryLimit: Int
  private let state = LockedValue(State())

  /// How many of the first letters, and of the first two letters, that most of a corpus's
  /// first values start with a server searches before its first session
  /// (`SearchModel.commonestPrefixes(length:limit:)`): the searches its sessions' first
  /// keystrokes ask for at once.
  package static let warmedPrefixes = (letters: 26, pairs: 150)

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

  /// Whether a search is kept for `key` (which does not count as a use).
  func isKept(_ key: Key) -> Bool {
    state.withLock { $0.entries[key] != nil }
  }

  /// How many searches and rows are kept.
  package var kept: (searches: Int, rows: Int) {
    state.withLock { ($0.entries.count, $0.rows) }
  }

  /// The outcome of a search kept for `key` (which counts as used); else, when another
  /// controller runs the same search, its flight to wait for (``Flight/ended()``, then look
  /// again); else the search is the caller's to run, and to end with ``finish(_:for:with:)``.
  ///
  /// Never waits itself: a caller on the main actor runs the search instead of waiting.
  func take(_ key: Key) -> Take {
    state.withLock { state -> Take in
      if let outcome = state.entries[key]?.outcome {
        state.hits += 1
        state.use(key)
        return .kept(outcome)
      }
      if let flight = state.flights[key] { return .wait(flight) }
      state.misses += 1
      let flight = Flight()
      state.flights[key] = flight
      return .run(flight)
    }
  }

  /// Ends a search ``take(_:)`` gave the caller to run: keeps its outcome, if
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
      if let old = state.entries.updateValue(
        Entry(outcome: kept, rows: rows, lastUse: 0), forKey: key)
      {
        state.rows -= old.rows
      }
      state.rows += rows
      state.use(key)
      while state.rows > itemLimit || state.entries.count > entryLimit {
        guard state.forgetOldest() else { break }
      }
    }
  }
}
