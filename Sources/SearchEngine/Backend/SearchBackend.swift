/// Answers a search controller's background searches somewhere other than its own corpus: a
/// database server, another process.
///
/// UIKit's documentation of `shouldReloadTableForSearchString` describes the case: start an
/// asynchronous search, answer "not now", reload when the results come. A controller given a
/// backend does exactly that whenever it searches in the background (the `.background` mode):
/// each search is one call of ``items(matching:scope:)``, cancelled when a newer request
/// supersedes it, and its answer is shown only if it is still the newest. Immediate searches
/// and the re-check of displayed results after a model change stay in memory.
///
/// A backend answers exactly as the in-memory engine does: the items of the scope that match
/// the query, in model order. ``MemorySearchBackend`` is that engine behind this protocol,
/// the reference every other backend is tested against.
public protocol SearchBackend: Sendable {
  /// The items of scope `scope` matching `query`, in model order.
  ///
  /// - Throws: ``SearchBackendError`` when the search cannot be answered, `CancellationError`
  ///   when the task was cancelled.
  func items(matching query: SearchQuery, scope: Int) async throws -> [ItemID]

  /// The first `limit` items of scope `scope` matching `query`, in model order, and how many
  /// match in all: what a list needs for its first screen when the whole answer would cost
  /// more to send than to show. The default answers the whole query and cuts it.
  ///
  /// - Throws: ``SearchBackendError`` when the search cannot be answered, `CancellationError`
  ///   when the task was cancelled.
  func prefix(matching query: SearchQuery, scope: Int, limit: Int) async throws -> BackendPrefix

  /// Makes a batch of model changes on the backend's side; the controller calls it before it
  /// changes its own model, and changes nothing when it throws.
  ///
  /// - Throws: ``SearchBackendError`` when the changes were not made.
  func apply(_ changes: [BackendChange]) async throws
}

extension SearchBackend {
  /// The whole answer of ``items(matching:scope:)``, cut after `limit` items, with its exact
  /// count.
  public func prefix(matching query: SearchQuery, scope: Int, limit: Int) async throws
    -> BackendPrefix
  {
    let items = try await self.items(matching: query, scope: scope)
    let kept = Array(items.prefix(max(limit, 0)))
    return BackendPrefix(
      items: kept, isComplete: kept.count == items.count, count: .exact(items.count))
  }

  /// A backend that reads the controller's own data has nothing to change.
  public func apply(_ changes: [BackendChange]) async throws {}
}

/// One model change as a backend makes it: the identities are the model's, decided by the
/// controller, and an insertion names the item it follows in model order.
public enum BackendChange: Hashable, Sendable {
  /// A new item, placed after `after` in model order (first when nil). The item it follows
  /// is in the model, or inserted by an earlier change of the same batch.
  case insert(ItemID, SearchModel.Record, after: ItemID?)
  /// New content for an item.
  case update(ItemID, SearchModel.Record)
  /// An item that goes.
  case remove(ItemID)

  /// The item the change is about.
  public var id: ItemID {
    switch self {
    case .insert(let id, _, _), .update(let id, _), .remove(let id): id
    }
  }
}

/// The in-memory engine as a backend: every search is a full scan of a corpus.
///
/// What other backends must answer, query for query.
public struct MemorySearchBackend: SearchBackend {
  /// The corpus searched.
  public let corpus: SearchCorpus

  /// Creates a backend over a corpus.
  public init(corpus: SearchCorpus) { self.corpus = corpus }

  /// The items of the scope matching the query, in model order, by a full scan.
  public func items(matching query: SearchQuery, scope: Int) async throws -> [ItemID] {
    guard corpus.scopeBar.scopes.indices.contains(scope) else {
      throw SearchBackendError(
        .rejected, "no scope \(scope)",
        advice: "pick one of the \(corpus.scopeBar.scopes.count) scopes, from 0")
    }
    let result = IncrementalFilter.run(
      .fullScan, query: query, scope: scope, in: corpus, isCancelled: { Task.isCancelled })
    guard let result else { throw CancellationError() }
    return result.items
  }
}
