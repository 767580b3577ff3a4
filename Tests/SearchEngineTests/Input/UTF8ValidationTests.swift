import PropertyBased
import TestSupport
import Testing

@testable import SearchEngine

/// ``UTF8Validation`` agrees with the standard library on what is UTF-8, and the offset it
/// names ends the longest valid prefix, for text of every sequence length, overlong forms,
/// surrogates, values past U+10FFFF and sequences cut short.
struct UTF8ValidationTests {
  private static let pieces: [[UInt8]] = [
    Array("a".utf8), Array("zürich ".utf8), Array("москва".utf8), Array("東京".utf8),
    Array("👨‍👩‍👧".utf8), Array("\u{7FF}\u{800}\u{D7FF}\u{E000}\u{FFFF}\u{10000}\u{10FFFF}".utf8),
    Array(repeating: 0x41, count: 17), [0xC0, 0x80], [0xC1, 0xBF], [0xE0, 0x80, 0x80],
    [0xE0, 0x9F, 0xBF], [0xED, 0xA0, 0x80], [0xF0, 0x80, 0x80, 0x80], [0xF4, 0x90, 0x80, 0x80],
    [0xF5, 0x80, 0x80, 0x80], [0xFF], [0x80], [0xC3], [0xE6, 0x9D], [0xF0, 0x9F, 0x98],
    [0xC3, 0x41], [0xE6, 0x41, 0x80], [0xEE, 0x80, 0x41],
  ]

  @Test func agreesWithTheStandardLibrary() async {
    let text = Gen.int(in: 0...(Self.pieces.count - 1)).array(of: 0...12).map { indices in
      indices.flatMap { Self.pieces[$0] }
    }
    await propertyCheck(count: TestBudget.cases(2000), input: text) { bytes in
      let offset = bytes.withUnsafeBufferPointer { UTF8Validation.firstInvalidOffset(in: $0) }
      let isValid = String(validating: bytes, as: UTF8.self) != nil
      #expect((offset == nil) == isValid, "\(bytes)")
      if let offset {
        #expect(String(validating: bytes[..<offset], as: UTF8.self) != nil, "\(bytes)")
        // The sequence at the offset is bad: no longer valid prefix reaches past it.
        let longer = (offset + 1...min(offset + 4, bytes.count)).contains {
          String(validating: bytes[..<$0], as: UTF8.self) != nil
        }
        #expect(!longer, "\(bytes)")
      }
    }
  }
}
