import SearchEngine

/// The rendered rows of one page of a table and its neighbours, for fronts that show a page
/// at a time (a paged scroll view of tweets).
///
/// Rows are the table's rows flattened in order (section 0's rows, then section 1's …), and
/// page `p` is flat positions `p * pageSize ..< (p + 1) * pageSize`. The window renders only
/// the current page and up to `neighbours` pages on each side; moving it renders the pages
/// that come into reach and releases those that leave it, so a move costs the rows of the
/// pages it renders, never the whole table.
///
/// Rendered rows are kept by item: a ``reload(_:updated:render:)`` after the table changed
/// re-renders only the items that are new to the window or named as updated; items that
/// merely moved keep their row, at their new index path.
///
/// A move or reload whose rendering fails throws and leaves the window exactly as it was.
public struct PagingWindow<Row: Sendable>: Sendable {
  /// One materialised row: where the table shows it, its item, and the rendered row.
  public struct VisibleRow: Sendable {
    /// The row's place in the table.
    public var indexPath: TableIndexPath
    /// The model item shown there.
    public var item: ItemID
    /// The rendered row.
    public var row: Row

    /// Creates a visible row.
    public init(indexPath: TableIndexPath, item: ItemID, row: Row) {
      self.indexPath = indexPath
      self.item = item
      self.row = row
    }
  }

  /// Makes the row of an item; a failure is reported as a ``/SearchEngine/RowAdapterError``.
  public typealias Render = @Sendable (ItemID) throws(RowAdapterError) -> Row

  /// Rows per page, at least 1.
  public let pageSize: Int
  /// How many pages on each side of the current one are kept rendered.
  public let neighbours: Int
  /// The page shown, from 0.
  public private(set) var currentPage = 0
  /// How many rows have been rendered since the window was made: a rendered row that is kept
  /// across moves and reloads counts once.
  public private(set) var renderCount = 0

  private var table: any TableDataSource
  private var render: Render
  /// The flat position of each section's first row, plus the total at the end.
  private var sectionStarts: [Int] = [0]
  private var pages: [Int: [VisibleRow]] = [:]

  /// Creates a window on a table, showing `page` (clamped to the table's pages) and rendering
  /// rows with `render`.
  ///
  /// Throws ``PagingError/invalidPageSize(_:)`` for a page size below 1,
  /// ``PagingError/invalidNeighbours(_:)`` for a negative neighbour count, and
  /// ``PagingError/rendering(_:at:)`` when a row of the first pages cannot be made.
  public init(
    table: some TableDataSource, pageSize: Int, neighbours: Int = 1, page: Int = 0,
    render: @escaping Render
  ) throws(PagingError) {
    guard pageSize > 0 else { throw .invalidPageSize(pageSize) }
    guard neighbours >= 0 else { throw .invalidNeighbours(neighbours) }
    self.pageSize = pageSize
    self.neighbours = neighbours
    self.table = table
    self.render = render
    sectionStarts = Self.sectionStarts(of: table)
    try settle(on: page, reusing: [:])
  }

  /// Creates a window that renders each row through a registry's adapters for a model.
  public init(
    table: some TableDataSource, pageSize: Int, neighbours: Int = 1, page: Int = 0,
    registry: RowAdapterRegistry<Row>, model: SearchModel
  ) throws(PagingError) {
    try self.init(
      table: table, pageSize: pageSize, neighbours: neighbours, page: page,
      render: registry.renderer(for: model))
  }

  /// The number of rows of the table.
  public var rowCount: Int { sectionStarts.last ?? 0 }

  /// The number of pages; an empty table has one empty page, as it has one empty section.
  public var pageCount: Int { max(1, (rowCount + pageSize - 1) / pageSize) }

  /// The rows of the current page, in table order.
  public var visibleRows: [VisibleRow] { pages[currentPage] ?? [] }

  /// The pages whose rows are rendered, sorted.
  public var materializedPages: [Int] { pages.keys.sorted() }

  /// The rendered rows of a page, or nil when the page is not materialised.
  public func rows(ofPage page: Int) -> [VisibleRow]? { pages[page] }

