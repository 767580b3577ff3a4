import SearchCoreTesting
import TestSupport
import Testing

@testable import SearchEngine

/// Recall of typo tolerance on the committed cities: names misspelt by one edit, found among
/// the first ten rows.
@Suite struct TypoRecallTests {
  /// One edit at a random place inside a word of at least five characters: a substitution, an
  /// insertion, a deletion or a transposition of neighbours; nil when the name has no such word
  /// or the edit leaves fewer than five (a query word that short has no typo).
  static func misspelt(_ name: String, _ random: inout SplitMix64) -> String? {
    var words = name.split(separator: " ", omittingEmptySubsequences: false).map(Array.init)
    let long = words.indices.filter { words[$0].count >= 5 && words[$0].allSatisfy(\.isLetter) }
    guard !long.isEmpty else { return nil }
    let w = long[Int(random.next() % UInt64(long.count))]
    var word = words[w]
    let at = 1 + Int(random.next() % UInt64(word.count - 2))
    switch random.next() % 4 {
    case 0: word[at] = word[at] == "x" ? "q" : "x"
    case 1: word.insert("e", at: at)
    case 2: word.remove(at: at)
    default: word.swapAt(at, at + 1)
    }
    // The query word keeps the length that has a typo.
    guard word.count >= 5 else { return nil }
    words[w] = word
    return words.map { String($0) }.joined(separator: " ")
  }

  @Test func oneTypoFindsTheCityAmongTheFirstTen() throws {
    let corpus = try Fixtures.corpus("cities/cities")
    let normalizer = corpus.normalizer
    // Names no other city has (folded), so that one row is the intended one.
    var count: [String: Int] = [:]
    var names: [(ItemID, String)] = []
    for id in corpus.model.ids {
      let name = corpus.model.values(of: id, field: 0)[0]
      count[try normalizer.fold(name), default: 0] += 1
      names.append((id, name))
    }
    var random = SplitMix64(seed: 0x7E_C0DE)
    var tried = 0
    var found = 0
    var missed: [String] = []
    while tried < TestBudget.cases(250) {
      let (id, name) = names[Int(random.next() % UInt64(names.count))]
      guard count[try normalizer.fold(name)] == 1 else { continue }
      // Half on the text as written, half on its folded form.
      let text = random.next() % 2 == 0 ? name : try normalizer.fold(name)
      guard let query = Self.misspelt(text, &random) else { continue }
      tried += 1
      let parsed = try SearchQuery(query, syntax: .words, typos: .default, normalizer: normalizer)
      var filter = IncrementalFilter()
      guard let result = filter.search(parsed, scope: 0, in: corpus) else { continue }
      if corpus.ranked(result).prefix(10).contains(id) {
        found += 1
      } else {
        missed.append("\(query) (\(name))")
      }
    }
    let recall = Double(found) / Double(tried)
    #expect(recall >= 0.95, "recall \(recall), missed: \(missed.prefix(20))")
  }
}
