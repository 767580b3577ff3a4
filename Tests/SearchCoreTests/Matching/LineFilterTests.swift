import Testing

@testable import SearchCore

@Suite struct LineFilterTests {
  private func matches(_ query: String, _ lines: [String], folding: Folding = .default) throws
    -> [Int]
  {
    let input = try LineInput(bytes: Array(lines.joined(separator: "\n").utf8), source: "test")
    let filter = try LineFilter(query: query, normalizer: try Normalizer(folding: folding))
    return try filter.matchingLines(in: input)
  }

  @Test func matchesInInputOrder() throws {
    #expect(try matches("an", ["Banana", "apple", "Ananas", "cherry"]) == [0, 2])
  }

  @Test func emptyQueryMatchesEveryLine() throws {
    #expect(try matches("", ["a", "b"]) == [0, 1])
    #expect(try matches("\u{AD}", ["a", "b"]) == [0, 1])
  }

  @Test func queryIsFoldedLikeTheLines() throws {
    #expect(try matches("ÉCOLE", ["ecole", "école", "e\u{301}cole", "eco"]) == [0, 1, 2])
    #expect(try matches("école", ["ecole", "e\u{301}cole"], folding: .none) == [1])
  }

  @Test func largeInputsSplitIntoChunksGiveTheSameAnswer() throws {
    // More lines than one chunk, so the parallel path runs; every 7th line matches.
    let count = LineFilter.linesPerChunk * 3 + 11
    let lines = (0..<count).map { $0 % 7 == 0 ? "Café \($0)" : "tea \($0)" }
    let expected = (0..<count).filter { $0 % 7 == 0 }
    #expect(try matches("cafe", lines) == expected)
  }
}
