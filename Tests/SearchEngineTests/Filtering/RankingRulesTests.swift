import PropertyBased
import SearchCoreTesting
import TestSupport
import Testing

@testable import SearchEngine

/// Each ranking rule orders what the rules before it leave tied, in the order the ranking
/// names them, and the schema's ranking is what ranked results follow.
@Suite struct RankingRulesTests {
  /// Places with a name, alternate names and a population ("" when unknown).
  private func corpus(
    _ places: [(name: String, alternates: [String], population: String)],
    ranking: Ranking = Ranking.default.with(.attribute("population", .descending))
  ) throws -> SearchCorpus {
    let schema = SearchModel.Schema(
      fields: [.init(name: "name"), .init(name: "alternate names")],
      attributes: ["population"], ranking: ranking)
    var model = SearchModel(schema: schema)
    for place in places {
      try model.append(
        SearchModel.Record(
          fields: [[place.name], place.alternates], attributes: [place.population]))
    }
    return try SearchCorpus(model: model, normalizer: try Normalizer())
  }

  /// The names of the ranked results of `text` (extended syntax) in `corpus`.
  private func ranked(_ text: String, in corpus: SearchCorpus) throws -> [String] {
    let query = try SearchQuery(text, normalizer: corpus.normalizer)
    let result = try Fixtures.search(query, scope: 0, in: corpus)
    return corpus.ranked(result).map { corpus.model.values(of: $0, field: 0)[0] }
  }

  @Test func aMatchInTheNameComesBeforeOneInAnAlternateName() throws {
    let corpus = try corpus([
      ("Giurgiu", ["Zurz"], "61353"), ("Zuru", [], "4000"), ("Zürich", ["Zurich"], "341730"),
    ])
    // The alternate name "Zurz" is as good a match and shorter, but a later field; the
    // population ranks the names.
    #expect(try ranked("zur", in: corpus) == ["Zürich", "Zuru", "Giurgiu"])
    // Field last: the alternate name's match is as good, and the population decides.
    let fieldLast = try self.corpus(
      [("Giurgiu", ["Zurz"], "61353"), ("Zuru", [], "4000")],
      ranking: Ranking([.exactness, .attribute("population", .descending), .field]))
    #expect(try ranked("zur", in: fieldLast) == ["Giurgiu", "Zuru"])
  }

  /// A word is judged by its best match in the rules' order: "san" starts San Diego's name
  /// and is the whole of an alternate name (an airport's code), which is a later field.
  @Test func aWordIsJudgedByItsMatchInTheBestField() throws {
    let corpus = try corpus([
      ("Santiago", [], "4837295"), ("San Diego", ["SAN"], "1394928"), ("San", [], "25000"),
    ])
    #expect(try ranked("san", in: corpus) == ["San", "Santiago", "San Diego"])
  }

