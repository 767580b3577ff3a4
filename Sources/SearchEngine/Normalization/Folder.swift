/// Folds many texts on one thread, caching the folded form of every character it meets.
///
/// Get one from ``Normalizer/makeFolder()``; use it from one thread at a time (it is not
/// `Sendable`), and make one per thread when folding in parallel. ASCII characters are folded
/// by a table; any other character is folded by ICU the first time the folder sees it. Under
/// ``Folding/latin``, a run of one script's characters is folded as a whole, also cached.
public final class Folder {
  /// The normaliser whose rules this folder applies.
  public let normalizer: Normalizer

  let transliterator: ICU.Transliterator?
  /// ASCII bytes that fold to themselves, or to their lowercase with case folding, and always
  /// form a character alone (not CR, which joins a following LF; not "I" under Turkic rules,
  /// which folds to "ı", nor under ``Folding/dotlessI`` without case folding, where "I" alone
  /// becomes "i").
  ///
  /// A constant, so that the fold loop reads it without the exclusivity checks a variable of
  /// a class costs on every access.
  private let asciiIsSimple: [Bool]
  /// Whether simple ASCII bytes fold by lowercasing A–Z (with case folding), or not at all.
  private let foldsASCIICase: Bool
  /// The folded byte of each simple ASCII byte (see `asciiIsSimple`), and 0xFF (never in
  /// UTF-8) for every other byte: a text made only of simple bytes folds byte for byte, with
  /// no map and no interior boundaries, which lets a column fold such texts without the loop.
  let asciiFolds: [UInt8]
  /// Whether every ASCII byte but CR folds to its lowercase in `asciiFolds` (case folding
  /// without the Turkic "I"), which sixteen bytes at a time can do.
  let asciiLowercases: Bool
  /// Entry index + 1 (0: not seen) of each single-scalar character of the Basic Multilingual
  /// Plane, in pages of 256 allocated as characters of each page are met, so that a folder
  /// for one short query stays small.
  ///
  /// `bmpPages` holds each page's start in `bmpEntries`.
  ///
  /// The caches are read for every character that is not ASCII; a folder is used from one
  /// thread at a time and never hands out references into them, so they go without the
  /// dynamic exclusivity checks a class's variables otherwise pay on every access.
  @exclusivity(unchecked) fileprivate(set) var bmpPages = [Int32](repeating: -1, count: 256)
  @exclusivity(unchecked) fileprivate(set) var bmpEntries: [Int32] = []
  @exclusivity(unchecked) private var shortEntries: [ShortKey: Int32] = [:]
  @exclusivity(unchecked) private var longEntries: [[UInt8]: Int32] = [:]
  @exclusivity(unchecked) fileprivate(set) var entries: [Entry] = []
  @exclusivity(unchecked) fileprivate(set) var entryBytes: [UInt8] = []
  @exclusivity(unchecked) private var entryInterior: [Int] = []
  private var scratch = FoldBuffer()
  /// ``ScalarClasses/bmpKinds``, held here to be read without a global's lazy check.
  let scalarKinds = ScalarClasses.bmpKinds
  /// Whether runs of a script's characters are transliterated as wholes (``Folding/latin``).
  let transliteratesRuns: Bool
  /// The folded form of each run of a script met so far, by the run's UTF-8.
  var runEntries: [[UInt8]: RunEntry] = [:]
  /// Where a run's transliteration is folded, character by character.
  var runScratch = FoldBuffer()
  /// Whether a run of ``ContextFreeLetters`` folds letter by letter rather than through ICU
  /// as a whole (the same result); tests turn it off to compare the two ways.
  var foldsContextFreeRunsAlone = true
  /// The cache entries of the characters of the run being folded.
  @exclusivity(unchecked) private var runCharacterEntries: [Int] = []
  /// Where the characters of the run that ``runEnd(_:from:count:)`` found start.
  @exclusivity(unchecked) var runCharacterStarts: [Int] = []

