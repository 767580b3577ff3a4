import SearchCoreTesting

@testable import SearchCore
@testable import SearchEngine

/// A batch of `size` inserts, updates and removes of items in `model` or added earlier in the
/// batch, with records drawn by `record`. Inserts go anywhere; with `endInserts`, a drawn half
/// of them go at the end (a nil position).
func randomModelChanges(
  _ size: Int, for model: Model, endInserts: Bool, using random: inout SplitMix64,
  record: (inout SplitMix64) -> ItemRecord
) -> [ModelChange] {
  var alive = model.ids
  var next = model.identityLimit
  var changes: [ModelChange] = []
  for _ in 0..<size {
    switch Int.random(in: 0..<3, using: &random) {
    case 0:
      let position = Int.random(in: 0...alive.count, using: &random)
      let atEnd = endInserts && Bool.random(using: &random)
      changes.append(.insert(record(&random), at: atEnd ? nil : position))
      alive.insert(ItemID(rawValue: Int32(next)), at: atEnd ? alive.count : position)
      next += 1
    case 1:
      guard let id = alive.randomElement(using: &random) else { continue }
      changes.append(.update(id, with: record(&random)))
    default:
      guard !alive.isEmpty else { continue }
      changes.append(.remove(alive.remove(at: Int.random(in: 0..<alive.count, using: &random))))
    }
  }
  return changes
}
