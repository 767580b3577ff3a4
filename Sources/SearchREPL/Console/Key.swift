/// One key press (or one paste) read from a terminal in raw mode.
enum Key: Equatable, Sendable {
  /// A character to insert: one Unicode scalar, so a combining mark typed on its own joins
  /// the character before it once inserted.
  case character(Character)
  /// Text pasted with bracketed paste on: inserted as one change, never run as keys.
  case paste(String)
  case enter
  case tab
  case backTab
  case backspace
  case delete
  case escape
  case up
  case down
  case left
  case right
  case home
  case end
  case pageUp
  case pageDown
  /// Ctrl and a letter (other than the ones named above: Ctrl-I is tab, Ctrl-M enter,
  /// Ctrl-H backspace); the letter is lowercase.
  case control(Character)
  /// Alt (Meta) and a character, sent as Escape then the character.
  case alt(Character)
  /// Alt-Backspace.
  case altBackspace
}

/// Turns the bytes a terminal sends into keys: UTF-8 text, control characters, the CSI and
/// SS3 sequences of xterm, VT220 and tmux, and bracketed paste.
///
/// It is pure and incremental: bytes may arrive split anywhere; an unfinished sequence waits
/// for more. Only a lone Escape is ambiguous (the key, or the start of a sequence), so the
/// reader calls ``flush()`` when no byte has followed it for a moment.
struct KeyDecoder {
  private var buffer: [UInt8] = []
  private var pasting = false
  private var pasted: [UInt8] = []
  /// The last byte decoded was a CR that ended a read: an LF that starts the next read is
  /// the rest of its CR LF pair, not a second Enter.
  private var afterCarriageReturn = false

  private static let escape: UInt8 = 0x1B
  private static let pasteEnd: [UInt8] = Array("\u{1B}[201~".utf8)

  /// Whether bytes are waiting for the rest of a sequence.
  var hasPending: Bool { !buffer.isEmpty }

  /// The keys `bytes` complete.
  mutating func decode(_ bytes: some Sequence<UInt8>) -> [Key] {
    buffer.append(contentsOf: bytes)
    return drain(final: false)
  }

  /// The keys of whatever is pending, taken as complete: a lone Escape is the Escape key.
  mutating func flush() -> [Key] {
    drain(final: true)
  }

  private mutating func drain(final: Bool) -> [Key] {
    var keys: [Key] = []
    var start = 0
    while start < buffer.count {
      if pasting {
        guard let end = firstRange(of: Self.pasteEnd, in: buffer, from: start) else {
          // Keep only what could be the start of the end marker, even on a flush (the rest
          // of the marker may be late); the rest is pasted text.
          let keep = Self.pasteEndPrefixLength(endOf: buffer[start...])
          pasted.append(contentsOf: buffer[start..<(buffer.count - keep)])
          start = buffer.count - keep
          break
        }
        pasted.append(contentsOf: buffer[start..<end])
        keys.append(.paste(String(decoding: pasted, as: UTF8.self)))
        pasted = []
        pasting = false
        start = end + Self.pasteEnd.count
        continue
      }
      guard let (key, length) = decodeOne(buffer[start...], final: final) else { break }
      start += length
      if let key { keys.append(key) }
    }
    buffer.removeFirst(start)
    return keys
  }

  /// The key at the start of `bytes` and how many bytes it took; nil when more bytes are
  /// needed; a nil key for bytes that mean nothing here (they are skipped).
  private mutating func decodeOne(_ bytes: ArraySlice<UInt8>, final: Bool) -> (Key?, Int)? {
    let first = bytes[bytes.startIndex]
    let pairsWithCarriageReturn = afterCarriageReturn
    afterCarriageReturn = false
    switch first {
    case Self.escape:
      return decodeEscape(bytes, final: final)
    case 0x0D:
      // Enter is CR; a CR LF pair (a pasted line without bracketed paste) is one Enter, also
      // when a read ends between the two.
      let next = bytes.index(after: bytes.startIndex)
      if next < bytes.endIndex, bytes[next] == 0x0A { return (.enter, 2) }
      afterCarriageReturn = next == bytes.endIndex
      return (.enter, 1)
    case 0x0A: return (pairsWithCarriageReturn ? nil : .enter, 1)
    case 0x09: return (.tab, 1)
    case 0x7F, 0x08: return (.backspace, 1)
    case 0x01...0x1A:
      return (.control(Character(Unicode.Scalar(first - 1 + UInt8(ascii: "a")))), 1)
    case 0x00, 0x1C...0x1F: return (nil, 1)
    default:
      guard let (scalar, length) = Self.scalar(bytes, final: final) else { return nil }
      return (.character(Character(scalar)), length)
    }
  }

