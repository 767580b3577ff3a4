// The folded bytes of a text, written straight from the folder's cache, for a prefilter that
// rejects texts before the fold loop sees them.

extension Folder {
  /// Writes the folded form of `text` (valid UTF-8) to `out`: the bytes
  /// ``fold(_:into:recordsMap:allowsRuns:)`` gives, without the map or the interior
  /// boundaries.
  ///
  /// Returns the number of bytes written, or nil when two characters fold into one (the fold loop
  /// then folds them again as a whole), under ``Folding/latin`` (where runs of a script fold as
  /// wholes), or when the folded form passes `capacity`.
  ///
  /// It takes the fold loop's steps: characters (grapheme clusters) found as
  /// ``clusterEnd(_:from:count:)`` finds them, each appended as its cache entry, with the
  /// entries that may join their neighbours checked as the loop checks them. A plain scalar
  /// between plain scalars, most characters of most texts, is looked up and written without
  /// leaving the cache's memory.
  func foldedText(
    _ text: UnsafeBufferPointer<UInt8>, into out: UnsafeMutablePointer<UInt8>, capacity: Int
  ) throws(ICUError) -> Int? {
    if transliteratesRuns { return nil }
    guard let base = text.baseAddress else { return 0 }
    let n = text.count
    var state = TextState()
    while true {
      // The caches are read through pointers until a character needs more: it is then found
      // and folded here (which may move the caches), and the reading goes on.
      let stop = writeCached(base, count: n, into: out, capacity: capacity, state: &state)
      switch stop {
      case .done: return state.used
      case .tooLong: return nil
      case .character:
        let i = state.position
        let end = clusterEnd(base, from: i, count: n)
        let index = try entry(base, i..<end)
        guard append(entries[index], into: out, capacity: capacity, state: &state) else {
          return nil
        }
        state.position = end
      }
    }
  }

  /// Where the writing of a folded text is, and what the fold loop would remember of the last
  /// character it appended.
  struct TextState {
    var position = 0
    var used = 0
    var lastExists = false
    /// Where the last folded character starts in the output.
    var lastCharacterStart = 0
    var lastMayJoinNext = false
    /// Whether characters that fold to nothing came after the last one.
    var isFollowedByDropped = false

    var mustCheckNext: Bool { lastMayJoinNext || isFollowedByDropped }
  }

  /// Why ``writeCached(_:count:into:capacity:state:)`` stopped.
  enum CachedStop {
    case done
    /// The folded form passes the capacity.
    case tooLong
    /// The character at the state's position needs the slower way: it is not a plain scalar
    /// between plain scalars, it is not in the cache, or it may join the one before.
    case character
  }

  /// Appends `entry`, the fold of the character before `state.position`, as the fold loop
  /// does; false when it joins the last character (or the output is full).
  private func append(
    _ entry: Entry, into out: UnsafeMutablePointer<UInt8>, capacity: Int, state: inout TextState
  ) -> Bool {
    if entry.count == 0 {
      state.isFollowedByDropped = true
      return true
    }
    if state.lastExists && (entry.mayJoinPrevious || state.mustCheckNext) {
      let last = Array(
        UnsafeBufferPointer(
          start: out + state.lastCharacterStart, count: state.used - state.lastCharacterStart))
      if joins(last[...], entry) { return false }
    }
    guard state.used + entry.count <= capacity else { return false }
    for k in 0..<entry.count { out[state.used + k] = entryBytes[entry.start + k] }
    state.lastCharacterStart = state.used + entry.lastCharacterStart
    state.used += entry.count
    state.lastExists = true
    state.lastMayJoinNext = entry.mayJoinNext
    state.isFollowedByDropped = false
    return true
  }

  /// Whether the three bytes at `bytes` are a Hangul syllable (LV or LVT) in UTF-8.
  @inline(__always)
  private static func isHangulSyllable(_ bytes: UnsafePointer<UInt8>) -> Bool {
    let (value, length) = decode(bytes, at: 0, count: 3)
    return length == 3 && (0xAC00...0xD7A3).contains(value)
  }

