import Testing

@testable import SearchEngine

/// A query typed after another, and whether the newer one narrows the older: every item that
/// matches `newer` is sure to match `older`.
struct NarrowingCase: CustomTestStringConvertible, Sendable {
  var older: String
  var newer: String
  var narrows: Bool

  init(_ older: String, _ newer: String, _ narrows: Bool) {
    self.older = older
    self.newer = newer
    self.narrows = narrows
  }

  var testDescription: String {
    "\(older.debugDescription) → \(newer.debugDescription): \(narrows ? "narrows" : "does not")"
  }
}

// How the rows were checked against fzf 0.38.0: over 6,000 generated items (random strings of
// "abcABx |$^!'\" and tab, up to 7 long), for every ASCII row expected to narrow, the items
// printed by `fzf --filter NEWER --exact -i` were a subset of those printed for OLDER. For a
// row expected not to narrow, the comment names an item fzf matched with the newer query and
// not with the older (so true would give wrong results), or says why false is only cautious.
private let narrowingCases: [NarrowingCase] = [
  // Typing and deleting
  // anything narrows the empty query
  .init("", "c", true),
  // typing on
  .init("c", "ca", true),
  .init("ca", "cab", true),
  // deleting a character; fzf: "cA" matches the newer query, not the older
  .init("cab", "ca", false),
  // the empty query narrows only the empty query; fzf: "" matches the newer query, not the older
  .init("c", "", false),
  .init("", "", true),
  // Adding, removing and reordering terms
  // a term added
  .init("abc", "abc a$", true),
  // a term removed; fzf: "ABC" matches the newer query, not the older
  .init("abc a$", "abc", false),
  // order does not matter
  .init("abc b", "b abc", true),
  // "abc" contains "b"
  .init("b", "abc", true),
  // fzf: "B" matches the newer query, not the older
  .init("abc", "b", false),
  .init("c", "ca ^x", true),
  // Anchors
  // a prefix grows at the end
  .init("^c", "^ca", true),
  // fzf: "c" matches the newer query, not the older
  .init("^ca", "^c", false),
  // a suffix grows at the front, not at the end; fzf: "cAB" matches the newer query, not the older
  .init("ca$", "cab$", false),
  .init("a$", "ca$", true),
  // a prefix contains its text
  .init("c", "^ca", true),
  // fzf: "!c" matches the newer query, not the older
  .init("^c", "c", false),
  .init("a", "ca$", true),
  // fzf: "cA" matches the newer query, not the older
  .init("b", "ca$", false),
  .init("ab", "^xab$", true),
  .init("^ab", "^ab$", true),
  .init("ab$", "^xab$", true),
  .init("b$", "^ab$", true),
  // fzf: "ABC" matches the newer query, not the older
  .init("^ab$", "^abc$", false),
  .init("^ab$", "^ab$ x", true),
  // fzf: "AB'" matches the newer query, not the older
  .init("^ab$", "^ab", false),
  // fzf: "!a" matches the newer query, not the older
  .init("^a", "a$", false),
  .init("^a", #"^a\ b"#, true),
  .init(#"a\ "#, #"a\ b"#, true),
  .init(#"a\ "#, #"\ a\ b"#, true),
  .init("a", #"^\ a"#, true),
  // true in fzf, but the rule does not see through white space (a full scan)
  .init("a$", #"a\ $"#, false),
  // likewise
  .init("^a", #"^\ a"#, false),
  // Fuzzy terms
  // a fuzzy term does not imply an exact one; fzf: "A$b" matches the newer query, not the older
  .init("ab", "'ab", false),
  // but it does imply its single characters
  .init("a", "'ab", true),
  // characters in order
  .init("'ac", "abc", true),
  .init("'ac", "'abc", true),
  .init("'ac", "^abc", true),
  // fzf: "Ac" matches the newer query, not the older
  .init("'abc", "'ac", false),
  // order matters; fzf: "ABC" matches the newer query, not the older
  .init("'ca", "abc", false),
  // never inverse for non-inverse; fzf: "" matches the newer query, not the older
  .init("'ac", "!abc", false),
  // Inverse terms: the contrapositive
  // fewer items lack "ab" than lack "abc"
  .init("!abc", "!ab", true),
  // fzf: "AB" matches the newer query, not the older
  .init("!ab", "!abc", false),
  // fzf: "AB" matches the newer query, not the older
  .init("!ab", "ab", false),
  // fzf: "" matches the newer query, not the older
  .init("ab", "!ab", false),
  .init("!^ab", "!^a", true),
  // fzf: "A" matches the newer query, not the older
  .init("!^a", "!^ab", false),
  // an item without "ab" cannot start with it
  .init("!^ab", "!ab", true),
  // fzf: "!aB" matches the newer query, not the older
  .init("!ab", "!^ab", false),
  .init("!'ab", "!a", true),
  // fzf: "A" matches the newer query, not the older
  .init("!a", "!'ab", false),
  .init("!abc", "!'ac", true),
  // fzf: "Ac" matches the newer query, not the older
  .init("!'ac", "!abc", false),
  // Sets joined by |
  .init("a | b", "a", true),
  // fzf: "B" matches the newer query, not the older
  .init("a", "a | b", false),
  .init("a | b", "b | a", true),
  // an alternative added; fzf: "c" matches the newer query, not the older
  .init("a | b", "a | b | c", false),
  // an alternative removed
  .init("a | b | c", "a | b", true),
  .init("a | b", "ab", true),
  .init("a b", "ab", true),
  .init("a | b", "ax | by", true),
  // fzf: "x" matches the newer query, not the older
  .init("abc", "abc | x", false),
  .init("a | !b", "a", true),
  .init("a | !b", "!b", true),
  // fzf: "B" matches the newer query, not the older
  .init("a | !b", "!bc", false),
  .init("a | !bc", "!b", true),
  // Folding and whole characters (not comparable with fzf, which folds differently)
  .init("ecole", "ÉCOLES", true),
  // both fold to "e"
  .init("é", "e", true),
  .init("'e", "É", true),
  // a query that folds to nothing is empty
  .init("\u{AD}", "a", true),
  .init("a", "a \u{AD}", true),
  .init("a \u{AD}", "a", true),
  // the thumb is not a whole character of the toned thumb
  .init("👍", "👍🏽", false),
  .init("^👍", "^👍🏽", false),
  .init("'👍", "'👍🏽", false),
  .init("👍", "'👍🏽", false),
  .init("🇫🇷", "🇺🇸🇫🇷", true),
  // the middle regional indicators are no flag
  .init("🇸🇫", "🇺🇸🇫🇷", false),
  .init("🇫🇷$", "🇺🇸🇫🇷$", true),
  .init("'🇫🇷", "🇺🇸🇫🇷", true),
]

@Suite struct QueryNarrowingTests {
  @Test func tableHasEnoughRows() {
    #expect(narrowingCases.count >= 25)
  }

  @Test(arguments: narrowingCases)
  func narrows(_ row: NarrowingCase) throws {
    let normalizer = try Normalizer()
    let older = try SearchQuery(row.older, normalizer: normalizer)
    let newer = try SearchQuery(row.newer, normalizer: normalizer)
    #expect(newer.narrows(older) == row.narrows)
  }

  @Test(arguments: [
    "abc", "^abc$ !x", "'ab | c$", "!^a | b", "a | | b", "ÉCOLE 👍🏽", "🇺🇸🇫🇷", "\u{AD}", "",
  ])
  func everyQueryNarrowsItself(_ text: String) throws {
    let query = try SearchQuery(text, normalizer: try Normalizer())
    #expect(query.narrows(query))
  }

  @Test func typingAQueryCharacterByCharacterNarrowsEachStep() throws {
    let normalizer = try Normalizer()
    let typed = "^caf cr !x"
    var previous = try SearchQuery("", normalizer: normalizer)
    var steps: [Bool] = []
    for end in typed.indices.dropFirst() + [typed.endIndex] {
      let query = try SearchQuery(String(typed[..<end]), normalizer: normalizer)
      steps.append(query.narrows(previous))
      previous = query
    }
    // "^" (empty) "^c" "^ca" "^caf" "^caf " "^caf c" "^caf cr" "^caf cr " "^caf cr !"
    // (empty term dropped) "^caf cr !x" (a term added).
    #expect(steps == Array(repeating: true, count: typed.count))
  }
}
