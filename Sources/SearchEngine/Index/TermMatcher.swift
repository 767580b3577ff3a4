#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Where a number word is found: an attribute and the codes of its values equal to it.
typealias NumberMatch = (attribute: Int, codes: [UInt32])

/// One query term, ready to be matched against folded values: the bytes to look for and how
/// a hit is judged for the term's kind.
///
/// Anchored kinds follow fzf: `^term` matches at the start of a value after its leading
/// white space, `term$` at the end before its trailing white space, `^term$` the whole value
/// without either (unless the term itself starts or ends with white space).
struct TermMatcher: Sendable {
  let kind: Term.Kind
  let isInverse: Bool
  /// The folded term.
  let needle: [UInt8]
  /// The needle with separators where the kind anchors it: what a column-wide search finds.
  let anchoredNeedle: [UInt8]
  /// Whether anchored matches skip the value's leading or trailing white space.
  let skipsLeadingSpace: Bool
  let skipsTrailingSpace: Bool
  /// The folded characters of a fuzzy term, in order.
  let characters: [[UInt8]]
  /// The term as a number in canonical form, when it is one (see ``SearchModel/Schema/numberAttributes``).
  let number: String?
  /// The values of number attributes equal to ``number``, in the corpus being searched: set
  /// by the evaluator.
  var numberMatches: [NumberMatch] = []
  /// The term as a word with a typo budget: set by the evaluator and the ranking when it has
  /// one.
  var typo: TypoWord?

  init(_ term: Term) {
    kind = term.kind
    isInverse = term.isInverse
    needle = term.pattern.utf8
    let folded = String(decoding: needle, as: UTF8.self)
    skipsLeadingSpace = folded.unicodeScalars.first.map { !Whitespace.isSpace($0.value) } ?? true
    skipsTrailingSpace = folded.unicodeScalars.last.map { !Whitespace.isSpace($0.value) } ?? true
    let separator = FoldedValues.separator
    switch kind {
    case .exact, .fuzzy: anchoredNeedle = needle
    case .prefix: anchoredNeedle = [separator] + needle
    case .suffix: anchoredNeedle = needle + [separator]
    case .equal: anchoredNeedle = [separator] + needle + [separator]
    }
    characters = folded.map { Array($0.utf8) }
    number = DecimalText.canonical(folded)
  }

  /// Whether a hit must start where a value does (after its leading white space).
  var isAnchoredAtStart: Bool { kind == .prefix || kind == .equal }

  // MARK: One value

  /// Whether value `value` of `values` contains the term (ignoring `isInverse`).
  func matches(_ values: FoldedValues, value: Int) -> Bool {
    withValueCheck(values) { $0(value) }
  }

  /// Calls `body` with a check of whether a value of `values` contains the term (ignoring
  /// `isInverse`), the column held for the whole call: for checking many values.
  func withValueCheck<Result>(_ values: FoldedValues, _ body: ((Int) -> Bool) -> Result)
    -> Result
  {
    values.bytes.withUnsafeBufferPointer { bytes in
      values.starts.withUnsafeBufferPointer { starts in
        body { value in
          matches(bytes, range: Int(starts[value])..<(Int(starts[value + 1]) - 1), values: values)
        }
      }
    }
  }

  /// Whether any of the consecutive values `first..<end` contains the term.
  func matches(_ values: FoldedValues, first: Int, end: Int) -> Bool {
    guard first < end else { return false }
    return values.bytes.withUnsafeBufferPointer { bytes in
      if kind == .exact {
        // One search over the values and their separators: a hit never spans two values.
        let range = Int(values.starts[first])..<(Int(values.starts[end]) - 1)
        return findExact(bytes, in: range, values: values) != nil
      }
      for value in first..<end where matches(bytes, range: values.range(of: value), values: values)
      {
        return true
      }
      return false
    }
  }

  private func matches(
    _ bytes: UnsafeBufferPointer<UInt8>, range: Range<Int>, values: FoldedValues
  ) -> Bool {
    switch kind {
    case .exact: return findExact(bytes, in: range, values: values) != nil
    case .fuzzy: return matchesFuzzy(bytes, in: range, values: values)
    case .prefix, .suffix, .equal:
      var lower = range.lowerBound
      var upper = range.upperBound
      let text = UnsafeBufferPointer(rebasing: bytes[range])
      if kind != .suffix && skipsLeadingSpace { lower += Whitespace.leadingLength(text) }
      if kind != .prefix && skipsTrailingSpace {
        upper -= min(Whitespace.trailingLength(text), upper - lower)
      }
      if upper - lower < needle.count { return false }
      let start: Int
      switch kind {
      case .prefix: start = lower
      case .suffix: start = upper - needle.count
      default:
        if upper - lower != needle.count { return false }
        start = lower
      }
      return equalBytes(bytes, at: start) && values.isBoundary(start)
        && values.isBoundary(start + needle.count)
    }
  }

