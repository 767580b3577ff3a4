/// The words of the searched fields gathered for a ``WordIndex``: each distinct word once, in a
/// hash table, and each occurrence as the number of its word and its value, so that only the
/// distinct words are sorted and an occurrence costs eight bytes, not its characters.
///
/// ``table()`` lays them out as the index's sorted table: the distinct words in order of
/// their codes, each with the postings of its occurrences in the order they were added (a
/// word twice in a value gives the same posting twice).
struct WordCollector {
  /// The characters of the distinct words, one after the other, in order of first sight.
  private var characters: [UInt32] = []
  /// Distinct word `w` is `characters[starts[w]..<starts[w + 1]]`.
  private var starts: [Int32] = [0]
  /// The hash of each distinct word.
  private var hashes: [UInt32] = []
  /// Open addressing: a distinct word's number, or -1 for an empty slot.
  private var slots: [Int32] = Array(repeating: -1, count: 1024)
  /// The word of each occurrence, and the value that holds it.
  private var occurrenceWords: [Int32] = []
  private var occurrenceValues: [Int32] = []
  /// The fields of the occurrences, in order: `occurrences` of them end with `field`'s.
  private var fieldEnds: [(field: UInt16, occurrences: Int)] = []

  private var distinctCount: Int { starts.count - 1 }

  /// Makes room for about `occurrences` occurrences.
  mutating func reserve(occurrences: Int) {
    occurrenceWords.reserveCapacity(occurrences)
    occurrenceValues.reserveCapacity(occurrences)
  }

  /// Adds every word of the values in `range` of `field` (at most ``WordIndex/longestWord``
  /// characters long) that `isLive` keeps, in value order.
  mutating func collect(
    _ values: FoldedValues, range: Range<Int>, field: Int, codes: inout CharacterCodes,
    isLive: (Int) -> Bool
  ) {
    var words = FoldedWords()
    values.bytes.withUnsafeBufferPointer { bytes in
      for value in range where isLive(value) {
        words.forEachWord(
          in: bytes, range: values.range(of: value), codes: &codes, isBoundary: values.isBoundary
        ) { characters, _ in
          guard characters.count <= WordIndex.longestWord else { return }
          occurrenceWords.append(number(of: characters))
          occurrenceValues.append(Int32(value))
        }
      }
    }
    fieldEnds.append((UInt16(field), occurrenceWords.count))
  }

  @inline(__always)
  private static func hash(_ word: UnsafeBufferPointer<UInt32>) -> UInt32 {
    var hash: UInt64 = 0xCBF2_9CE4_8422_2325
    for character in word { hash = (hash ^ UInt64(character)) &* 0x100_0000_01B3 }
    hash ^= hash >> 29
    hash = hash &* 0xBF58_476D_1CE4_E5B9
    return UInt32(truncatingIfNeeded: hash >> 32)
  }

  /// The number of `word` among the distinct words, given now if it is new.
  @inline(__always)
  private mutating func number(of word: UnsafeBufferPointer<UInt32>) -> Int32 {
    let hash = Self.hash(word)
    var mask = slots.count - 1
    var slot = Int(hash) & mask
    while true {
      let found = slots[slot]
      if found < 0 { break }
      if hashes[Int(found)] == hash {
        let start = Int(starts[Int(found)])
        let end = Int(starts[Int(found) + 1])
        if end - start == word.count {
          var equal = true
          for k in 0..<word.count where characters[start + k] != word[k] {
            equal = false
            break
          }
          if equal { return found }
        }
      }
      slot = (slot + 1) & mask
    }
    let number = Int32(distinctCount)
    characters.append(contentsOf: word)
    starts.append(Int32(characters.count))
    hashes.append(hash)
    slots[slot] = number
    if distinctCount * 2 > slots.count {
      // Half full: twice the slots, every word placed again by its hash.
      slots = Array(repeating: -1, count: slots.count * 2)
      mask = slots.count - 1
      for word in 0..<distinctCount {
        var slot = Int(hashes[word]) & mask
        while slots[slot] >= 0 { slot = (slot + 1) & mask }
        slots[slot] = Int32(word)
      }
    }
    return number
  }

