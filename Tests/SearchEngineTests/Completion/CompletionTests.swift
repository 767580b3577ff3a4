import PropertyBased
import SearchCoreTesting
import TestSupport
import Testing

@testable import SearchEngine

/// Completions equal those of a brute-force oracle (every value and word of every live
/// item, folded apart from the index, counted and sorted by the rule), on random corpora of
/// mixed scripts, in every scope, before and after random batches of changes.
@Suite struct CompletionTests {
  static let schema = SearchModel.Schema(
    fields: [
      SearchModel.Schema.Field(name: "name"), SearchModel.Schema.Field(name: "aliases"),
      SearchModel.Schema.Field(name: "note", isSearched: false),
    ],
    attributes: ["kind"],
    scopeBar: ScopeBar([
      ScopeBar.Scope(title: "All"),
      ScopeBar.Scope(title: "Towns", attribute: "kind", values: ["town"]),
      ScopeBar.Scope(title: "Rare", attribute: "kind", values: ["rare"]),
    ]))

  /// Words of several scripts that fold together in some ways and apart in others: accents
  /// and their combining forms, Greek with its final sigma, Cyrillic, CJK, the Turkish dotted
  /// and dotless i, a ligature-like ß, digits, and punctuation that splits words.
  static let words = [
    "Zürich", "zurich", "Zug", "São", "Sao", "Paulo", "San", "Santa", "Santiago", "Diego",
    "Francisco", "Ελλάδα", "ελλάς", "Αθήνα", "Москва", "москва", "Мост", "東京", "東京都", "京都",
    "e\u{301}cole", "école", "İstanbul", "istanbul", "Iğdır", "ılık", "Straße", "strasse",
    "d'Arc", "x-2", "42", "4x4", "a\u{20DD}b", "  padded ", "Ñandú", "ǅemal",
  ]
  static let kinds = ["town", "rare", "other"]

  static func phrase(using random: inout SplitMix64) -> String {
    (0..<Int.random(in: 1...3, using: &random)).map { _ in
      words.randomElement(using: &random) ?? ""
    }.joined(separator: Int.random(in: 0..<4, using: &random) == 0 ? "-" : " ")
  }

  static func record(using random: inout SplitMix64) -> SearchModel.Record {
    SearchModel.Record(
      fields: [
        (0..<Int.random(in: 0...2, using: &random)).map { _ in phrase(using: &random) },
        (0..<Int.random(in: 0...3, using: &random)).map { _ in phrase(using: &random) },
        [phrase(using: &random)],
      ],
      attributes: [kinds.randomElement(using: &random) ?? ""])
  }

  static func model(items: Int, using random: inout SplitMix64) throws -> SearchModel {
    var model = SearchModel(schema: schema)
    for _ in 0..<items { try model.append(record(using: &random)) }
    return model
  }

  // MARK: The oracle

  /// The completion keys of a folded text, found apart from the index: the text without
  /// white space at either end, and each run of letters and numbers (with the marks after
  /// them) among its scalars.
  static func oracleKeys(ofFolded text: String) -> Set<[UInt8]> {
    var keys = Set<[UInt8]>()
    let scalars = Array(text.unicodeScalars)
    var low = 0
    var high = scalars.count
    while low < high && scalars[low].properties.isWhitespace { low += 1 }
    while high > low && scalars[high - 1].properties.isWhitespace { high -= 1 }
    if low < high { keys.insert(Array(String(String.UnicodeScalarView(scalars[low..<high])).utf8)) }
    var word: [Unicode.Scalar] = []
    for scalar in scalars + [" "] {
      let isMark: Bool
      switch scalar.properties.generalCategory {
      case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
        .decimalNumber, .letterNumber, .otherNumber:
        word.append(scalar)
        continue
      case .nonspacingMark, .spacingMark, .enclosingMark: isMark = true
      default: isMark = false
      }
      if isMark && !word.isEmpty {
        word.append(scalar)
        continue
      }
      if !word.isEmpty { keys.insert(Array(String(String.UnicodeScalarView(word)).utf8)) }
      word = []
    }
    return keys
  }

  struct Oracle {
    /// Each live item's keys, in model order.
    var keys: [(item: Int, keys: Set<[UInt8]>)] = []

    init(_ model: SearchModel, normalizer: Normalizer) throws {
      for id in model.ids {
        var held = Set<[UInt8]>()
        for field in model.schema.fields.indices where model.schema.fields[field].isSearched {
          for value in model.values(of: id, field: field) {
            held.formUnion(CompletionTests.oracleKeys(ofFolded: try normalizer.fold(value)))
          }
        }
        keys.append((Int(id.rawValue), held))
      }
    }

