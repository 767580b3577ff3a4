import PropertyBased
import Testing

@testable import SearchCore

/// ``LineFilter`` (what `filter` runs on plain lines) gives the answer of the corpus path: an
/// ``IncrementalFilter`` over ``DataSetLoader/loadLines(_:)`` of the same input.
struct LineFilterTests {
  private static let pieces = [
    "san", "José", "jose", "Zürich", "zurich", " ", " ", "ﬁn", "東京", "москва", "e\u{301}",
    "d\u{093F}", "!", "|", "'", "^", "$", "\r", "ǅ", "İ", "ß", "ss", "\t",
  ]
  private static let queries = [
    "san", "jose", "^san", "ich$", "^zurich$", "!san", "san | jose", "san !jose", "'sjs",
    "fin", "ﬁ", "東", "москва", "é", "d", "e", "ss", "^ ", "!e !d", "zur ich", "",
  ]

  private func corpusAnswer(_ query: Query, _ input: LineInput, _ normalizer: Normalizer)
    throws -> [Int]
  {
    let corpus = try SearchCorpus(model: DataSetLoader.loadLines(input), normalizer: normalizer)
    var filter = IncrementalFilter()
    return (filter.search(query, scope: 0, in: corpus)?.items ?? []).map { Int($0.rawValue) }
  }

  @Test func answersAsTheCorpusDoes() async throws {
    let line = Gen.int(in: 0...(Self.pieces.count - 1)).array(of: 0...6).map { indices in
      indices.map { Self.pieces[$0] }.joined()
    }
    let normalizer = try Normalizer()
    await propertyCheck(count: 100, input: line.array(of: 0...60)) { lines in
      let input = try LineInput(bytes: Array(lines.joined(separator: "\n").utf8), source: "t")
      for text in Self.queries {
        let query = try Query(text, normalizer: normalizer)
        let found = try LineFilter(query: query, normalizer: normalizer).matchingLines(in: input)
        #expect(found == (try corpusAnswer(query, input, normalizer)), "\(text)")
      }
    }
  }

  /// Lines spread over several chunks keep their numbers.
  @Test func chunksKeepTheLineNumbers() throws {
    let normalizer = try Normalizer()
    let count = LineFilter.linesPerChunk * 2 + 123
    let lines = (0..<count).map { $0 % 7 == 0 ? "Zürich \($0)" : "line \($0)" }
    let input = try LineInput(bytes: Array(lines.joined(separator: "\n").utf8), source: "t")
    for text in ["zurich", "!zurich", "^line 3", "9$"] {
      let query = try Query(text, normalizer: normalizer)
      let found = try LineFilter(query: query, normalizer: normalizer).matchingLines(in: input)
      #expect(found == (try corpusAnswer(query, input, normalizer)), "\(text)")
      #expect(!found.isEmpty)
    }
  }
}