  /// Shows a page (clamped to the valid pages), rendering the pages that come into reach and
  /// releasing those farther than ``neighbours``.
  public mutating func show(page: Int) throws(PagingError) {
    try settle(on: page, reusing: [:])
  }

  /// Shows the next page; on the last page, stays.
  public mutating func next() throws(PagingError) { try show(page: currentPage + 1) }

  /// Shows the previous page; on the first page, stays.
  public mutating func previous() throws(PagingError) { try show(page: currentPage - 1) }

  /// Takes a new snapshot of the table: rows may have been inserted, deleted, reordered or
  /// updated.
  ///
  /// Keeps the current page when it still exists (else shows the last page), and re-renders the
  /// rows of the pages in reach whose items are new to the window or listed in `updated`; other
  /// items keep their rendered row at their new index path.
  ///
  /// Pass `render` when the closure must read from a changed model: the window renders with
  /// it from now on. Rows of items not in `updated` are still kept, so the new closure must
  /// make the same rows as the old one for them; to render everything again, make a new
  /// window.
  public mutating func reload(
    _ table: some TableDataSource, updated: Set<ItemID> = [], render: Render? = nil
  ) throws(PagingError) {
    var reusable: [ItemID: Row] = [:]
    for rows in pages.values {
      for row in rows where !updated.contains(row.item) { reusable[row.item] = row.row }
    }
    var next = self
    next.table = table
    if let render { next.render = render }
    next.sectionStarts = Self.sectionStarts(of: table)
    next.pages = [:]
    try next.settle(on: currentPage, reusing: reusable)
    self = next
  }

  /// Moves to `page` (clamped) and makes the materialised pages exactly those in reach,
  /// taking rows from `reusing` by item before rendering; all or nothing.
  private mutating func settle(
    on page: Int, reusing reusable: [ItemID: Row]
  ) throws(PagingError) {
    let target = min(max(page, 0), pageCount - 1)
    let reach = max(0, target - neighbours)...min(pageCount - 1, target + neighbours)
    var kept = pages.filter { reach.contains($0.key) }
    var rendered = 0
    for page in reach where kept[page] == nil {
      kept[page] = try materialize(page: page, reusing: reusable, rendered: &rendered)
    }
    currentPage = target
    pages = kept
    renderCount += rendered
  }

  private func materialize(
    page: Int, reusing reusable: [ItemID: Row], rendered: inout Int
  ) throws(PagingError) -> [VisibleRow] {
    let start = page * pageSize
    let end = min(start + pageSize, rowCount)
    guard start < end else { return [] }
    var rows: [VisibleRow] = []
    rows.reserveCapacity(end - start)
    var section = Self.section(containing: start, in: sectionStarts)
    for position in start..<end {
      while position >= sectionStarts[section + 1] { section += 1 }
      let indexPath = TableIndexPath(section: section, row: position - sectionStarts[section])
      guard let item = table.item(at: indexPath) else { throw .missingItem(at: indexPath) }
      if let row = reusable[item] {
        rows.append(VisibleRow(indexPath: indexPath, item: item, row: row))
        continue
      }
      do {
        rows.append(VisibleRow(indexPath: indexPath, item: item, row: try render(item)))
        rendered += 1
      } catch {
        throw .rendering(error, at: indexPath)
      }
    }
    return rows
  }

  private static func sectionStarts(of table: some TableDataSource) -> [Int] {
    var starts = [0]
    starts.reserveCapacity(table.numberOfSections + 1)
    for section in 0..<table.numberOfSections {
      starts.append(starts[section] + max(0, table.numberOfRows(inSection: section)))
    }
    return starts
  }

  /// The last section whose first row is at or before `position` and that has rows.
  private static func section(containing position: Int, in starts: [Int]) -> Int {
    var low = 0
    var high = starts.count - 2
    while low < high {
      let middle = (low + high + 1) / 2
      if starts[middle] <= position { low = middle } else { high = middle - 1 }
    }
    return low
  }
}

extension PagingWindow.VisibleRow: Equatable where Row: Equatable {}

extension PagingWindow.VisibleRow: Hashable where Row: Hashable {}
