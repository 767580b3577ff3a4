/// How well one word of a query matched an item, by the rules' measures, packed into one
/// number that compares as the rules do: lower is better.
///
/// A word may match an item several times (in the name, in an alternate name); the rules read
/// its best match, the one that comes first by the measures in the rules' order. So "san" that
/// starts a city's name and is the whole of one of its alternate names (an airport's code) is
/// judged by the name when ``Ranking/Rule/field`` comes before ``Ranking/Rule/exactness``.
struct WordRank {
  /// The four measures' shifts in the packed number, in ``Measure`` order (stored apart, not
  /// in an array: the ranking packs and reads them for every match of every item).
  ///
  /// The measure the rules name first is the most significant. Widths: field 16 bits,
  /// exactness 8, position 8, length 32.
  private let fieldShift, exactnessShift, positionShift, lengthShift: UInt64
  private static let widths: [UInt64] = [16, 8, 8, 32]

  /// What the rules measure of one match.
  enum Measure: Int, CaseIterable { case field, exactness, position, length }

  /// The packing for `ranking`: its measures in the order it names them, the others after.
  init(_ ranking: Ranking) {
    var order: [Measure] = []
    for rule in ranking.rules {
      let measure: Measure? =
        switch rule {
        case .field: .field
        case .exactness: .exactness
        case .position: .position
        case .length: .length
        default: nil
        }
      if let measure, !order.contains(measure) { order.append(measure) }
    }
    order += Measure.allCases.filter { !order.contains($0) }
    var shifts = [UInt64](repeating: 0, count: 4)
    var next: UInt64 = 64
    for measure in order {
      next -= Self.widths[measure.rawValue]
      shifts[measure.rawValue] = next
    }
    (fieldShift, exactnessShift, positionShift, lengthShift) =
      (shifts[0], shifts[1], shifts[2], shifts[3])
    fieldComesFirst = order.first == .field
  }

  /// Whether the field is the most significant measure: a match in an earlier field beats
  /// any in a later one.
  let fieldComesFirst: Bool

  /// A word that did not match.
  static let unmatched = UInt64.max

  /// The packed number of a match.
  @inline(__always)
  func pack(field: Int, exactness: Int, position: Int, length: Int) -> UInt64 {
    UInt64(min(field, 0xFFFE)) << fieldShift | UInt64(exactness) << exactnessShift
      | UInt64(position) << positionShift | UInt64(min(length, 0xFFFF_FFFF)) << lengthShift
  }

  /// One measure of a packed match.
  @inline(__always)
  func measure(_ measure: Measure, of packed: UInt64) -> Int {
    switch measure {
    case .field: Int(packed >> fieldShift & 0xFFFF)
    case .exactness: Int(packed >> exactnessShift & 0xFF)
    case .position: Int(packed >> positionShift & 0xFF)
    case .length: Int(packed >> lengthShift & 0xFFFF_FFFF)
    }
  }
}

extension Ranking {
  /// An item's measures, summed over the query's words.
  struct Key {
    var words = 0
    var typos = 0
    var field = 0
    var exactness = 0
    var position = 0
    var length = Int.max
  }

  /// Sorts `items` (in model order) by these rules for `query` in `scope`.
  ///
  /// `packingLimit`: the most bits the measures may take packed into one number per item;
  /// rankings past it compare the rules one by one (a test sets 0 to compare the two).
  func ranked(
    _ items: [ItemID], query: SearchQuery, scope: Int, corpus: SearchCorpus,
    packingLimit: Int = UInt64.bitWidth
  ) -> [ItemID] {
    // The last word, while it is typed (no space after it), may be unfinished: so is a word
    // the query repeats it as (`e e e` ranks as `e`).
    let last = query.sets.last?.terms.last.flatMap { last in
      last.range.upperBound == query.text.endIndex && !last.isInverse ? last : nil
    }
    let terms = query.positiveTermsCounted.map { term, rule, count in
      var matcher = TermMatcher(term)
      matcher.numberMatches = corpus.numberMatches(of: matcher.number)
      matcher.typo = TypoWord(term, rule: rule)
      let isOpen = last.map { $0.kind == term.kind && $0.pattern == term.pattern } ?? false
      return (matcher: matcher, count: count, isOpen: isOpen)
    }
    if terms.isEmpty || items.count < 2 { return items }
    let fields = corpus.scopeFields[scope].sorted().compactMap { field in
      corpus.index.fields[field].map {
        (index: field, text: FieldText(values: $0, map: corpus.model.valueMaps[field]))
      }
    }
    let texts = fields.map(\.text)
    let packing = WordRank(self)
    // The keys of pieces of the list on every core: each item's key reads only that item.
    let pieces = Parallel.ranges(
      count: items.count, size: max(4096, items.count / (Parallel.activeProcessorCount * 4) + 1))
    let keys = Parallel.map(chunks: pieces.count) { piece in
      Self.keys(
        of: items[pieces[piece]], terms: terms, fields: fields, texts: texts, packing: packing,
        corpus: corpus)
    }.flatMap { $0 }
    return order(items, keys: keys, corpus: corpus, packingLimit: packingLimit)
  }

