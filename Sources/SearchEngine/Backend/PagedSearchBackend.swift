/// A backend that hands out its answer a page at a time, with the items' values: for lists
/// too large to hold in the process that shows them.
///
/// Pages are cut by keyset: a page starts after the cursor that ended the one before, so a
/// page costs its own rows however deep it is, and items inserted or removed elsewhere in the
/// list do not shift the pages already read. SearchCore's `BackendPagingWindow` keeps a visible
/// page and its neighbours from such a backend.
public protocol PagedSearchBackend: SearchBackend {
  /// Where a page ends; the next page starts after it.
  associatedtype Cursor: Hashable, Sendable

  /// Up to `limit` items of scope `scope` matching `query`, in model order, starting after
  /// `cursor` (at the start when nil). The page's ``BackendPage/next`` is nil when no item
  /// follows it.
  ///
  /// - Throws: ``SearchBackendError`` when the page cannot be read, `CancellationError` when
  ///   the task was cancelled.
  func page(matching query: SearchQuery, scope: Int, after cursor: Cursor?, limit: Int) async throws
    -> BackendPage<Cursor>
}

/// One page of a backend's answer.
public struct BackendPage<Cursor: Hashable & Sendable>: Sendable {
  /// A result: the item's identity and its values as the backend holds them.
  public struct Row: Hashable, Sendable {
    /// The item.
    public var id: ItemID
    /// Its fields and attributes.
    public var record: SearchModel.Record

    /// Creates a row.
    public init(id: ItemID, record: SearchModel.Record) {
      self.id = id
      self.record = record
    }
  }

  /// The page's rows, in model order.
  public var rows: [Row]
  /// Where the next page starts; nil after the last page.
  public var next: Cursor?

  /// Creates a page.
  public init(rows: [Row], next: Cursor?) {
    self.rows = rows
    self.next = next
  }
}

extension MemorySearchBackend: PagedSearchBackend {
  /// The number of results before a page.
  public typealias Cursor = Int

  /// A page of the full scan's answer: the reference for other backends' pages.
  public func page(matching query: SearchQuery, scope: Int, after cursor: Int?, limit: Int)
    async throws -> BackendPage<Int>
  {
    guard limit > 0 else {
      throw SearchBackendError(.rejected, "a page of \(limit) rows", advice: "ask for 1 or more")
    }
    let items = try await self.items(matching: query, scope: scope)
    let start = min(max(cursor ?? 0, 0), items.count)
    let end = min(start + limit, items.count)
    let rows = items[start..<end].map {
      BackendPage<Int>.Row(id: $0, record: corpus.model.record(of: $0))
    }
    return BackendPage(rows: rows, next: end < items.count ? end : nil)
  }
}
