import PropertyBased
import Testing

@testable import SearchCore
@testable import SearchEngine

/// The changes that replace one list with another, carried out in their order, give the new
/// list; the rows that move are as few as can be: all kept items but the longest run in order.
@Suite struct ItemReplacementTests {
  struct Row: Identifiable, Sendable, Equatable {
    let id: Int
    var text: String
  }

  /// Carries out changes in order, as ``ItemSearch/apply(_:)`` does.
  private static func carriedOut(_ changes: [ItemChange<Row>], on list: [Row]) -> [Row] {
    var list = list
    for change in changes {
      switch change {
      case .insert(let row, let position): list.insert(row, at: position ?? list.count)
      case .update(let row):
        if let index = list.firstIndex(where: { $0.id == row.id }) { list[index] = row }
      case .remove(let id): list.removeAll { $0.id == id }
      }
    }
    return list
  }

  @Test func theChangesGiveTheNewListMovingTheFewestRows() async {
    // Two lists drawn from ids 0..<40: the old in one order, the new keeping some, in another
    // order, with some new ids, and some texts changed.
    let lists = Gen.int(in: 0...39).array(of: 0...30).map { Array(Set($0)) }
    await propertyCheck(count: TestBudget.cases(300), input: lists, lists, Gen.int(in: 0...3)) {
      oldIDs, newIDs, edit in
      let old = oldIDs.map { Row(id: $0, text: "old \($0)") }
      let new = newIDs.map { Row(id: $0, text: $0 % 4 == edit ? "new \($0)" : "old \($0)") }
      let changes = try ItemReplacement.changes(from: old, to: new) { $0 == $1 }
      #expect(Self.carriedOut(changes, on: old) == new)
      // Removals, then insertions by ascending place, then updates.
      let kinds = changes.map { change -> Int in
        switch change {
        case .remove: 0
        case .insert: 1
        case .update: 2
        }
      }
      #expect(kinds == kinds.sorted())
      // Only changed texts are updated, never an equal one.
      for case .update(let row) in changes { #expect(row.text.hasPrefix("new")) }
      // The kept rows that move: all but the longest run that keeps its order.
      let position = Dictionary(uniqueKeysWithValues: newIDs.enumerated().map { ($1, $0) })
      let kept = oldIDs.compactMap { position[$0] }
      let moved = changes.filter {
        if case .remove(let id) = $0 { return position[id] != nil }
        return false
      }
      #expect(moved.count == kept.count - Self.longestRunLength(kept))
    }
  }

  @Test func anIDTwiceIsRefused() {
    #expect(throws: ItemSearchError.duplicateID("1")) {
      try ItemReplacement.changes(
        from: [Row](), to: [Row(id: 1, text: "a"), Row(id: 1, text: "b")])
    }
  }

  /// The length of the longest strictly increasing subsequence, by the quadratic recurrence.
  private static func longestRunLength(_ values: [Int]) -> Int {
    var lengths = [Int](repeating: 1, count: values.count)
    for i in values.indices {
      for j in 0..<i where values[j] < values[i] { lengths[i] = max(lengths[i], lengths[j] + 1) }
    }
    return lengths.max() ?? 0
  }
}
