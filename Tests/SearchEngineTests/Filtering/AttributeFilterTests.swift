import PropertyBased
import SearchCoreTesting
import TestSupport
import Testing

@testable import SearchEngine

/// Attribute filters (what tokens become) and scope counts in the engine: every path of the
/// incremental filter gives the full scan's answer, which is the reference search's answer
/// with the conditions read here from the items' attribute text.
@Suite(.tags(.concurrent)) struct AttributeFilterTests {
  static let groups = ["work", "family", "friends", ""]
  static let sizes = ["0", "12", "250", "1000.0", "99999", "n/a", ""]
  static let syllables = ["ka", "lo", "mi", "ne", "ra", "su", "to", "ül", "ße", "ne"]

  /// A model of names with a group (the scopes), a size (a number, or text that is not) and
  /// a tag that may be absent; one scope searches the nickname field alone.
  static func corpus(seed: Int, count: Int) throws -> SearchCorpus {
    var random = SplitMix64(seed: seed)
    let bar = ScopeBar([
      ScopeBar.Scope(title: "All"),
      ScopeBar.Scope(title: "Work", attribute: "group", values: ["work"]),
      ScopeBar.Scope(title: "Home", attribute: "group", values: ["family", "friends"]),
      ScopeBar.Scope(title: "Nicknames", fields: ["nickname"]),
    ])
    let schema = SearchModel.Schema(
      fields: [.init(name: "name"), .init(name: "nickname")],
      attributes: ["group", "size", "tag"], scopeBar: bar)
    var model = SearchModel(schema: schema)
    func word() -> String {
      (0..<Int.random(in: 1...3, using: &random)).map { _ in
        syllables.randomElement(using: &random) ?? "ka"
      }.joined()
    }
    for _ in 0..<count {
      let record = SearchModel.Record(
        fields: [[word()], Bool.random(using: &random) ? [word()] : []],
        attributes: [
          groups.randomElement(using: &random) ?? "", sizes.randomElement(using: &random) ?? "",
          Bool.random(using: &random) ? "t\(Int.random(in: 0...3, using: &random))" : "",
        ])
      try model.append(record)
    }
    return try SearchCorpus(model: model, normalizer: Normalizer(folding: .default))
  }

  static let conditions: [AttributeFilter.Condition] = [
    .equals(attribute: "group", value: "work"),
    .oneOf(attribute: "group", values: ["family", "friends"]),
    .oneOf(attribute: "group", values: []),
    .number(attribute: "size", in: 12...1_000),
    .number(attribute: "size", in: -.infinity...250),
    .number(attribute: "size", in: 1_000 ... .infinity),
    .present(attribute: "tag"),
    .present(attribute: "group"),
    .equals(attribute: "tag", value: "t2"),
  ]

  /// The oracle's reading of a condition, from the attribute's text.
  static func meets(_ condition: AttributeFilter.Condition, _ text: String) -> Bool {
    switch condition {
    case .oneOf(_, let values): values.contains(text)
    case .present: !text.isEmpty
    case .number(_, let range): Double(text).map(range.contains) ?? false
    }
  }

  static func expected(
    _ query: SearchQuery, scope: Int, filter: AttributeFilter, in corpus: SearchCorpus
  ) throws -> [ItemID] {
    let model = corpus.model
    return try ReferenceSearch.search(query, scope: scope, in: corpus).filter { id in
      filter.conditions.allSatisfy { condition in
        let attribute = model.schema.attributeIndex(named: condition.attribute) ?? -1
        return meets(condition, model.attribute(attribute, of: id))
      }
    }
  }

  @Test(arguments: [false, true])
  func everyPathGivesTheReferenceAnswer(countingScopes: Bool) async throws {
    var paths: [String: Int] = [:]
    // A corpus, and the steps of a session over it: each step a draw of its own, so that
    // shrinking a failure drops steps without changing the others.
    let corpora = Gen.int(in: 0...1_000_000)
    let sessions = Gen.int(in: 0...Int(Int32.max)).array(of: 1...30)
    await propertyCheck(count: TestBudget.cases(6), input: corpora, sessions) { seed, steps in
      let corpus = try Self.corpus(seed: seed, count: 200)
      var filter = IncrementalFilter()
      var text = ""
      var conditions: Set<AttributeFilter.Condition> = []
      var scope = 0
      for (step, draw) in steps.enumerated() {
        var random = SplitMix64(seed: draw)
        switch Int.random(in: 0..<8, using: &random) {
        case 0, 1, 2:
          text += String((Self.syllables.randomElement(using: &random) ?? "ka").prefix(1))
        case 3: if !text.isEmpty { text.removeLast() }
        case 4: scope = Int.random(in: 0..<4, using: &random)
        case 5, 6:
          if let condition = Self.conditions.randomElement(using: &random) {
            conditions.insert(condition)
          }
        default:
          if let condition = conditions.randomElement(using: &random) {
            conditions.remove(condition)
          }
        }
        let query = try SearchQuery(text, normalizer: corpus.normalizer)
        let attributes = AttributeFilter(conditions)
        let result = try #require(
          try filter.search(
            query, scope: scope, filter: attributes, countingScopes: countingScopes, in: corpus))
        let expected = try Self.expected(query, scope: scope, filter: attributes, in: corpus)
        let context = "seed \(seed) step \(step) \"\(text)\" scope \(scope) \(attributes)"
        #expect(result.items == expected, "\(context) via \(result.path)")
        paths[String("\(result.path)".prefix(6)), default: 0] += 1
        guard countingScopes else {
          #expect(result.scopeCounts == nil)
          continue
        }
        for other in 0..<4 {
          let count = try Self.expected(query, scope: other, filter: attributes, in: corpus).count
          // The nicknames scope searches other fields: counted only when it is the one shown.
          let want: Int? = other == 3 && scope != 3 ? nil : count
          #expect(result.scopeCounts?[other] == want, "\(context): count of scope \(other)")
        }
      }
    }
    #expect(paths["narrow", default: 0] > 0, "\(paths)")
    #expect(paths["cached", default: 0] > 0, "\(paths)")
    #expect(paths["fullSc", default: 0] > 0, "\(paths)")
  }

  @Test func aConditionAddedNarrowsAndOneRemovedDoesNot() throws {
    let corpus = try Self.corpus(seed: 1, count: 400)
    var filter = IncrementalFilter()
    let query = try SearchQuery("a", normalizer: corpus.normalizer)
    let work = AttributeFilter([.equals(attribute: "group", value: "work")])
    let workTagged = AttributeFilter(work.conditions.union([.present(attribute: "tag")]))
    #expect(try filter.search(query, scope: 0, filter: work, in: corpus)?.path == .fullScan)
    #expect(
      try filter.search(query, scope: 0, filter: workTagged, in: corpus)?.path
        == .narrowed(from: "a"))
    #expect(try filter.search(query, scope: 0, filter: work, in: corpus)?.path == .cached)
    let tagged = AttributeFilter([.present(attribute: "tag")])
    #expect(try filter.search(query, scope: 0, filter: tagged, in: corpus)?.path == .fullScan)
    // An empty query with a filter is a result of its own, which a query then narrows.
    let empty = try SearchQuery("", normalizer: corpus.normalizer)
    _ = try filter.search(empty, scope: 0, filter: workTagged, in: corpus)
    let ne = try SearchQuery("ne", normalizer: corpus.normalizer)
    #expect(
      try filter.search(ne, scope: 0, filter: workTagged, in: corpus)?.path == .narrowed(from: ""))
  }

  @Test func filtersFollowModelChanges() throws {
    var corpus = try Self.corpus(seed: 4, count: 300)
    var random = SplitMix64(seed: 44)
    let attributes = AttributeFilter([
      .number(attribute: "size", in: 12...99_999), .present(attribute: "tag"),
    ])
    for round in 0..<10 {
      var changes: [SearchModel.Change] = []
      for _ in 0..<8 {
        let record = SearchModel.Record(
          fields: [["ka" + (Self.syllables.randomElement(using: &random) ?? "")], []],
          attributes: [
            "work", Self.sizes.randomElement(using: &random) ?? "",
            Bool.random(using: &random) ? "t1" : "",
          ])
        if Bool.random(using: &random), let id = corpus.model.ids.randomElement(using: &random),
          !changes.contains(where: { if case .update(id, _) = $0 { true } else { false } })
        {
          changes.append(.update(id, with: record))
        } else {
          changes.append(.insert(record, at: corpus.model.count))
        }
      }
      try corpus.apply(changes)
      let query = try SearchQuery("ka", normalizer: corpus.normalizer)
      var fresh = IncrementalFilter()
      let result = try fresh.search(
        query, scope: 1, filter: attributes, countingScopes: true, in: corpus)
      #expect(
        result?.items == (try Self.expected(query, scope: 1, filter: attributes, in: corpus)),
        "round \(round)")
    }
  }

  @Test func anUnknownAttributeIsRefusedWithTheAttributesThereAre() throws {
    let corpus = try Self.corpus(seed: 2, count: 20)
    var filter = IncrementalFilter()
    let query = try SearchQuery("a", normalizer: corpus.normalizer)
    #expect(
      throws: AttributeFilter.Error.unknownAttribute("colour", available: ["group", "size", "tag"])
    ) {
      try filter.search(
        query, scope: 0, filter: AttributeFilter([.present(attribute: "colour")]), in: corpus)
    }
    let error = AttributeFilter.Error.unknownAttribute("colour", available: ["group", "size"])
    #expect(
      error.description == #"no attribute is called "colour": its attributes are "group", "size""#)
  }

  @Test func conditionsReadAsTheCommandLineWritesThem() {
    #expect(
      AttributeFilter.Condition.oneOf(attribute: "group", values: ["work", "family"]).description
        == "group=family|work")
    #expect(
      AttributeFilter.Condition.number(attribute: "size", in: 1_000 ... .infinity).description
        == "size>=1000")
    #expect(
      AttributeFilter.Condition.number(attribute: "size", in: -.infinity...2.5).description
        == "size<=2.5")
    #expect(
      AttributeFilter.Condition.number(attribute: "size", in: 3...7).description == "size=3..7")
    #expect(AttributeFilter.Condition.present(attribute: "tag").description == "tag?")
  }
}