  private func equalBytes(_ bytes: UnsafeBufferPointer<UInt8>, at start: Int) -> Bool {
    needle.withUnsafeBufferPointer { needle in
      guard let a = bytes.baseAddress, let b = needle.baseAddress else { return needle.isEmpty }
      return memcmp(a + start, b, needle.count) == 0
    }
  }

  private func findExact(
    _ bytes: UnsafeBufferPointer<UInt8>, in range: Range<Int>, values: FoldedValues
  ) -> Int? {
    needle.withUnsafeBufferPointer { needle in
      ByteSearch.first(needle, in: bytes, range: range) { start in
        values.isBoundary(start) && values.isBoundary(start + needle.count)
      }
    }
  }

  /// Whether the term's characters occur in order, each on whole folded characters.
  private func matchesFuzzy(
    _ bytes: UnsafeBufferPointer<UInt8>, in range: Range<Int>, values: FoldedValues
  ) -> Bool {
    var position = range.lowerBound
    for character in characters {
      let found = character.withUnsafeBufferPointer { character in
        ByteSearch.first(character, in: bytes, range: position..<range.upperBound) { start in
          values.isBoundary(start) && values.isBoundary(start + character.count)
        }
      }
      guard let found else { return false }
      position = found + character.count
    }
    return true
  }

  // MARK: A whole column

  /// A fuzzy scan for an ASCII term: one pass over the bytes, looking for the term's next byte
  /// and starting over at each value's separator.
  ///
  /// ASCII characters of folded text are whole characters unless a mark follows, which the
  /// per-value check then settles.
  private func scanFuzzyASCII(
    _ values: FoldedValues, valueRange: Range<Int>, owner map: ValueMap,
    into owners: inout [ItemID]
  ) {
    var candidates: [Int] = []
    values.bytes.withUnsafeBufferPointer { bytes in
      needle.withUnsafeBufferPointer { pattern in
        var value = valueRange.lowerBound
        var state = 0
        var position = Int(values.starts[value])
        let end = Int(values.starts[valueRange.upperBound])
        while position < end {
          let byte = bytes[position]
          if byte == FoldedValues.separator {
            value += 1
            state = 0
          } else if state < pattern.count && byte == pattern[state] {
            state += 1
            if state == pattern.count { candidates.append(value) }
          }
          position += 1
        }
      }
    }
    for value in candidates {
      let item = map.owner(of: value)
      if item >= 0, owners.last?.rawValue != item,
        values.interior.isEmpty || matches(values, value: value)
      {
        owners.append(ItemID(rawValue: item))
      }
    }
  }

