/// Where a query matched in one value of a field of an item, in the original text: whole
/// characters, as `String` ranges and as UTF-16 offsets for `NSRange` users.
public struct Highlight: Hashable, Sendable {
  /// The field's index in the schema.
  public let field: Int
  /// The value's index among the field's values for the item.
  public let value: Int
  /// The value's original text.
  public let text: String
  /// The matched ranges of `text`, ascending and not overlapping.
  public let ranges: [Range<String.Index>]
  /// The same ranges in UTF-16 code units.
  public let utf16Ranges: [Range<Int>]
}

extension SearchCorpus {
  /// Where `query` matches item `id` in the fields that `scope` searches: one highlight per
  /// value with at least one match. Inverse terms highlight nothing.
  public func highlights(of id: ItemID, for query: Query, scope: Int = 0) throws(ICUError)
    -> [Highlight]
  {
    let folder = try normalizer.makeFolder()
    let terms = query.sets.flatMap(\.terms).filter { !$0.isInverse }
    if terms.isEmpty { return [] }
    var result: [Highlight] = []
    for field in scopeFields[scope] {
      for (index, text) in model.values(of: id, field: field).enumerated() {
        let folded = try folder.foldedText(text)
        var ranges: [Range<Int>] = []
        for term in terms { ranges += Self.matches(of: term, in: folded) }
        let original = Self.merged(ranges.compactMap { folded.originalUTF8Range(forFolded: $0) })
        guard !original.isEmpty else { continue }
        let utf8 = text.utf8
        let indices = original.map { range in
          utf8.index(
            utf8.startIndex, offsetBy: range.lowerBound)..<utf8.index(
              utf8.startIndex, offsetBy: range.upperBound)
        }
        let utf16 = indices.map { range in
          let lower = text.utf16.distance(from: text.startIndex, to: range.lowerBound)
          return lower..<(lower + text.utf16.distance(from: range.lowerBound, to: range.upperBound))
        }
        result.append(
          Highlight(field: field, value: index, text: text, ranges: indices, utf16Ranges: utf16))
      }
    }
    return result
  }

  /// The folded ranges where a term matches a folded text, as the scan would find them.
  static func matches(of term: Term, in text: FoldedText) -> [Range<Int>] {
    let bytes = text.utf8
    let needle = term.pattern.utf8
    let matcher = TermMatcher(term)
    switch term.kind {
    case .exact:
      return term.pattern.matches(in: text)
    case .fuzzy:
      var ranges: [Range<Int>] = []
      var position = 0
      for character in matcher.characters {
        let found = bytes.withUnsafeBufferPointer { haystack in
          character.withUnsafeBufferPointer { needle in
            ByteSearch.first(needle, in: haystack, range: position..<haystack.count) {
              text.isCharacterBoundary($0) && text.isCharacterBoundary($0 + needle.count)
            }
          }
        }
        guard let found else { return [] }
        ranges.append(found..<(found + character.count))
        position = found + character.count
      }
      return ranges
    case .prefix, .suffix, .equal:
      var lower = 0
      var upper = bytes.count
      bytes.withUnsafeBufferPointer { all in
        if term.kind != .suffix && matcher.skipsLeadingSpace {
          lower = Whitespace.leadingLength(all)
        }
        if term.kind != .prefix && matcher.skipsTrailingSpace {
          upper -= min(Whitespace.trailingLength(all), upper - lower)
        }
      }
      guard upper - lower >= needle.count else { return [] }
      let start: Int
      switch term.kind {
      case .prefix: start = lower
      case .suffix: start = upper - needle.count
      default:
        guard upper - lower == needle.count else { return [] }
        start = lower
      }
      guard bytes[start..<(start + needle.count)].elementsEqual(needle),
        text.isCharacterBoundary(start), text.isCharacterBoundary(start + needle.count)
      else { return [] }
      return [start..<(start + needle.count)]
    }
  }

  /// Sorted ranges with overlapping or touching ones joined.
  static func merged(_ ranges: [Range<Int>]) -> [Range<Int>] {
    var result: [Range<Int>] = []
    for range in ranges.sorted(by: { $0.lowerBound < $1.lowerBound }) where !range.isEmpty {
      if let last = result.last, range.lowerBound <= last.upperBound {
        result[result.count - 1] = last.lowerBound..<max(last.upperBound, range.upperBound)
      } else {
        result.append(range)
      }
    }
    return result
  }
}

extension SearchCorpus {
  /// The items of a result ordered by relevance: whole field, prefix of the field, prefix of
  /// a word, inside a word (summed over the query's terms); shorter fields first; then model
  /// order. A number that equals a number attribute counts as a whole field.
  public func ranked(_ result: SearchResult) -> [ItemID] {
    Ranking.ranked(result.items, query: result.query, scope: result.scope, corpus: self)
  }

  /// Orders by relevance items (in model order) that match `query` in scope `scope`, found
  /// elsewhere (a ``SearchBackend``'s answer).
  public func ranked(_ items: [ItemID], for query: Query, scope: Int) -> [ItemID] {
    Ranking.ranked(items, query: query, scope: scope, corpus: self)
  }
}
