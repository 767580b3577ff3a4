/// The completion keys of one folded value: the spans of its folded bytes that completions
/// offer.
///
/// A value gives its whole folded text, leading and trailing white space left out, and each
/// of its words: a maximal run of letters and numbers (general categories L and N), with the
/// marks (category M) that follow them, as Unicode's properties tell them. A word that is the
/// whole value is given once.
enum CompletionKeys {
  /// Calls `body` with the start and length of each key of the folded value at
  /// `range` of `bytes` (offsets into `bytes`): the value first, then its words in order.
  ///
  /// - Complexity: O(*n*) in the value's bytes.
  @inline(__always)
  static func forEach(
    in bytes: UnsafeBufferPointer<UInt8>, range: Range<Int>, _ body: (Int, Int) -> Void
  ) {
    guard let base = bytes.baseAddress, !range.isEmpty else { return }
    let slice = UnsafeBufferPointer(start: base + range.lowerBound, count: range.count)
    let lead = Whitespace.leadingLength(slice)
    guard lead < range.count else { return }
    let trail = Whitespace.trailingLength(
      UnsafeBufferPointer(start: base + range.lowerBound + lead, count: range.count - lead))
    let valueStart = range.lowerBound + lead
    let valueEnd = range.upperBound - trail
    body(valueStart, valueEnd - valueStart)
    var wordStart = -1
    var i = range.lowerBound
    let end = range.upperBound
    while i < end {
      let byte = base[i]
      let kind: UInt8
      let length: Int
      if byte < 0x80 {
        kind = asciiKinds[Int(byte)]
        length = 1
      } else {
        let (value, count) = Folder.decode(base, at: i, count: end)
        kind = Self.kind(of: value)
        length = count
      }
      if kind == 1 || (kind == 2 && wordStart >= 0) {
        if wordStart < 0 { wordStart = i }
      } else if wordStart >= 0 {
        if wordStart != valueStart || i != valueEnd { body(wordStart, i - wordStart) }
        wordStart = -1
      }
      i += length
    }
    if wordStart >= 0, wordStart != valueStart || end != valueEnd {
      body(wordStart, end - wordStart)
    }
  }

  /// 1 for ASCII letters and digits, 0 for the rest.
  private static let asciiKinds: [UInt8] = (0..<128).map { byte in
    switch UInt8(byte) {
    case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "z"),
      UInt8(ascii: "A")...UInt8(ascii: "Z"):
      return 1
    default: return 0
    }
  }

  /// 1 for a letter or number, which starts or continues a word; 2 for a mark, which only
  /// continues one; 0 for the rest, which ends it.
  static func kind(of value: UInt32) -> UInt8 {
    if value < 0x80 { return asciiKinds[Int(value)] }
    guard let scalar = Unicode.Scalar(value) else { return 0 }
    switch scalar.properties.generalCategory {
    case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
      .decimalNumber, .letterNumber, .otherNumber:
      return 1
    case .nonspacingMark, .spacingMark, .enclosingMark: return 2
    default: return 0
    }
  }
}