  /// The folded form of one original character (or of a few characters that fold into one).
  struct Entry {
    var start: Int
    var count: Int
    var interiorStart: Int
    var interiorCount: Int
    /// Offset of the last folded character, for the join test.
    var lastCharacterStart: Int
    /// One scalar that folds to itself: maps byte for byte.
    var isIdentity: Bool
    var mayJoinPrevious: Bool
    var mayJoinNext: Bool
    /// One of the ``ContextFreeLetters`` that folds to printable ASCII other than a space, under
    /// ``Folding/latin``: in a run, it folds as it does alone (see `foldRun`).
    var foldsAloneInRuns = false
  }

  /// Up to 16 bytes of a character's UTF-8, packed for hashing without allocation.
  struct ShortKey: Hashable {
    var low: UInt64
    var high: UInt64
    var count: Int
  }

  /// What the fold loop remembers of the last character it emitted, to join a following
  /// character that folds into the same folded character.
  private struct Last {
    var exists = false
    var originalStart = 0
    var foldedStart = 0
    var lastCharacterStart = 0
    var mayJoinNext = false
    /// Whether characters that fold to nothing (a soft hyphen) came after it: what was apart
    /// in the original may be adjacent now, whatever the characters are (an Indic conjunct
    /// across a dropped soft hyphen, say).
    var isFollowedByDropped = false

    /// Whether a character after it must be checked for joining it.
    var mustCheckNext: Bool { mayJoinNext || isFollowedByDropped }
  }

  init(normalizer: Normalizer, transliterator: ICU.Transliterator?) throws(ICUError) {
    self.normalizer = normalizer
    self.transliterator = transliterator
    self.transliteratesRuns = normalizer.folding.contains(.latin) && transliterator != nil
    let foldsCase = normalizer.folding.contains(.case)
    self.foldsASCIICase = foldsCase
    // With case folding and the dotless-i option, "I" lowercases like any letter (isTurkic is
    // then false); only the rare option without case folding sends it the cached way.
    let foldsIAlone = normalizer.folding.contains(.dotlessI) && !foldsCase
    let turkicI = normalizer.isTurkic && foldsCase
    let simple = (0..<128).map { byte in
      let specialI = byte == 0x49 && (turkicI || foldsIAlone)
      return byte != 0x0D && !specialI
    }
    asciiIsSimple = simple
    asciiFolds = (0..<256).map { byte in
      guard byte < 0x80 && simple[byte] else { return 0xFF }
      return UInt8(foldsCase && (0x41...0x5A).contains(byte) ? byte | 0x20 : byte)
    }
    asciiLowercases = (0..<0x80).allSatisfy { [asciiFolds] byte in
      let folded = asciiFolds[byte]
      if byte == 0x0D { return folded == 0xFF }
      return Int(folded) == ((0x41...0x5A).contains(byte) ? byte | 0x20 : byte)
    }
  }

  deinit {
    // Warmed up with the scripts this folder met: the next folder starts from it.
    if let transliterator { normalizer.shared.recycle(transliterator) }
  }

  // MARK: Public entry points

  /// The folded form of `text`.
  public func fold(_ text: String) throws(ICUError) -> String {
    try fold(text, recordsMap: false)
    return String(decoding: scratch.bytes, as: UTF8.self)
  }

  /// The folded form of `text` with its map back to `text`.
  public func foldedText(_ text: String) throws(ICUError) -> FoldedText {
    try fold(text, recordsMap: true)
    return FoldedText(original: text, buffer: scratch)
  }

  /// Appends the folded form of `text` to `bytes`, as when building a column of many texts.
  public func fold(_ text: String, appendingTo bytes: inout [UInt8]) throws(ICUError) {
    try fold(text, recordsMap: false)
    bytes.append(contentsOf: scratch.bytes)
  }

  /// The folded form of `text` as a buffer, without a map.
  func foldBuffer(_ text: String) throws(ICUError) -> FoldBuffer {
    try fold(text, recordsMap: false)
    return scratch
  }

