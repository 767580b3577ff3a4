extension SearchModel {
  /// One change of a batch to a ``SearchModel``, a ``SearchCorpus`` or a search controller
  /// (SearchCore's `SearchController.apply(_:)`): the changes of a batch apply in order, each to
  /// the model as the ones before it left it.
  public enum Change: Hashable, Sendable {
    /// Adds an item at a position of the model's order; at the end when the position is nil.
    /// It gets the next identity: the model's ``SearchModel/identityLimit`` for the batch's first
    /// insertion, one more for each insertion after it.
    case insert(SearchModel.Record, at: Int? = nil)
    /// Replaces an item's content; its identity and position stay.
    case update(ItemID, with: SearchModel.Record)
    /// Removes an item.
    case remove(ItemID)
    /// Puts the items in this order: every item of the model as the changes before it in the
    /// batch left it, each once. Identities and contents stay; only positions change. A list
    /// sorted anew (a sync that returns it in another order) costs one pass over the items
    /// this way, where removing and inserting each item that moved costs a change for each.
    case reorder([ItemID])
  }
}

/// The model's order during a batch: runs of the order before the batch (by position), with
/// the batch's insertions between them.
///
/// Each change costs a walk over the runs, O(*k*) for a batch of *k* changes, and the new order is
/// written once at the end.
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
  /// The whole order, once a reorder has given it: edited in place from then on (O(*n*) a
  /// change), and nil before.
  private(set) var explicit: [ItemID]?
  /// The number of items in the order as edited so far.
  private(set) var count: Int

  init(count: Int) {
    pieces = count > 0 ? [.kept(0..<count)] : []
    self.count = count
  }

  /// Replaces the order with `ids`, each an item of the order as edited so far, once.
  mutating func reorder(_ ids: [ItemID]) {
    pieces = []
    explicit = ids
    count = ids.count
  }

  /// Inserts `id` at `position` (in 0...count) of the order as edited so far.
  mutating func insert(_ id: ItemID, at position: Int) {
    count += 1
    if explicit != nil {
      explicit?.insert(id, at: position)
      return
    }
    // At the end (an append, the most common insertion): no walk.
    guard position < count - 1 else {
      pieces.append(.inserted(id))
      return
    }
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
  }

  /// Removes `id`, which was at `position` of the order before the batch.
  mutating func remove(_ id: ItemID, keptPosition position: Int) {
    if explicit != nil {
      removeExplicit(id)
      return
    }
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
    if explicit != nil {
      removeExplicit(id)
      return
    }
    guard let index = pieces.firstIndex(of: .inserted(id)) else { return }
    pieces.remove(at: index)
    count -= 1
  }

  private mutating func removeExplicit(_ id: ItemID) {
    guard let index = explicit?.firstIndex(of: id) else { return }
    explicit?.remove(at: index)
    count -= 1
  }

  /// How many positions at the start of the order the batch left as they were.
  var unchangedPrefix: Int {
    guard explicit == nil, case .kept(let range) = pieces.first, range.lowerBound == 0 else {
      return 0
    }
    return range.upperBound
  }

  /// The order after the batch from the one before it, from position `unchangedPrefix` on.
  func tail(of order: [ItemID]) -> [ItemID] {
    if let explicit { return explicit }
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
