import PropertyBased
import SearchCoreTesting
import TestSupport
import Testing

@testable import SearchEngine

/// The grams of a column (``GramIndex``) never lose a value that holds a term, and searches
/// that go through them find what the reference finds, through random model changes (values
/// appended after the build are scanned, replaced ones lose their owner).
@Suite(.tags(.concurrent))
struct GramIndexTests {
  /// Pieces of values: ASCII, letters of other scripts (two and three bytes), a mark folding
  /// keeps, and repeats (a gram twice in one value).
  private static let pieces = [
    "an", "ta", "nde", "san", " ", "-", "é", "ß", "мо", "ск", "東京", "e\u{20DD}", "aaa", "x", "9",
  ]

  private static func value(using random: inout SplitMix64) -> String {
    (0..<Int.random(in: 1...5, using: &random)).map { _ in
      pieces.randomElement(using: &random) ?? ""
    }.joined()
  }

  private static func record(using random: inout SplitMix64) -> SearchModel.Record {
    SearchModel.Record(
      fields: [(0..<Int.random(in: 1...3, using: &random)).map { _ in value(using: &random) }],
      attributes: [])
  }

  /// A corpus of one field and a drawn number of records in `items`.
  private static func corpus(
    items: ClosedRange<Int>, normalizer: Normalizer, using random: inout SplitMix64
  ) throws -> SearchCorpus {
    var model = SearchModel(schema: SearchModel.Schema(fields: [.init(name: "name")]))
    for _ in 0..<Int.random(in: items, using: &random) {
      try model.append(record(using: &random))
    }
    return try SearchCorpus(model: model, normalizer: normalizer)
  }

  /// A needle of 3 to 7 bytes from a value of `values` (or, now and then, from nowhere).
  private static func needle(in values: FoldedValues, using random: inout SplitMix64) -> [UInt8] {
    let drawn = Int.random(in: 0..<max(values.count, 1), using: &random)
    guard values.count > 0, Int.random(in: 0..<6, using: &random) > 0 else {
      return Array((value(using: &random) + "qqq").utf8.prefix(5))
    }
    let bytes = Array(values.bytes[values.range(of: drawn)])
    guard bytes.count >= 3 else { return Array("qqq".utf8) }
    let length = Int.random(in: 3...min(7, bytes.count), using: &random)
    let start = Int.random(in: 0...(bytes.count - length), using: &random)
    return Array(bytes[start..<(start + length)])
  }

  /// A needle of 2 to 6 bytes from the start of a value of `values`, after its leading spaces.
  private static func startNeedle(in values: FoldedValues, using random: inout SplitMix64)
    -> [UInt8]
  {
    let drawn = Int.random(in: 0..<max(values.count, 1), using: &random)
    let bytes = values.count > 0 ? values.bytes[values.range(of: drawn)].drop { $0 == 0x20 } : []
    guard bytes.count >= 2 else { return Array("qq".utf8) }
    return Array(bytes.prefix(Int.random(in: 2...min(6, bytes.count), using: &random)))
  }

