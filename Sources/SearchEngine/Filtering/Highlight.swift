extension SearchResult {
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
}

extension SearchCorpus {
  /// Where `query` matches item `id` in the fields that `scope` searches: one highlight per
  /// value with at least one match.
  ///
  /// Inverse terms highlight nothing.
  ///
  /// A word of a query with typos (``SearchQuery/typos``) that the item does not contain exactly
  /// highlights the item's words it found with the fewest typos: the whole word, or, for the
  /// query's last word while it is typed, the longest prefix of the word at that distance.
  ///
  /// - Parameters:
  ///   - id: The item, which should match `query`.
  ///   - query: The query, folded with this corpus's normaliser.
  ///   - scope: The scope whose fields are highlighted.
  public func highlights(of id: ItemID, for query: SearchQuery, scope: Int = 0) throws(ICUError)
    -> [SearchResult.Highlight]
  {
    try highlights(of: id, for: query, scope: scope, foldingEveryValue: false)
  }

  /// ``highlights(of:for:scope:)``, which folds again (keeping the map back to the text) only
  /// the values that the index's folded values say a term matches, unless a term that may
  /// have typos matches none: `foldingEveryValue` folds them all, as a test's reference.
  ///
  /// A city has dozens of alternate names in many scripts, and a row shows one or two: the
  /// values with no match need no map, and with `fields`, only the matches in those fields are
  /// wanted (a row's display), unless typos are looked for (the fewest typos are counted over
  /// every value).
  func highlights(
    of id: ItemID, for query: SearchQuery, scope: Int, foldingEveryValue: Bool,
    in fields: Set<Int>? = nil
  ) throws(ICUError) -> [SearchResult.Highlight] {
    let terms = zip(query.sets, query.typoRules).flatMap { set, rules in
      zip(set.terms, rules).filter { !$0.0.isInverse }
    }
    if terms.isEmpty { return [] }
    var candidates: [(field: Int, index: Int, text: String, matched: Bool)] = []
    var matchedTerms = Array(repeating: false, count: terms.count)
    let matchers = terms.map { TermMatcher($0.0) }
    for field in scopeFields[scope] {
      let texts = model.values(of: id, field: field)
      guard let column = index.fields[field], !foldingEveryValue else {
        candidates += texts.enumerated().map { (field, $0, $1, true) }
        continue
      }
      let owned = model.valueMaps[field].range(of: Int(id.rawValue))
      for (index, text) in texts.enumerated() {
        var matched = false
        if index < owned.count {
          for (term, matcher) in matchers.enumerated()
          where matcher.matches(column, value: owned.lowerBound + index) {
            matched = true
            matchedTerms[term] = true
          }
        } else {
          matched = true
        }
        candidates.append((field, index, text, matched))
      }
    }
    // A term that may have typos and matches no value exactly looks for its typos in them all.
    let foldsAll = zip(terms, matchedTerms).contains { $0.0.1.budget > 0 && !$0.1 }
    let folder = try normalizer.makeFolder()
    var values: [(field: Int, index: Int, text: String, folded: FoldedText)] = []
    for candidate in candidates
    where foldsAll || candidate.matched && fields?.contains(candidate.field) ?? true {
      values.append(
        (candidate.field, candidate.index, candidate.text, try folder.foldedText(candidate.text)))
    }
    var found = Array(repeating: [Range<Int>](), count: values.count)
    for (term, rule) in terms {
      let exact = values.map { Self.matches(of: term, in: $0.folded) }
      if rule.budget > 0 && exact.allSatisfy(\.isEmpty) {
        let typos = Self.typoMatches(of: term, rule: rule, in: values.map(\.folded))
        for (value, ranges) in typos.enumerated() { found[value] += ranges }
      } else {
        for (value, ranges) in exact.enumerated() { found[value] += ranges }
      }
    }
    var result: [SearchResult.Highlight] = []
    for (position, (field, index, text, folded)) in values.enumerated() {
      let ranges = found[position]
      let original = ranges.compactMap { folded.originalUTF8Range(forFolded: $0) }.merged()
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
        SearchResult.Highlight(
          field: field, value: index, text: text, ranges: indices, utf16Ranges: utf16))
    }
    return result
  }

  /// For each of `texts`, the folded ranges of its words that `term` finds with the fewest
  /// typos under `rule` (none when no word is within the budget): the whole word, or in prefix
  /// mode its longest prefix at that distance ("zurihc" marks all of "zurich", not "zuric").
  static func typoMatches(of term: Term, rule: TypoRule, in texts: [FoldedText])
    -> [[Range<Int>]]
  {
    var codes = CharacterCodes()
    let query = String(decoding: term.pattern.utf8, as: UTF8.self).map { codes.code(of: $0) }
    var found: [(text: Int, range: Range<Int>, distance: Int)] = []
    var words = FoldedWords()
    for (position, text) in texts.enumerated() {
      text.utf8.withUnsafeBufferPointer { bytes in
        words.forEachWord(
          in: bytes, range: 0..<bytes.count, codes: &codes, isBoundary: text.isCharacterBoundary
        ) { characters, offsets in
          guard characters.count <= WordIndex.longestWord else { return }
          let word = Array(characters)
          let distance = TypoDistance.distance(query, word, prefix: rule.isPrefix)
          guard distance <= rule.budget else { return }
          var end = word.count
          if rule.isPrefix {
            end =
              (1...word.count).last {
                TypoDistance.distance(query, Array(word[..<$0]), prefix: false) == distance
              } ?? end
          }
          found.append((position, offsets[0]..<offsets[end], distance))
        }
      }
    }
    var result = Array(repeating: [Range<Int>](), count: texts.count)
    guard let fewest = found.map(\.distance).min() else { return result }
    for match in found where match.distance == fewest { result[match.text].append(match.range) }
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
}

extension SearchCorpus {
  /// The items of a result ordered by relevance, by the schema's ranking rules
  /// (``SearchModel/Schema/ranking``; ``Ranking/default`` unless the data set names its own).
  public func ranked(_ result: SearchResult) -> [ItemID] {
    model.schema.ranking.ranked(
      result.items, query: result.query, scope: result.scope, corpus: self)
  }

  /// Orders by relevance items (in model order) that match `query` in scope `scope`, found
  /// elsewhere (a ``SearchBackend``'s answer): the same order as ``ranked(_:)``.
  public func ranked(_ items: [ItemID], for query: SearchQuery, scope: Int) -> [ItemID] {
    model.schema.ranking.ranked(items, query: query, scope: scope, corpus: self)
  }
}
