import SearchEngine

/// The app's items by the engine's identities: written on the main actor as the model
/// changes, read by any table snapshot.
///
/// A slot is never reused, so an older snapshot still reads the items it showed.
///
/// The slots are kept in chunks of a fixed size: an identity past the last chunk adds one,
/// so storing an item never copies the others (one array would copy every item, on the main
/// actor, each time an insert outgrew its capacity: milliseconds at 200,000 items).
final class ItemStorage<Item: Sendable>: Sendable {
  private let chunks = LockedValue<[[Item?]]>([])

  /// A chunk holds 2^chunkShift slots.
  private static var chunkShift: Int { 10 }
  private static var chunkMask: Int { (1 << chunkShift) - 1 }

  func item(_ id: ItemID) -> Item? {
    let index = Int(id.rawValue)
    guard index >= 0 else { return nil }
    return chunks.withLock { chunks in
      let chunk = index >> Self.chunkShift
      return chunks.indices.contains(chunk) ? chunks[chunk][index & Self.chunkMask] : nil
    }
  }

  /// The items of `ids`, read from a snapshot: the lock is held only to take it, so that a
  /// read of many items off the main actor (a sync's old list) never makes the main actor
  /// wait to read a row.
  ///
  /// A store meanwhile copies the one chunk it writes to.
  func items(_ ids: some Sequence<ItemID>) -> [Item] {
    let chunks = self.chunks.withLock { $0 }
    return ids.compactMap {
      let index = Int($0.rawValue)
      return chunks[index >> Self.chunkShift][index & Self.chunkMask]
    }
  }

  /// Stores many items at once, each under its identity.
  func set(_ items: [Item], for ids: [ItemID]) {
    chunks.withLock { chunks in
      Self.makeRoom(in: &chunks, for: ids.lazy.map { Int($0.rawValue) + 1 }.max() ?? 0)
      // Indices, not `zip`: an iterator of a generic zip costs more than the store.
      for position in 0..<min(items.count, ids.count) {
        let index = Int(ids[position].rawValue)
        chunks[index >> Self.chunkShift][index & Self.chunkMask] = items[position]
      }
    }
  }

  func set(_ item: Item?, for id: ItemID) {
    chunks.withLock { chunks in
      let index = Int(id.rawValue)
      Self.makeRoom(in: &chunks, for: index + 1)
      chunks[index >> Self.chunkShift][index & Self.chunkMask] = item
    }
  }

  /// Adds empty chunks until there are slots for the identities below `limit`.
  private static func makeRoom(in chunks: inout [[Item?]], for limit: Int) {
    while chunks.count << chunkShift < limit {
      chunks.append([Item?](repeating: nil, count: 1 << chunkShift))
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
