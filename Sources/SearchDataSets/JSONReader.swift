/// A JSON value, with the offset of its first byte in the text that was read.
struct JSONValue {
  /// What the value is.
  enum Kind {
    case null
    case bool(Bool)
    /// A number, as written.
    case number(String)
    case string(String)
    case array([JSONValue])
    case object([JSONMember])
  }

  var kind: Kind
  var offset: Int

  /// The kind of value, as errors name it: "a string", "an array" and so on.
  var typeName: String {
    switch kind {
    case .null: return "null"
    case .bool: return "a boolean"
    case .number: return "a number"
    case .string: return "a string"
    case .array: return "an array"
    case .object: return "an object"
    }
  }
}

/// A key and value of a JSON object, in the order written.
struct JSONMember {
  var key: String
  var keyOffset: Int
  var value: JSONValue
}

/// JSON that does not follow RFC 8259, with the offset of the byte at fault.
struct JSONSyntaxError: Error {
  var offset: Int
  var message: String
}

/// A strict reader of one JSON text (RFC 8259: no comments, no trailing commas, no leading
/// zeros, no lone surrogates), for manifests and the lines of JSON Lines.
///
/// The text must already be valid UTF-8.
struct JSONReader {
  /// How deep arrays and objects may nest: deeper text is rejected rather than overflowing the
  /// stack of this recursive reader.
  static let maximumDepth = 512

  private let bytes: UnsafeBufferPointer<UInt8>
  private let end: String
  private let keys: Set<String>?
  private var position = 0

  private init(bytes: UnsafeBufferPointer<UInt8>, end: String, keys: Set<String>?) {
    self.bytes = bytes
    self.end = end
    self.keys = keys
  }

  /// Reads all of `bytes` as one JSON value; `end` names the end of the text in errors ("end of
  /// line").
  ///
  /// With `keys`, the members of a top-level object with other keys are checked but left out.
  static func read(
    _ bytes: UnsafeBufferPointer<UInt8>, end: String, keepingKeys keys: Set<String>? = nil
  ) throws(JSONSyntaxError) -> JSONValue {
    var reader = JSONReader(bytes: bytes, end: end, keys: keys)
    reader.skipWhitespace()
    let value = try reader.value(depth: 0, keep: true)
    reader.skipWhitespace()
    if reader.position < bytes.count {
      throw reader.failure("unexpected \(reader.describe()) after \(value.typeName)")
    }
    return value
  }

  private var peek: UInt8? { position < bytes.count ? bytes[position] : nil }

  private mutating func skipWhitespace() {
    while let byte = peek, byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 {
      position += 1
    }
  }

  private func failure(_ message: String, at offset: Int? = nil) -> JSONSyntaxError {
    JSONSyntaxError(offset: offset ?? position, message: message)
  }

  /// The character at the reading position, for errors: "'x'", "U+0001" or the end.
  private func describe() -> String {
    guard let byte = peek else { return end }
    if byte < 0x20 || byte == 0x7F { return "U+" + hex(UInt32(byte)) }
    let length = byte < 0x80 ? 1 : byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : 2
    let slice = bytes[position..<min(position + length, bytes.count)]
    return "'" + String(decoding: UnsafeBufferPointer(rebasing: slice), as: UTF8.self) + "'"
  }

  private func hex(_ value: UInt32) -> String {
    let digits = String(value, radix: 16, uppercase: true)
    return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
  }

  private mutating func value(depth: Int, keep: Bool) throws(JSONSyntaxError) -> JSONValue {
    let start = position
    guard let byte = peek else { throw failure("expected a value, found \(end)") }
    switch byte {
    case UInt8(ascii: "{"): return try object(depth: depth, keep: keep)
    case UInt8(ascii: "["): return try array(depth: depth, keep: keep)
    case UInt8(ascii: "\""): return JSONValue(kind: .string(try string(keep: keep)), offset: start)
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
      return JSONValue(kind: .number(try number()), offset: start)
    case UInt8(ascii: "t"): return JSONValue(kind: .bool(true), offset: try literal("true"))
    case UInt8(ascii: "f"): return JSONValue(kind: .bool(false), offset: try literal("false"))
    case UInt8(ascii: "n"): return JSONValue(kind: .null, offset: try literal("null"))
    default: throw failure("expected a value, found \(describe())")
    }
  }

