import PropertyBased
import SearchCoreTesting
import TestSupport
import Testing

@testable import SearchEngine

/// Small batches update a corpus's scopes and common-byte bits in place: the corpus they
/// leave is the one built from scratch from the same model, bit for bit and run for run.
@Suite(.tags(.concurrent)) struct SearchCorpusIncrementalTests {
  static let schema = SearchModel.Schema(
    fields: [
      SearchModel.Schema.Field(name: "name"), SearchModel.Schema.Field(name: "tags"),
      SearchModel.Schema.Field(name: "note", isSearched: false),
    ],
    attributes: ["kind", "year", "price"],
    scopeBar: ScopeBar([
      ScopeBar.Scope(title: "All"),
      ScopeBar.Scope(title: "Tools", attribute: "kind", values: ["tool", "gadget"]),
      ScopeBar.Scope(title: "Books", attribute: "kind", values: ["book"], fields: ["name"]),
      ScopeBar.Scope(title: "Tags", fields: ["tags"]),
    ]),
    numberAttributes: ["year", "price"])

  /// Words with common letters and digits, a few rarer ones, and text whose folded form
  /// keeps marks (interior boundaries for the common-byte bits).
  static let words = [
    "anvil", "bracket", "Émile", "zoë", "quartz", "2001", "x7", "e\u{20DD}", "किताब", "jjj",
    "Straße", "", "kiwi kiwi", "mmmmmmmm", "ı", "vw",
  ]
  static let kinds = ["tool", "gadget", "book", "other", "toy"]
  static let numbers = ["2001", "2001.0", "499", "0499.00", "x", "", "-1"]
  static let queries = ["e", "a", "1", "k", "2001", "499", "an !ki", "'zo", "m", "xyz"]

  private static func phrase(using random: inout SplitMix64) -> String {
    (0..<Int.random(in: 1...3, using: &random)).map { _ in
      words.randomElement(using: &random) ?? ""
    }.joined(separator: " ")
  }

  /// A record with one name (mostly, so that the name column stays an identity map until
  /// something replaces a value), zero to three tags and a note.
  private static func record(using random: inout SplitMix64) -> SearchModel.Record {
    let names = Int.random(in: 0..<8, using: &random) == 0 ? 2 : 1
    return SearchModel.Record(
      fields: [
        (0..<names).map { _ in phrase(using: &random) },
        (0..<Int.random(in: 0...3, using: &random)).map { _ in phrase(using: &random) },
        [phrase(using: &random)],
      ],
      attributes: [
        kinds.randomElement(using: &random) ?? "",
        numbers.randomElement(using: &random) ?? "",
        // Now and then a price no item had: a new attribute value and number code.
        Int.random(in: 0..<4, using: &random) == 0
          ? String(Int.random(in: 1...99_999, using: &random))
          : numbers.randomElement(using: &random) ?? "",
      ])
  }

  private static func model(items: Int, using random: inout SplitMix64) throws -> SearchModel {
    var model = SearchModel(schema: schema)
    for _ in 0..<items {
      var record = record(using: &random)
      record.fields[0] = [phrase(using: &random)]  // one name each: an identity map
      try model.append(record)
    }
    return model
  }

  /// A batch of `size` inserts (anywhere, or at the end), updates and removes, of items in
  /// the model or added earlier in the batch.
  private static func changes(
    _ size: Int, for model: SearchModel, using random: inout SplitMix64
  ) -> [SearchModel.Change] {
    randomModelChanges(size, for: model, endInserts: true, using: &random) { record(using: &$0) }
  }

  /// Every query in every scope.
  private static func results(of corpus: SearchCorpus) throws -> [[ItemID]] {
    try corpus.fullResults(of: queries)
  }

  /// The corpus's derived structures equal those of `fresh`; `context` names the failure.
  private static func expectSame(
    _ corpus: SearchCorpus, as fresh: SearchCorpus, _ context: String
  ) throws {
    #expect(corpus.scopes == fresh.scopes, "scopes, \(context)")
    #expect(corpus.numberCodes.map(\.attribute) == fresh.numberCodes.map(\.attribute))
    #expect(corpus.numberCodes.map(\.codes) == fresh.numberCodes.map(\.codes), "\(context)")
    let candidates = (0x30...0x39).map(UInt8.init) + (0x61...0x7A).map(UInt8.init)
    for field in corpus.model.schema.fields.indices {
      let values = corpus.index.fields[field]
      let freshValues = fresh.index.fields[field]
      #expect(values?.count == freshValues?.count, "values, \(context)")
      guard let values, let freshValues else { continue }
      let map = corpus.model.valueMaps[field]
      for byte in candidates {
        let tracks = values.commonBytes?.tracks(byte) ?? false
        #expect(tracks == (freshValues.commonBytes?.tracks(byte) ?? false), "\(context)")
        guard tracks, let common = values.commonBytes, let freshCommon = freshValues.commonBytes
        else { continue }
        // Every range a scan may ask, down to one value.
        for range in [
          0..<values.count, 1..<max(1, values.count - 1), (values.count / 2)..<values.count,
        ] {
          var owners: [ItemID] = []
          var freshOwners: [ItemID] = []
          common.owners(containing: byte, in: range, map: map, into: &owners)
          freshCommon.owners(containing: byte, in: range, map: map, into: &freshOwners)
          #expect(owners == freshOwners, "byte \(byte) in \(range), \(context)")
        }
      }
    }
    #expect(try results(of: corpus) == results(of: fresh), "results, \(context)")
  }

  /// Random batches (small ones updated in place, now and then one above
  /// ``ScopeMembership/incrementalShare`` resolved again) leave the corpus a fresh build gives.
  @Test func batchesUpdateTheCorpusAsAFreshBuild() async throws {
    let normalizer = try Normalizer()
    await propertyCheck(count: TestBudget.cases(16), input: Gen.int(in: 0...1_000_000)) { seed in
      var random = SplitMix64(seed: seed)
      let model = try Self.model(items: Int.random(in: 0...120, using: &random), using: &random)
      var corpus = try SearchCorpus(model: model, normalizer: normalizer, checksScopes: false)
      for step in 0..<5 {
        let size =
          Int.random(in: 0..<5, using: &random) == 0
          ? Int.random(in: 20...40, using: &random) : Int.random(in: 1...6, using: &random)
        let changes = Self.changes(size, for: corpus.model, using: &random)
        try corpus.apply(changes)
        let fresh = try SearchCorpus(
          model: corpus.model, normalizer: normalizer, checksScopes: false)
        try Self.expectSame(corpus, as: fresh, "seed \(seed), step \(step)")
      }
    }
  }
}
