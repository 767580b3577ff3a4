import SearchCoreTesting
import TestSupport
import Testing

@testable import SearchEngine

/// The word index's sorted table against a plain collection of the words of every live value:
/// the same distinct words in the same order, the same shared prefixes and subtree links, and
/// the same postings in the same order.
@Suite struct WordIndexBuildTests {
  /// The table a word index of `corpus` must have: every word of every live value of the
  /// searched fields, coded as the index codes them, with the field and value of each
  /// occurrence in the order met; and the codes given on the way.
  static func expectedTable(of corpus: SearchCorpus) -> (
    words: [(word: [UInt32], postings: [Posting])], codes: CharacterCodes
  ) {
    var codes = CharacterCodes()
    var postings: [[UInt32]: [Posting]] = [:]
    var splitter = FoldedWords()
    for (field, values) in corpus.index.fields.enumerated() {
      guard let values else { continue }
      let map = corpus.model.valueMaps[field]
      values.bytes.withUnsafeBufferPointer { bytes in
        for value in 0..<values.count where map.owner(of: value) >= 0 {
          splitter.forEachWord(
            in: bytes, range: values.range(of: value), codes: &codes,
            isBoundary: values.isBoundary
          ) { characters, _ in
            guard characters.count <= WordIndex.longestWord else { return }
            postings[Array(characters), default: []].append(Posting(field: field, value: value))
          }
        }
      }
    }
    let words = postings.keys.sorted { $0.lexicographicallyPrecedes($1) }
    return (words.map { ($0, postings[$0] ?? []) }, codes)
  }

  struct Posting: Equatable {
    var field: Int
    var value: Int
  }

  static func check(_ corpus: SearchCorpus) {
    let (expected, codes) = expectedTable(of: corpus)
    let index = WordIndex(index: corpus.index, model: corpus.model)
    let table = index.sorted
    #expect(index.codes.clusters == codes.clusters)
    #expect(table.count == expected.count)
    #expect(table.shared.count == table.count)
    #expect(table.nodes.count == table.count)
    #expect(table.starts.last.map(Int.init) == table.characters.count)
    #expect(table.postingStarts.last.map(Int.init) == table.postings.count)
    guard table.count == expected.count else { return }
    var mismatches = 0
    for w in 0..<table.count {
      let word = Array(table.characters[Int(table.starts[w])..<Int(table.starts[w + 1])])
      var postings: [Posting] = []
      table.forEachPosting(ofWord: w) { postings.append(Posting(field: $0, value: $1)) }
      var shared = 0
      if w > 0 {
        let previous = expected[w - 1].word
        while shared < min(previous.count, word.count) && previous[shared] == word[shared] {
          shared += 1
        }
      }
      var next = w + 1
      while next < table.count && table.shared[next] >= table.shared[w] { next += 1 }
      if word != expected[w].word || postings != expected[w].postings
        || Int(table.shared[w]) != shared || Int(table.nodes[w].next) != next
      {
        mismatches += 1
        if mismatches <= 5 {
          Issue.record(
            "word \(w): \(word) has \(postings.count) postings, shares \(table.shared[w])")
        }
      }
    }
    #expect(mismatches == 0)
  }

  /// Postings in any order (a field again after another, a value below the one before, the
  /// same one twice, values past a varint's byte) read back as written.
  @Test func postingsReadBackAsWritten() {
    var random = SplitMix64(seed: 50)
    var table = WordIndex.Table()
    var written: [[Posting]] = []
    for _ in 0..<200 {
      let postings = (0..<Int(random.next() % 12)).map { _ in
        Posting(
          field: Int(random.next() % 3),
          value: Int(random.next() % [2, 200, 70_000, 1 << 31][Int(random.next() % 4)]))
      }
      written.append(postings)
      [UInt32(written.count)].withUnsafeBufferPointer { word in
        table.append(
          word, fields: postings.map { UInt16($0.field) }, values: postings.map { Int32($0.value) })
      }
    }
    for (w, postings) in written.enumerated() {
      var read: [Posting] = []
      table.forEachPosting(ofWord: w) { read.append(Posting(field: $0, value: $1)) }
      #expect(read == postings, "word \(w)")
    }
  }

  @Test func citiesTableIsTheirWordsSortedWithEveryPosting() throws {
    Self.check(try Fixtures.corpus("cities/cities"))
  }

  @Test func tableKeepsTiesClustersRepeatsAndRemovals() throws {
    let long = String(repeating: "a", count: 300)
    var corpus = try TypoToleranceTests.corpus([
      ["abcdefgh abcdefg abcdefgi abcdefghij", "abcdef abcde abcdefghi"],
      ["abcdefgh abcdefgh", "📍abc x👍🏽y x👍🏽y"],
      ["\(long) \(long.dropLast(50)) b", "Zürich zurich"],
      ["Straße strasse", "東京 東京都"],
      ["removed words", "gone"],
      ["9th 10th", ""],
    ])
    try corpus.remove(ItemID(rawValue: 4))
    Self.check(corpus)
  }
}
