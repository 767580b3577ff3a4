/// The app's items by the engine's identities: written on the main actor as the model
/// changes, read by any table snapshot. A slot is never reused, so an older snapshot still
/// reads the items it showed.
final class ItemStorage<Item: Sendable>: Sendable {
  private let slots = LockedValue<[Item?]>([])

  func item(_ id: ItemID) -> Item? {
    slots.withLock { slots in
      let index = Int(id.rawValue)
      return slots.indices.contains(index) ? slots[index] : nil
    }
  }

  func items(_ ids: some Sequence<ItemID>) -> [Item] {
    slots.withLock { slots in ids.compactMap { slots[Int($0.rawValue)] } }
  }

  /// Stores many items at once, each under its identity.
  func set(_ items: [Item], for ids: [ItemID]) {
    slots.withLock { slots in
      let limit = ids.lazy.map { Int($0.rawValue) + 1 }.max() ?? 0
      if limit > slots.count {
        slots.append(contentsOf: repeatElement(nil, count: limit - slots.count))
      }
      for (item, id) in zip(items, ids) { slots[Int(id.rawValue)] = item }
    }
  }

  func set(_ item: Item?, for id: ItemID) {
    slots.withLock { slots in
      let index = Int(id.rawValue)
      if index >= slots.count {
        slots.append(contentsOf: repeatElement(nil, count: index - slots.count + 1))
      }
      slots[index] = item
    }
  }
}

/// The rows of a section, as the app's own items: a view over the table's identities, so
/// making one costs nothing and reading a row is O(1).
public struct ItemRows<Item: Sendable>: RandomAccessCollection, Sendable {
  let ids: [ItemID]
  let storage: ItemStorage<Item>

  /// The first row's index, 0.
  public var startIndex: Int { 0 }
  /// The number of rows.
  public var endIndex: Int { ids.count }

  /// The item of a row.
  public subscript(position: Int) -> Item {
    guard let item = storage.item(ids[position]) else {
      preconditionFailure("row \(position) shows item \(ids[position]), which has no value")
    }
    return item
  }
}

/// A section of the table on screen: its header title and its rows.
public struct ItemSection<Item: Sendable>: Sendable, Identifiable {
  /// The header title (an index letter, a value); nil for a plain list.
  public let title: String?
  /// The rows, top to bottom.
  public let rows: ItemRows<Item>

  /// The title, which is unique among the sections of a table ("" for a plain list).
  public var id: String { title ?? "" }
}
