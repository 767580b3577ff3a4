/// Rejects lines that cannot match a query before they are folded into a column: what spares
/// ``LineFilter`` most of its folding, since most lines of a long input match no query.
///
/// A line matches only if each set of the query has a term that matches it. A set whose terms
/// are all positive and not fuzzy (`word`, `^word`, `word$`, `^word$`) matches only lines whose
/// folded text contains one of its terms' folded needles, whatever the anchors and character
/// boundaries say; a line whose folded text contains none of them fails the set, and the
/// query. Sets with an inverse or fuzzy term, or a term that folds to nothing, reject nothing.
///
/// The folded text is the fold loop's own (``Folder/foldedText(_:into:capacity:)``), written
/// straight from the folder's cache without a column, a map or boundaries; a line it cannot
/// write that way (two characters that fold into one) is kept, to be folded and matched the
/// full way. The prefilter only ever keeps too many lines, never too few: what it keeps is
/// then matched as before.
struct LinePrefilter: Sendable {
  /// The needles of each set that can reject a line.
  private let sets: [[[UInt8]]]

  /// A prefilter for a query's sets of terms, or nil when none of them can reject a line.
  init?(sets querySets: [[TermMatcher]]) {
    let sets = querySets.compactMap { terms -> [[UInt8]]? in
      guard !terms.isEmpty,
        terms.allSatisfy({ !$0.isInverse && $0.kind != .fuzzy && !$0.needle.isEmpty })
      else { return nil }
      return terms.map(\.needle)
    }
    if sets.isEmpty { return nil }
    self.sets = sets
  }

  /// The indices of the texts at `ranges` of `bytes` that may match, ascending.
  func candidates(
    _ ranges: [Range<Int>], of bytes: UnsafeBufferPointer<UInt8>, folder: Folder
  ) throws(ICUError) -> [Int] {
    guard let base = bytes.baseAddress else { return Array(ranges.indices) }
    var kept: [Int] = []
    var capacity = 4096
    var scratch = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
    defer { scratch.deallocate() }
    for (index, range) in ranges.enumerated() {
      // Room for a line folded to three times its length; a line whose folded form is longer
      // is kept.
      let needed = range.count * 3 + 16
      if capacity < needed {
        scratch.deallocate()
        capacity = needed
        scratch = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
      }
      let text = UnsafeBufferPointer(start: base + range.lowerBound, count: range.count)
      if let count = try folder.foldedText(text, into: scratch, capacity: needed),
        !contains(UnsafeBufferPointer(start: scratch, count: count))
      {
        continue
      }
      kept.append(index)
    }
    return kept
  }

  /// Whether `folded` holds a needle of every set.
  private func contains(_ folded: UnsafeBufferPointer<UInt8>) -> Bool {
    for set in sets {
      var found = false
      for needle in set {
        found = needle.withUnsafeBufferPointer { needle in
          ByteSearch.first(needle, in: folded, range: 0..<folded.count) { _ in true } != nil
        }
        if found { break }
      }
      if !found { return false }
    }
    return true
  }
}
