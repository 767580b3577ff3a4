// Shared by every harness: reading choices from libFuzzer's bytes, and failing an oracle.

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// libFuzzer's input read front to back: small choices first, the rest as text.
struct FuzzInput {
  private let bytes: [UInt8]
  private var position = 0

  init(_ data: UnsafePointer<UInt8>, _ size: Int) {
    bytes = Array(UnsafeBufferPointer(start: data, count: size))
  }

  var isAtEnd: Bool { position >= bytes.count }

  /// The next byte, or 0 past the end.
  mutating func byte() -> UInt8 {
    guard position < bytes.count else { return 0 }
    defer { position += 1 }
    return bytes[position]
  }

  /// A number below `limit` (at least 1).
  mutating func below(_ limit: Int) -> Int { Int(byte()) % max(limit, 1) }

  /// The bytes left, all of them.
  mutating func rest() -> [UInt8] {
    defer { position = bytes.count }
    return Array(bytes[min(position, bytes.count)...])
  }

  /// The bytes left as text (invalid UTF-8 replaced, as every reader of the project does).
  mutating func restAsText() -> String { String(decoding: rest(), as: UTF8.self) }
}

/// Stops the run when an oracle does not hold: libFuzzer keeps the input as a crash.
func require(_ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String) {
  guard !condition() else { return }
  let text = "oracle failed: \(message())\n"
  _ = text.withCString { write(2, $0, strlen($0)) }
  abort()
}

/// The UTF-8 offsets where the characters (grapheme clusters) of `text` start, and its end.
func characterOffsets(of text: String) -> Set<Int> {
  var offsets: Set<Int> = [0]
  var offset = 0
  for character in text {
    offset += character.utf8.count
    offsets.insert(offset)
  }
  return offsets
}