  /// The distinct words in order of their codes (then shorter first), with their postings.
  func table() -> WordIndex.Table {
    let count = distinctCount
    let order = sortedWords()
    var result = WordIndex.Table()
    var rank = [Int32](repeating: 0, count: count)
    result.starts = [Int32](repeating: 0, count: count + 1)
    result.shared = [UInt8](repeating: 0, count: count)
    result.characters.reserveCapacity(characters.count)
    characters.withUnsafeBufferPointer { characters in
      var previous = 0..<0
      for (position, word) in order.enumerated() {
        let range = Int(starts[Int(word)])..<Int(starts[Int(word) + 1])
        rank[Int(word)] = Int32(position)
        let limit = min(previous.count, range.count, Int(UInt8.max))
        var common = 0
        while common < limit
          && characters[previous.lowerBound + common] == characters[range.lowerBound + common]
        {
          common += 1
        }
        result.shared[position] = UInt8(common)
        result.characters.append(contentsOf: characters[range])
        result.starts[position + 1] = Int32(result.characters.count)
        previous = range
      }
    }
    // Postings by counting: each word's run starts after those of the words before it, and
    // the occurrences fill the runs in the order they were added.
    var postingStarts = [Int32](repeating: 0, count: count + 1)
    for word in occurrenceWords { postingStarts[Int(rank[Int(word)]) + 1] += 1 }
    for position in 0..<count { postingStarts[position + 1] += postingStarts[position] }
    var next = postingStarts
    let total = occurrenceWords.count
    var fields = [UInt16](repeating: 0, count: total)
    var values = [Int32](repeating: 0, count: total)
    var occurrence = 0
    for (field, end) in fieldEnds {
      while occurrence < end {
        let position = Int(rank[Int(occurrenceWords[occurrence])])
        let posting = Int(next[position])
        next[position] += 1
        fields[posting] = field
        values[posting] = occurrenceValues[occurrence]
        occurrence += 1
      }
    }
    result.postingStarts = postingStarts
    result.postingFields = fields
    result.postingValues = values
    return result
  }

  /// The numbers of the distinct words in order of their codes, a shorter word before the
  /// longer ones it starts.
  private func sortedWords() -> [Int32] {
    // Sorted by keys of the first six characters, three to a key and 21 bits each (a missing
    // character is 0, which no word has; a code too large for 21 bits fills the rest of the
    // keys with ones, so that the words it stands for tie), then the words where keys tie.
    let keyed: [(key: UInt64, next: UInt64, word: Int32)] = (0..<distinctCount).map { word in
      let start = Int(starts[word])
      let end = Int(starts[word + 1])
      var keys: (UInt64, UInt64) = (0, 0)
      var clamped = false
      for k in 0..<6 {
        var code = start + k < end ? UInt64(characters[start + k]) : 0
        if clamped || code >= 0x1F_FFFF {
          code = 0x1F_FFFF
          clamped = true
        }
        if k < 3 { keys.0 = keys.0 << 21 | code } else { keys.1 = keys.1 << 21 | code }
      }
      return (keys.0, keys.1, Int32(word))
    }
    return characters.withUnsafeBufferPointer { characters in
      starts.withUnsafeBufferPointer { starts in
        keyed.sorted { a, b in
          if a.key != b.key { return a.key < b.key }
          if a.next != b.next { return a.next < b.next }
          let x = Int(starts[Int(a.word)])..<Int(starts[Int(a.word) + 1])
          let y = Int(starts[Int(b.word)])..<Int(starts[Int(b.word) + 1])
          for k in 0..<min(x.count, y.count)
          where characters[x.lowerBound + k] != characters[y.lowerBound + k] {
            return characters[x.lowerBound + k] < characters[y.lowerBound + k]
          }
          return x.count < y.count
        }.map(\.word)
      }
    }
  }
}
