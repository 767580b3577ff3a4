import PropertyBased
import SearchCoreTesting
import TestSupport
import Testing

@testable import SearchEngine

@Suite struct ModelBatchTests {
  /// A batch does what its changes do one by one, and tells what it touched.
  @Test func aBatchEqualsItsChangesOneByOne() async throws {
    await propertyCheck(count: TestBudget.cases(300), input: Gen.int(in: 0...1_000_000)) { seed in
      var random = SplitMix64(seed: seed)
      var model = try EditFixtures.model(limit: 30, using: &random)
      for _ in 0..<Int.random(in: 1...4, using: &random) {
        let changes = EditFixtures.changes(for: model, reorders: true, using: &random)
        var single = model
        for change in changes {
          switch change {
          case .insert(let record, let position):
            try single.insert(record, at: position ?? single.count)
          case .update(let id, let record): try single.update(id, with: record)
          case .remove(let id): try single.remove(id)
          case .reorder(let ids): try single.apply([.reorder(ids)])
          }
        }
        var batch = model
        let edit = try batch.apply(changes)
        let label = "seed \(seed): \(changes)"
        #expect(batch.ids == single.ids, "\(label)")
        #expect(batch.version == single.version && batch.identityLimit == single.identityLimit)
        for id in batch.ids { #expect(batch.record(of: id) == single.record(of: id), "\(label)") }

        let before = Set(model.ids)
        let after = Set(batch.ids)
        #expect(edit.removed == before.subtracting(after), "\(label)")
        #expect(Set(edit.inserted) == after.subtracting(before), "\(label)")
        #expect(edit.inserted.count == Set(edit.inserted).count)
        let updated = changes.compactMap { change -> ItemID? in
          if case .update(let id, _) = change { return id } else { return nil }
        }
        #expect(edit.updated == Set(updated).intersection(before).intersection(after), "\(label)")

        // Positions agree with the order, and order comparisons with positions.
        for (position, id) in batch.ids.enumerated() {
          #expect(batch.position(of: id) == position, "\(label)")
        }
        for id in before.subtracting(after) { #expect(batch.position(of: id) == nil) }
        if batch.isInIdentityOrder { #expect(batch.ids == batch.ids.sorted(), "\(label)") }
        for _ in 0..<10 {
          guard let a = batch.ids.randomElement(using: &random),
            let b = batch.ids.randomElement(using: &random)
          else { break }
          #expect(
            batch.precedes(a, b) == ((batch.position(of: a) ?? 0) < (batch.position(of: b) ?? 0)))
        }
        model = batch
      }
    }
  }

  /// A batch with a change that cannot be made changes nothing, and each change is checked
  /// against the model as the changes before it left it.
  @Test func aFailingBatchChangesNothing() throws {
    var model = try EditFixtures.model(names: ["a", "b", "c"])
    let original = model
    let record = SearchModel.Record(fields: [["d"]], attributes: ["x"])
    let first = model.ids[0]
    let failures: [([SearchModel.Change], SearchModel.Error)] = [
      ([.insert(record), .remove(ItemID(rawValue: 7))], .unknownItem(ItemID(rawValue: 7))),
      ([.remove(first), .update(first, with: record)], .unknownItem(first)),
      ([.remove(first), .insert(record, at: 3)], .positionOutOfRange(3, count: 2)),
      (
        [.insert(record), .insert(SearchModel.Record(fields: []), at: 0)],
        .wrongShape(expected: 1, got: 0, what: "fields")
      ),
    ]
    for (changes, error) in failures {
      #expect(throws: error) { try model.apply(changes) }
      #expect(model.ids == original.ids && model.version == original.version)
      #expect(model.identityLimit == original.identityLimit)
      #expect(model.record(of: first) == original.record(of: first))
    }
    // An item inserted by the batch may be changed and removed by it: it was never there.
    let edit = try model.apply([
      .insert(record, at: 0), .update(ItemID(rawValue: 3), with: record),
      .remove(ItemID(rawValue: 3)), .insert(record, at: 1),
    ])
    #expect(edit == TableEdit(inserted: [ItemID(rawValue: 4)]))
    #expect(model.ids.map(\.rawValue) == [0, 4, 1, 2])
    #expect(!model.isInIdentityOrder)
  }

  /// Removals keep the identity order; an insertion before an older item ends it.
  @Test func identityOrder() throws {
    var model = try EditFixtures.model(names: ["a", "b", "c", "d"])
    try model.remove(model.ids[1])
    try model.append(SearchModel.Record(fields: [["e"]], attributes: ["x"]))
    #expect(model.isInIdentityOrder && model.positions.isEmpty)
    #expect(model.position(of: ItemID(rawValue: 4)) == 3)
    try model.insert(SearchModel.Record(fields: [["f"]], attributes: ["x"]), at: 1)
    #expect(!model.isInIdentityOrder)
    #expect(model.ids.map(\.rawValue) == [0, 5, 2, 3, 4])
    #expect(model.precedes(ItemID(rawValue: 5), ItemID(rawValue: 2)))
    #expect(model.position(of: ItemID(rawValue: 1)) == nil)
  }
}
