import SearchCommandLine
import SearchCore
import SearchCoreTesting
import SearchEngine

/// Queries with typos drawn from a data set, as `SearchBenchmarks --suite typos` types them: an item's
/// value, its words up to one long enough for the typos, that word mistyped.
///
/// The draw is repeatable (a fixed seed). Each typo is one edit on whole characters: a
/// character replaced by another of the same word, one inserted, one deleted, or two neighbours
/// swapped; a query whose folded word is not exactly that many edits from the folded word it
/// mistypes (an edit that folds away, two that undo each other) is drawn again. Half of
/// the queries are typed as the data has them, the other half folded (lower case, no accents),
/// as a person who does not type accents would.
struct TypoQuery {
  /// The query typed correctly: the value's words up to the mistyped one.
  var correct: String
  /// The same words with the typos.
  var mistyped: String
  /// How many edits were made: 1 or 2.
  var typos: Int
  /// The field the value was drawn from, and the value folded: a row whose value in this field
  /// folds to the same text is what the person meant.
  var field: Int
  var intended: String
}

extension TypoQuery {
  /// The edits a typo may be.
  enum Edit: CaseIterable {
    case substitution, insertion, deletion, transposition
  }

  /// `count` queries from `model`'s values of its first searched field, each with `typos` typos
  /// in a word of at least `minimumLength` characters, mistyped and folded as well as correct;
  /// fewer when the data has too few such words.
  static func draw(
    count: Int, typos: Int, minimumLength: Int, from model: SearchModel, normalizer: Normalizer,
    seed: UInt64
  ) throws -> [TypoQuery] {
    guard
      let field = model.schema.fields.indices.first(where: { model.schema.fields[$0].isSearched }),
      model.count > 0
    else { return [] }
    var random = SplitMix64(seed: seed)
    var queries: [TypoQuery] = []
    var attempts = 0
    while queries.count < count && attempts < count * 50 {
      attempts += 1
      let id = model.id(at: Int.random(in: 0..<model.count, using: &random))
      guard let value = model.values(of: id, field: field).first else { continue }
      let words = value.split(whereSeparator: \.isWhitespace).map(String.init)
      guard
        let chosen = words.indices.filter({ words[$0].count >= minimumLength }).randomElement(
          using: &random)
      else { continue }
      var word = Array(words[chosen])
      for _ in 0..<typos { word = edited(word, using: &random) }
      // Edits may undo each other or fold away: the query has as many typos as it says, counted
      // as the search counts them (on the folded words' characters), and the mistyped word is
      // still long enough for them (a deletion may shorten it below the length).
      let folded = try normalizer.fold(String(word))
      guard
        try distance(normalizer.fold(words[chosen]), folded) == typos,
        folded.count >= minimumLength
      else { continue }
      let typedFolded = queries.count % 2 == 1
      var correct = words[...chosen].joined(separator: " ")
      var mistyped = (words[..<chosen] + [String(word)]).joined(separator: " ")
      if typedFolded {
        correct = try normalizer.fold(correct)
        mistyped = try normalizer.fold(mistyped)
      }
      queries.append(
        TypoQuery(
          correct: correct, mistyped: mistyped, typos: typos, field: field,
          intended: try normalizer.fold(value)))
    }
    return queries
  }

  /// The edit distance between two folded words, on their characters (a transposition is one
  /// edit), as typo tolerance counts it.
  static func distance(_ a: String, _ b: String) -> Int {
    var codes: [Character: UInt32] = [:]
    func coded(_ text: String) -> [UInt32] {
      text.map { character in
        if let code = codes[character] { return code }
        let code = UInt32(codes.count)
        codes[character] = code
        return code
      }
    }
    return TypoDistance.distance(coded(a), coded(b), prefix: false)
  }

  /// `word` with one edit at a random place.
  static func edited(_ word: [Character], using random: inout SplitMix64) -> [Character] {
    var word = word
    guard word.count >= 2 else { return word }
    // A replacement or an inserted character: another of the word's own, so that it is of
    // the word's script.
    let other = word[Int.random(in: 0..<word.count, using: &random)]
    let place = Int.random(in: 0..<word.count, using: &random)
    switch Edit.allCases[Int.random(in: 0..<Edit.allCases.count, using: &random)] {
    case .substitution:
      word[place] = word[place] == other ? (other == "e" ? "a" : "e") : other
    case .insertion: word.insert(other, at: place)
    case .deletion: word.remove(at: place)
    case .transposition:
      let first = min(place, word.count - 2)
      word.swapAt(first, first + 1)
      if word[first] == word[first + 1] { word[first] = word[first] == "e" ? "a" : "e" }
    }
    return word
  }
}