  private func fold(_ text: String, recordsMap: Bool) throws(ICUError) {
    var text = text
    var failure: ICUError?
    text.withUTF8 { bytes in
      do throws(ICUError) {
        try fold(bytes, into: &scratch, recordsMap: recordsMap)
      } catch { failure = error }
    }
    if let failure { throw failure }
  }

  // MARK: The fold loop

  /// Folds valid UTF-8 into `out`, replacing its contents.
  ///
  /// With `allowsRuns` false, every character is folded alone even under ``Folding/latin``
  /// (for the transliteration of a run, which is folded that way).
  func fold(
    _ source: UnsafeBufferPointer<UInt8>, into out: inout FoldBuffer, recordsMap: Bool,
    allowsRuns: Bool = true
  ) throws(ICUError) {
    // Two copies of the loop: the one without runs (every folding but latin) has not even
    // the test for them.
    if transliteratesRuns && allowsRuns {
      try foldLoop(source, into: &out, recordsMap: recordsMap, runs: true)
    } else {
      try foldLoop(source, into: &out, recordsMap: recordsMap, runs: false)
    }
  }

  @inline(__always)
  private func foldLoop(
    _ source: UnsafeBufferPointer<UInt8>, into out: inout FoldBuffer, recordsMap: Bool,
    runs: Bool
  ) throws(ICUError) {
    out.reset(originalCount: source.count, recordsMap: recordsMap)
    guard let base = source.baseAddress else { return }
    let n = source.count
    out.bytes.reserveCapacity(n)
    var last = Last()
    var i = 0
    while i < n {
      let byte = base[i]
      if byte < 0x80 && asciiIsSimple[Int(byte)] && !last.mustCheckNext {
        // A run of ASCII characters, each its own character, folded by table.
        let runStart = i
        var runEnd = i
        while runEnd < n && base[runEnd] < 0x80 && asciiIsSimple[Int(base[runEnd])] {
          runEnd += 1
        }
        if runEnd < n && base[runEnd] >= 0x80
          && !ScalarClasses.isPlain(Self.decode(base, at: runEnd, count: n).value)
        {
          runEnd -= 1  // a mark or joiner follows: the last character is longer than one byte
        }
        let foldedStart = out.bytes.count
        if runEnd > runStart {
          out.bytes.append(contentsOf: UnsafeBufferPointer(start: base + i, count: runEnd - i))
          if foldsASCIICase {
            out.bytes.withUnsafeMutableBufferPointer { folded in
              for k in foldedStart..<folded.count where folded[k] &- 0x41 < 26 {
                folded[k] |= 0x20
              }
            }
          }
          i = runEnd
        }
        if i > runStart {
          if recordsMap { Self.appendLinear(&out, folded: foldedStart, original: runStart) }
          last = Last(
            exists: true, originalStart: i - 1, foldedStart: out.bytes.count - 1,
            lastCharacterStart: out.bytes.count - 1, mayJoinNext: false)
          continue
        }
      }
      if runs && byte >= 0x80 && !last.mustCheckNext,
        let end = try foldRun(base, from: i, count: n, into: &out, last: &last)
      {
        i = end
        continue
      }
      let end = clusterEnd(base, from: i, count: n)
      let index = try entry(base, i..<end)
      try append(index, original: i..<end, base: base, into: &out, last: &last)
      i = end
    }
  }