  @Test func exactnessReadsTheWholeValueThenAWholeWordThenTheStartThenInside() throws {
    let corpus = try corpus(
      [("Dunyorkia", [], ""), ("Yorkshire", [], ""), ("York Minster", [], ""), ("York", [], "")],
      ranking: Ranking([.exactness]))
    // A space after the word: it is finished, and a whole word beats the start of one.
    #expect(
      try ranked("york ", in: corpus) == ["York", "York Minster", "Yorkshire", "Dunyorkia"])
    // The last word while typed may be unfinished: a whole word counts as its start, and
    // the two tie (model order).
    #expect(
      try ranked("york", in: corpus) == ["York", "Yorkshire", "York Minster", "Dunyorkia"])
    // Only the last word is open.
    #expect(
      try ranked("york m", in: corpus) == ["York Minster"])
  }

  @Test func anAttributeRanksEquallyRelevantItemsEitherWay() throws {
    let places: [(String, [String], String)] = [
      ("Kuala Kubu Baharu", [], "16000"), ("Kuala Lumpur", [], "1453975"),
      ("Kuala Terengganu", [], "285065"), ("Kuala Pilah", [], "unknown"),
    ]
    let descending = try corpus(places)
    #expect(
      try ranked("kuala", in: descending) == [
        "Kuala Lumpur", "Kuala Terengganu", "Kuala Kubu Baharu", "Kuala Pilah",
      ])
    let ascending = try corpus(
      places, ranking: Ranking.default.with(.attribute("population", .ascending)))
    // A value that is not a number comes last either way.
    #expect(
      try ranked("kuala", in: ascending) == [
        "Kuala Kubu Baharu", "Kuala Terengganu", "Kuala Lumpur", "Kuala Pilah",
      ])
  }

  /// The default puts the attribute before position: New York, further into its name, comes
  /// before York when it is the more populous; with position first, York comes first.
  @Test func theAttributeComesBeforePositionAndLength() throws {
    let places: [(String, [String], String)] = [
      ("Yorktown", [], "2000"), ("New York City", [], "8804190"), ("York Minster", [], "10"),
    ]
    #expect(
      try ranked("york", in: try corpus(places)) == ["New York City", "Yorktown", "York Minster"])
    let positionFirst = try corpus(
      places,
      ranking: Ranking([.words, .typos, .field, .exactness, .position, .length])
        .with(.attribute("population", .descending)))
    #expect(positionFirst.model.schema.ranking.rules[4] == .attribute("population", .descending))
    let byPosition = try corpus(
      places,
      ranking: Ranking([.exactness, .position, .attribute("population", .descending)]))
    #expect(
      try ranked("york", in: byPosition) == ["Yorktown", "York Minster", "New York City"])
  }

  @Test func moreWordsOfAnEitherOrSetComeFirst() throws {
    let corpus = try corpus(
      [("Lyon", [], ""), ("Paris", [], ""), ("Paris Lyon", [], "")], ranking: Ranking([.words]))
    #expect(try ranked("paris | lyon", in: corpus) == ["Paris Lyon", "Lyon", "Paris"])
    let without = try self.corpus(
      [("Lyon", [], ""), ("Paris", [], ""), ("Paris Lyon", [], "")], ranking: Ranking([]))
    #expect(try ranked("paris | lyon", in: without) == ["Lyon", "Paris", "Paris Lyon"])
  }

  @Test func fewerTyposComeFirst() throws {
    let corpus = try corpus([
      ("Califurnia", [], "100000000"), ("California", [], "10"), ("Kalifornia", [], "5"),
    ])
    let query = try SearchQuery(
      "california", syntax: .words, typos: .default, normalizer: corpus.normalizer)
    let result = try Fixtures.search(query, scope: 0, in: corpus)
    let names = corpus.ranked(result).map { corpus.model.values(of: $0, field: 0)[0] }
    // One typo each for the others: the population orders them.
    #expect(names == ["California", "Califurnia", "Kalifornia"])
  }

  @Test func lengthAndPositionBreakTheLastTies() throws {
    let corpus = try corpus(
      [("Sporting York", [], ""), ("New York", [], ""), ("Yorkshire Dales", [], "")],
      ranking: Ranking([.position, .length]))
    #expect(
      try ranked("york", in: corpus) == ["Yorkshire Dales", "New York", "Sporting York"])
  }

  @Test func aRankingNamesAttributesThatExist() throws {
    #expect(throws: SearchCorpus.Error.unknownName("attribute", "area", scope: nil)) {
      try self.corpus(
        [("Lima", [], "1")], ranking: Ranking.default.with(.attribute("area", .descending)))
    }
  }

  @Test func attributesGoAfterTheLastAttributeOrExactnessOrAtTheEnd() {
    let popular = Ranking.default.with(.attribute("calls", .descending))
    #expect(
      popular.rules == [
        .words, .typos, .field, .exactness, .attribute("calls", .descending), .position, .length,
      ])
    #expect(popular.attributes == ["calls"])
    #expect(
      Ranking([.typos]).with(.attribute("price", .ascending)).rules == [
        .typos, .attribute("price", .ascending),
      ])
    #expect(popular.rules.map(\.description).joined(separator: ", ").contains("calls descending"))
    // A second attribute ranks what the first leaves tied: it goes after it.
    #expect(
      popular.with(.attribute("age", .ascending)).rules == [
        .words, .typos, .field, .exactness, .attribute("calls", .descending),
        .attribute("age", .ascending), .position, .length,
      ])
  }
}

/// The packed keys that sort most rankings order as the rules compared one by one, which
/// rankings whose measures spread past 64 bits use.
@Suite struct RankingPackingTests {
  private static let words = ["san", "santa", "ana", "york", "new", "yorkshire", "ann", "sa"]

  @Test func packedKeysOrderAsTheRulesOneByOne() async throws {
    await propertyCheck(count: TestBudget.cases(200), input: Gen.int(in: 0...1_000_000)) { seed in
      var random = SplitMix64(seed: UInt64(seed))
      func word() -> String { Self.words[Int(random.next() % UInt64(Self.words.count))] }
      func text() -> String {
        (0..<(1 + random.next() % 3)).map { _ in word() }.joined(separator: " ")
      }
      var rules: [Ranking.Rule] = [.words, .typos, .field, .exactness, .position, .length]
        .filter { _ in random.next() % 4 != 0 }
      rules.shuffle(using: &random)
      rules.insert(
        .attribute("population", random.next() % 2 == 0 ? .ascending : .descending),
        at: Int(random.next() % UInt64(rules.count + 1)))
      func corpus(_ ranking: Ranking) throws -> SearchCorpus {
        var random = SplitMix64(seed: UInt64(seed))
        let schema = SearchModel.Schema(
          fields: [.init(name: "name"), .init(name: "alias")],
          attributes: ["population"], ranking: ranking)
        var model = SearchModel(schema: schema)
        for _ in 0..<40 {
          let people = random.next() % 5 == 0 ? "n/a" : String(random.next() % 6)
          let name =
            Self.words[Int(random.next() % UInt64(Self.words.count))] + " "
            + Self.words[Int(random.next() % UInt64(Self.words.count))]
          try model.append(
            SearchModel.Record(
              fields: [[name], [Self.words[Int(random.next() % UInt64(Self.words.count))]]],
              attributes: [people]))
        }
        return try SearchCorpus(model: model, normalizer: try Normalizer())
      }
      let packed = try corpus(Ranking(rules))
      let query = try SearchQuery(
        random.next() % 3 == 0 ? text() + " " : String(text().prefix(Int(1 + random.next() % 6))),
        normalizer: packed.normalizer)
      let result = try Fixtures.search(query, scope: 0, in: packed)
      let ranked = packed.ranked(result)
      #expect(Set(ranked) == Set(result.items) && ranked.count == result.items.count)
      let oneByOne = packed.model.schema.ranking.ranked(
        result.items, query: query, scope: 0, corpus: packed, packingLimit: 0)
      #expect(ranked == oneByOne, "\(rules) \(query.text)")
    }
  }
}
