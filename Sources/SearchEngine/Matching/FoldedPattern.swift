/// A piece of search text folded for matching: a substring that must occur, on whole folded
/// characters, in an item's folded text.
///
/// An empty pattern (empty text, or text that folds to nothing, such as a lone soft hyphen)
/// matches every text, at offset 0 with length 0: an empty search shows everything.
public struct FoldedPattern: Hashable, Sendable {
  /// The text as the user typed it.
  public let source: String
  /// The folded text as UTF-8.
  public let utf8: [UInt8]

  /// Folds `source` with `normalizer`.
  public init(_ source: String, normalizer: Normalizer) throws(ICUError) {
    self.source = source
    self.utf8 = Array(try normalizer.fold(source).utf8)
  }

  /// Whether the pattern folds to nothing, so that it matches every text.
  public var isEmpty: Bool { utf8.isEmpty }

  /// The first match in a folded text, as a range of its folded bytes.
  public func firstMatch(in text: FoldedText) -> Range<Int>? {
    firstMatch(in: text.buffer, from: 0)
  }

  /// Every match in a folded text, left to right and not overlapping, as folded byte ranges.
  public func matches(in text: FoldedText) -> [Range<Int>] {
    if isEmpty { return [] }
    var result: [Range<Int>] = []
    var position = 0
    while let match = firstMatch(in: text.buffer, from: position) {
      result.append(match)
      position = match.upperBound
    }
    return result
  }

  /// Every match as a range of whole characters of the original text.
  public func originalRanges(in text: FoldedText) -> [Range<String.Index>] {
    matches(in: text).compactMap { text.originalRange(forFolded: $0) }
  }

  /// The first match starting at or after `start` whose both ends are character boundaries.
  func firstMatch(in buffer: FoldBuffer, from start: Int) -> Range<Int>? {
    guard start <= buffer.bytes.count else { return nil }
    if isEmpty { return start..<start }
    return buffer.bytes.withUnsafeBufferPointer { haystack in
      utf8.withUnsafeBufferPointer { needle in
        let found = ByteSearch.first(needle, in: haystack, range: start..<haystack.count) {
          buffer.isBoundary($0) && buffer.isBoundary($0 + needle.count)
        }
        return found.map { $0..<($0 + needle.count) }
      }
    }
  }
}