  private func append(
    _ index: Int, original: Range<Int>, base: UnsafePointer<UInt8>,
    into out: inout FoldBuffer, last: inout Last
  ) throws(ICUError) {
    let folded = entries[index]
    if folded.count == 0 {
      if out.recordsMap {
        out.anchors.append(
          .init(folded: out.bytes.count, original: original.lowerBound, isLinear: false))
      }
      last.isFollowedByDropped = true
      return
    }
    if last.exists && (folded.mayJoinPrevious || last.mustCheckNext)
      && joins(out.bytes[last.lastCharacterStart...], folded)
    {
      // The folded character would merge with the one before: fold both as one character.
      let mergedStart = last.originalStart
      out.bytes.removeSubrange(last.foldedStart...)
      while let tail = out.interior.last, tail >= last.foldedStart { out.interior.removeLast() }
      while let tail = out.anchors.last,
        tail.folded > last.foldedStart
          || (tail.folded == last.foldedStart && tail.original >= mergedStart)
      {
        out.anchors.removeLast()
      }
      let merged = try entry(base, mergedStart..<original.upperBound)
      appendRaw(merged, original: mergedStart..<original.upperBound, into: &out, last: &last)
      return
    }
    appendRaw(index, original: original, into: &out, last: &last)
  }

  private func appendRaw(
    _ index: Int, original: Range<Int>, into out: inout FoldBuffer, last: inout Last
  ) {
    let folded = entries[index]
    let foldedStart = out.bytes.count
    out.bytes.append(contentsOf: entryBytes[folded.start..<folded.start + folded.count])
    for k in folded.interiorStart..<folded.interiorStart + folded.interiorCount {
      out.interior.append(foldedStart + entryInterior[k])
    }
    if out.recordsMap {
      if folded.isIdentity {
        Self.appendLinear(&out, folded: foldedStart, original: original.lowerBound)
      } else {
        out.anchors.append(
          .init(folded: foldedStart, original: original.lowerBound, isLinear: false))
      }
    }
    if folded.count > 0 {
      last = Last(
        exists: true, originalStart: original.lowerBound, foldedStart: foldedStart,
        lastCharacterStart: foldedStart + folded.lastCharacterStart,
        mayJoinNext: folded.mayJoinNext)
    }
  }

  /// Folds the run of one script's characters that starts at `start`, if there is one of two
  /// characters or more (see ``runEnd(_:from:count:)``), and returns its end; nil otherwise.
  private func foldRun(
    _ base: UnsafePointer<UInt8>, from start: Int, count n: Int,
    into out: inout FoldBuffer, last: inout Last
  ) throws(ICUError) -> Int? {
    guard let end = runEnd(base, from: start, count: n) else { return nil }
    let characterStarts = runCharacterStarts
    if foldsContextFreeRunsAlone {
      switch try foldContextFreeRun(
        base, from: start, end: end, characterStarts: characterStarts, into: &out, last: &last)
      {
      case .folded: return end
      case .joinsPrevious: return nil
      case .needsContext: break
      }
    }
    let key = Array(UnsafeBufferPointer(start: base + start, count: end - start))
    let run: RunEntry
    if let known = runEntries[key] {
      run = known
    } else {
      run = try makeRunEntry(key, characterStarts: characterStarts)
      // Names repeat, but a list of many scripts holds far more runs than characters: the
      // cache starts again when full rather than growing with the list.
      if runEntries.count >= Self.runCacheLimit { runEntries.removeAll(keepingCapacity: true) }
      runEntries[key] = run
    }
    guard let lastSegment = run.segments.last else {
      // The whole run folds to nothing.
      if out.recordsMap {
        out.anchors.append(.init(folded: out.bytes.count, original: start, isLinear: false))
      }
      last.isFollowedByDropped = true
      return end
    }
    if last.exists && run.mayJoinPrevious { return nil }  // the per-character way joins
    let foldedStart = out.bytes.count
    out.bytes.append(contentsOf: run.bytes)
    for offset in run.interior { out.interior.append(foldedStart + offset) }
    if out.recordsMap {
      for segment in run.segments {
        out.anchors.append(
          .init(
            folded: foldedStart + segment.folded, original: start + segment.original,
            isLinear: false))
      }
    }
    last = Last(
      exists: true, originalStart: start + lastSegment.original,
      foldedStart: foldedStart + lastSegment.folded,
      lastCharacterStart: foldedStart + run.lastCharacterStart, mayJoinNext: run.mayJoinNext)
    return end
  }

