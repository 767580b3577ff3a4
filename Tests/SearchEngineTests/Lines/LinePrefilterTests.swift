import PropertyBased
import TestSupport
import Testing

@testable import SearchEngine

/// ``LinePrefilter`` only spares work: ``LineFilter`` finds the same lines with it as without
/// it, for lines and queries that stress folding (case, ligatures, full-width forms, combining
/// marks, characters that fold to nothing, Turkish i, Hangul, viramas, emoji) and for inverse,
/// fuzzy, anchored and OR terms, under several foldings.
@Suite(.tags(.concurrent))
struct LinePrefilterTests {
  private static let pieces = [
    "san", "SAN", "José", "JOSE", "jose", "Zürich", "ZU\u{308}RICH", "zurich", " ", "\u{3000}",
    "ﬁn", "FIN", "ﬃ", "Ｚｕｒｉｃｈ", "ｓａｎ", "東京", "москва", "МОСКВА", "e\u{301}", "É", "d\u{093F}",
    "क्ष", "İstanbul", "ISTANBUL", "ı", "i\u{307}", "ß", "SS", "ǅ", "\u{AD}", "\u{200C}",
    "\u{200D}", "한국", "\u{1100}\u{1161}", "👨‍👩‍👧", "🇫🇷", "\r", "\t", "|", "!", "^", "$", "'",
    "ø", "Æ", "ﬀ", "①", "㎐", "ﾃﾞ", "デ", "ｶﾞ",
  ]
  private static let queries = [
    "san", "jose", "zurich", "zürich", "^san", "ich$", "^zurich$", "!san", "san | jose",
    "san !jose", "!e !d", "'sjs", "'zrh", "fin", "ﬁ", "ffi", "東", "москва", "é", "d", "e", "ss",
    "^ ", "zur ich", "istanbul", "i", "ı", "한", "ᄀ", "क", "ष", "👨", "fr", "o", "ae", "1", "hz",
    "テ", "デ", "ｶ", "か", "jose | !san", "^jose | ich$", "fin san | zurich", "san$ | ^ss", "",
    "\\ ", "n z", "ǆ",
  ]

  @Test(
    arguments: [
      Folding.default, [.case], [.diacritics, .compatibility], [.case, .dotlessI], .none,
    ] as [Folding])
  func findsWhatTheUnprefilteredFilterFinds(folding: Folding) async throws {
    let line = Gen.int(in: 0...(Self.pieces.count - 1)).array(of: 0...7).map { indices in
      indices.map { Self.pieces[$0] }.joined()
    }
    for locale in [nil, "tr"] as [String?] {
      let normalizer = try Normalizer(folding: folding, locale: locale)
      await propertyCheck(count: TestBudget.cases(60), input: line.array(of: 0...40)) { lines in
        let bytes = Array(lines.joined(separator: "\n").utf8)
        for text in Self.queries {
          let query = try SearchQuery(text, normalizer: normalizer)
          let prefiltered = LineFilter(query: query, normalizer: normalizer, chunkBytes: 97)
          let full = LineFilter(
            query: query, normalizer: normalizer, chunkBytes: 97, prefilters: false)
          #expect(
            try prefiltered.matchingLines(in: bytes) == (try full.matchingLines(in: bytes)),
            "\(text) \(folding) \(locale ?? "root")")
        }
      }
    }
  }

  /// The prefilter rejects: a line whose folded form has no needle of a set is not folded into
  /// the column, and one that has a needle is kept.
  @Test func keepsOnlyLinesThatMayMatch() throws {
    let normalizer = try Normalizer()
    let folder = try normalizer.makeFolder()
    let lines = [
      "Zürich", "Zurich", "Bern", "ZÜRICH", "Zu\u{308}rich", "Ｚｕｒｉｃｈ", "Москва", "",
      "zu\u{AD}rich",
    ]
    let bytes = Array(lines.joined(separator: "\n").utf8)
    var ranges: [Range<Int>] = []
    var start = 0
    for line in lines {
      ranges.append(start..<(start + line.utf8.count))
      start += line.utf8.count + 1
    }
    let query = try SearchQuery("zurich", normalizer: normalizer)
    let prefilter = try #require(
      LinePrefilter(sets: query.sets.map { $0.terms.map(TermMatcher.init) }))
    let kept = try bytes.withUnsafeBufferPointer { bytes in
      try prefilter.candidates(ranges, of: bytes, folder: folder)
    }
    // "Bern", "Москва" and the empty line are rejected; the others fold to "zurich", the
    // decomposed one and the one with a soft hyphen too.
    #expect(kept == [0, 1, 3, 4, 5, 8])
    // Inverse and fuzzy sets reject nothing: there is no prefilter.
    for text in ["!zurich", "'zurich", "zurich | !bern"] {
      let sets = try SearchQuery(text, normalizer: normalizer).sets
      #expect(LinePrefilter(sets: sets.map { $0.terms.map(TermMatcher.init) }) == nil, "\(text)")
    }
  }
}
