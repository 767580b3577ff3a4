/// How well one word of a query matched an item, by the rules' measures, packed into one
/// number that compares as the rules do: lower is better.
///
/// A word may match an item several times (in the name, in an alternate name); the rules read
/// its best match, the one that comes first by the measures in the rules' order. So "san" that
/// starts a city's name and is the whole of one of its alternate names (an airport's code) is
/// judged by the name when ``Ranking/Rule/field`` comes before ``Ranking/Rule/exactness``.
struct WordRank {
  /// The four measures' shifts in the packed number.
  ///
  /// The measure the rules name first is the most significant. Widths: field 16 bits,
  /// exactness 8, position 8, length 32.
  private let shifts: [UInt64]
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
    self.shifts = shifts
    fieldComesFirst = order.first == .field
  }

  /// Whether the field is the most significant measure: a match in an earlier field beats
  /// any in a later one.
  let fieldComesFirst: Bool

  /// A word that did not match.
  static let unmatched = UInt64.max

  /// The packed number of a match.
  func pack(field: Int, exactness: Int, position: Int, length: Int) -> UInt64 {
    UInt64(min(field, 0xFFFE)) << shifts[0] | UInt64(exactness) << shifts[1]
      | UInt64(position) << shifts[2] | UInt64(min(length, 0xFFFF_FFFF)) << shifts[3]
  }

  /// One measure of a packed match.
  func measure(_ measure: Measure, of packed: UInt64) -> Int {
    let width = Self.widths[measure.rawValue]
    return Int(packed >> shifts[measure.rawValue] & (1 << width - 1))
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
  func ranked(_ items: [ItemID], query: SearchQuery, scope: Int, corpus: SearchCorpus)
    -> [ItemID]
  {
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
    var keys = [Key](repeating: Key(), count: items.count)
    let packing = WordRank(self)
    // Term by term, then field by field: each column is taken once for all the items (a
    // column taken per item and term retained and released each of its arrays every time).
    var best = [UInt64](repeating: WordRank.unmatched, count: items.count)
    for (term, count, isOpen) in terms {
      for position in best.indices { best[position] = WordRank.unmatched }
      for (field, text) in fields {
        let (values, map) = (text.values, text.map)
        for (position, id) in items.enumerated() {
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
      for (position, id) in items.enumerated() {
        var found = best[position]
        // A number equal to a number attribute matches a whole value; an attribute is no
        // searched field, so it counts as the first and its length does not count.
        if term.number != nil, !term.numberMatches.isEmpty,
          SearchCorpus.hasNumber(Int(id.rawValue), matches: term.numberMatches, model: corpus.model)
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
    return order(items, keys: keys, corpus: corpus)
  }

  /// `items` sorted by `keys` under the rules, ties in the order given.
  private func order(_ items: [ItemID], keys: [Key], corpus: SearchCorpus) -> [ItemID] {
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
    // Each item's key packed into 192 bits in the rules' order (each measure saturating at
    // its width), then the position: sorting plain integers, not comparing rule by rule.
    let widths = rules.map(Self.width)
    guard widths.reduce(0, +) <= 192 else {
      return sortedRuleByRule(items, keys: keys, attributeRanks: attributeRanks)
    }
    var packed = [(UInt64, UInt64, UInt64, position: Int32)]()
    packed.reserveCapacity(items.count)
    for position in items.indices {
      let key = keys[position]
      var (high, middle, low): (UInt64, UInt64, UInt64) = (0, 0, 0)
      var attribute = 0
      for (rule, width) in zip(rules, widths) {
        let value: Int
        switch rule {
        case .words: value = 0xFFFF - min(key.words, 0xFFFF)
        case .typos: value = key.typos
        case .field: value = key.field
        case .exactness: value = key.exactness
        case .position: value = key.position
        case .length: value = key.length
        case .attribute:
          value = attribute < attributeRanks.count ? Int(attributeRanks[attribute][position]) : 0
          attribute += 1
        }
        high = high << width | middle >> (64 - width)
        middle = middle << width | low >> (64 - width)
        low = low << width | UInt64(min(value, 1 << width - 1))
      }
      packed.append((high, middle, low, Int32(position)))
    }
    packed.sort { ($0.0, $0.1, $0.2, $0.position) < ($1.0, $1.1, $1.2, $1.position) }
    return packed.map { items[Int($0.position)] }
  }

  /// The bits a rule's measure takes in a packed key.
  private static func width(_ rule: Rule) -> UInt64 {
    switch rule {
    case .words, .typos, .exactness, .position: 16
    case .field: 24
    case .length, .attribute: 32
    }
  }

  /// `items` sorted by comparing the rules one by one: for rankings whose keys do not fit
  /// in 192 bits (three attributes and more with the default rules).
  private func sortedRuleByRule(_ items: [ItemID], keys: [Key], attributeRanks: [[UInt32]])
    -> [ItemID]
  {
    var indices = Array(items.indices)
    indices.sort { a, b in
      var attribute = 0
      for rule in rules {
        let (x, y) = (keys[a], keys[b])
        switch rule {
        case .words: if x.words != y.words { return x.words > y.words }
        case .typos: if x.typos != y.typos { return x.typos < y.typos }
        case .field: if x.field != y.field { return x.field < y.field }
        case .exactness: if x.exactness != y.exactness { return x.exactness < y.exactness }
        case .position: if x.position != y.position { return x.position < y.position }
        case .length: if x.length != y.length { return x.length < y.length }
        case .attribute:
          guard attribute < attributeRanks.count else { continue }
          let (p, q) = (attributeRanks[attribute][a], attributeRanks[attribute][b])
          attribute += 1
          if p != q { return p < q }
        }
      }
      return a < b
    }
    return indices.map { items[$0] }
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
    guard let scalar = Unicode.Scalar(value) else { return false }
    let properties = scalar.properties
    return properties.isAlphabetic || properties.numericType != nil
  }
}
