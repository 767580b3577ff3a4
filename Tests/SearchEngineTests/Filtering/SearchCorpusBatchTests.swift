import PropertyBased
import SearchCoreTesting
import TestSupport
import Testing

@testable import SearchEngine

/// Batches of changes to the products corpus: the index and scopes refreshed once per batch
/// answer every search as a corpus built from scratch does.
@Suite(.tags(.concurrent)) struct SearchCorpusBatchTests {
  let corpus: SearchCorpus

  init() throws { corpus = try Fixtures.corpus("products/products") }

  static let names = ["iPod nano", "Mac mini", "Émile's iMac", "MacBook Äir", "42", "", "ipad"]
  static let types = ["Device", "Desktop", "Portable", "Other"]
  static let queries = ["mac", "i", "ipod", "2007", "499", "air !mini", "'nano", "emile"]

  private static func record(using random: inout SplitMix64) -> SearchModel.Record {
    SearchModel.Record(
      fields: [[names.randomElement(using: &random) ?? ""]],
      attributes: [
        types.randomElement(using: &random) ?? "",
        String(Int.random(in: 2000...2010, using: &random)),
        ["499", "499.00", "1299", "x"].randomElement(using: &random) ?? "",
      ])
  }

  private static func changes(for model: SearchModel, using random: inout SplitMix64)
    -> [SearchModel.Change]
  {
    let size = Int.random(in: 1...12, using: &random)
    return randomModelChanges(size, for: model, endInserts: false, using: &random) {
      record(using: &$0)
    }
  }

  private static func results(of corpus: SearchCorpus) throws -> [[ItemID]] {
    try corpus.fullResults(of: queries)
  }

  @Test func batchesSearchAsAFreshCorpus() async throws {
    let start = corpus
    await propertyCheck(count: TestBudget.cases(40), input: Gen.int(in: 0...1_000_000)) { seed in
      var random = SplitMix64(seed: seed)
      var batched = start
      var single = start
      for _ in 0..<3 {
        let changes = Self.changes(for: batched.model, using: &random)
        let edit = try batched.apply(changes)
        for change in changes {
          switch change {
          case .insert(let record, let position): try single.insert(record, at: position ?? 0)
          case .update(let id, let record): try single.update(id, with: record)
          case .remove(let id): try single.remove(id)
          case .reorder(let ids): try single.apply([.reorder(ids)])
          }
        }
        #expect(edit.removed.isDisjoint(with: batched.model.ids))
        let fresh = try SearchCorpus(model: batched.model, normalizer: batched.normalizer)
        #expect(batched.model.ids == single.model.ids, "seed \(seed)")
        for scope in batched.scopeBar.scopes.indices {
          #expect(batched.members(ofScope: scope) == fresh.members(ofScope: scope))
          #expect(batched.members(ofScope: scope) == Self.definedMembers(of: batched, scope: scope))
        }
        #expect(try Self.results(of: batched) == Self.results(of: fresh), "seed \(seed)")
        #expect(try Self.results(of: batched) == Self.results(of: single), "seed \(seed)")
      }
    }
  }

  /// A scope's items by its definition, in model order: those whose attribute holds one of
  /// the scope's values (every item for a scope without an attribute).
  private static func definedMembers(of corpus: SearchCorpus, scope: Int) -> [ItemID] {
    let definition = corpus.scopeBar.scopes[scope]
    guard let name = definition.attribute,
      let attribute = corpus.model.schema.attributeIndex(named: name)
    else { return corpus.model.ids }
    return corpus.model.ids.filter {
      definition.values.contains(corpus.model.attribute(attribute, of: $0))
    }
  }

  /// A scope's members after removals and updates, while the model keeps identity order (the
  /// members are read from the scope's set), and after an insert before the first item, when
  /// it no longer does (each item is tested in model order).
  @Test func scopeMembersFollowRemovalsUpdatesAndInserts() throws {
    var changed = corpus
    let ids = changed.model.ids
    try changed.apply([
      .remove(ids[0]), .remove(ids[5]), .remove(ids[ids.count - 1]),
      .update(ids[1], with: Self.changedType(of: changed.model.record(of: ids[1]), to: "Other")),
      .update(ids[2], with: Self.changedType(of: changed.model.record(of: ids[2]), to: "Device")),
      .update(
        ids[3], with: Self.changedType(of: changed.model.record(of: ids[3]), to: "Portable")),
      .insert(Self.changedType(of: changed.model.record(of: ids[3]), to: "Desktop"), at: nil),
    ])
    #expect(changed.model.isInIdentityOrder)
    let scopes = changed.scopeBar.scopes.indices
    for scope in scopes {
      #expect(changed.members(ofScope: scope) == Self.definedMembers(of: changed, scope: scope))
    }
    // Each scope with an attribute lost a member or gained one.
    for scope in scopes.dropFirst() {
      #expect(changed.members(ofScope: scope) != corpus.members(ofScope: scope))
    }
    try changed.apply([
      .insert(Self.changedType(of: changed.model.record(of: ids[4]), to: "Portable"), at: 0)
    ])
    #expect(!changed.model.isInIdentityOrder)
    for scope in scopes {
      #expect(changed.members(ofScope: scope) == Self.definedMembers(of: changed, scope: scope))
    }
  }

  private static func changedType(of record: SearchModel.Record, to type: String)
    -> SearchModel.Record
  {
    var record = record
    record.attributes[0] = type
    return record
  }

  @Test func aFailingBatchLeavesTheCorpusAlone() throws {
    var changed = corpus
    let missing = ItemID(rawValue: 999)
    #expect(throws: SearchCorpus.Error.model(.unknownItem(missing))) {
      try changed.apply([.remove(changed.model.ids[0]), .remove(missing)])
    }
    #expect(changed.model.ids == corpus.model.ids)
    #expect(changed.model.version == corpus.model.version)
    #expect(try Self.results(of: changed) == Self.results(of: corpus))
  }
}