  private mutating func decodeEscape(_ bytes: ArraySlice<UInt8>, final: Bool) -> (Key?, Int)? {
    let start = bytes.startIndex
    guard bytes.count >= 2 else { return final ? (.escape, 1) : nil }
    let second = bytes[start + 1]
    switch second {
    case UInt8(ascii: "["):
      // CSI: parameter and intermediate bytes, then one final byte in 0x40...0x7E.
      var index = start + 2
      while index < bytes.endIndex, !(0x40...0x7E).contains(bytes[index]) { index += 1 }
      guard index < bytes.endIndex else { return final ? (.escape, 1) : nil }
      let parameters = String(decoding: bytes[(start + 2)..<index], as: UTF8.self)
      let length = index - start + 1
      return (csiKey(parameters: parameters, final: bytes[index]), length)
    case UInt8(ascii: "O"):
      guard bytes.count >= 3 else { return final ? (.escape, 1) : nil }
      let key: Key? =
        switch bytes[start + 2] {
        case UInt8(ascii: "A"): .up
        case UInt8(ascii: "B"): .down
        case UInt8(ascii: "C"): .right
        case UInt8(ascii: "D"): .left
        case UInt8(ascii: "H"): .home
        case UInt8(ascii: "F"): .end
        default: nil
        }
      return (key, 3)
    case Self.escape:
      return (.escape, 1)
    case 0x7F, 0x08:
      return (.altBackspace, 2)
    default:
      guard let (scalar, length) = Self.scalar(bytes.dropFirst(), final: final) else {
        return nil
      }
      return (.alt(Character(scalar)), 1 + length)
    }
  }

  private mutating func csiKey(parameters: String, final: UInt8) -> Key? {
    // Modifiers ("1;5C" is Ctrl-Right) are read past: the key is what counts here.
    let first = parameters.split(separator: ";").first.map(String.init) ?? ""
    switch final {
    case UInt8(ascii: "A"): return .up
    case UInt8(ascii: "B"): return .down
    case UInt8(ascii: "C"): return .right
    case UInt8(ascii: "D"): return .left
    case UInt8(ascii: "H"): return .home
    case UInt8(ascii: "F"): return .end
    case UInt8(ascii: "Z"): return .backTab
    case UInt8(ascii: "~"):
      switch first {
      case "1", "7": return .home
      case "4", "8": return .end
      case "3": return .delete
      case "5": return .pageUp
      case "6": return .pageDown
      case "200":
        pasting = true
        return nil
      default: return nil
      }
    default: return nil
    }
  }

  /// The UTF-8 scalar at the start of `bytes`; U+FFFD for a malformed one; nil when it is
  /// not complete yet.
  private static func scalar(_ bytes: ArraySlice<UInt8>, final: Bool) -> (Unicode.Scalar, Int)? {
    let lead = bytes[bytes.startIndex]
    let length =
      switch lead {
      case 0x00..<0x80: 1
      case 0xC2..<0xE0: 2
      case 0xE0..<0xF0: 3
      case 0xF0..<0xF5: 4
      default: 0
      }
    guard length > 0 else { return ("\u{FFFD}", 1) }
    guard bytes.count >= length else { return final ? ("\u{FFFD}", bytes.count) : nil }
    var iterator = bytes.prefix(length).makeIterator()
    var decoder = UTF8()
    if case .scalarValue(let scalar) = decoder.decode(&iterator) { return (scalar, length) }
    return ("\u{FFFD}", 1)
  }

  /// How many bytes at the end of `bytes` are a start of the paste's end marker.
  private static func pasteEndPrefixLength(endOf bytes: ArraySlice<UInt8>) -> Int {
    for length in stride(from: min(pasteEnd.count - 1, bytes.count), to: 0, by: -1)
    where bytes.suffix(length).elementsEqual(pasteEnd.prefix(length)) {
      return length
    }
    return 0
  }

  private func firstRange(of pattern: [UInt8], in bytes: [UInt8], from start: Int) -> Int? {
    guard bytes.count - start >= pattern.count else { return nil }
    for index in start...(bytes.count - pattern.count)
    where bytes[index] == pattern[0]
      && bytes[index..<(index + pattern.count)].elementsEqual(pattern)
    {
      return index
    }
    return nil
  }
}