    /// The expected (folded key, count) of the best `limit` completions of `text`.
    func completions(
      _ text: String, admitted: Bitset?, limit: Int, normalizer: Normalizer
    ) throws -> [(key: [UInt8], count: Int)] {
      let folded = Array(try normalizer.fold(text).utf8)
      let trimmed = CompletionTests.oracleKeys(ofFolded: String(decoding: folded, as: UTF8.self))
      // The trimmed typed text is the longest of its keys (the whole, when not empty).
      guard let prefix = trimmed.max(by: { $0.count < $1.count }) else { return [] }
      var counts: [[UInt8]: Int] = [:]
      for (item, held) in keys where admitted?.contains(item) ?? true {
        for key in held where key.starts(with: prefix) { counts[key, default: 0] += 1 }
      }
      let all: [(key: [UInt8], count: Int)] = counts.map { ($0.key, $0.value) }
      let sorted = all.sorted { a, b in
        if a.count != b.count { return a.count > b.count }
        return a.key.lexicographicallyPrecedes(b.key)
      }
      return Array(sorted.prefix(limit))
    }
  }

  // MARK: Checks

  /// The typed texts: every prefix (by characters) of a sample of the keys, and of a sample
  /// of the original values (so that "Zü" is typed as well as "zu"), with spaces around some.
  static func typedTexts(_ oracle: Oracle, model: SearchModel, using random: inout SplitMix64)
    -> [String]
  {
    let keys = Array(Set(oracle.keys.flatMap(\.keys))).sorted { $0.lexicographicallyPrecedes($1) }
    var texts: [String] = ["", " ", "q", "zzzz", "東"]
    for _ in 0..<6 {
      guard let key = keys.randomElement(using: &random) else { break }
      let text = String(decoding: key, as: UTF8.self)
      for length in 1...text.count { texts.append(String(text.prefix(length))) }
    }
    for _ in 0..<4 {
      guard let id = model.ids.randomElement(using: &random),
        let value = model.values(of: id, field: 0).first ?? model.values(of: id, field: 1).first
      else { continue }
      for length in 1...max(1, min(value.count, 8)) {
        texts.append((length % 3 == 0 ? " " : "") + String(value.prefix(length)))
      }
    }
    return texts
  }