  /// The keys of `items`, in their order.
  private static func keys(
    of items: ArraySlice<ItemID>, terms: [(matcher: TermMatcher, count: Int, isOpen: Bool)],
    fields: [(index: Int, text: FieldText)], texts: [FieldText], packing: WordRank,
    corpus: SearchCorpus
  ) -> [Key] {
    var keys = [Key](repeating: Key(), count: items.count)
    // Term by term, then field by field: each column is taken once for all the items (a
    // column taken per item and term retained and released each of its arrays every time).
    var best = [UInt64](repeating: WordRank.unmatched, count: items.count)
    // Through their buffers: the loops below write them for every item and term.
    keys.withUnsafeMutableBufferPointer { keys in
      best.withUnsafeMutableBufferPointer { best in
        for (term, count, isOpen) in terms {
          best.update(repeating: WordRank.unmatched)
          for (field, text) in fields {
            let (values, map) = (text.values, text.map)
            if term.kind == .exact {
              // One search over each item's values in this field.
              let skipsMatched = packing.fieldComesFirst
              values.bytes.withUnsafeBufferPointer { bytes in
                values.starts.withUnsafeBufferPointer { starts in
                  term.needle.withUnsafeBufferPointer { needle in
                    let values = ValueBytes(bytes: bytes, starts: starts, interior: values.interior)
                    for (position, id) in zip(best.indices, items) {
                      if skipsMatched && best[position] != WordRank.unmatched { continue }
                      let owned = map.range(of: Int(id.rawValue))
                      best[position] = min(
                        best[position],
                        values.bestMatch(
                          of: needle, in: owned, field: field, isOpen: isOpen, packing: packing))
                    }
                  }
                }
              }
              continue
            }
            for (position, id) in zip(best.indices, items) {
              // When the field is the first measure, a match in an earlier field is the best:
              // the later fields (a city's many alternate names) are not read.
              if packing.fieldComesFirst && best[position] != WordRank.unmatched { continue }
              for value in map.range(of: Int(id.rawValue)) {
                guard
                  let found = Self.rank(of: term, in: values, value: value, isOpen: isOpen)
                else { continue }
                let packed = packing.pack(
                  field: field, exactness: found.exactness, position: found.position,
                  length: values.range(of: value).count)
                best[position] = min(best[position], packed)
              }
            }
          }
          for (position, id) in zip(best.indices, items) {
            var found = best[position]
            // A number equal to a number attribute matches a whole value; an attribute is no
            // searched field, so it counts as the first and its length does not count.
            if term.number != nil, !term.numberMatches.isEmpty,
              SearchCorpus.hasNumber(
                Int(id.rawValue), matches: term.numberMatches, model: corpus.model)
            {
              found = min(found, packing.pack(field: 0, exactness: 0, position: 0, length: .max))
            }
            if found == WordRank.unmatched,
              let typo = term.typo?.best(ofItem: id.rawValue, fields: texts)
            {
              keys[position].words += count
              keys[position].typos += typo.typos * count
              keys[position].field += fields[typo.field].index * count
              keys[position].exactness += (typo.place == 0 ? 0 : 1) * count
              keys[position].position += (typo.place == 2 ? 1 : 0) * count
              keys[position].length = min(keys[position].length, typo.length)
              continue
            }
            // A term of an either-or set that did not match this item does not count against it.
            guard found != WordRank.unmatched else { continue }
            keys[position].words += count
            keys[position].field += packing.measure(.field, of: found) * count
            keys[position].exactness += packing.measure(.exactness, of: found) * count
            keys[position].position += packing.measure(.position, of: found) * count
            keys[position].length = min(keys[position].length, packing.measure(.length, of: found))
          }
        }
      }
    }
    return keys
  }