  private mutating func literal(_ word: StaticString) throws(JSONSyntaxError) -> Int {
    let start = position
    let text = UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount)
    guard bytes.count - position >= text.count,
      bytes[position..<(position + text.count)].elementsEqual(text)
    else { throw failure("expected a value (true, false or null), found \(describe())") }
    position += text.count
    return start
  }

  private mutating func object(depth: Int, keep: Bool) throws(JSONSyntaxError) -> JSONValue {
    let start = position
    guard depth < Self.maximumDepth else {
      throw failure("arrays and objects nest deeper than \(Self.maximumDepth) levels")
    }
    position += 1
    var members: [JSONMember] = []
    skipWhitespace()
    if peek == UInt8(ascii: "}") {
      position += 1
      return JSONValue(kind: .object(members), offset: start)
    }
    while true {
      skipWhitespace()
      guard peek == UInt8(ascii: "\"") else {
        if peek == UInt8(ascii: "}") {
          throw failure("a comma before '}' (JSON allows no trailing comma)")
        }
        throw failure("expected a key in double quotes, found \(describe())")
      }
      let keyOffset = position
      let filtered = depth == 0 && keys != nil
      let key = try string(keep: keep || filtered)
      skipWhitespace()
      guard peek == UInt8(ascii: ":") else {
        throw failure("expected ':' after the key, found \(describe())")
      }
      position += 1
      skipWhitespace()
      let keepValue = keep && (!filtered || keys?.contains(key) == true)
      let value = try self.value(depth: depth + 1, keep: keepValue)
      if keepValue { members.append(JSONMember(key: key, keyOffset: keyOffset, value: value)) }
      skipWhitespace()
      switch peek {
      case UInt8(ascii: ","): position += 1
      case UInt8(ascii: "}"):
        position += 1
        return JSONValue(kind: .object(members), offset: start)
      default: throw failure("expected ',' or '}' after a value, found \(describe())")
      }
    }
  }

  private mutating func array(depth: Int, keep: Bool) throws(JSONSyntaxError) -> JSONValue {
    let start = position
    guard depth < Self.maximumDepth else {
      throw failure("arrays and objects nest deeper than \(Self.maximumDepth) levels")
    }
    position += 1
    var items: [JSONValue] = []
    skipWhitespace()
    if peek == UInt8(ascii: "]") {
      position += 1
      return JSONValue(kind: .array(items), offset: start)
    }
    while true {
      skipWhitespace()
      if peek == UInt8(ascii: "]") {
        throw failure("a comma before ']' (JSON allows no trailing comma)")
      }
      let item = try value(depth: depth + 1, keep: keep)
      if keep { items.append(item) }
      skipWhitespace()
      switch peek {
      case UInt8(ascii: ","): position += 1
      case UInt8(ascii: "]"):
        position += 1
        return JSONValue(kind: .array(items), offset: start)
      default: throw failure("expected ',' or ']' after a value, found \(describe())")
      }
    }
  }

  /// Reads a string; its text is built only when `keep` is true ("" otherwise).
  private mutating func string(keep: Bool) throws(JSONSyntaxError) -> String {
    let start = position
    position += 1
    var runStart = position
    var unescaped: [UInt8] = []
    while true {
      guard let byte = peek else { throw failure("unterminated string", at: start) }
      switch byte {
      case UInt8(ascii: "\""):
        let run = UnsafeBufferPointer(rebasing: bytes[runStart..<position])
        position += 1
        guard keep else { return "" }
        if runStart == start + 1 { return String(decoding: run, as: UTF8.self) }
        unescaped.append(contentsOf: run)
        return String(decoding: unescaped, as: UTF8.self)
      case UInt8(ascii: "\\"):
        if keep { unescaped.append(contentsOf: bytes[runStart..<position]) }
        let scalar = try escape()
        if keep { UTF8.encode(scalar) { unescaped.append($0) } }
        runStart = position
      case 0..<0x20:
        throw failure(
          "control character U+\(hex(UInt32(byte))) in a string; write it as an escape such as \\t")
      default: position += 1
      }
    }
  }

  /// Reads an escape sequence, from its backslash.
  private mutating func escape() throws(JSONSyntaxError) -> Unicode.Scalar {
    let start = position
    position += 1
    guard let byte = peek else { throw failure("unterminated string", at: start) }
    position += 1
    switch byte {
    case UInt8(ascii: "\""): return "\""
    case UInt8(ascii: "\\"): return "\\"
    case UInt8(ascii: "/"): return "/"
    case UInt8(ascii: "b"): return "\u{08}"
    case UInt8(ascii: "f"): return "\u{0C}"
    case UInt8(ascii: "n"): return "\n"
    case UInt8(ascii: "r"): return "\r"
    case UInt8(ascii: "t"): return "\t"
    case UInt8(ascii: "u"):
      let unit = try hexUnit(escapeStart: start)
      if (0xDC00...0xDFFF).contains(unit) {
        throw failure("lone surrogate \\u\(hex(unit)) (JSON text must be Unicode)", at: start)
      }
      if (0xD800...0xDBFF).contains(unit) {
        let low = position
        guard bytes.count - position >= 2, bytes[position] == UInt8(ascii: "\\"),
          bytes[position + 1] == UInt8(ascii: "u")
        else {
          throw failure("lone surrogate \\u\(hex(unit)) (JSON text must be Unicode)", at: start)
        }
        position += 2
        let second = try hexUnit(escapeStart: low)
        guard (0xDC00...0xDFFF).contains(second) else {
          throw failure("lone surrogate \\u\(hex(unit)) (JSON text must be Unicode)", at: start)
        }
        let value = 0x10000 + ((unit - 0xD800) << 10) + (second - 0xDC00)
        return Unicode.Scalar(value) ?? "\u{FFFD}"
      }
      return Unicode.Scalar(unit) ?? "\u{FFFD}"
    default:
      position -= 1
      throw failure("invalid escape: '\\' followed by \(describe())", at: start)
    }
  }

  /// Reads the four hex digits of a \u escape.
  private mutating func hexUnit(escapeStart: Int) throws(JSONSyntaxError) -> UInt32 {
    var unit: UInt32 = 0
    for _ in 0..<4 {
      guard let byte = peek, let digit = hexDigit(byte) else {
        throw failure("invalid \\u escape: four hex digits must follow \\u", at: escapeStart)
      }
      unit = unit << 4 | digit
      position += 1
    }
    return unit
  }

  private func hexDigit(_ byte: UInt8) -> UInt32? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): return UInt32(byte - UInt8(ascii: "0"))
    case UInt8(ascii: "a")...UInt8(ascii: "f"): return UInt32(byte - UInt8(ascii: "a") + 10)
    case UInt8(ascii: "A")...UInt8(ascii: "F"): return UInt32(byte - UInt8(ascii: "A") + 10)
    default: return nil
    }
  }

  private mutating func number() throws(JSONSyntaxError) -> String {
    let start = position
    func isDigit(_ byte: UInt8?) -> Bool {
      byte.map { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) } ?? false
    }
    if peek == UInt8(ascii: "-") { position += 1 }
    guard isDigit(peek) else { throw failure("invalid number: a digit must follow '-'") }
    if peek == UInt8(ascii: "0") {
      position += 1
      if isDigit(peek) { throw failure("invalid number: no leading zeros", at: position - 1) }
    } else {
      while isDigit(peek) { position += 1 }
    }
    if peek == UInt8(ascii: ".") {
      position += 1
      guard isDigit(peek) else { throw failure("invalid number: digits must follow '.'") }
      while isDigit(peek) { position += 1 }
    }
    if peek == UInt8(ascii: "e") || peek == UInt8(ascii: "E") {
      position += 1
      if peek == UInt8(ascii: "+") || peek == UInt8(ascii: "-") { position += 1 }
      guard isDigit(peek) else { throw failure("invalid number: digits must follow the exponent") }
      while isDigit(peek) { position += 1 }
    }
    return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self)
  }
}