  /// What `foldContextFreeRun` did.
  private enum ContextFreeRun {
    /// It folded the run.
    case folded
    /// The run's first letter would join the character before it: the per-character way
    /// folds it.
    case joinsPrevious
    /// A character of the run is not one of the ``ContextFreeLetters`` (or does not fold to
    /// printable ASCII): the run is transliterated as a whole.
    case needsContext
  }

  /// Folds a run made only of ``ContextFreeLetters`` letter by letter, each from the cache and
  /// mapped to its letter: what the run's transliteration as a whole gives, without ICU.
  private func foldContextFreeRun(
    _ base: UnsafePointer<UInt8>, from start: Int, end: Int, characterStarts: [Int],
    into out: inout FoldBuffer, last: inout Last
  ) throws(ICUError) -> ContextFreeRun {
    runCharacterEntries.removeAll(keepingCapacity: true)
    for (k, offset) in characterStarts.enumerated() {
      let characterEnd = k + 1 < characterStarts.count ? start + characterStarts[k + 1] : end
      let index = try entry(base, start + offset..<characterEnd)
      guard entries[index].foldsAloneInRuns else { return .needsContext }
      runCharacterEntries.append(index)
    }
    // As a run folded whole: its first character is not checked for joining the one before.
    if last.exists && entries[runCharacterEntries[0]].mayJoinPrevious { return .joinsPrevious }
    for (k, index) in runCharacterEntries.enumerated() {
      let characterEnd = k + 1 < characterStarts.count ? start + characterStarts[k + 1] : end
      appendRaw(index, original: start + characterStarts[k]..<characterEnd, into: &out, last: &last)
    }
    return .folded
  }

  /// The folded form of each character of a run folded alone, from the characters' cache.
  func foldedCharacters(_ run: [UInt8], characterStarts: [Int]) throws(ICUError) -> [[UInt8]] {
    var result: [[UInt8]] = []
    var failure: ICUError?
    run.withUnsafeBufferPointer { bytes in
      guard let base = bytes.baseAddress else { return }
      for (k, start) in characterStarts.enumerated() {
        let end = k + 1 < characterStarts.count ? characterStarts[k + 1] : bytes.count
        do throws(ICUError) {
          let folded = entries[try entry(base, start..<end)]
          result.append(Array(entryBytes[folded.start..<folded.start + folded.count]))
        } catch {
          failure = error
          return
        }
      }
    }
    if let failure { throw failure }
    return result
  }

  private static func appendLinear(_ out: inout FoldBuffer, folded: Int, original: Int) {
    if let tail = out.anchors.last, tail.isLinear,
      tail.original - tail.folded == original - folded
    {
      return  // continues the linear segment before it
    }
    out.anchors.append(.init(folded: folded, original: original, isLinear: true))
  }

  /// Whether writing `next` after the last folded character changes where characters break:
  /// the two merge into one (a mark after a dropped soft hyphen), or regional indicators pair
  /// up differently (a lone flag letter before a flag).
  func joins(_ lastCharacter: ArraySlice<UInt8>, _ next: Entry) -> Bool {
    let following = entryBytes[next.start..<next.start + next.count]
    var expected = [0, lastCharacter.count]
    for offset in Self.characterStarts(following).dropFirst() {
      expected.append(lastCharacter.count + offset)
    }
    return Self.characterStarts(lastCharacter + following) != expected
  }

  /// UTF-8 offsets where the characters of valid UTF-8 `bytes` start.
  private static func characterStarts<C: Collection<UInt8>>(_ bytes: C) -> [Int] {
    let text = String(decoding: bytes, as: UTF8.self)
    return text.indices.map { text.utf8.distance(from: text.startIndex, to: $0) }
  }

  // MARK: Characters