  /// Writes the folded characters from `state.position` on while each is ASCII or a plain
  /// scalar, followed by one, found in the cache, and joining nothing.
  private func writeCached(
    _ base: UnsafePointer<UInt8>, count n: Int, into out: UnsafeMutablePointer<UInt8>,
    capacity: Int, state: inout TextState
  ) -> CachedStop {
    let plain = ScalarClasses.plain
    let lowercasesByVector = asciiLowercases
    return asciiFolds.withUnsafeBufferPointer { asciiFolds in
      scalarKinds.withUnsafeBufferPointer { kinds in
        bmpPages.withUnsafeBufferPointer { pages in
          bmpEntries.withUnsafeBufferPointer { slots in
            entries.withUnsafeBufferPointer { entries in
              entryBytes.withUnsafeBufferPointer { entryBytes in
                let folds = entryBytes.baseAddress
                // The state in registers while the loop runs, stored when it stops.
                var i = state.position
                var used = state.used
                var last = state
                defer {
                  last.position = i
                  last.used = used
                  state = last
                }
                /// Whether the scalar at `j` is plain, or `j` is the end.
                @inline(__always) func plainAt(_ j: Int) -> Bool {
                  if j >= n { return true }
                  let byte = base[j]
                  if byte < 0x80 { return byte != 0x0D }
                  let value = Self.decode(base, at: j, count: n).value
                  return value < 0x10000 && kinds[Int(value)] == plain
                }
                while i < n {
                  if base[i] < 0x80 {
                    if last.mustCheckNext { return .character }
                    // A run of ASCII characters that fold by table, as the fold loop folds it.
                    let start = i
                    if lowercasesByVector {
                      // Eight bytes at a time while they are ASCII other than CR: their folded
                      // form is their lowercase.
                      let ones: UInt64 = 0x0101_0101_0101_0101
                      let highs: UInt64 = 0x8080_8080_8080_8080
                      while i + 8 <= n && used + 8 <= capacity {
                        let word = UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self)
                        let crs = word ^ (ones &* 0x0D)
                        if word & highs != 0 || (crs &- ones) & ~crs & highs != 0 { break }
                        // High bits of the bytes from "A" on, and of those after "Z".
                        let fromA = word &+ ones &* (0x80 - 0x41)
                        let afterZ = word &+ ones &* (0x80 - 0x5B)
                        let upper = fromA & ~afterZ & highs
                        UnsafeMutableRawPointer(out + used).storeBytes(
                          of: word | (upper >> 2), as: UInt64.self)
                        i += 8
                        used += 8
                      }
                    }
                    while i < n && used < capacity {
                      let byte = base[i]
                      if byte >= 0x80 { break }
                      let folded = asciiFolds[Int(byte)]
                      if folded == 0xFF { break }
                      out[used] = folded
                      used += 1
                      i += 1
                    }
                    if i < n && base[i] >= 0x80 && !plainAt(i) {
                      // A mark or joiner follows: the last character is longer than one byte.
                      i -= 1
                      used -= 1
                    }
                    if i > start {
                      last.lastExists = true
                      last.lastCharacterStart = used - 1
                      last.lastMayJoinNext = false
                    }
                    if i < n && base[i] < 0x80 {
                      // A byte that does not fold by table, a character with a mark, or no room.
                      return used == capacity ? .tooLong : .character
                    }
                    if i == start { return .character }
                    continue
                  }
                  let (value, length) = Self.decode(base, at: i, count: n)
                  guard value < 0x10000, kinds[Int(value)] == plain, plainAt(i + length) else {
                    return .character
                  }
                  let page = Int(pages[Int(value >> 8)])
                  let slot = page < 0 ? 0 : Int(slots[page + Int(value & 0xFF)])
                  if slot == 0 { return .character }
                  let entry = entries[slot - 1]
                  if entry.count == 0 {
                    last.isFollowedByDropped = true
                    i += length
                    continue
                  }
                  if used + entry.count > capacity { return .tooLong }
                  if last.lastExists && (entry.mayJoinPrevious || last.mustCheckNext) {
                    // Two Hangul syllables never join (UAX #29 joins jamo only): the check
                    // the fold loop makes would say so.
                    guard let folds, entry.count == 3, used - last.lastCharacterStart == 3,
                      Self.isHangulSyllable(folds + entry.start),
                      Self.isHangulSyllable(out + last.lastCharacterStart)
                    else { return .character }
                  }
                  if let folds {
                    for k in 0..<entry.count { out[used + k] = folds[entry.start + k] }
                  }
                  last.lastCharacterStart = used + entry.lastCharacterStart
                  used += entry.count
                  last.lastExists = true
                  last.lastMayJoinNext = entry.mayJoinNext
                  last.isFollowedByDropped = false
                  i += length
                }
                return .done
              }
            }
          }
        }
      }
    }
  }
}
