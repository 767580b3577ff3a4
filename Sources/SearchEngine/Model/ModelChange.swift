/// One change of a batch to a ``Model``, a ``SearchCorpus`` or a search controller
/// (SearchCore's `SearchController.apply(_:)`): the changes of a batch apply in order, each to
/// the model as the ones before it left it.
public enum ModelChange: Hashable, Sendable {
  /// Adds an item at a position of the model's order; at the end when the position is nil.
  /// It gets the next identity: the model's ``Model/identityLimit`` for the batch's first
  /// insertion, one more for each insertion after it.
  case insert(ItemRecord, at: Int? = nil)
  /// Replaces an item's content; its identity and position stay.
  case update(ItemID, with: ItemRecord)
  /// Removes an item.
  case remove(ItemID)
}

/// The model's order during a batch: runs of the order before the batch (by position), with
/// the batch's insertions between them. Each change costs a walk over the runs, O(*k*) for a
/// batch of *k* changes, and the new order is written once at the end.
struct OrderEdit {
  enum Piece: Equatable {
    /// Positions of the order before the batch.
    case kept(Range<Int>)
    case inserted(ItemID)

    var count: Int {
      switch self {
      case .kept(let range): return range.count
      case .inserted: return 1
      }
    }
  }

  private(set) var pieces: [Piece]
  /// The number of items in the order as edited so far.
  private(set) var count: Int

  init(count: Int) {
    pieces = count > 0 ? [.kept(0..<count)] : []
    self.count = count
  }

  /// Inserts `id` at `position` (in 0...count) of the order as edited so far.
  mutating func insert(_ id: ItemID, at position: Int) {
    var offset = 0
    var index = 0
    while index < pieces.count {
      let length = pieces[index].count
      if position < offset + length {
        if case .kept(let range) = pieces[index], position > offset {
          let split = range.lowerBound + position - offset
          pieces[index] = .kept(range.lowerBound..<split)
          pieces.insert(.kept(split..<range.upperBound), at: index + 1)
          index += 1
        }
        break
      }
      offset += length
      index += 1
    }
    pieces.insert(.inserted(id), at: index)
    count += 1
  }

  /// Removes the item that was at `position` of the order before the batch.
  mutating func remove(keptPosition position: Int) {
    for index in pieces.indices {
      guard case .kept(let range) = pieces[index], range.contains(position) else { continue }
      let parts = [range.lowerBound..<position, (position + 1)..<range.upperBound]
        .filter { !$0.isEmpty }.map(Piece.kept)
      pieces.replaceSubrange(index...index, with: parts)
      count -= 1
      return
    }
  }

  /// Removes an item inserted by the batch.
  mutating func remove(inserted id: ItemID) {
    guard let index = pieces.firstIndex(of: .inserted(id)) else { return }
    pieces.remove(at: index)
    count -= 1
  }

  /// How many positions at the start of the order the batch left as they were.
  var unchangedPrefix: Int {
    guard case .kept(let range) = pieces.first, range.lowerBound == 0 else { return 0 }
    return range.upperBound
  }

  /// The order after the batch from the one before it, from position `unchangedPrefix` on.
  func tail(of order: [ItemID]) -> [ItemID] {
    var tail: [ItemID] = []
    tail.reserveCapacity(count - unchangedPrefix)
    for piece in pieces.dropFirst(unchangedPrefix > 0 ? 1 : 0) {
      switch piece {
      case .kept(let range): tail.append(contentsOf: order[range])
      case .inserted(let id): tail.append(id)
      }
    }
    return tail
  }
}
