import SearchEngine

/// The rendered rows of one page of a backend's answer and its neighbours, read page by page:
/// a list that outgrew memory (a catalogue on a database server) shown a page at a time.
///
/// It is ``PagingWindow`` for answers the process does not hold: the window asks the backend
/// only for the current page and up to `neighbours` pages on each side, each by its keyset
/// cursor (``/SearchEngine/PagedSearchBackend/page(matching:scope:after:limit:)``), and releases pages that
/// leave its reach. Moving to the next or the previous page reads at most one page. The
/// cursor where each page starts is kept once known (one key per page), so coming back costs
/// that page alone; a first jump far ahead reads the pages on the way, since a keyset cannot
/// skip rows it has not seen.
///
/// Moves are carried out one after another, in the order of their calls. A move that fails
/// (the backend, or rendering a row) throws and leaves the window showing what it showed.
/// A new query or scope is a new window.
@MainActor
public final class BackendPagingWindow<Backend: PagedSearchBackend, Row: Sendable> {
  /// Makes the row of an item from its values as the backend holds them.
  public typealias Render = @Sendable (ItemID, SearchModel.Record) throws -> Row

  /// One materialised row: its place in the answer, its item, and the rendered row.
  public struct VisibleRow: Sendable {
    /// The row's position in the whole answer, from 0.
    public var position: Int
    /// The item shown there.
    public var item: ItemID
    /// The rendered row.
    public var row: Row
  }

  /// The backend read.
  public let backend: Backend
  /// The query answered.
  public let query: SearchQuery
  /// The scope answered.
  public let scope: Int
  /// Rows per page, at least 1.
  public let pageSize: Int
  /// How many pages on each side of the current one are kept.
  public let neighbours: Int

  /// The page shown, from 0.
  public private(set) var currentPage = 0
  /// The number of pages, once the last one has been read; nil before.
  public private(set) var pageCount: Int?
  /// How many pages have been asked of the backend since the window was made.
  public private(set) var pagesRead = 0
  /// How many rows the backend has sent since the window was made.
  public private(set) var rowsRead = 0

  private let render: Render
  /// `starts[p]`: the cursor page `p` starts after (nil for the first page), for every page
  /// whose start is known.
  private var starts: [Backend.Cursor?] = [nil]
  private var pages: [Int: [VisibleRow]] = [:]
  private var isMoving = false
  private var waiters: [CheckedContinuation<Void, Never>] = []

  /// Creates a window on a backend's answer; nothing is read until the first move (usually
  /// `show(page: 0)`).
  ///
  /// - Throws: ``PagingError/invalidPageSize(_:)`` for a page size below 1,
  ///   ``PagingError/invalidNeighbours(_:)`` for a negative neighbour count.
  public init(
    backend: Backend, query: SearchQuery, scope: Int = 0, pageSize: Int, neighbours: Int = 1,
    render: @escaping Render
  ) throws(PagingError) {
    guard pageSize >= 1 else { throw .invalidPageSize(pageSize) }
    guard neighbours >= 0 else { throw .invalidNeighbours(neighbours) }
    self.backend = backend
    self.query = query
    self.scope = scope
    self.pageSize = pageSize
    self.neighbours = neighbours
    self.render = render
  }

  /// The rows of the current page, in answer order; empty before the first move.
  public var visibleRows: [VisibleRow] { pages[currentPage] ?? [] }

  /// The pages whose rows are kept, sorted.
  public var materializedPages: [Int] { pages.keys.sorted() }

  /// The rows of a page, or nil when the page is not kept.
  public func rows(ofPage page: Int) -> [VisibleRow]? { pages[page] }

  /// Whether the current page is the last one.
  public var isOnLastPage: Bool { pageCount.map { currentPage == $0 - 1 } ?? false }

  /// Shows a page (from 0; one past the end shows the last page), reading the pages that
  /// come into reach and releasing those farther than ``neighbours``.
  public func show(page: Int) async throws(PagingError) {
    await takeTurn()
    defer { endTurn() }
    try await move(to: max(page, 0))
  }

