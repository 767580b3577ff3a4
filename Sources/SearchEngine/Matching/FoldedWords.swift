/// The words of folded text, as typo tolerance compares them with the words of a query.
///
/// A word is a maximal run of characters (grapheme clusters) whose first scalar is a letter
/// (Unicode's Alphabetic property) or a digit (any numeric type): the runs between the
/// characters before which the ranking sees the start of a word (`Ranking.startsWord`).
/// Characters are compared by code: a character of one scalar is that scalar's value; one of
/// several scalars gets a code from a ``CharacterCodes`` table.
///
/// A value that reads many texts keeps its buffers from one to the next.
struct FoldedWords {
  private var characters: [UInt32] = []
  private var offsets: [Int] = []

  /// Whether a character whose first scalar is `scalar` belongs to words.
  @inline(__always)
  static func isWordScalar(_ scalar: UInt32) -> Bool {
    if scalar < 0x80 {
      return (scalar >= 0x30 && scalar <= 0x39)
        || ((scalar | 0x20) >= 0x61 && (scalar | 0x20) <= 0x7A)
    }
    guard let scalar = Unicode.Scalar(scalar) else { return false }
    let properties = scalar.properties
    return properties.isAlphabetic || properties.numericType != nil
  }

  /// Calls `body` with each word of `bytes[range]` (valid UTF-8, as folded text is): the
  /// codes of its characters, and the byte offsets where they start followed by the word's
  /// end.
  ///
  /// `isBoundary` tells where characters start, as the folded text's matches see them.
  mutating func forEachWord(
    in bytes: UnsafeBufferPointer<UInt8>, range: Range<Int>, codes: inout CharacterCodes,
    isBoundary: (Int) -> Bool,
    _ body: (_ characters: UnsafeBufferPointer<UInt32>, _ offsets: UnsafeBufferPointer<Int>) ->
      Void
  ) {
    characters.removeAll(keepingCapacity: true)
    offsets.removeAll(keepingCapacity: true)
    guard let base = bytes.baseAddress else { return }
    let end = range.upperBound
    var offset = range.lowerBound
    while offset < end {
      let start = offset
      let first = base[offset]
      var code: UInt32
      if first < 0x80 {
        code = UInt32(first)
        offset += 1
      } else {
        let (value, length) = Folder.decode(base, at: offset, count: end)
        code = value
        offset += length
      }
      // The scalars of the same character: between two ASCII bytes but CR LF a character
      // always ends, elsewhere the folded text says.
      var isCluster = false
      while offset < end
        && !(base[offset] < 0x80 && base[offset - 1] < 0x80 && base[offset - 1] != 0x0D)
        && !isBoundary(offset)
      {
        offset += Folder.decode(base, at: offset, count: end).length
        isCluster = true
      }
      if Self.isWordScalar(code) {
        if isCluster {
          code = codes.code(
            ofCluster: UnsafeBufferPointer(rebasing: bytes[start..<offset]))
        }
        characters.append(code)
        offsets.append(start)
      } else {
        flush(at: start, body)
      }
    }
    flush(at: end, body)
  }

  private mutating func flush(
    at end: Int,
    _ body: (_ characters: UnsafeBufferPointer<UInt32>, _ offsets: UnsafeBufferPointer<Int>) ->
      Void
  ) {
    guard !characters.isEmpty else { return }
    offsets.append(end)
    characters.withUnsafeBufferPointer { characters in
      offsets.withUnsafeBufferPointer { offsets in body(characters, offsets) }
    }
    characters.removeAll(keepingCapacity: true)
    offsets.removeAll(keepingCapacity: true)
  }
}

/// Codes for the characters of folded text: a character of one scalar is coded by the
/// scalar's value, one of several scalars (an emoji sequence, an Indic conjunct, a letter
/// with a mark the folding keeps) by a number above every scalar, given in order of first
/// sight.
struct CharacterCodes: Sendable {
  /// The codes given to characters of several scalars.
  private(set) var clusters: [String: UInt32] = [:]

  /// The code that no character has: what a query's character unknown to the table gets.
  static let unknown = UInt32.max

  /// The code of `character`, given now if it has none yet.
  mutating func code(of character: Character) -> UInt32 {
    let scalars = character.unicodeScalars
    if scalars.count == 1, let scalar = scalars.first { return scalar.value }
    return code(ofKey: String(character))
  }

