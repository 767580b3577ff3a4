import TestSupport
import Testing

@testable import SearchDataSets
@testable import SearchEngine

private let latin: Folding = [.case, .diacritics, .compatibility, .latin]

/// Under ``Folding/latin``, runs of a script are transliterated as wholes, so that a letter
/// is read in its context.
private let contextCases: [FoldingCase] = [
  // Greek: "ευ" is "eu", while "υ" alone is "y".
  .same("Οδυσσεύς", "odysseus", "Greek ευ in context", latin),
  .same("ΟΔΥΣΣΕΥΣ", "odysseus", "Greek capitals", latin),
  .same("Ὀδυσσεύς", "odysseus", "polytonic Greek", latin),
  .same("Ευρώπη", "europe", "Greek ευ at the start", latin),
  .same("Μπάμπης", "mpampes", "Greek μπ", latin),
  .same("Οδυσσεύς Ιθάκη", "odysseus ithake", "two Greek words, each a run", latin),
  .different("Οδυσσεύς", "odysseys", "no longer υ alone", latin),
  // Japanese: the prolonged sound mark lengthens the vowel before it.
  .same("コーヒー", "kohi", "Katakana with ー", latin),
  .same("ｺｰﾋｰ", "kohi", "half-width Katakana with ｰ", latin),
  .same("ラーメン", "ramen", "ー that ICU leaves goes", latin),
  .same("コンピューター", "konpyuta", "ー at the end", latin),
  .same("きょう", "kyou", "small ょ joins the kana before it", latin),
  // Han: syllables without spaces.
  .same("你好", "nihao", "Han syllables joined", latin),
  .same("北京", "beijing", "Han syllables joined", latin),
  .same("你好 世界", "nihao shijie", "a space in the text stays", latin),
  .same("東京タワー", "dongjingtawa", "a Han run then a Katakana run", latin),
  // Scripts that needed no context still fold as before.
  .same("Москва", "moskva", "Cyrillic to Latin", latin),
  .same("Санкт-Петербург", "sankt-peterburg", "a hyphen ends a run", latin),
  .same("서울", "seoul", "Hangul", latin),
  .same("القاهرة", "alqahrt", "Arabic", latin),
  // Without latin nothing is transliterated.
  .different("Οδυσσεύς", "odysseus", "no transliteration by default"),
  .different("你好", "nihao", "no transliteration by default"),
]

