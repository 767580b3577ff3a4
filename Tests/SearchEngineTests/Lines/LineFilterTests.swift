import PropertyBased
import TestSupport
import Testing

@testable import SearchDataSets
@testable import SearchEngine

/// ``LineFilter`` (what `filter` runs on plain lines) gives the answer of the corpus path: an
/// ``IncrementalFilter`` over ``DataSetLoader/loadLines(_:)`` of the same input.
@Suite(.tags(.concurrent))
struct LineFilterTests {
  private static let pieces = [
    "san", "José", "jose", "Zürich", "zurich", " ", " ", "ﬁn", "東京", "москва", "e\u{301}",
    "d\u{093F}", "!", "|", "'", "^", "$", "\r", "ǅ", "İ", "ß", "ss", "\t",
  ]
  private static let queries = [
    "san", "jose", "^san", "ich$", "^zurich$", "!san", "san | jose", "san !jose", "'sjs",
    "fin", "ﬁ", "東", "москва", "é", "d", "e", "ss", "^ ", "!e !d", "zur ich", "",
  ]

  private func corpusAnswer(_ query: SearchQuery, _ input: LineInput, _ normalizer: Normalizer)
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
    // Batches and chunks from one byte up, so that lines cross every boundary.
    let sizes = Gen.int(in: 1...80)
    let normalizer = try Normalizer()
    await propertyCheck(count: TestBudget.cases(100), input: line.array(of: 0...60), sizes, sizes) {
      lines, batchBytes, chunkBytes in
      let bytes = Array(lines.joined(separator: "\n").utf8)
      let input = try LineInput(bytes: bytes, source: "t")
      for text in Self.queries {
        let query = try SearchQuery(text, normalizer: normalizer)
        let filter = LineFilter(
          query: query, normalizer: normalizer, batchBytes: batchBytes, chunkBytes: chunkBytes)
        let found = try filter.matchingLines(in: bytes)
        #expect(found == (try corpusAnswer(query, input, normalizer)), "\(text)")
      }
    }
  }

  /// Lines spread over many batches and chunks keep their numbers, with the defaults and with
  /// small batches.
  @Test(arguments: [(8 << 20, 256 << 10), (10_000, 1_000), (1_000, 4_000)])
  func batchesKeepTheLineNumbers(batchBytes: Int, chunkBytes: Int) throws {
    let normalizer = try Normalizer()
    let lines = (0..<40_123).map { $0 % 7 == 0 ? "Zürich \($0)" : "line \($0)" }
    let bytes = Array(lines.joined(separator: "\n").utf8)
    let input = try LineInput(bytes: bytes, source: "t")
    for text in ["zurich", "!zurich", "^line 3", "9$"] {
      let query = try SearchQuery(text, normalizer: normalizer)
      let filter = LineFilter(
        query: query, normalizer: normalizer, batchBytes: batchBytes, chunkBytes: chunkBytes)
      let found = try filter.matchingLines(in: bytes)
      #expect(found == (try corpusAnswer(query, input, normalizer)), "\(text)")
      #expect(!found.isEmpty)
    }
  }

  /// Invalid UTF-8 is reported at its line and byte, counted over the batches before it.
  @Test(arguments: [8 << 20, 64, 7])
  func invalidUTF8NamesItsLineAcrossBatches(batchBytes: Int) throws {
    let normalizer = try Normalizer()
    var bytes = Array((0..<50).map { "line \($0)\n" }.joined().utf8)
    bytes += Array("ok ".utf8) + [0xC3, 0x28] + Array(" after\nlast\n".utf8)
    let filter = LineFilter(
      query: try SearchQuery("line", normalizer: normalizer), normalizer: normalizer,
      batchBytes: batchBytes, chunkBytes: 16)
    #expect(
      throws: InputError(
        source: "<text>", line: 51, column: 4, reason: "invalid UTF-8 (byte 0xC3)",
        hint: "the input must be UTF-8; if it is text in another encoding, convert it first,"
          + " e.g. from Latin-1 with iconv -f latin1 -t utf-8")
    ) {
      try filter.matchingLines(in: bytes)
    }
  }

  /// Bytes that are not text are called what they look like, with no advice to convert them;
  /// text in another encoding is.
  @Test(
    arguments: [
      ([0x1F, 0x8B, 0x08, 0x00, 0xFF], "the input looks like gzip data, not text"),
      ([0x7F, 0x45, 0x4C, 0x46, 0x02, 0x01, 0x01, 0x00, 0xC8], "like an executable (ELF)"),
      (Array("a\u{0}b\n".utf8) + [0xFF], "like a binary file (it holds NUL bytes)"),
      ([0xFF, 0xFE, 0x61, 0x00], "is UTF-16 (it starts with a byte order mark)"),
      (Array("caf".utf8) + [0xE9, 0x0A], "from Latin-1 with iconv -f latin1 -t utf-8"),
    ] as [([UInt8], String)])
  func bytesThatAreNotUTF8AreNamed(bytes: [UInt8], hint: String) throws {
    let normalizer = try Normalizer()
    let filter = LineFilter(
      query: try SearchQuery("a", normalizer: normalizer), normalizer: normalizer)
    do {
      _ = try filter.matchingLines(in: bytes)
      Issue.record("no error")
    } catch let error as InputError {
      #expect(error.hint?.contains(hint) == true, "\(error)")
      // Binary data gets no advice to convert it.
      let isBinary = error.hint?.contains("not text") == true
      #expect(isBinary == (error.hint?.contains("iconv") == false), "\(error)")
    }
  }

  /// Line ends as ``LineInput`` reads them: "\r\n" is searched without its "\r", a last line
  /// needs no "\n", a final "\n" starts no empty line, and no input has no lines.
  @Test func lineEnds() throws {
    let normalizer = try Normalizer()
    func found(_ query: String, _ text: String) throws -> [Int] {
      try LineFilter(query: try SearchQuery(query, normalizer: normalizer), normalizer: normalizer)
        .matchingLines(in: Array(text.utf8))
    }
    #expect(try found("a$", "xa\r\nya\nza") == [0, 1, 2])
    #expect(try found("", "one\ntwo\n") == [0, 1])
    #expect(try found("", "one\n\ntwo") == [0, 1, 2])
    #expect(try found("", "").isEmpty)
    // As in fzf, "^$" anchors an empty term, which every line matches, the empty one too.
    #expect(try found("^$", "a\n\nb\n") == [0, 1, 2])
  }
}
