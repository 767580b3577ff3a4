/// The words of the searched fields gathered for a ``WordIndex``: each distinct word once, in a
/// hash table, and each occurrence as the number of its word and its value, so that only the
/// distinct words are sorted and an occurrence costs eight bytes, not its characters.
///
/// A distinct word is kept in the bytes of its codes written as UTF-8 writes scalars (its
/// longer forms reaching past U+10FFFF for the codes of clusters): about a byte a character,
/// and bytes that sort as the codes do, a word before the longer ones it starts.
///
/// ``table()`` lays them out as the index's sorted table: the distinct words in order of
/// their codes, each with the postings of its occurrences in the order they were added (a
/// word twice in a value gives the same posting twice).
struct WordCollector {
  /// The encoded distinct words, one after the other, in order of first sight.
  private var bytes: [UInt8] = []
  /// Distinct word `w` is `bytes[starts[w]..<starts[w + 1]]`.
  private var starts: [Int32] = [0]
  /// Open addressing: a word's hash in the high half, its number plus one in the low half, 0
  /// for an empty slot.
  private var slots: [UInt64] = Array(repeating: 0, count: 1024)
  /// The word being looked up, encoded.
  private var scratch: [UInt8] = []
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
    WordIndex.forEachIndexedWord(of: values, range: range, codes: &codes, isLive: isLive) {
      characters, value in
      occurrenceWords.append(number(of: characters))
      occurrenceValues.append(Int32(value))
    }
    fieldEnds.append((UInt16(field), occurrenceWords.count))
  }

  /// Appends `code` to `bytes` as UTF-8 writes a scalar, with the old five-, six- and a
  /// seven-byte form for codes past 21 bits: the bytes of two codes compare as the codes do.
  @inline(__always)
  static func encode(_ code: UInt32, into bytes: inout [UInt8]) {
    if code < 0x80 {
      bytes.append(UInt8(code))
      return
    }
    let length: Int
    let lead: UInt32
    switch code {
    case ..<0x800: (length, lead) = (2, 0xC0)
    case ..<0x1_0000: (length, lead) = (3, 0xE0)
    case ..<0x20_0000: (length, lead) = (4, 0xF0)
    case ..<0x400_0000: (length, lead) = (5, 0xF8)
    case ..<0x8000_0000: (length, lead) = (6, 0xFC)
    default: (length, lead) = (7, 0xFE)
    }
    let shift = 6 * (length - 1)
    bytes.append(UInt8(truncatingIfNeeded: lead | (shift >= 32 ? 0 : code >> UInt32(shift))))
    for k in (0..<length - 1).reversed() {
      bytes.append(UInt8(truncatingIfNeeded: 0x80 | (code >> UInt32(6 * k)) & 0x3F))
    }
  }

  /// Appends the codes of an encoded word to `codes`.
  static func decode(_ bytes: ArraySlice<UInt8>, into codes: inout [UInt32]) {
    var offset = bytes.startIndex
    while offset < bytes.endIndex {
      let lead = bytes[offset]
      offset += 1
      if lead < 0x80 {
        codes.append(UInt32(lead))
        continue
      }
      let length =
        lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : lead < 0xF8 ? 4 : lead < 0xFC ? 5 : lead < 0xFE ? 6 : 7
      var code = UInt32(lead) & (length == 7 ? 0 : UInt32(0x7F) >> UInt32(length))
      for _ in 1..<length {
        code = code << 6 | UInt32(bytes[offset] & 0x3F)
        offset += 1
      }
      codes.append(code)
    }
  }

  /// The number of `word` among the distinct words, given now if it is new.
  @inline(__always)
  private mutating func number(of word: UnsafeBufferPointer<UInt32>) -> Int32 {
    scratch.removeAll(keepingCapacity: true)
    for code in word { Self.encode(code, into: &scratch) }
    var hash: UInt64 = 0xCBF2_9CE4_8422_2325
    for byte in scratch { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01B3 }
    hash ^= hash >> 29
    hash = hash &* 0xBF58_476D_1CE4_E5B9
    let high = hash & 0xFFFF_FFFF_0000_0000
    var mask = slots.count - 1
    var slot = Int(truncatingIfNeeded: hash >> 32) & mask
    while true {
      let entry = slots[slot]
      if entry == 0 { break }
      if entry & 0xFFFF_FFFF_0000_0000 == high {
        let found = Int(entry & 0xFFFF_FFFF) - 1
        let start = Int(starts[found])
        let end = Int(starts[found + 1])
        if end - start == scratch.count && bytes[start..<end].elementsEqual(scratch) {
          return Int32(found)
        }
      }
      slot = (slot + 1) & mask
    }
    let number = Int32(distinctCount)
    bytes.append(contentsOf: scratch)
    starts.append(Int32(bytes.count))
    slots[slot] = high | UInt64(number + 1)
    if distinctCount * 2 > slots.count {
      // Half full: twice the slots, every word placed again by its hash.
      let old = slots
      slots = Array(repeating: 0, count: slots.count * 2)
      mask = slots.count - 1
      for entry in old where entry != 0 {
        var slot = Int(truncatingIfNeeded: entry >> 32) & mask
        while slots[slot] != 0 { slot = (slot + 1) & mask }
        slots[slot] = entry
      }
    }
    return number
  }

  /// The distinct words in order of their codes (then shorter first), with their postings;
  /// the collector is emptied on the way, each part freed once read.
  mutating func table() -> WordIndex.Table {
    slots = []
    scratch = []
    let count = distinctCount
    let order = sortedWords()
    var result = WordIndex.Table()
    var rank = [Int32](repeating: 0, count: count)
    result.starts = [Int32](repeating: 0, count: count + 1)
    result.shared = [UInt8](repeating: 0, count: count)
    // Most codes take a byte: the characters grow once or not at all.
    result.characters.reserveCapacity(bytes.count)
    var previous = 0..<0
    for (position, word) in order.enumerated() {
      rank[Int(word)] = Int32(position)
      let start = result.characters.count
      Self.decode(
        bytes[Int(starts[Int(word)])..<Int(starts[Int(word) + 1])], into: &result.characters)
      let range = start..<result.characters.count
      let limit = min(previous.count, range.count, Int(UInt8.max))
      var common = 0
      while common < limit
        && result.characters[previous.lowerBound + common]
          == result.characters[range.lowerBound + common]
      {
        common += 1
      }
      result.shared[position] = UInt8(common)
      result.starts[position + 1] = Int32(result.characters.count)
      previous = range
    }
    bytes = []
    starts = []
    // Postings in two passes over the occurrences: the bytes each word's take, then the bytes,
    // each word's after those of the words before it, in the order the occurrences were added.
    var coders = [WordIndex.PostingCoder](repeating: WordIndex.PostingCoder(), count: count)
    var postingStarts = [Int32](repeating: 0, count: count + 1)
    forEachOccurrence(rank: rank) { position, field, value in
      coders[position].encode(field: field, value: value) { _ in postingStarts[position + 1] += 1 }
    }
    for position in 0..<count { postingStarts[position + 1] += postingStarts[position] }
    coders = [WordIndex.PostingCoder](repeating: WordIndex.PostingCoder(), count: count)
    var next = postingStarts
    var postings = [UInt8](repeating: 0, count: Int(postingStarts[count]))
    postings.withUnsafeMutableBufferPointer { postings in
      forEachOccurrence(rank: rank) { position, field, value in
        coders[position].encode(field: field, value: value) { byte in
          postings[Int(next[position])] = byte
          next[position] += 1
        }
      }
    }
    occurrenceWords = []
    occurrenceValues = []
    result.postingStarts = postingStarts
    result.postings = postings
    return result
  }

  /// Calls `body` with every occurrence in the order it was added: the position of its word in
  /// the sorted table (`rank` of its number), its field and its value.
  private func forEachOccurrence(
    rank: [Int32], _ body: (_ position: Int, _ field: Int, _ value: Int) -> Void
  ) {
    var occurrence = 0
    for (field, end) in fieldEnds {
      while occurrence < end {
        body(
          Int(rank[Int(occurrenceWords[occurrence])]), Int(field),
          Int(occurrenceValues[occurrence]))
        occurrence += 1
      }
    }
  }

  /// The numbers of the distinct words in order of their bytes, so of their codes.
  private func sortedWords() -> [Int32] {
    // Sorted by a key of the first eight bytes (a missing byte is 0, which no encoded code
    // has, so words whose keys tie are both longer than eight bytes), then by the rest.
    var keyed: [(key: UInt64, word: Int32)] = (0..<distinctCount).map { word in
      let start = Int(starts[word])
      let end = Int(starts[word + 1])
      var key: UInt64 = 0
      for k in 0..<8 { key = key << 8 | (start + k < end ? UInt64(bytes[start + k]) : 0) }
      return (key, Int32(word))
    }
    bytes.withUnsafeBufferPointer { bytes in
      starts.withUnsafeBufferPointer { starts in
        keyed.sort { a, b in
          if a.key != b.key { return a.key < b.key }
          let x = Int(starts[Int(a.word)]) + 8..<Int(starts[Int(a.word) + 1])
          let y = Int(starts[Int(b.word)]) + 8..<Int(starts[Int(b.word) + 1])
          for k in 0..<min(x.count, y.count)
          where bytes[x.lowerBound + k] != bytes[y.lowerBound + k] {
            return bytes[x.lowerBound + k] < bytes[y.lowerBound + k]
          }
          return x.count < y.count
        }
      }
    }
    return keyed.map(\.word)
  }
}
