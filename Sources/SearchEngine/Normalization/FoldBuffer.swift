/// Folded UTF-8 bytes with what is needed to judge and map a match in them: the scalar
/// boundaries that fall inside a folded character, and (when asked for) the map back to the
/// original text.
///
/// The map is a list of anchors, one per segment of the folded text. A *linear* segment
/// maps byte for byte (ASCII, and characters that fold to themselves as one scalar); a *unit*
/// segment is the folded form of one original character (or of a few that folded into one),
/// and a match that starts or ends inside it covers the whole original character.
struct FoldBuffer: Sendable {
  struct Anchor: Hashable, Sendable {
    var folded: Int
    var original: Int
    var isLinear: Bool
  }

  /// The folded text.
  var bytes: [UInt8] = []
  /// Scalar boundaries of `bytes` that are not character boundaries, ascending.
  var interior: [Int] = []
  /// Segment starts, ascending in both coordinates; empty when no map was recorded.
  var anchors: [Anchor] = []
  /// Whether `anchors` is being recorded.
  var recordsMap = false
  /// The length in bytes of the original text.
  var originalCount = 0

  mutating func reset(originalCount: Int, recordsMap: Bool) {
    bytes.removeAll(keepingCapacity: true)
    interior.removeAll(keepingCapacity: true)
    anchors.removeAll(keepingCapacity: true)
    self.recordsMap = recordsMap
    self.originalCount = originalCount
  }

  /// Whether a match may start or end at `offset`: a scalar boundary of the folded text that
  /// is not inside a folded character.
  ///
  /// Offsets found by a substring search of valid UTF-8 are always scalar boundaries.
  func isBoundary(_ offset: Int) -> Bool {
    if interior.isEmpty { return true }
    return !interior.containsSorted(offset)
  }

  /// The range of the original text (UTF-8 offsets) that a match at `range` of the folded
  /// text covers, snapped outwards to whole original characters; nil when the match starts
  /// or ends inside a folded character.
  func originalRange(forFolded range: Range<Int>) -> Range<Int>? {
    precondition(recordsMap, "originalRange needs a FoldBuffer folded with recordsMap")
    guard range.lowerBound >= 0, range.upperBound <= bytes.count, isBoundary(range.lowerBound),
      isBoundary(range.upperBound)
    else { return nil }
    if range.isEmpty {
      let position = originalStart(of: range.lowerBound)
      return position..<position
    }
    return originalStart(of: range.lowerBound)..<originalEnd(of: range.upperBound)
  }

  private func originalStart(of offset: Int) -> Int {
    if offset >= bytes.count { return originalCount }
    let k = lastAnchor { $0.folded <= offset }
    guard k >= 0 else { return 0 }
    let anchor = anchors[k]
    return anchor.isLinear ? anchor.original + (offset - anchor.folded) : anchor.original
  }

  private func originalEnd(of offset: Int) -> Int {
    if offset <= 0 { return 0 }
    let k = lastAnchor { $0.folded < offset }
    guard k >= 0 else { return 0 }
    let anchor = anchors[k]
    if anchor.isLinear { return anchor.original + (offset - anchor.folded) }
    return k + 1 < anchors.count ? anchors[k + 1].original : originalCount
  }

  /// The index of the last anchor satisfying a predicate that holds for a prefix of anchors.
  private func lastAnchor(where predicate: (Anchor) -> Bool) -> Int {
    var low = 0
    var high = anchors.count
    while low < high {
      let middle = (low + high) / 2
      if predicate(anchors[middle]) { low = middle + 1 } else { high = middle }
    }
    return low - 1
  }
}

extension Array where Element: Comparable {
  /// Binary search in an ascending array.
  func containsSorted(_ value: Element) -> Bool {
    var low = 0
    var high = count
    while low < high {
      let middle = (low + high) / 2
      if self[middle] < value { low = middle + 1 } else { high = middle }
    }
    return low < count && self[low] == value
  }
}