  /// The corpus's completions of every typed text, in `admitted` (or a scope), equal the
  /// oracle's: the same keys and counts in the same order, each spelt as a value or word of
  /// the first admitted item holding it, its typed part marked.
  static func expectOracle(
    _ corpus: SearchCorpus, _ oracle: Oracle, texts: [String], scope: Int?, admitted: Bitset?,
    _ context: String
  ) throws {
    let normalizer = corpus.normalizer
    let members = scope.map { corpus.scopeMembers[$0] } ?? admitted
    for text in texts {
      let limit = text.count % 2 == 0 ? 10 : 3
      let expected = try oracle.completions(
        text, admitted: members, limit: limit, normalizer: normalizer)
      let got =
        scope.map { corpus.completions(for: text, scope: $0, limit: limit) }
        ?? corpus.completions(for: text, admitted: admitted, limit: limit)
      // Without the set's rank: the walk by weight over every item, and the scan after it.
      let unranked = corpus.completions(
        for: text, admitted: members, limit: limit, keepsRank: false)
      #expect(got == unranked, "\"\(text)\" without the set's rank, \(context)")
      #expect(
        Self.ranked(corpus, text, admitted: members, limit: limit, walkBudget: 0)
          == Self.ranked(corpus, text, admitted: members, limit: limit, walkBudget: 1_000),
        "\"\(text)\" scanned at once, \(context)")
      let gotKeys = try got.map { Array(try normalizer.fold($0.text).utf8) }
      #expect(
        gotKeys.map { String(decoding: $0, as: UTF8.self) }
          == expected.map { String(decoding: $0.key, as: UTF8.self) },
        "\"\(text)\", \(context)")
      #expect(got.map(\.count) == expected.map(\.count), "\"\(text)\", \(context)")
      let typed = Array(try normalizer.fold(text.trimmingWhitespace).utf8)
      for (completion, key) in zip(got, gotKeys) {
        // Spelt as the first admitted item (in model order) holding the key spells it.
        let first = oracle.keys.first {
          (members?.contains($0.item) ?? true) && $0.keys.contains(key)
        }
        let values = first.map { item in
          corpus.model.schema.fields.indices.filter { corpus.model.schema.fields[$0].isSearched }
            .flatMap { corpus.model.values(of: ItemID(rawValue: Int32(item.item)), field: $0) }
        }
        #expect(
          values?.contains { $0.contains(completion.text) } == true,
          "\"\(completion.text)\" not in \(values ?? []), \"\(text)\", \(context)")
        try expectMarked(completion, typed: typed, normalizer: normalizer, context)
      }
    }
  }

  /// The index's best candidates (folded key and count) for `text`, without a set's rank,
  /// walking at most `walkBudget` per completion by weight before scanning the range.
  static func ranked(
    _ corpus: SearchCorpus, _ text: String, admitted: Bitset?, limit: Int, walkBudget: Int
  ) -> [String] {
    let completionIndex = corpus.completionIndex
    guard let folded = try? corpus.normalizer.fold(text.trimmingWhitespace) else { return [] }
    return CompletionIndex.withBuffers(corpus.index.fields) { buffers in
      Array(folded.utf8).withUnsafeBufferPointer { prefix in
        completionIndex.top(
          prefix: prefix, admitted: admitted, limit: limit, walkBudget: walkBudget,
          buffers: buffers
        ).map { ranked in
          let start = Int(completionIndex.keyStart[ranked.handle])
          let key = buffers[Int(completionIndex.keyField[ranked.handle])][
            start..<(start + Int(completionIndex.keyLength[ranked.handle]))]
          return "\(String(decoding: key, as: UTF8.self)) \(ranked.count)"
        }
      }
    }
  }

  /// The mark covers the typed part: one range from the start, whose folded form starts with
  /// the typed text, and which no shorter run of whole characters would cover.
  static func expectMarked(
    _ completion: SearchQuery.Completion, typed: [UInt8], normalizer: Normalizer, _ context: String
  ) throws {
    let marked = completion.marked
    #expect(marked.text == completion.text, "\(context)")
    guard marked.marks.count == 1, let mark = marked.marks.first else {
      Issue.record("marks \(marked.marks) of \"\(completion.text)\", \(context)")
      return
    }
    #expect(mark.lowerBound == marked.text.startIndex, "\(context)")
    let part = String(marked.text[mark])
    let folded = Array(try normalizer.fold(part).utf8)
    #expect(folded.starts(with: typed), "\"\(part)\" for \(typed), \(context)")
    let shorter = Array(try normalizer.fold(String(part.dropLast())).utf8)
    #expect(shorter.count < typed.count, "\"\(part)\" is longer than needed, \(context)")
  }

  // MARK: Tests

  /// Random corpora: every prefix of sampled keys, in every scope and in a random set of
  /// items, under the default folding and under Turkish case rules.
  @Test(arguments: [nil, "tr"] as [String?])
  func completionsEqualTheOracle(locale: String?) async throws {
    let normalizer = try Normalizer(locale: locale)
    await propertyCheck(count: TestBudget.cases(12), input: Gen.int(in: 0...1_000_000)) { seed in
      var random = SplitMix64(seed: seed)
      let model = try Self.model(items: Int.random(in: 0...90, using: &random), using: &random)
      let corpus = try SearchCorpus(model: model, normalizer: normalizer, checksScopes: false)
      let oracle = try Oracle(model, normalizer: normalizer)
      let texts = Self.typedTexts(oracle, model: model, using: &random)
      for scope in corpus.scopeBar.scopes.indices {
        try Self.expectOracle(
          corpus, oracle, texts: texts, scope: scope, admitted: nil, "seed \(seed), scope \(scope)")
      }
      var admitted = Bitset(capacity: model.identityLimit)
      for item in 0..<model.identityLimit where Int.random(in: 0..<5, using: &random) == 0 {
        admitted.insert(item)
      }
      try Self.expectOracle(
        corpus, oracle, texts: texts, scope: nil, admitted: admitted, "seed \(seed), random set")
    }
  }

  /// After random batches of inserts, updates and removes (the index built before them, so
  /// that it is kept up to date rather than built again), completions equal a fresh build's
  /// and the oracle's; a copy taken before a batch still answers as before it.
  @Test func batchesKeepCompletionsAsAFreshBuild() async throws {
    let normalizer = try Normalizer()
    await propertyCheck(count: TestBudget.cases(6), input: Gen.int(in: 0...1_000_000)) { seed in
      var random = SplitMix64(seed: seed)
      let model = try Self.model(items: Int.random(in: 40...120, using: &random), using: &random)
      var corpus = try SearchCorpus(model: model, normalizer: normalizer, checksScopes: false)
      corpus.buildCompletions()
      for step in 0..<4 {
        let size =
          Int.random(in: 0..<6, using: &random) == 0
          ? Int.random(in: 20...30, using: &random) : Int.random(in: 1...4, using: &random)
        let changes = randomModelChanges(size, for: corpus.model, endInserts: true, using: &random)
        {
          Self.record(using: &$0)
        }
        let before = corpus
        let beforeAnswers = before.completions(for: "s", limit: 20)
        try corpus.apply(changes)
        #expect(before.completions(for: "s", limit: 20) == beforeAnswers, "copy, seed \(seed)")
        let fresh = try SearchCorpus(
          model: corpus.model, normalizer: normalizer, checksScopes: false)
        let oracle = try Oracle(corpus.model, normalizer: normalizer)
        let texts = Self.typedTexts(oracle, model: corpus.model, using: &random)
        let context = "seed \(seed), step \(step)"
        for scope in corpus.scopeBar.scopes.indices {
          for text in texts {
            #expect(
              corpus.completions(for: text, scope: scope)
                == fresh.completions(
                  for: text, scope: scope),
              "\"\(text)\" in scope \(scope), \(context)")
          }
          try Self.expectOracle(corpus, oracle, texts: texts, scope: scope, admitted: nil, context)
        }
      }
    }
  }

  /// Many single changes add more new candidates than the index keeps apart, and it is built
  /// again on the way: the answers stay exact throughout.
  @Test func manyChangesRebuildOnTheWay() throws {
    let normalizer = try Normalizer()
    var random = SplitMix64(seed: 7)
    var corpus = try SearchCorpus(
      model: try Self.model(items: 200, using: &random), normalizer: normalizer,
      checksScopes: false)
    corpus.buildCompletions()
    for step in 0..<1_200 {
      let record = SearchModel.Record(
        fields: [["Sankt Neu\(step)"], ["Neu\(step)stadt"], [""]], attributes: ["town"])
      try corpus.apply([.insert(record, at: nil)])
    }
    let fresh = try SearchCorpus(model: corpus.model, normalizer: normalizer, checksScopes: false)
    for text in ["s", "sankt", "sankt neu1", "neu", "neu11", "neu1199s"] {
      #expect(corpus.completions(for: text, scope: 1) == fresh.completions(for: text, scope: 1))
      #expect(corpus.completions(for: text) == fresh.completions(for: text))
    }
    #expect(corpus.completions(for: "sankt neu119", limit: 20).count == 11)
  }

  /// The mark covers the typed part in the original spelling, on whole characters.
  @Test func marksCoverTheTypedPartInTheOriginal() throws {
    let corpus = try Self.corpus(["Zürich", "Straße", "İstanbul", "São Paulo"])
    func marked(_ text: String) -> [String] {
      corpus.completions(for: text).map { completion in
        completion.marked.runs.map { $0.isMarked ? "[\($0.text)]" : String($0.text) }.joined()
      }
    }
    #expect(marked("zu") == ["[Zü]rich"])
    #expect(marked("ZÜR") == ["[Zür]ich"])
    #expect(marked("stras") == ["[Straß]e"])
    #expect(marked("ista") == ["[İsta]nbul"])
    #expect(marked(" pau ") == ["[Pau]lo"])
    #expect(marked("sao p") == ["[São P]aulo"])
    #expect(marked("sao") == ["[São]", "[São] Paulo"])
  }

  /// The guide's example: "san" on a small list of cities.
  @Test func sanCompletesCitiesByHowManyTheyFind() throws {
    let corpus = try Self.corpus([
      "San Francisco", "San Diego", "Santiago", "Santiago de Chile", "San Diego", "Santa Ana",
      "Sandy", "Pasanda", "Oceanside",
    ])
    // Counts: "san" is a word of three items (San Francisco and the two San Diegos);
    // "san diego" is the value of two, and "santiago" the value of one and a word of another;
    // the rest are held by one item each. Between equal counts, the folded text's byte order:
    // "san diego" before "santiago" (a space, 0x20, sorts before "t"), then "san francisco",
    // "sandy", "santa", "santa ana", "santiago de chile". "pasanda" and "oceanside" hold "san"
    // only inside a word, which completes nothing. "San" is spelt as San Francisco, the first
    // item holding it.
    #expect(
      corpus.completions(for: "san").map { "\($0.text) \($0.count)" } == [
        "San 3", "San Diego 2", "Santiago 2", "San Francisco 1", "Sandy 1", "Santa 1",
        "Santa Ana 1", "Santiago de Chile 1",
      ])
    #expect(corpus.completions(for: "san", limit: 2).map(\.text) == ["San", "San Diego"])
    #expect(corpus.completions(for: "").isEmpty)
    #expect(corpus.completions(for: "   ").isEmpty)
    #expect(corpus.completions(for: "x").isEmpty)
  }

  /// A corpus of one name per item.
  static func corpus(_ names: [String]) throws -> SearchCorpus {
    var model = SearchModel(
      schema: SearchModel.Schema(fields: [SearchModel.Schema.Field(name: "name")]))
    for name in names { try model.append(SearchModel.Record(fields: [[name]], attributes: [])) }
    return try SearchCorpus(model: model, normalizer: try Normalizer())
  }
}

extension String {
  /// The text without white space at either end.
  fileprivate var trimmingWhitespace: String {
    String(drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
  }
}
