import SearchEngine

/// Rows of several kinds from one list of the app's items, without a `switch` over kinds: an
/// adapter per kind turns an item and its highlights into a row (a cell's view model, a
/// string), as the adapter pattern does for heterogeneous table cells.
///
/// ```swift
/// var adapters = ItemRowAdapters<Message, Message.Kind, String>(kind: \.kind)
/// adapters.register(.text) { message, marks in "\(message.author): \(message.body)" }
/// adapters.register(.photo) { message, _ in "\(message.author) sent a photo" }
/// ```
@MainActor
public struct ItemRowAdapters<Item, Kind: Hashable, Row> {
  /// Makes a row of one kind.
  public typealias Adapter = (Item, ItemHighlights<Item>) -> Row

  private let kind: KeyPath<Item, Kind>
  private var adapters: [Kind: Adapter] = [:]
  /// The adapter for kinds that have none of their own; nil makes them an error.
  public var fallback: Adapter?

  /// An empty registry whose kinds are read at `kind`.
  public init(kind: KeyPath<Item, Kind>, fallback: Adapter? = nil) {
    self.kind = kind
    self.fallback = fallback
  }

  /// Uses `adapter` for the items of `kind`, in place of any earlier one.
  public mutating func register(_ kind: Kind, _ adapter: @escaping Adapter) {
    adapters[kind] = adapter
  }

  /// The row of an item, from the adapter of its kind (or the fallback).
  ///
  /// - Throws: ``ItemSearchError/noAdapter(kind:)`` when neither is there.
  public func row(for item: Item, highlights: ItemHighlights<Item>) throws(ItemSearchError)
    -> Row
  {
    let kind = item[keyPath: self.kind]
    guard let adapter = adapters[kind] ?? fallback else { throw .noAdapter(kind: "\(kind)") }
    return adapter(item, highlights)
  }
}

extension ItemSearch {
  /// The row at an index path of the rows on screen, made by the adapter of its item's kind
  /// with the item's highlights; nil outside the rows.
  ///
  /// - Throws: ``ItemSearchError/noAdapter(kind:)`` for a kind without an adapter.
  public func row<Kind, Row>(
    at indexPath: TableIndexPath, using adapters: ItemRowAdapters<Item, Kind, Row>
  ) throws(ItemSearchError) -> Row? {
    guard let item = item(at: indexPath) else { return nil }
    return try adapters.row(for: item, highlights: highlights(of: item))
  }
}