  /// Decodes the scalar starting at `i` of valid UTF-8.
  @inline(__always)
  static func decode(_ base: UnsafePointer<UInt8>, at i: Int, count n: Int) -> (
    value: UInt32, length: Int
  ) {
    let b0 = UInt32(base[i])
    if b0 < 0x80 { return (b0, 1) }
    if b0 < 0xE0, i + 1 < n { return ((b0 & 0x1F) << 6 | UInt32(base[i + 1] & 0x3F), 2) }
    if b0 < 0xF0, i + 2 < n {
      return ((b0 & 0x0F) << 12 | UInt32(base[i + 1] & 0x3F) << 6 | UInt32(base[i + 2] & 0x3F), 3)
    }
    if i + 3 < n {
      let value =
        (b0 & 0x07) << 18 | UInt32(base[i + 1] & 0x3F) << 12 | UInt32(base[i + 2] & 0x3F) << 6
        | UInt32(base[i + 3] & 0x3F)
      return (value, 4)
    }
    return (0xFFFD, n - i)  // truncated input; valid UTF-8 never gets here
  }

  /// The end of the character (grapheme cluster) that starts at `i`.
  func clusterEnd(_ base: UnsafePointer<UInt8>, from i: Int, count n: Int) -> Int {
    let (value, length) = Self.decode(base, at: i, count: n)
    var next = i + length
    if next >= n { return n }
    let kinds = scalarKinds
    func kind(_ value: UInt32) -> UInt8 { value < 0x10000 ? kinds[Int(value)] : 0 }
    if kind(value) == ScalarClasses.plain {
      var (following, followingLength) = Self.decode(base, at: next, count: n)
      if kind(following) == ScalarClasses.plain { return next }
      // A letter (not a control: GB4 breaks after one) with marks that attach to it, up to
      // the next plain scalar: one character.
      if value >= 0x20 && !(0x7F...0x9F).contains(value) && value != 0xAD {
        while kind(following) == ScalarClasses.attachingMark {
          next += followingLength
          if next >= n { return n }
          (following, followingLength) = Self.decode(base, at: next, count: n)
        }
        if kind(following) == ScalarClasses.plain { return next }
      }
    }
    // The exact way: ask Swift's grapheme breaker on a growing window.
    var window = 64
    while true {
      var upper = min(n, i + window)
      while upper < n && base[upper] & 0xC0 == 0x80 { upper += 1 }
      let text = String(
        decoding: UnsafeBufferPointer(start: base + i, count: upper - i), as: UTF8.self)
      let first = text.index(after: text.startIndex)
      let length = text.utf8.distance(from: text.startIndex, to: first)
      if i + length < upper || upper == n { return i + length }
      window *= 4
    }
  }

  /// The cache entry for the character `base[range]`, folding it with ICU on first sight.
  func entry(_ base: UnsafePointer<UInt8>, _ range: Range<Int>) throws(ICUError) -> Int {
    let count = range.count
    let (value, length) = Self.decode(base, at: range.lowerBound, count: range.upperBound)
    if length == count && value < 0x10000 {
      var page = Int(bmpPages[Int(value >> 8)])
      if page < 0 {
        page = bmpEntries.count
        bmpPages[Int(value >> 8)] = Int32(page)
        bmpEntries.append(contentsOf: repeatElement(0, count: 256))
      }
      let slot = page + Int(value & 0xFF)
      let known = bmpEntries[slot]
      if known != 0 { return Int(known) - 1 }
      let index = try makeEntry(UnsafeBufferPointer(start: base + range.lowerBound, count: count))
      bmpEntries[slot] = Int32(index + 1)
      return index
    }
    if count <= 16 {
      var key = ShortKey(low: 0, high: 0, count: count)
      for k in 0..<count {
        let byte = UInt64(base[range.lowerBound + k])
        if k < 8 { key.low |= byte << (8 * k) } else { key.high |= byte << (8 * (k - 8)) }
      }
      if let known = shortEntries[key] { return Int(known) }
      let index = try makeEntry(UnsafeBufferPointer(start: base + range.lowerBound, count: count))
      shortEntries[key] = Int32(index)
      return index
    }
    let bytes = Array(UnsafeBufferPointer(start: base + range.lowerBound, count: count))
    if let known = longEntries[bytes] { return Int(known) }
    let index = try makeEntry(UnsafeBufferPointer(start: base + range.lowerBound, count: count))
    longEntries[bytes] = Int32(index)
    return index
  }

