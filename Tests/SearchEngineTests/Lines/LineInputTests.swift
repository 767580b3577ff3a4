import Testing

@testable import SearchEngine

@Suite struct LineInputTests {
  private func lines(_ text: String) throws -> [String] {
    let input = try LineInput(bytes: Array(text.utf8), source: "test")
    return (0..<input.count).map { input.line($0) }
  }

  @Test func splitsOnNewlines() throws {
    #expect(try lines("a\nb\nc") == ["a", "b", "c"])
    #expect(try lines("a\nb\n") == ["a", "b"])
    #expect(try lines("") == [])
    #expect(try lines("\n\n") == ["", ""])
  }

  @Test func carriageReturnIsPrintedButNotSearched() throws {
    let input = try LineInput(bytes: Array("a\r\nb".utf8), source: "test")
    #expect(input.line(0) == "a")
    #expect(input.printedRange(ofLine: 0) == 0..<2)
    #expect(input.searchedRange(ofLine: 0) == 0..<1)
  }

  @Test(arguments: [
    ([0x61, 0x0A, 0x62, 0xFF], 2, 2),  // a byte that never starts UTF-8
    ([0x0A, 0x0A, 0x66, 0xC3, 0x28], 3, 2),  // a lead byte without its continuation
    ([0xC0, 0xAF], 1, 1),  // overlong "/"
    ([0x61, 0xED, 0xA0, 0x80], 1, 2),  // an encoded surrogate
    ([0xF4, 0x90, 0x80, 0x80], 1, 1),  // above U+10FFFF
    ([0x61, 0x62, 0x63, 0x64, 0x65, 0x66, 0x67, 0x68, 0x69, 0xE2, 0x82], 1, 10),  // truncated
  ])
  func invalidUTF8IsReportedWithItsPlace(bytes: [UInt8], line: Int, column: Int) {
    #expect {
      _ = try LineInput(bytes: bytes, source: "words.txt")
    } throws: { error in
      guard let error = error as? InputError else { return false }
      return error.line == line && error.column == column && error.file == "words.txt"
        && error.description.hasPrefix("words.txt:\(line):\(column): invalid UTF-8")
    }
  }

  @Test func validMultibyteTextPasses() throws {
    #expect(try lines("ñandú\n東京\n👍🏽") == ["ñandú", "東京", "👍🏽"])
  }
}