  /// `items` sorted by `keys` under the rules, ties in the order given.
  private func order(_ items: [ItemID], keys: [Key], corpus: SearchCorpus, packingLimit: Int)
    -> [ItemID]
  {
    // Each attribute rule's rank of the item's number, in the rule's order; not a number last.
    let model = corpus.model
    var attributeRanks: [[UInt32]] = []
    for rule in rules {
      guard case .attribute(let name, let order) = rule,
        let attribute = model.schema.attributeIndex(named: name)
      else { continue }
      let byCode = corpus.attributeNumbers.ranks(
        of: attribute, values: model.attributeValues[attribute])
      let codes = model.attributeOfItem[attribute]
      attributeRanks.append(
        items.map { id in
          let rank = byCode[Int(codes[Int(id.rawValue)])]
          return rank == .max || order == .ascending ? rank : .max - 1 - rank
        })
    }
    // Each rule's measures, lower first: of the keys, or an attribute's ranks (none for an
    // attribute the schema does not have: every item ties).
    var attribute = 0
    let measures = rules.map { rule -> Measures in
      switch rule {
      case .words: return .words
      case .typos: return .typos
      case .field: return .field
      case .exactness: return .exactness
      case .position: return .position
      case .length: return .length
      case .attribute:
        defer { attribute += 1 }
        return attribute < attributeRanks.count ? .ranks(attributeRanks[attribute]) : .ranks([])
      }
    }
    // Less the measure's least, a measure every item shares takes no bits, the others the
    // bits of their spread.
    let spans = measures.map { measures in
      var (least, most) = (UInt64.max, UInt64.min)
      measures.forEach(of: keys) { _, value in (least, most) = (min(least, value), max(most, value))
      }
      return least > most
        ? (least: 0, width: 0)
        : (least: least, width: UInt64.bitWidth - (most - least).leadingZeroBitCount)
    }
    let bits = spans.reduce(0) { $0 + $1.width }
    guard bits <= min(packingLimit, UInt64.bitWidth) else {
      let columns = measures.map { measures in
        var column = [UInt64](repeating: 0, count: keys.count)
        measures.forEach(of: keys) { row, value in column[row] = value }
        return column
      }
      return sortedRuleByRule(items, columns: columns)
    }
    // The measures packed into one number per item, the first rule's most significant: a
    // radix sort of plain integers, stable, so ties keep the order given.
    var packed = [UInt64](repeating: 0, count: items.count)
    packed.withUnsafeMutableBufferPointer { packed in
      for (measures, span) in zip(measures, spans) where span.width > 0 {
        measures.forEach(of: keys) { row, value in
          packed[row] = packed[row] << span.width | (value - span.least)
        }
      }
    }
    return RadixSort.stableOrder(of: packed, bits: bits).map { items[Int($0)] }
  }

  /// Where one rule's measure of each item comes from, lower first.
  private enum Measures {
    case words, typos, field, exactness, position, length
    /// An attribute's ranks, in the items' order; empty: every item ties.
    case ranks([UInt32])