  /// Shows the next page; on the last page, stays.
  public func showNext() async throws(PagingError) {
    await takeTurn()
    defer { endTurn() }
    try await move(to: currentPage + 1)
  }

  /// Shows the previous page; on the first page, stays.
  public func showPrevious() async throws(PagingError) {
    await takeTurn()
    defer { endTurn() }
    try await move(to: max(currentPage - 1, 0))
  }

  /// Reads the kept pages again, for an answer that changed on the backend (after
  /// `apply(_:)`): page starts are found again from the first page, since insertions and
  /// removals move them.
  public func reload() async throws(PagingError) {
    await takeTurn()
    defer { endTurn() }
    let (oldStarts, oldPages, oldCount) = (starts, pages, pageCount)
    starts = [nil]
    pages = [:]
    pageCount = nil
    do throws(PagingError) { try await move(to: currentPage) } catch {
      (starts, pages, pageCount) = (oldStarts, oldPages, oldCount)
      throw error
    }
  }

  // MARK: Moving

  private func takeTurn() async {
    if isMoving { await withCheckedContinuation { waiters.append($0) } }
    isMoving = true
  }

  private func endTurn() {
    if waiters.isEmpty { isMoving = false } else { waiters.removeFirst().resume() }
  }

  /// Reads what page `target` and its neighbours need, then shows them at once.
  private func move(to target: Int) async throws(PagingError) {
    var fetched: [Int: [VisibleRow]] = [:]
    // Reach the target's start, reading the pages on the way, unless the answer ends first.
    // The last page whose start is known is always unread while the end is not known.
    while starts.count <= target, pageCount == nil {
      let page = starts.count - 1
      let rows = try await read(page)
      if target - page <= neighbours { fetched[page] = rows }
    }
    let page = pageCount.map { min(target, $0 - 1) } ?? target
    let reach = max(page - neighbours, 0)...(page + neighbours)
    for needed in reach where pages[needed] == nil && fetched[needed] == nil {
      // Pages are read in order, so each one's start is known from the one before.
      guard pageCount.map({ needed < $0 }) ?? true, needed < starts.count else { break }
      fetched[needed] = try await read(needed)
    }
    let end = pageCount ?? Int.max
    pages = pages.merging(fetched) { _, new in new }.filter {
      reach.contains($0.key) && $0.key < end
    }
    currentPage = page
  }

  /// Reads page `page`, whose start is known, learns where the next one starts (or that it is
  /// the last one) and renders its rows.
  private func read(_ page: Int) async throws(PagingError) -> [VisibleRow] {
    let answer: BackendPage<Backend.Cursor>
    do {
      answer = try await backend.page(
        matching: query, scope: scope, after: starts[page], limit: pageSize)
    } catch let error as SearchBackendError {
      throw .backend(error)
    } catch is CancellationError {
      throw .cancelled
    } catch {
      throw .backend(SearchBackendError.wrapping(error))
    }
    pagesRead += 1
    rowsRead += answer.rows.count
    if let next = answer.next, !answer.rows.isEmpty {
      if starts.count == page + 1 { starts.append(next) }
    } else {
      // An empty page after the first means the rows left were all dropped on the backend's
      // side: the page before was the last one.
      pageCount = answer.rows.isEmpty && page > 0 ? page : page + 1
      starts.removeSubrange(min(pageCount ?? 1, starts.count)...)
    }
    var rows: [VisibleRow] = []
    rows.reserveCapacity(answer.rows.count)
    for (offset, row) in answer.rows.enumerated() {
      do {
        rows.append(
          VisibleRow(
            position: page * pageSize + offset, item: row.id, row: try render(row.id, row.record)
          ))
      } catch {
        throw .rendering(item: row.id, "\(error)")
      }
    }
    return rows
  }
}
