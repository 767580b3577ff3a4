// The two syntaxes without operators: words, and one literal piece of text.

extension QueryParser {
  /// The term sets of `text` read as ``SearchQuery/Syntax/words``: one set of one exact term per
  /// run of characters between white space, in query order.
  ///
  /// Words that fold to nothing are dropped.
  static func parseWords(_ text: String, normalizer: Normalizer) throws(ICUError) -> [TermSet] {
    var sets: [TermSet] = []
    var rest = text[...]
    while let start = rest.firstIndex(where: { !isWhiteSpace($0) }) {
      let end = rest[start...].firstIndex(where: isWhiteSpace) ?? rest.endIndex
      if let term = try exactTerm(text[start..<end], normalizer: normalizer) {
        sets.append(TermSet(terms: [term]))
      }
      rest = rest[end...]
    }
    return sets
  }

  /// The term sets of `text` read as ``SearchQuery/Syntax/literal``: one set of one exact term, the
  /// text without the blank characters at either end; none when nothing else is left.
  ///
  /// A character is blank when it is white space or folds to nothing or to white space (a
  /// soft hyphen, a zero-width space): otherwise " \u{AD}x" would look for " x", a space
  /// the user never sees, and a text of such characters alone would not be empty.
  static func parseLiteral(_ text: String, normalizer: Normalizer) throws(ICUError) -> [TermSet] {
    let folder = try normalizer.makeFolder()
    func isBlank(_ character: Character) throws(ICUError) -> Bool {
      if isWhiteSpace(character) { return true }
      return try folder.fold(String(character)).allSatisfy(isWhiteSpace)
    }
    var piece = text[...]
    while let first = piece.first, try isBlank(first) { piece.removeFirst() }
    while let last = piece.last, try isBlank(last) { piece.removeLast() }
    guard let term = try exactTerm(piece, normalizer: normalizer) else { return [] }
    return [TermSet(terms: [term])]
  }

  /// An exact, non-inverse term for a piece of the query; nil when it folds to nothing.
  private static func exactTerm(_ piece: Substring, normalizer: Normalizer) throws(ICUError)
    -> Term?
  {
    let termText = String(piece)
    let pattern = try FoldedPattern(termText, normalizer: normalizer)
    if pattern.isEmpty { return nil }
    return Term(
      kind: .exact, isInverse: false, text: termText, pattern: pattern,
      range: piece.startIndex..<piece.endIndex)
  }

  /// Whether a character separates words: its first scalar has Unicode's White_Space property
  /// (spaces of every width, tab, line breaks, U+00A0, U+3000).
  ///
  /// A mark that follows a space belongs to the space's character and goes with it.
  private static func isWhiteSpace(_ character: Character) -> Bool {
    character.isWhitespace
  }
}