    /// Calls `body` with each row and its measure, in the keys' order.
    @inline(__always)
    func forEach(of keys: [Key], _ body: (Int, UInt64) -> Void) {
      keys.withUnsafeBufferPointer { keys in
        switch self {
        case .words:
          for row in keys.indices {
            body(row, UInt64(UInt32.max) - UInt64(min(keys[row].words, Int(UInt32.max))))
          }
        case .typos: for row in keys.indices { body(row, UInt64(keys[row].typos)) }
        case .field: for row in keys.indices { body(row, UInt64(keys[row].field)) }
        case .exactness: for row in keys.indices { body(row, UInt64(keys[row].exactness)) }
        case .position: for row in keys.indices { body(row, UInt64(keys[row].position)) }
        case .length:
          for row in keys.indices { body(row, UInt64(min(keys[row].length, Int(UInt32.max)))) }
        case .ranks(let ranks):
          if ranks.isEmpty {
            for row in keys.indices { body(row, 0) }
          } else {
            ranks.withUnsafeBufferPointer { ranks in
              for row in keys.indices { body(row, UInt64(ranks[row])) }
            }
          }
        }
      }
    }
  }

  /// `items` sorted by comparing the rules' measures one by one: for keys whose spread does
  /// not fit in 64 bits.
  private func sortedRuleByRule(_ items: [ItemID], columns: [[UInt64]]) -> [ItemID] {
    var indices = Array(items.indices)
    indices.sort { a, b in
      for column in columns where column[a] != column[b] { return column[a] < column[b] }
      return a < b
    }
    return indices.map { items[$0] }
  }

  /// A field's folded bytes and value starts, borrowed for a pass over many items.
  private struct ValueBytes {
    let bytes: UnsafeBufferPointer<UInt8>
    let starts: UnsafeBufferPointer<Int32>
    let interior: [Int32]

    /// The best match, packed, of `needle` (an exact term) in the consecutive values
    /// `owned`; ``WordRank/unmatched`` if none holds it.
    ///
    /// One search runs over the values and their separators (a match never spans two), the
    /// same measures as ``Ranking/rank(of:in:value:isOpen:)``: a value's position is its first
    /// match's, its exactness the best of its matches, down to the best a word can read.
    func bestMatch(
      of needle: UnsafeBufferPointer<UInt8>, in owned: Range<Int>, field: Int, isOpen: Bool,
      packing: WordRank
    ) -> UInt64 {
      var best = WordRank.unmatched
      guard !owned.isEmpty, !needle.isEmpty else { return best }
      let count = needle.count
      let floor = isOpen ? 2 : 1
      let (bytes, starts, interior) = (self.bytes, self.starts, self.interior)
      let end = Int(starts[owned.upperBound]) - 1
      var value = owned.lowerBound
      var from = Int(starts[value])
      // The measures of the matches in `value` so far.
      var found: (exactness: Int, position: Int)?
      func close() {
        guard let measures = found else { return }
        let length = Int(starts[value + 1]) - 1 - Int(starts[value])
        best = min(
          best,
          packing.pack(
            field: field, exactness: measures.exactness, position: measures.position,
            length: length))
        found = nil
      }
      while from < end,
        let start = ByteSearch.first(
          needle, in: bytes, range: from..<end,
          accept: {
            FoldedValues.isBoundary($0, bytes: bytes, interior: interior)
              && FoldedValues.isBoundary($0 + count, bytes: bytes, interior: interior)
          })
      {
        while Int(starts[value + 1]) <= start {
          close()
          value += 1
        }
        let range = Int(starts[value])..<(Int(starts[value + 1]) - 1)
        let exactness: Int
        if start == range.lowerBound && start + count == range.upperBound {
          exactness = 0
        } else if !Ranking.startsWord(bytes, at: start, valueStart: range.lowerBound) {
          exactness = 3
        } else {
          exactness =
            !isOpen && Ranking.endsWord(bytes, at: start + count, valueEnd: range.upperBound)
            ? 1 : 2
        }
        if let known = found {
          found = (min(known.exactness, exactness), known.position)
        } else {
          found = (exactness, start == range.lowerBound ? 0 : 1)
        }
        if let known = found, known.exactness <= floor {
          // No later match in this value reads better: on to the next value.
          close()
          value += 1
          guard value < owned.upperBound else { break }
          from = Int(starts[value])
        } else {
          from = start + 1
        }
      }
      close()
      return best
    }
  }