  /// Appends to `owners` the owner of every value in `values` (a range of value numbers) that
  /// contains the term, once per owner, skipping values no item owns (-1).
  ///
  /// Owners come out in value order, which is item order for values that were never replaced.
  func scan(
    _ values: FoldedValues, valueRange: Range<Int>, owner map: ValueMap,
    into owners: inout [ItemID]
  ) {
    guard !valueRange.isEmpty else { return }
    if kind == .fuzzy && needle.allSatisfy({ $0 < 0x80 }) {
      scanFuzzyASCII(values, valueRange: valueRange, owner: map, into: &owners)
      return
    }
    if kind == .fuzzy {
      for value in valueRange {
        let item = map.owner(of: value)
        if item >= 0, owners.last?.rawValue != item, matches(values, value: value) {
          owners.append(ItemID(rawValue: item))
        }
      }
      return
    }
    if kind == .exact && needle.count == 1, let common = values.commonBytes,
      common.tracks(needle[0])
    {
      common.owners(containing: needle[0], in: valueRange, map: map, into: &owners)
      return
    }
    if kind == .exact && needle.count == 1 && values.frequency(of: needle[0]) > Self.commonByte {
      scanCommonByte(values, valueRange: valueRange, owner: map, into: &owners)
      return
    }
    let anchoredStart = kind == .prefix || kind == .equal
    let lower = Int(values.starts[valueRange.lowerBound]) - (anchoredStart ? 1 : 0)
    let upper =
      Int(values.starts[valueRange.upperBound]) - (kind == .exact || kind == .prefix ? 1 : 0)
    let last = valueRange.upperBound - 1
    // At most one owner per value: room for all of them spares the regrowth of a long list.
    owners.reserveCapacity(owners.count + valueRange.count)
    values.bytes.withUnsafeBufferPointer { bytes in
      values.starts.withUnsafeBufferPointer { starts in
        Self.withOwners(map) { owner in
          anchoredNeedle.withUnsafeBufferPointer { pattern in
            var cursor = valueRange.lowerBound
            var previous: Int32 = -1
            var position = lower
            while let start = ByteSearch.first(
              pattern, in: bytes, range: position..<upper, accept: { _ in true })
            {
              // The needle's own start, without a leading separator.
              let hit = anchoredStart ? start + 1 : start
              cursor = Self.value(containing: hit, starts: starts, from: cursor, last: last)
              let item = owner?[cursor] ?? Int32(cursor)
              let end = Int(starts[cursor + 1]) - 1
              if item < 0 || item == previous {
                position = end  // nothing more to learn in this value
              } else if values.isBoundary(hit) && values.isBoundary(hit + needle.count) {
                owners.append(ItemID(rawValue: item))
                previous = item
                position = end
              } else {
                position = start + 1
              }
            }
          }
        }
      }
    }
    // Values whose white space hides an anchored match from the separator search.
    var extra: [Int32] = []
    if skipsLeadingSpace && (kind == .prefix || kind == .equal) { extra += values.leadingSpace }
    if skipsTrailingSpace && (kind == .suffix || kind == .equal) { extra += values.trailingSpace }
    if extra.isEmpty { return }
    var added = false
    for value in extra where valueRange.contains(Int(value)) {
      let item = map.owner(of: Int(value))
      if item >= 0 && matches(values, value: Int(value)) {
        owners.append(ItemID(rawValue: item))
        added = true
      }
    }
    if added { owners.sort() }  // the evaluator drops repeats
  }

  /// Above this share of the column's bytes a one-byte term is common: most values contain it,
  /// and walking the values beats searching for every occurrence (measured on W1, where "e"
  /// is 11% of the folded bytes and "z" under 1%).
  static let commonByte = 0.02

  /// A scan for a common one-byte term: each value is read from its start to the first
  /// occurrence, a few bytes in most values.
  private func scanCommonByte(
    _ values: FoldedValues, valueRange: Range<Int>, owner map: ValueMap,
    into owners: inout [ItemID]
  ) {
    let byte = needle[0]
    owners.reserveCapacity(owners.count + valueRange.count)
    values.bytes.withUnsafeBufferPointer { bytes in
      values.starts.withUnsafeBufferPointer { starts in
        Self.withOwners(map) { owner in
          guard let base = bytes.baseAddress else { return }
          var previous: Int32 = -1
          for value in valueRange {
            let item = owner?[value] ?? Int32(value)
            if item < 0 || item == previous { continue }
            var position = Int(starts[value])
            let end = Int(starts[value + 1]) - 1
            while position < end {
              if base[position] == byte && values.isBoundary(position)
                && values.isBoundary(position + 1)
              {
                owners.append(ItemID(rawValue: item))
                previous = item
                break
              }
              position += 1
            }
          }
        }
      }
    }
  }

  /// Runs `body` with the owners of a map's values, or nil when value `v` belongs to item `v`.
  @inline(__always)
  private static func withOwners<R>(
    _ map: ValueMap, _ body: (UnsafeBufferPointer<Int32>?) -> R
  ) -> R {
    guard let explicit = map.explicit else { return body(nil) }
    return explicit.owner.withUnsafeBufferPointer { body($0) }
  }

  /// The value containing byte `offset`, searching forward from value `cursor`: a few steps,
  /// then strides that double until they pass the hit, then a binary search between the last
  /// two (a hit far ahead costs a few reads near the cursor, not a search of the whole rest of
  /// the column: in cities500, a binary search over the rest took a fifth of a two-letter
  /// scan).
  @inline(__always)
  private static func value(
    containing offset: Int, starts: UnsafeBufferPointer<Int32>, from cursor: Int, last: Int
  ) -> Int {
    var low = cursor
    for _ in 0..<8 {
      if Int(starts[low + 1]) > offset { return low }
      low += 1
    }
    // Invariant: the value sought is at `low` or after, and at `high` or before.
    var step = 8
    var high = last
    while low + step <= last {
      if Int(starts[low + step + 1]) > offset {
        high = low + step
        break
      }
      low += step + 1
      step *= 2
    }
    while low < high {
      let middle = (low + high) / 2
      if Int(starts[middle + 1]) > offset { high = middle } else { low = middle + 1 }
    }
    return low
  }
}
