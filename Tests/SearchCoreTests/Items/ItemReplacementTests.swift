import PropertyBased
import TestSupport
import Testing

@testable import SearchCore
@testable import SearchEngine

/// The changes that replace one list with another, carried out in their order (then the new
/// order, when it is given whole), give the new list; no kept item is removed and inserted
/// again, and a list given in another order costs a change per changed item.
@Suite(.tags(.concurrent)) struct ItemReplacementTests {
  struct Row: Identifiable, Sendable, Equatable {
    let id: Int
    var text: String
  }

  /// Carries out changes in order, then the order when it is given whole, as
  /// ``ItemSearch/apply(_:)`` does.
  private static func carriedOut(
    _ changes: (changes: [ItemChange<Row>], order: [Int]?), on list: [Row]
  ) -> [Row] {
    var list = list
    for change in changes.changes {
      switch change {
      case .insert(let row, let position): list.insert(row, at: position ?? list.count)
      case .update(let row):
        if let index = list.firstIndex(where: { $0.id == row.id }) { list[index] = row }
      case .remove(let id): list.removeAll { $0.id == id }
      }
    }
    guard let order = changes.order else { return list }
    let row = Dictionary(uniqueKeysWithValues: list.map { ($0.id, $0) })
    #expect(order.count == list.count)
    return order.compactMap { row[$0] }
  }

  @Test func theChangesGiveTheNewListAndNoKeptItemIsInsertedAgain() async {
    // Two lists drawn from ids 0..<40: the old in one order, the new keeping some, in another
    // order, with some new ids, and some texts changed.
    let lists = Gen.int(in: 0...39).array(of: 0...30).map { Array(Set($0)) }
    await propertyCheck(count: TestBudget.cases(300), input: lists, lists, Gen.int(in: 0...3)) {
      oldIDs, newIDs, edit in
      let old = oldIDs.map { Row(id: $0, text: "old \($0)") }
      let new = newIDs.map { Row(id: $0, text: $0 % 4 == edit ? "new \($0)" : "old \($0)") }
      let replacement = try ItemReplacement.changes(from: old, to: new) { $0 == $1 }
      #expect(Self.carriedOut(replacement, on: old) == new)
      let changes = replacement.changes
      // Removals, then insertions, then updates.
      let kinds = changes.map { change -> Int in
        switch change {
        case .remove: 0
        case .insert: 1
        case .update: 2
        }
      }
      #expect(kinds == kinds.sorted())
      // Only changed texts are updated, never an equal one; only gone items removed, only
      // new ones inserted.
      for change in changes {
        switch change {
        case .remove(let id): #expect(!newIDs.contains(id))
        case .insert(let row, _): #expect(!oldIDs.contains(row.id))
        case .update(let row): #expect(row.text.hasPrefix("new"))
        }
      }
      // The order is given whole exactly when the kept items change their order.
      let kept = oldIDs.filter(newIDs.contains)
      #expect((replacement.order != nil) == (kept != newIDs.filter(oldIDs.contains)))
    }
  }

  @Test func pastTheLimitTheOrderIsGivenWholeAndNoItemMoves() async {
    let lists = Gen.int(in: 0...39).array(of: 0...30).map { Array(Set($0)) }
    await propertyCheck(count: TestBudget.cases(300), input: lists, lists, Gen.int(in: 0...3)) {
      oldIDs, newIDs, edit in
      let old = oldIDs.map { Row(id: $0, text: "old \($0)") }
      let new = newIDs.map { Row(id: $0, text: $0 % 4 == edit ? "new \($0)" : "old \($0)") }
      let replacement = try ItemReplacement.changes(
        from: old, to: new, positionEditLimit: -1
      ) { $0 == $1 }
      #expect(Self.carriedOut(replacement, on: old) == new)
      let oldSet = Set(oldIDs)
      for change in replacement.changes {
        switch change {
        // Only removals of items that are gone, appends of new ones, and changed texts.
        case .remove(let id): #expect(!newIDs.contains(id))
        case .insert(let row, let position):
          #expect(position == nil)
          #expect(!oldSet.contains(row.id))
        case .update(let row): #expect(row.text.hasPrefix("new"))
        }
      }
    }
  }

  /// A list sorted anew at 20,000 items: as many changes as items changed, not one per item
  /// that moved, and every item in its new place.
  @Test func aListSortedAnewCostsAChangePerChangedItem() throws {
    let old = (0..<20_000).map { Row(id: $0, text: "row \($0)") }
    var new = old.reversed().filter { $0.id % 100 != 7 }
    new[10].text = "renamed"
    new.append(Row(id: 99_999, text: "new"))
    let replacement = try ItemReplacement.changes(from: old, to: new) { $0 == $1 }
    #expect(replacement.changes.count == 200 + 1 + 1)
    #expect(replacement.order == new.map(\.id))
    #expect(Self.carriedOut(replacement, on: old) == new)
  }

  /// An engine refusal keeps the engine's typed error, the most specific one, beside its
  /// message, and takes its code from it.
  @Test func anEngineRefusalCarriesItsTypedError() throws {
    let model = SearchModel.Error.unknownItem(ItemID(rawValue: 7))
    let refusal = ItemSearchError.engine(SearchCorpus.Error.model(model))
    #expect(refusal.code == .model)
    #expect(refusal.underlying as? SearchModel.Error == model)
    #expect(refusal.description == model.description)
    let icu = ICUError(code: 1, operation: "opening a collator")
    let folding = ItemSearchError.engine(SectionedTable.Error.icu(icu))
    #expect(folding.code == .icu)
    #expect(folding.underlying as? ICUError == icu)
    let other = SectionedTable.Error.unknownField("x", available: [])
    let engine = ItemSearchError.engine(
      SearchController.Error.corpus(.unknownName("field", "x", scope: nil)))
    #expect(engine.code == .engine)
    #expect((engine.underlying as? SearchCorpus.Error)?.code == .unknownName)
    #expect(ItemSearchError.engine(other).underlying as? SectionedTable.Error == other)
    // Codes compare by name; errors by code, details and message.
    #expect(refusal != folding && refusal.code != folding.code)
    #expect(refusal == ItemSearchError.engine(model))
    #expect(ItemSearchError.unknownLocale("xx") != ItemSearchError.unknownLocale("yy"))
    #expect(ItemSearchError.unknownLocale("xx").value == "xx")
  }

  @Test func anIDTwiceIsRefused() {
    #expect(throws: ItemSearchError.duplicateID("1")) {
      try ItemReplacement.changes(
        from: [Row](), to: [Row(id: 1, text: "a"), Row(id: 1, text: "b")])
    }
  }

}
