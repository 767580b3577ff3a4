/// Turns query text into term sets, byte for byte like fzf 0.38's `BuildPattern` and
/// `parseTerms` (`src/pattern.go`) in extended exact mode.
enum QueryParser {
  private static let space = UInt8(ascii: " ")
  private static let tab = UInt8(ascii: "\t")
  private static let backslash = UInt8(ascii: "\\")
  private static let bar = UInt8(ascii: "|")
  private static let bang = UInt8(ascii: "!")
  private static let dollar = UInt8(ascii: "$")
  private static let quote = UInt8(ascii: "'")
  private static let caret = UInt8(ascii: "^")

  /// A run of the query between unescaped spaces.
  struct Token: Equatable {
    /// UTF-8 offsets of the token in the query text, escapes and operators included.
    var range: Range<Int>
    /// The token's bytes with each `\ ` (and each tab) read as a space.
    var bytes: [UInt8]
  }

  /// The term sets of `text`, each term folded with `normalizer`.
  static func parse(_ text: String, normalizer: Normalizer) throws(ICUError) -> [TermSet] {
    let utf8 = text.utf8
    var sets: [TermSet] = []
    var set: [Term] = []
    // fzf's switchSet: the next term starts a new set (false right after a `|`).
    var startsNewSet = false
    var afterBar = false
    for token in tokens(in: Array(utf8)) {
      var body = token.bytes[...]
      if !set.isEmpty && !afterBar && body.elementsEqual(CollectionOfOne(bar)) {
        startsNewSet = false
        afterBar = true
        continue
      }
      afterBar = false

      var kind = Term.Kind.exact
      var isInverse = false
      if body.first == bang {
        isInverse = true
        body = body.dropFirst()
      }
      if body.last == dollar && !body.elementsEqual(CollectionOfOne(dollar)) {
        kind = .suffix
        body = body.dropLast()
      }
      if body.first == quote {
        kind = .fuzzy
        body = body.dropFirst()
      } else if body.first == caret {
        kind = kind == .suffix ? .equal : .prefix
        body = body.dropFirst()
      }
      if body.isEmpty { continue }

      // Operators are ASCII bytes taken off the ends, so `body` is still valid UTF-8.
      let termText = String(decoding: body, as: UTF8.self)
      let pattern = try FoldedPattern(termText, normalizer: normalizer)
      if pattern.isEmpty { continue }
      let lower = utf8.index(utf8.startIndex, offsetBy: token.range.lowerBound)
      let upper = utf8.index(lower, offsetBy: token.range.count)
      if startsNewSet {
        sets.append(TermSet(terms: set))
        set = []
      }
      set.append(
        Term(
          kind: kind, isInverse: isInverse, text: termText, pattern: pattern, range: lower..<upper)
      )
      startsNewSet = true
    }
    if !set.isEmpty { sets.append(TermSet(terms: set)) }
    return sets
  }

  /// The tokens of a query: spaces trimmed at both ends (but not an escaped final space), then
  /// split at runs of unescaped spaces.
  ///
  /// An empty or all-space query is one empty token.
  static func tokens(in bytes: [UInt8]) -> [Token] {
    var start = 0
    var end = bytes.count
    while start < end && bytes[start] == space { start += 1 }
    while end > start && bytes[end - 1] == space
      && !(end - start >= 2 && bytes[end - 2] == backslash)
    {
      end -= 1
    }

    var tokens: [Token] = []
    var current: [UInt8] = []
    var tokenStart = start
    var index = start
    while index < end {
      let byte = bytes[index]
      if byte == backslash && index + 1 < end && bytes[index + 1] == space {
        current.append(space)
        index += 2
      } else if byte == space {
        tokens.append(Token(range: tokenStart..<index, bytes: current))
        current = []
        while index < end && bytes[index] == space { index += 1 }
        tokenStart = index
      } else {
        current.append(byte == tab ? space : byte)
        index += 1
      }
    }
    tokens.append(Token(range: tokenStart..<end, bytes: current))
    return tokens
  }
}