@Suite(.tags(.concurrent)) struct ContextTransliterationTests {
  @Test(arguments: contextCases)
  func folding(_ testCase: FoldingCase) throws {
    try testCase.check()
  }

  /// Both directions: a query in the original script finds the Latin spelling, and the Latin
  /// spelling finds the original.
  @Test(arguments: [
    ("odysseus", [0, 1]), ("Οδυσσεύς", [0, 1]), ("ΟΔΥΣΣΕΥΣ", [0, 1]), ("dysse", [0, 1]),
    ("nihao", [2, 4]), ("你好", [2, 4]), ("hao", [2, 3, 4]), ("ni\\ hao", [2, 3, 4]),
    ("^ni\\ hao$", [2, 3, 4]), ("'ni\\ hao", [2, 3, 4]), ("!ni\\ hao", [0, 1, 5, 6, 7]),
    ("kohi", [5]), ("コーヒー", [5]), ("moskva", [6, 7]), ("Москва", [6, 7]),
  ])
  func queriesMatchBothWays(_ text: String, _ expected: [Int]) throws {
    let lines = [
      "Οδυσσεύς", "Odysseus", "你好", "ni hao", "nihao", "コーヒー", "Москва", "Moskva",
    ]
    let normalizer = try Normalizer(folding: latin)
    #expect(try matchingLines(text, lines, normalizer) == expected)
  }

  /// A term with a space matches its joined form only under latin.
  @Test func spacedTermsJoinOnlyUnderLatin() throws {
    let lines = ["你好", "ni hao", "nihao"]
    #expect(try matchingLines("ni\\ hao", lines, try Normalizer()) == [1])
    let latinNormalizer = try Normalizer(folding: latin)
    #expect(try matchingLines("ni\\ hao", lines, latinNormalizer) == [0, 1, 2])
    let query = try SearchQuery("ni\\ hao", normalizer: latinNormalizer)
    #expect(query.description == "(ni\\ hao | nihao)")
    #expect(try SearchQuery("ni\\ hao", normalizer: try Normalizer()).description == "ni\\ hao")
    // An inverse term must lack both forms; its set splits in two.
    let inverse = try SearchQuery("a | !ni\\ hao", normalizer: latinNormalizer)
    #expect(inverse.description == "(a | !ni\\ hao) (a | !nihao)")
    // A term typed without a space needs no other form.
    #expect(try SearchQuery("nihao", normalizer: latinNormalizer).description == "nihao")
  }

  /// Narrowing a spaced query as it is typed gives what a full scan gives.
  @Test func typingASpacedTermNarrows() throws {
    let normalizer = try Normalizer(folding: latin)
    let lines = ["你好", "ni hao", "nihao", "你们", "ni ha", "北京"]
    let bytes = Array(lines.joined(separator: "\n").utf8)
    let input = try LineInput(bytes: bytes, source: "t")
    let corpus = try SearchCorpus(model: DataSetLoader.loadLines(input), normalizer: normalizer)
    var filter = IncrementalFilter()
    var previous: SearchQuery?
    for text in ["n", "ni", "ni\\ ", "ni\\ h", "ni\\ ha", "ni\\ hao"] {
      let query = try SearchQuery(text, normalizer: normalizer)
      if let previous { #expect(query.narrows(previous), "\(text)") }
      let narrowed = (filter.search(query, scope: 0, in: corpus)?.items ?? []).map(\.rawValue)
      var fresh = IncrementalFilter()
      let full = (fresh.search(query, scope: 0, in: corpus)?.items ?? []).map(\.rawValue)
      #expect(narrowed == full, "\(text)")
      previous = query
    }
  }

  /// A match inside a run highlights the characters its letters came from.
  @Test(arguments: [
    ("你好", "hao", ["好"]), ("你好", "ni", ["你"]), ("你好", "iha", ["你好"]),
    ("你好", "nihao", ["你好"]), ("你好", "ni\\ hao", ["你好"]),
    ("Οδυσσεύς", "odyss", ["Οδυσσ"]), ("Οδυσσεύς", "eus", ["εύς"]), ("Οδυσσεύς", "us", ["ύς"]),
    ("Οδυσσεύς", "odysseus", ["Οδυσσεύς"]), ("Ευρώπη", "rope", ["ρώπη"]),
    ("コーヒー", "ko", ["コー"]), ("コーヒー", "hi", ["ヒー"]), ("コーヒー", "kohi", ["コーヒー"]),
    ("ラーメン", "ramen", ["ラーメン"]), ("ラーメン", "men", ["メン"]), ("ラーメン", "ra", ["ラー"]),
    ("Москва", "skv", ["скв"]), ("Μπάμπης", "mpa", ["Μπά"]),
    ("café 你好 Москва", "hao", ["好"]), ("你好你好", "hao", ["好", "好"]),
  ])
  func highlightsTheOriginalCharacters(_ text: String, _ query: String, _ expected: [String])
    throws
  {
    let normalizer = try Normalizer(folding: latin)
    let folded = try normalizer.foldedText(text)
    let parsed = try SearchQuery(query, normalizer: normalizer)
    let term = try #require(parsed.sets.first?.terms.last)
    let ranges = SearchCorpus.matches(of: term, in: folded).compactMap {
      folded.originalRange(forFolded: $0)
    }
    #expect(ranges.map { String(text[$0]) } == expected)
  }

  /// The folded run maps every cut between its characters back to whole characters, and
  /// repeated runs are folded once.
  @Test func runsAreCached() throws {
    let normalizer = try Normalizer(folding: latin)
    let folder = try normalizer.makeFolder()
    #expect(try folder.fold("Οδυσσεύς Οδυσσεύς") == "odysseus odysseus")
    #expect(folder.runEntries.count == 1)
    // A single character of a script folds the per-character way, without a run.
    #expect(try folder.fold("ω") == "o")
    #expect(folder.runEntries.count == 1)
  }

  /// A run longer than ``Folder/runLimit`` characters is folded in pieces, each mapped.
  @Test func longRunsFoldInPieces() throws {
    let normalizer = try Normalizer(folding: latin)
    let text = String(repeating: "你好", count: 40)
    let folded = try normalizer.foldedText(text)
    #expect(folded.folded == String(repeating: "nihao", count: 40))
    let pattern = try FoldedPattern("hao", normalizer: normalizer)
    let highlighted = pattern.originalRanges(in: folded).map { String(text[$0]) }
    #expect(highlighted == Array(repeating: "好", count: 40))
  }

  private func matchingLines(_ text: String, _ lines: [String], _ normalizer: Normalizer)
    throws -> [Int]
  {
    let query = try SearchQuery(text, normalizer: normalizer)
    let bytes = Array(lines.joined(separator: "\n").utf8)
    let input = try LineInput(bytes: bytes, source: "t")
    let corpus = try SearchCorpus(model: DataSetLoader.loadLines(input), normalizer: normalizer)
    var filter = IncrementalFilter()
    let found = (filter.search(query, scope: 0, in: corpus)?.items ?? []).map {
      Int($0.rawValue)
    }
    let filtered = try LineFilter(query: query, normalizer: normalizer).matchingLines(in: bytes)
    #expect(found == filtered, "\(text)")
    return found
  }
}
