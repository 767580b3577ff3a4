import SearchCoreTesting
import SearchEngine

/// A batch of `size` inserts, updates, removes of items in `model` or added earlier in the
/// batch, and now and then a reorder (a shuffle of the order so far), with records drawn by
/// `record`.
///
/// Inserts go anywhere; with `endInserts`, a drawn half of them go at the end (a nil position).
public func randomModelChanges(
  _ size: Int, for model: SearchModel, endInserts: Bool, using random: inout SplitMix64,
  record: (inout SplitMix64) -> SearchModel.Record
) -> [SearchModel.Change] {
  var alive = model.ids
  var next = model.identityLimit
  var changes: [SearchModel.Change] = []
  for _ in 0..<size {
    switch Int.random(in: 0..<7, using: &random) {
    case 6:
      // The order as the batch has left it, shuffled.
      alive.shuffle(using: &random)
      changes.append(.reorder(alive))
    case 0, 1:
      let position = Int.random(in: 0...alive.count, using: &random)
      let atEnd = endInserts && Bool.random(using: &random)
      changes.append(.insert(record(&random), at: atEnd ? nil : position))
      alive.insert(ItemID(rawValue: Int32(next)), at: atEnd ? alive.count : position)
      next += 1
    case 2, 3:
      guard let id = alive.randomElement(using: &random) else { continue }
      changes.append(.update(id, with: record(&random)))
    default:
      guard !alive.isEmpty else { continue }
      changes.append(.remove(alive.remove(at: Int.random(in: 0..<alive.count, using: &random))))
    }
  }
  return changes
}
