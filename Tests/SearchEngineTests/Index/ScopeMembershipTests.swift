import PropertyBased
import SearchCoreTesting
import TestSupport
import Testing

@testable import SearchEngine

/// A model's scope membership kept up to date through batches of changes is the membership
/// resolved from scratch from the model they leave.
@Suite struct ScopeMembershipTests {
  static let schema = SearchModel.Schema(
    fields: [SearchModel.Schema.Field(name: "name"), SearchModel.Schema.Field(name: "tags")],
    attributes: ["kind"],
    scopeBar: ScopeBar([
      ScopeBar.Scope(title: "All"),
      ScopeBar.Scope(title: "Tools", attribute: "kind", values: ["tool", "gadget"]),
      ScopeBar.Scope(title: "Books", attribute: "kind", values: ["book"], fields: ["name"]),
    ]))

  static let kinds = ["tool", "gadget", "book", "other"]

  private static func word(_ start: String, using random: inout SplitMix64) -> String {
    start + String(Int.random(in: 0...9, using: &random))
  }

  private static func record(using random: inout SplitMix64) -> SearchModel.Record {
    SearchModel.Record(
      fields: [
        (0..<Int.random(in: 1...2, using: &random)).map { _ in word("n", using: &random) },
        (0..<Int.random(in: 0...3, using: &random)).map { _ in word("t", using: &random) },
      ],
      attributes: [kinds.randomElement(using: &random) ?? ""])
  }

  private static func record(_ name: String, kind: String) -> SearchModel.Record {
    SearchModel.Record(fields: [[name], []], attributes: [kind])
  }

  /// The items of each scope, by identity (nil: every item).
  private static func members(_ scopes: ScopeMembership, limit: Int) -> [[Int]?] {
    scopes.members.map { set in set.map { set in (0..<limit).filter { set.contains($0) } } }
  }

  @Test func insertUpdateAndRemoveKeepTheMembers() throws {
    let normalizer = try Normalizer()
    var model = SearchModel(schema: Self.schema)
    for (name, kind) in [("hammer", "tool"), ("novel", "book"), ("lamp", "other")] {
      try model.append(Self.record(name, kind: kind))
    }
    var index = try SearchIndex(model: model, normalizer: normalizer)
    var scopes = try ScopeMembership(model: model, index: index)
    #expect(Self.members(scopes, limit: 8) == [nil, [0], [1]])
    #expect(scopes.fields == [[0, 1], [0, 1], [0]])

    let changes: [SearchModel.Change] = [
      .insert(Self.record("drill", kind: "gadget"), at: 0),  // item 3, a tool
      .update(ItemID(rawValue: 2), with: Self.record("atlas", kind: "book")),  // now a book
      .remove(ItemID(rawValue: 0)),  // the hammer leaves the tools
    ]
    let before = ScopeMembership.Baseline(of: model, changes: changes)
    try model.apply(changes)
    try index.apply(changesOf: model)
    try scopes.update(since: before, model: model, index: index)
    #expect(Self.members(scopes, limit: 8) == [nil, [3], [1, 2]])
    #expect(scopes == (try ScopeMembership(model: model, index: index)))
  }

  @Test func randomBatchesLeaveTheMembershipAFreshResolveGives() async throws {
    let normalizer = try Normalizer()
    await propertyCheck(count: TestBudget.cases(24), input: Gen.int(in: 0...1_000_000)) { seed in
      var random = SplitMix64(seed: seed)
      var model = SearchModel(schema: Self.schema)
      for _ in 0..<Int.random(in: 0...60, using: &random) {
        try model.append(Self.record(using: &random))
      }
      var index = try SearchIndex(model: model, normalizer: normalizer)
      var scopes = try ScopeMembership(model: model, index: index)
      for step in 0..<6 {
        // Mostly small batches, updated in place; now and then one resolved again.
        let size =
          Int.random(in: 0..<5, using: &random) == 0
          ? Int.random(in: 10...30, using: &random) : Int.random(in: 1...4, using: &random)
        let changes = randomModelChanges(size, for: model, endInserts: true, using: &random) {
          Self.record(using: &$0)
        }
        let before = ScopeMembership.Baseline(of: model, changes: changes)
        try model.apply(changes)
        try index.apply(changesOf: model)
        try scopes.update(since: before, model: model, index: index)
        let fresh = try ScopeMembership(model: model, index: index)
        #expect(scopes == fresh, "seed \(seed), step \(step)")
      }
    }
  }

  @Test func aScopeNamingAnUnknownFieldIsRefused() throws {
    let schema = SearchModel.Schema(
      fields: [SearchModel.Schema.Field(name: "name")], attributes: ["kind"],
      scopeBar: ScopeBar([ScopeBar.Scope(title: "Notes", fields: ["note"])]))
    let model = SearchModel(schema: schema)
    let index = try SearchIndex(model: model, normalizer: try Normalizer())
    let error = #expect(throws: ScopeMembership.UnknownName.self) {
      try ScopeMembership(model: model, index: index)
    }
    #expect(error?.kind == "field" && error?.name == "note" && error?.scope == "Notes")
  }

  /// A scope's values are counted and cut into pieces for the cores from their blocks: the
  /// pieces cover every value in order, each but the last with at least its share, for any
  /// set of values, put in and out.
  @Test func valuesAreCountedAndCutIntoPiecesOfAboutEqualShares() async {
    await propertyCheck(count: TestBudget.cases(100), input: Gen.int(in: 0...1_000_000)) { seed in
      var random = SplitMix64(seed: UInt64(seed))
      let capacity = Int(random.next() % 40_000)
      let density = [0.001, 0.3, 0.98][Int(random.next() % 3)]
      var values = ScopeMembership.Values(capacity: capacity / 2)
      values.grow(to: capacity)
      var states = [Bool](repeating: false, count: capacity)
      for _ in 0..<2 {
        for value in 0..<capacity where Double(random.next() % 1_000) / 1_000 < density {
          states[value].toggle()
          values.set(value, in: states[value])
        }
      }
      let total = states.filter { $0 }.count
      #expect(values.count == total, "seed \(seed)")
      let count = Int(random.next() % 4) + 1
      let pieces = values.split(into: count)
      guard total > 0 else {
        #expect(pieces.isEmpty, "seed \(seed)")
        return
      }
      #expect(pieces.count <= count, "seed \(seed)")
      #expect(pieces.first?.lowerBound == 0 && pieces.last?.upperBound == capacity)
      #expect(zip(pieces, pieces.dropFirst()).allSatisfy { $0.upperBound == $1.lowerBound })
      let share = (total + count - 1) / count
      let held = pieces.map { piece in piece.filter { states[$0] }.count }
      #expect(held.dropLast().allSatisfy { $0 >= share }, "seed \(seed): \(held), \(share)")
    }
  }
}