  /// The code of the character of several scalars whose UTF-8 is `bytes`, given now if it has
  /// none yet.
  mutating func code(ofCluster bytes: UnsafeBufferPointer<UInt8>) -> UInt32 {
    code(ofKey: String(decoding: bytes, as: UTF8.self))
  }

  private mutating func code(ofKey key: String) -> UInt32 {
    if let code = clusters[key] { return code }
    let code = 0x11_0000 + UInt32(clusters.count)
    clusters[key] = code
    return code
  }

  /// The code of `character` without giving new ones: ``unknown`` for a character of several
  /// scalars the table has not seen, which then equals no character of the words coded by it.
  func existingCode(of character: Character) -> UInt32 {
    let scalars = character.unicodeScalars
    if scalars.count == 1, let scalar = scalars.first { return scalar.value }
    return clusters[String(character)] ?? Self.unknown
  }
}

/// Damerau–Levenshtein distance in its optimal-string-alignment form (an adjacent
/// transposition is one edit, no substring is edited twice), on character codes.
package enum TypoDistance {
  /// The distance between `query` and `word`; with `prefix`, the least distance between
  /// `query` and any prefix of `word` (the empty one and `word` itself included).
  package static func distance(_ query: [UInt32], _ word: [UInt32], prefix: Bool) -> Int {
    let m = query.count
    var previous2 = [Int](repeating: 0, count: m + 1)
    var previous = Array(0...m)
    var current = [Int](repeating: 0, count: m + 1)
    var best = prefix ? m : Int.max
    for (d, character) in word.enumerated() {
      current[0] = d + 1
      for j in 1...max(m, 1) where j <= m {
        let cost = query[j - 1] == character ? 0 : 1
        var value = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
        if d > 0 && j > 1 && query[j - 1] == word[d - 1] && query[j - 2] == character {
          value = min(value, previous2[j - 2] + 1)
        }
        current[j] = value
      }
      if prefix { best = min(best, current[m]) }
      (previous2, previous, current) = (previous, current, previous2)
    }
    return prefix ? best : previous[m]
  }
}

extension TypoDistance {
  /// The distance between `query` and `word` (with `prefix`, the least to a prefix of `word`)
  /// when it is at most `budget`, else `budget + 1`: only the band of `budget` cells either
  /// side of the table's diagonal is computed, and the computation stops once a row exceeds
  /// the budget.
  static func distance(
    _ query: UnsafeBufferPointer<UInt32>, _ word: UnsafeBufferPointer<UInt32>, prefix: Bool,
    budget: Int
  ) -> Int {
    let m = query.count
    let cap = budget + 1
    if !prefix && abs(word.count - m) > budget { return cap }
    if prefix && word.count + budget < m { return cap }
    let width = m + 1
    return withUnsafeTemporaryAllocation(of: Int.self, capacity: 3 * width) { rows in
      rows.initialize(repeating: cap)
      var previous2 = 0
      var previous = width
      var current = 2 * width
      for j in 0...m { rows[previous + j] = min(j, cap) }
      var best = prefix ? rows[previous + m] : cap
      for d in 1...max(word.count, 1) where d <= word.count {
        let character = word[d - 1]
        rows[current] = min(d, cap)
        var minimum = rows[current]
        let low = max(1, d - budget)
        let high = min(width, d + budget + 1)
        // Cells left of the band keep the cap (a stale value from two rows up may sit there).
        if low - 1 >= 1 { rows[current + low - 1] = cap }
        if high < width { rows[current + high] = cap }
        for j in low..<max(low, high) {
          let cost = query[j - 1] == character ? 0 : 1
          var value = min(
            rows[previous + j] + 1, rows[current + j - 1] + 1, rows[previous + j - 1] + cost)
          if d > 1 && j > 1 && query[j - 1] == word[d - 2] && query[j - 2] == character {
            value = min(value, rows[previous2 + j - 2] + 1)
          }
          value = min(value, cap)
          rows[current + j] = value
          minimum = min(minimum, value)
        }
        if prefix { best = min(best, rows[current + m]) }
        if minimum > budget { return prefix ? best : cap }
        (previous2, previous, current) = (previous, current, previous2)
      }
      return prefix ? best : rows[previous + m]
    }
  }
}