  /// Every value that holds a needle's bytes (at its start, after white space, for an anchored
  /// needle) is among its candidates, which are ascending and no more than its rarest gram's
  /// values; an exact needle's candidates are its holders.
  @Test func candidatesHoldEveryValueThatHoldsTheNeedle() async throws {
    let normalizer = try Normalizer()
    var exact = (anywhere: 0, atStart: 0)
    await propertyCheck(count: TestBudget.cases(60), input: Gen.int(in: 0...1_000_000)) { seed in
      var random = SplitMix64(seed: UInt64(seed))
      let corpus = try Self.corpus(items: 1...300, normalizer: normalizer, using: &random)
      let values = try #require(corpus.index.fields[0])
      let grams = try #require(values.grams)
      #expect(grams.valueCount == values.count)
      // Built in pieces (one per core and more, each with postings of its own joined after),
      // the index answers as built in one.
      let pieces = try #require(GramIndex(values: values, valuesPerPiece: 7))
      let text = (0..<values.count).map { Array(values.bytes[values.range(of: $0)]) }
      for round in 0..<40 {
        let atStart = round % 2 == 1
        let needle =
          atStart
          ? Self.startNeedle(in: values, using: &random) : Self.needle(in: values, using: &random)
        let holders = text.indices.filter { value in
          let bytes = text[value]
          if atStart { return bytes.drop { $0 == 0x20 }.starts(with: needle) }
          return bytes.count >= needle.count
            && (0...(bytes.count - needle.count)).contains {
              Array(bytes[$0..<($0 + needle.count)]) == needle
            }
        }.map(Int32.init)
        // A needle whose every gram holds white space or punctuation has none the index
        // keeps.
        let keeps = { (bytes: ArraySlice<UInt8>) in
          bytes.allSatisfy { !GramIndex.leftOutClasses.contains(GramIndex.classes[Int($0)]) }
        }
        let kept =
          (atStart && keeps(needle.prefix(2)))
          || (0..<max(needle.count - 2, 0)).contains { keeps(needle[$0..<($0 + 3)]) }
        let candidates = grams.candidates(for: needle, atStart: atStart, limit: .max)
        guard kept, let candidates else {
          #expect(!kept && candidates == nil, "\(needle)")
          continue
        }
        #expect(Set(holders).isSubset(of: Set(candidates)), "\(needle)")
        // Lowercase letters and digits, three or two at the start: the candidates are the
        // holders, but for those that start with white space.
        if grams.isExact(needle, atStart: atStart) {
          let spaced = Set(grams.valuesWithLeadingSpace)
          let exactHolders = holders.filter {
            !atStart || text[Int($0)].starts(with: needle) || spaced.contains($0)
          }
          if atStart { exact.atStart += 1 } else { exact.anywhere += 1 }
          #expect(
            Set(candidates).subtracting(spaced) == Set(exactHolders).subtracting(spaced),
            "\(needle)")
        }
        #expect(zip(candidates, candidates.dropFirst()).allSatisfy { $0 < $1 })
        #expect(candidates.count <= grams.rarestCount(for: needle, atStart: atStart) ?? -1)
        #expect(
          grams.candidates(
            for: Array(needle.prefix(atStart ? 1 : 2)), atStart: atStart, limit: .max)
            == nil)
        #expect(
          pieces.candidates(for: needle, atStart: atStart, limit: .max) == candidates, "\(needle)")
      }
    }
    #expect(exact.anywhere > 10 && exact.atStart > 20, "\(exact)")
  }

  /// Searches typed through random batches of changes find the reference's items, fresh and
  /// narrowed keystroke by keystroke, with the grams covering part of the column after
  /// appends.
  @Test func searchesThroughModelChangesFindTheReferenceItems() async throws {
    let normalizer = try Normalizer()
    var throughGrams = 0
    var withTail = 0
    var throughStartGrams = 0
    await propertyCheck(count: TestBudget.cases(30), input: Gen.int(in: 0...1_000_000)) { seed in
      var random = SplitMix64(seed: UInt64(seed))
      var corpus = try Self.corpus(items: 50...400, normalizer: normalizer, using: &random)
      for step in 0..<4 {
        if step > 0 {
          try corpus.apply(
            randomModelChanges(
              Int.random(in: 1...30, using: &random), for: corpus.model, endInserts: true,
              using: &random, record: { Self.record(using: &$0) }))
        }
        let values = try #require(corpus.index.fields[0])
        let grams = try #require(values.grams)
        if grams.valueCount < values.count { withTail += 1 }
        for round in 0..<12 {
          // Every third, anchored at the start (`^`), which the start grams answer.
          let atStart = round % 3 == 2
          let needle =
            atStart
            ? Self.startNeedle(in: values, using: &random)
            : Self.needle(in: values, using: &random)
          let text = String(decoding: needle, as: UTF8.self)
          guard !text.contains(" "), text.unicodeScalars.allSatisfy({ $0.properties.isAlphabetic })
          else { continue }
          let query = try SearchQuery(
            (atStart ? "^" : "") + text, syntax: .extended, normalizer: normalizer)
          let expected = try ReferenceSearch.search(query, scope: 0, in: corpus)
          var fresh = IncrementalFilter()
          #expect(fresh.search(query, scope: 0, in: corpus)?.items == expected, "\(text)")
          var typed = IncrementalFilter()
          var prefix = ""
          var last: [ItemID]?
          for character in (atStart ? "^" : "") + text {
            prefix.append(character)
            last =
              typed.search(
                try SearchQuery(prefix, syntax: .extended, normalizer: normalizer), scope: 0,
                in: corpus)?.items
          }
          #expect(last == expected, "\(text), typed")
          let bytes = values.starts[values.count] - values.starts[0]
          let limit = Int(bytes) / QueryEvaluator.bytesPerCandidate
          if grams.candidates(
            for: query.sets[0].terms[0].pattern.utf8.map { $0 }, atStart: atStart, limit: limit)
            != nil
          {
            throughGrams += 1
            if atStart { throughStartGrams += 1 }
          }
        }
      }
    }
    // The searches went through the grams, and over columns they only partly cover.
    #expect(throughGrams > 20 && throughStartGrams > 5, "\(throughGrams), \(throughStartGrams)")
    #expect(withTail > 5)
  }
}