  /// The exactness and position of the term's best match in one value.
  ///
  /// nil if it does not match there. `isOpen`: the term is the query's last word, still typed.
  static func rank(of term: TermMatcher, in values: FoldedValues, value: Int, isOpen: Bool)
    -> (exactness: Int, position: Int)?
  {
    let range = values.range(of: value)
    let count = term.needle.count
    return values.bytes.withUnsafeBufferPointer { bytes -> (exactness: Int, position: Int)? in
      // How a match at start..<start + count reads: whole value, whole word, start of a word,
      // inside a word.
      func exactness(at start: Int) -> Int {
        let end = start + count
        if start == range.lowerBound && end == range.upperBound { return 0 }
        guard startsWord(bytes, at: start, valueStart: range.lowerBound) else { return 3 }
        return !isOpen && endsWord(bytes, at: end, valueEnd: range.upperBound) ? 1 : 2
      }
      switch term.kind {
      case .equal: return term.matches(values, value: value) ? (0, 0) : nil
      case .prefix:
        guard term.matches(values, value: value) else { return nil }
        return (exactness(at: range.lowerBound), 0)
      case .suffix:
        guard term.matches(values, value: value) else { return nil }
        let start = range.upperBound - count
        return (exactness(at: start), start == range.lowerBound ? 0 : 1)
      case .exact, .fuzzy:
        // The first match is the one nearest the start; a later one may read better (a whole
        // word after a match inside one), down to the best a word can read here.
        var best: (exactness: Int, position: Int)?
        let floor = isOpen ? 2 : 1
        var from = range.lowerBound
        let interior = values.interior
        while let start = term.needle.withUnsafeBufferPointer({ needle in
          ByteSearch.first(needle, in: bytes, range: from..<range.upperBound) {
            FoldedValues.isBoundary($0, bytes: bytes, interior: interior)
              && FoldedValues.isBoundary($0 + needle.count, bytes: bytes, interior: interior)
          }
        }) {
          let found = exactness(at: start)
          if let known = best {
            best = (min(known.exactness, found), known.position)
          } else {
            best = (found, start == range.lowerBound ? 0 : 1)
          }
          if found <= floor { break }
          from = start + 1
        }
        if best == nil, term.kind == .fuzzy, term.matches(values, value: value) {
          // The characters in order with others between them: inside, further in.
          return (3, 1)
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
    var start = offset - 1
    while start > valueStart && base[start] & 0xC0 == 0x80 { start -= 1 }
    return !isWordCharacter(base, at: start, end: offset)
  }

  /// Whether the character at `offset` is not a letter or digit.
  static func endsWord(_ bytes: UnsafeBufferPointer<UInt8>, at offset: Int, valueEnd: Int) -> Bool {
    guard offset < valueEnd, let base = bytes.baseAddress else { return true }
    return !isWordCharacter(base, at: offset, end: valueEnd)
  }

  /// Whether the character at `offset` (before `end`) is a letter or a digit.
  private static func isWordCharacter(_ base: UnsafePointer<UInt8>, at offset: Int, end: Int)
    -> Bool
  {
    let first = base[offset]
    if first < 0x80 {
      // ASCII: alphabetic or numeric means a letter or a digit.
      return (first | 0x20) >= 0x61 && (first | 0x20) <= 0x7A || first &- 0x30 < 10
    }
    let value = Folder.decode(base, at: offset, count: end).value
    if value < 0x1_0000 {
      return wordCharactersOfTheBasicPlane[Int(value >> 6)] & 1 << UInt64(value & 63) != 0
    }
    return isLetterOrDigit(value)
  }

  /// Whether the scalar `value` is alphabetic or numeric.
  private static func isLetterOrDigit(_ value: UInt32) -> Bool {
    guard let scalar = Unicode.Scalar(value) else { return false }
    let properties = scalar.properties
    return properties.isAlphabetic || properties.numericType != nil
  }

  /// ``isLetterOrDigit(_:)`` of every scalar below U+10000, a bit each (8 KB): the ranking
  /// asks it of the character before each match, and the Unicode properties cost a lookup
  /// of several tables each time.
  private static let wordCharactersOfTheBasicPlane: [UInt64] = (0..<1024).map { word in
    (0..<64).reduce(UInt64(0)) { bits, bit in
      isLetterOrDigit(UInt32(word << 6 | bit)) ? bits | 1 << UInt64(bit) : bits
    }
  }
}