  /// Whether `bytes` is one scalar that the folding leaves as it is, known without running the
  /// pipeline.
  ///
  /// Under every folding but ``Folding/latin`` these are the scalars of
  /// ``ScalarClasses/foldsToItself(_:)``; under the default folding in the root locale, also a
  /// scalar that NFKC case folding leaves alone (so that NFC, NFKC, case folding and the
  /// removal of ignorables do), with no canonical decomposition and no folding of its own
  /// under ``Folding/diacritics`` (so that the removal of marks does).
  ///
  /// A test checks every scalar of the Basic Multilingual Plane against the pipeline.
  private func foldsToItself(_ bytes: UnsafeBufferPointer<UInt8>) throws(ICUError) -> Bool {
    guard !normalizer.folding.contains(.latin), let base = bytes.baseAddress else { return false }
    let (value, length) = Self.decode(base, at: 0, count: bytes.count)
    guard length == bytes.count else { return false }
    if ScalarClasses.foldsToItself(value) { return true }
    guard normalizer.folding == .default, !normalizer.isTurkic, let scalar = Unicode.Scalar(value),
      !ScalarClasses.isRemovableDiacritic(scalar), LetterFoldings.table[value] == nil
    else { return false }
    let units = Array(String(Character(scalar)).utf16)
    guard try ICU.Normalizer.nfkcCasefold.get().normalize(units) == units else { return false }
    return try ICU.Normalizer.nfd.get().normalize(units) == units
  }

  private func makeEntry(_ bytes: UnsafeBufferPointer<UInt8>) throws(ICUError) -> Int {
    let original = String(decoding: bytes, as: UTF8.self)
    let folded: String
    if try foldsToItself(bytes) {
      folded = original
    } else if let known = normalizer.shared.foldedCharacter(Array(bytes)) {
      folded = known
    } else {
      folded = try foldCharacter(original)
      normalizer.shared.remember(Array(bytes), folded: folded)
    }
    var interior: [Int] = []
    var characterStarts: [Int] = []
    var offset = 0
    for character in folded {
      characterStarts.append(offset)
      var first = true
      for scalar in character.unicodeScalars {
        if !first { interior.append(offset) }
        first = false
        offset += UTF8.width(scalar)
      }
    }
    let scalars = folded.unicodeScalars
    var foldsAloneInRuns = false
    if transliteratesRuns, ContextFreeLetters.appliesToRunningICU,
      let first = original.unicodeScalars.first, original.unicodeScalars.count == 1,
      ContextFreeLetters.contains(first.value)
    {
      foldsAloneInRuns = !folded.isEmpty && folded.utf8.allSatisfy { (0x21...0x7E).contains($0) }
    }
    let entry = Entry(
      start: entryBytes.count, count: folded.utf8.count,
      interiorStart: entryInterior.count, interiorCount: interior.count,
      lastCharacterStart: characterStarts.last ?? 0,
      isIdentity: folded.utf8.elementsEqual(original.utf8) && scalars.count == 1,
      mayJoinPrevious: scalars.first.map(ScalarClasses.mayJoinPrevious) ?? false,
      mayJoinNext: scalars.last.map(ScalarClasses.mayJoinNext) ?? false,
      foldsAloneInRuns: foldsAloneInRuns)
    entryBytes.append(contentsOf: folded.utf8)
    entryInterior.append(contentsOf: interior)
    entries.append(entry)
    return entries.count - 1
  }
}
