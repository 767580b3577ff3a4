/// A text with its folded form and the map from the folded form back to it.
///
/// Offsets into the folded form are UTF-8 byte offsets of ``utf8``. A range of the folded form
/// maps back to whole characters (grapheme clusters) of ``original``; a range that starts or
/// ends inside a folded character maps to nothing, so one flag is never found inside two
/// adjacent flags and 👍 is never found inside 👍🏽.
public struct FoldedText: Sendable {
  /// The text as given.
  public let original: String
  let buffer: FoldBuffer

  /// The folded form as UTF-8 bytes.
  public var utf8: [UInt8] { buffer.bytes }

  /// The folded form as a string.
  public var folded: String { String(decoding: buffer.bytes, as: UTF8.self) }

  /// Whether the folded form is empty: the text was empty or only ignorable characters.
  public var isEmpty: Bool { buffer.bytes.isEmpty }

  /// Whether a match may start or end at a byte offset of the folded form.
  public func isCharacterBoundary(_ offset: Int) -> Bool {
    offset >= 0 && offset <= buffer.bytes.count && isScalarBoundary(offset)
      && buffer.isBoundary(offset)
  }

  private func isScalarBoundary(_ offset: Int) -> Bool {
    offset == buffer.bytes.count || buffer.bytes[offset] & 0xC0 != 0x80
  }

  /// The range of whole original characters that a range of the folded form covers, or nil
  /// when the range starts or ends inside a folded character.
  public func originalRange(forFolded range: Range<Int>) -> Range<String.Index>? {
    guard let bytes = originalUTF8Range(forFolded: range) else { return nil }
    let utf8 = original.utf8
    let lower = utf8.index(utf8.startIndex, offsetBy: bytes.lowerBound)
    let upper = utf8.index(lower, offsetBy: bytes.count)
    return lower..<upper
  }

  /// The same range as ``originalRange(forFolded:)`` in UTF-16 code units, for `NSRange`.
  public func utf16Range(forFolded range: Range<Int>) -> Range<Int>? {
    guard let indices = originalRange(forFolded: range) else { return nil }
    let utf16 = original.utf16
    let lower = utf16.distance(from: utf16.startIndex, to: indices.lowerBound)
    return lower..<(lower + utf16.distance(from: indices.lowerBound, to: indices.upperBound))
  }

  /// The original range in UTF-8 byte offsets.
  func originalUTF8Range(forFolded range: Range<Int>) -> Range<Int>? {
    guard isCharacterBoundary(range.lowerBound), isCharacterBoundary(range.upperBound) else {
      return nil
    }
    return buffer.originalRange(forFolded: range)
  }
}
