import PropertyBased
import TestSupport
import Testing

@testable import SearchEngine

/// The bits of common letters (``CommonBytes``) answer a one-letter query: the same items as the
/// reference evaluator, also where a letter carries a mark that folding keeps (then the letter
/// is part of another character and does not match alone).
@Suite(.tags(.concurrent))
struct CommonBytesTests {
  /// Pieces of values: common ASCII letters, and letters in one character with what folding
  /// keeps — an enclosing circle (Me) and Devanagari vowel signs (Mc, Mn) after a Latin letter,
  /// the Arabic end of ayah (a prepended mark) before one.
  private static let pieces = [
    "e", "a", "n", "s", "d", "t", " ", "x", "e\u{20DD}", "a\u{20DD}", "d\u{093F}", "n\u{0947}",
    "\u{06DD}s", "\u{06DD}e", "\u{0915}", "é", "ß",
  ]

  private func corpus(_ values: [[String]]) throws -> SearchCorpus {
    var model = SearchModel(schema: SearchModel.Schema(fields: [.init(name: "name")]))
    for item in values { _ = try model.append(SearchModel.Record(fields: [item], attributes: [])) }
    return try SearchCorpus(model: model, normalizer: try Normalizer())
  }

  @Test func lettersWithKeptMarksAreNotTheLetter() throws {
    let corpus = try corpus([
      ["e\u{20DD}"], ["de"], ["d\u{093F}x"], ["ee"], ["a\u{20DD}d"], ["\u{06DD}e"],
    ])
    guard let folded = corpus.index.fields[0] else {
      Issue.record("the field is not indexed")
      return
    }
    #expect(!folded.interior.isEmpty, "the marks are kept: the test needs interior boundaries")
    #expect(folded.commonBytes?.tracks(UInt8(ascii: "e")) == true)
    #expect(folded.commonBytes?.tracks(UInt8(ascii: "d")) == true)
    for (query, expected): (String, [Int32]) in [("e", [1, 3]), ("d", [1, 4]), ("a", [])] {
      var filter = IncrementalFilter()
      let found = filter.search(
        try SearchQuery(query, normalizer: corpus.normalizer), scope: 0, in: corpus)
      #expect(found?.items.map(\.rawValue) == expected, "\(query)")
    }
  }

  @Test func everyLetterFindsWhatTheReferenceFinds() async throws {
    let value = Gen.int(in: 0...(Self.pieces.count - 1)).array(of: 0...8).map { indices in
      indices.map { Self.pieces[$0] }.joined()
    }
    let items = value.array(of: 1...3).array(of: 1...200)
    await propertyCheck(count: TestBudget.cases(60), input: items) { items in
      let corpus = try corpus(items)
      for letter in ["e", "a", "n", "s", "d", "t", "x", "é", "ß", " "] {
        let query = try SearchQuery(letter, normalizer: corpus.normalizer)
        var filter = IncrementalFilter()
        let found = filter.search(query, scope: 0, in: corpus)?.items
        #expect(found == (try ReferenceSearch.search(query, scope: 0, in: corpus)), "\(letter)")
      }
    }
  }
}
