import SearchEngine

/// Why a ``PagingWindow`` or a ``BackendPagingWindow`` could not be made, moved or reloaded.
public struct PagingError: Error, Hashable, Sendable, CustomStringConvertible {
  /// What went wrong, to compare with `==` or branch on with `if`, or `switch` with a
  /// `default`; a release may add codes.
  public struct Code: Hashable, Sendable, CustomStringConvertible {
    private let name: String
    private init(name: String) { self.name = name }

    /// The page size is below 1.
    public static let invalidPageSize = Code(name: "invalidPageSize")
    /// The neighbour count is negative.
    public static let invalidNeighbours = Code(name: "invalidNeighbours")
    /// A row could not be rendered (see ``PagingError/rowAdapterError``).
    public static let rendering = Code(name: "rendering")
    /// The table counts a row at an index path but gives no item for it.
    public static let missingItem = Code(name: "missingItem")
    /// The backend could not read a page (see ``PagingError/backendError``).
    public static let backend = Code(name: "backend")
    /// The task of the move was cancelled.
    public static let cancelled = Code(name: "cancelled")

    /// The code's name, such as "invalidPageSize".
    public var description: String { name }
  }

  /// What went wrong.
  public let code: Code
  /// The index path of the row at fault, from a ``PagingWindow``.
  public let indexPath: TableIndexPath?
  /// The item whose row could not be rendered, from a ``BackendPagingWindow``.
  public let item: ItemID?
  /// Why the adapter could not render the row, from a ``PagingWindow``.
  public let rowAdapterError: RowAdapterError?
  /// Why the backend could not read a page, for ``Code/backend``.
  public let backendError: SearchBackendError?
  /// The error as one line of text.
  public let description: String

  private init(
    _ code: Code, _ description: String, indexPath: TableIndexPath? = nil, item: ItemID? = nil,
    rowAdapterError: RowAdapterError? = nil, backendError: SearchBackendError? = nil
  ) {
    self.code = code
    self.description = description
    self.indexPath = indexPath
    self.item = item
    self.rowAdapterError = rowAdapterError
    self.backendError = backendError
  }

  /// The page size is below 1.
  public static func invalidPageSize(_ size: Int) -> Self {
    Self(.invalidPageSize, "page size \(size) is not positive; use 1 or more")
  }
  /// The neighbour count is negative.
  public static func invalidNeighbours(_ count: Int) -> Self {
    Self(.invalidNeighbours, "neighbour count \(count) is negative; use 0 or more")
  }
  /// The row at an index path could not be rendered.
  public static func rendering(_ error: RowAdapterError, at indexPath: TableIndexPath) -> Self {
    Self(.rendering, "row \(indexPath): \(error)", indexPath: indexPath, rowAdapterError: error)
  }
  /// An item's row could not be rendered from its values.
  public static func rendering(item: ItemID, _ reason: String) -> Self {
    Self(.rendering, "item \(item.rawValue) cannot be shown: \(reason)", item: item)
  }
  /// The table counts a row at this index path but gives no item for it.
  public static func missingItem(at indexPath: TableIndexPath) -> Self {
    Self(
      .missingItem, "the table counts row \(indexPath) but has no item there",
      indexPath: indexPath)
  }
  /// The backend could not read a page.
  public static func backend(_ error: SearchBackendError) -> Self {
    Self(.backend, error.description, backendError: error)
  }
  /// The task of the move was cancelled.
  public static let cancelled = Self(.cancelled, "the move was cancelled; move again")
}
