/// Relevance order for results: where the query matched, then how long the matched field is,
/// then model order.
///
/// Each positive term of the query gets the best category among its matches in the item's
/// searched values — the whole value, a prefix of the value, the start of a word, inside a
/// word — and the length of that value. A number equal to a number attribute is a whole-value
/// match without a length: the attribute is not a searched field, so "mac 2006" orders the
/// Macs of 2006 by their names' lengths. An item's key is the sum of its terms' categories,
/// then the shortest value its terms matched in, then its position in the model; lower keys
/// come first. For a one-term query this is exactly "whole field > prefix of field > prefix
/// of word > inside a word, shorter field first, then model order".
///
/// With typo tolerance (see ``TypoTolerance``) the typos come first: an item's typo count is
/// the sum over its terms of the fewest edits each needed (0 for a term found exactly), and
/// items with fewer typos come before the others, ordered as above among themselves. A term
/// found only with typos takes the category and the length of its best word at its fewest
/// edits: a word that is the whole value, one at its start, or another word.
enum Ranking {
  /// Where a term matched, best first.
  enum Category: Int, Comparable, Sendable {
    case wholeValue = 0
    case valuePrefix = 1
    case wordPrefix = 2
    case insideWord = 3

    static func < (lhs: Category, rhs: Category) -> Bool { lhs.rawValue < rhs.rawValue }
  }

  /// Sorts `items` (in model order) by relevance for `query`.
  static func ranked(_ items: [ItemID], query: SearchQuery, scope: Int, corpus: SearchCorpus)
    -> [ItemID]
  {
    // A term the query has several times counts as many times, matched once.
    let terms = query.positiveTermsCounted.map { term, rule, count in
      var matcher = TermMatcher(term)
      matcher.numberMatches = corpus.numberMatches(of: matcher.number)
      matcher.typo = TypoWord(term, rule: rule)
      return (matcher: matcher, count: count)
    }
    if terms.isEmpty { return items }
    let texts = corpus.scopeFields[scope].compactMap { field in
      corpus.index.fields[field].map {
        QueryEvaluator.ItemText(values: $0, map: corpus.model.valueMaps[field])
      }
    }
    var keys = items.enumerated().map { position, id in
      (typos: 0, category: 0, length: Int.max, position: position, id: id)
    }
    // Term by term, then field by field: each column is taken once for all the items (a
    // column taken per item and term retained and released each of its arrays every time).
    var best = [(Category, Int)?](repeating: nil, count: items.count)
    for (term, count) in terms {
      for position in best.indices { best[position] = nil }
      for text in texts {
        let (values, map) = (text.values, text.map)
        for (position, id) in items.enumerated() {
          for value in map.range(of: Int(id.rawValue)) {
            guard let found = self.category(of: term, in: values, value: value) else { continue }
            let candidate = (found, values.range(of: value).count)
            if best[position].map({ candidate < $0 }) ?? true { best[position] = candidate }
          }
        }
      }
      for (position, id) in items.enumerated() {
        // A number equal to a number attribute matches a whole value; an attribute is no
        // searched field, so its length does not count.
        var found = best[position]?.0
        if term.number != nil, !term.numberMatches.isEmpty,
          SearchCorpus.hasNumber(Int(id.rawValue), matches: term.numberMatches, model: corpus.model)
        {
          found = .wholeValue
        }
        if found == nil, let typo = term.typo?.best(ofItem: id.rawValue, fields: texts) {
          keys[position].typos += typo.typos * count
          keys[position].category += typo.place * count
          keys[position].length = min(keys[position].length, typo.length)
          continue
        }
        // A term of an OR set that did not match this item does not count against it.
        guard let found else { continue }
        keys[position].category += found.rawValue * count
        if let length = best[position]?.1 {
          keys[position].length = min(keys[position].length, length)
        }
      }
    }
    keys.sort {
      ($0.typos, $0.category, $0.length, $0.position)
        < ($1.typos, $1.category, $1.length, $1.position)
    }
    return keys.map(\.id)
  }

  /// The best category of the term's matches in one value, or nil if it does not match there.
  static func category(of term: TermMatcher, in values: FoldedValues, value: Int) -> Category? {
    let range = values.range(of: value)
    return values.bytes.withUnsafeBufferPointer { bytes -> Category? in
      switch term.kind {
      case .fuzzy: return term.matches(values, value: value) ? .insideWord : nil
      case .equal: return term.matches(values, value: value) ? .wholeValue : nil
      case .prefix:
        guard term.matches(values, value: value) else { return nil }
        return range.count == term.needle.count ? .wholeValue : .valuePrefix
      case .suffix:
        guard term.matches(values, value: value) else { return nil }
        if range.count == term.needle.count { return .wholeValue }
        return startsWord(
          bytes, at: range.upperBound - term.needle.count, valueStart: range.lowerBound)
          ? .wordPrefix : .insideWord
      case .exact:
        var best: Category?
        var position = range.lowerBound
        let interior = values.interior
        while let start = term.needle.withUnsafeBufferPointer({ needle in
          ByteSearch.first(needle, in: bytes, range: position..<range.upperBound) {
            FoldedValues.isBoundary($0, bytes: bytes, interior: interior)
              && FoldedValues.isBoundary($0 + needle.count, bytes: bytes, interior: interior)
          }
        }) {
          let found: Category
          if start == range.lowerBound {
            found = start + term.needle.count == range.upperBound ? .wholeValue : .valuePrefix
          } else {
            found =
              startsWord(bytes, at: start, valueStart: range.lowerBound) ? .wordPrefix : .insideWord
          }
          if best.map({ found < $0 }) ?? true { best = found }
          if found == .wholeValue || found == .valuePrefix { break }
          position = start + 1
        }
        return best
      }
    }
  }

  /// Whether the character before `offset` is not a letter or digit.
  static func startsWord(_ bytes: UnsafeBufferPointer<UInt8>, at offset: Int, valueStart: Int)
    -> Bool
  {
    guard offset > valueStart, let base = bytes.baseAddress else { return true }
    let previous = base[offset - 1]
    if previous < 0x80 {
      // ASCII: alphabetic or numeric means a letter or a digit.
      return !((previous | 0x20) >= 0x61 && (previous | 0x20) <= 0x7A || previous &- 0x30 < 10)
    }
    var start = offset - 1
    while start > valueStart && base[start] & 0xC0 == 0x80 { start -= 1 }
    let value = Folder.decode(base, at: start, count: offset).value
    guard let scalar = Unicode.Scalar(value) else { return true }
    let properties = scalar.properties
    return !(properties.isAlphabetic || properties.numericType != nil)
  }
}
