import TestSupport
import Testing

@testable import SearchREPL

/// The bytes of a terminal in raw mode, turned into keys.
@Suite(.tags(.plainSwift)) struct KeyDecoderTests {
  private func keys(_ chunks: String...) -> [Key] {
    var decoder = KeyDecoder()
    return chunks.flatMap { decoder.decode(Array($0.utf8)) }
  }

  @Test func printableText() {
    #expect(keys("ab") == [.character("a"), .character("b")])
  }

  @Test func arrowsAsCSIAndSS3() {
    #expect(keys("\u{1B}[A\u{1B}[B\u{1B}[C\u{1B}[D") == [.up, .down, .right, .left])
    #expect(keys("\u{1B}OA\u{1B}OB\u{1B}OC\u{1B}OD") == [.up, .down, .right, .left])
    #expect(keys("\u{1B}[H\u{1B}[F\u{1B}OH\u{1B}OF") == [.home, .end, .home, .end])
    #expect(keys("\u{1B}[1~\u{1B}[4~\u{1B}[7~\u{1B}[8~") == [.home, .end, .home, .end])
    // Modifiers are read past: Ctrl-Right is Right.
    #expect(keys("\u{1B}[1;5C") == [.right])
    #expect(keys("\u{1B}[3~") == [.delete])
  }

  @Test func sequenceSplitAcrossDecodeCalls() {
    #expect(keys("\u{1B}", "[", "A") == [.up])
    #expect(keys("\u{1B}[1;", "5D", "x") == [.left, .character("x")])
    #expect(keys("\u{1B}O", "B") == [.down])
  }

  @Test func loneEscapeNeedsFlush() {
    var decoder = KeyDecoder()
    #expect(decoder.decode([0x1B]).isEmpty)
    #expect(decoder.hasPending)
    #expect(decoder.flush() == [.escape])
    #expect(!decoder.hasPending)
    #expect(decoder.decode(Array("a".utf8)) == [.character("a")])
  }

  @Test func escapeThenALetterIsAlt() {
    #expect(keys("\u{1B}b\u{1B}f") == [.alt("b"), .alt("f")])
    #expect(keys("\u{1B}\u{7F}") == [.altBackspace])
    #expect(keys("\u{1B}\u{1B}[A") == [.escape, .up])
  }

  @Test func shiftTabAndPageKeys() {
    #expect(keys("\u{1B}[Z") == [.backTab])
    #expect(keys("\u{1B}[5~\u{1B}[6~") == [.pageUp, .pageDown])
  }

  @Test func controlKeys() {
    #expect(
      keys("\u{01}\u{03}\u{04}\u{12}\u{17}")
        == [.control("a"), .control("c"), .control("d"), .control("r"), .control("w")])
    #expect(keys("\t\u{7F}\u{08}") == [.tab, .backspace, .backspace])
  }

  @Test func carriageReturnLineFeedIsOneEnter() {
    #expect(keys("\r\n") == [.enter])
    #expect(keys("\r") == [.enter])
    #expect(keys("\n") == [.enter])
    #expect(keys("\r\r") == [.enter, .enter])
    #expect(keys("a\r\nb") == [.character("a"), .enter, .character("b")])
    // A read that ends between CR and LF: still one Enter (found by Fuzz/Harnesses/keys),
    // and an LF after anything else is an Enter of its own.
    #expect(keys("\u{16}\r\r", "\n\u{2}") == [.control("v"), .enter, .enter, .control("b")])
    #expect(keys("\r", "\n", "\n") == [.enter, .enter])
    #expect(keys("\r", "a\n") == [.enter, .character("a"), .enter])
  }

  @Test func bracketedPaste() {
    #expect(
      keys("\u{1B}[200~hello\nworld\u{1B}[201~x") == [.paste("hello\nworld"), .character("x")])
  }

  @Test func bracketedPasteSplitAcrossChunks() {
    #expect(keys("\u{1B}[20", "0~he", "llo", "\u{1B}[2", "01~") == [.paste("hello")])
    // The end marker split, with a flush (a pause) in the middle.
    var decoder = KeyDecoder()
    #expect(decoder.decode(Array("\u{1B}[200~abc\u{1B}[20".utf8)).isEmpty)
    #expect(decoder.flush().isEmpty)
    #expect(decoder.decode(Array("1~".utf8)) == [.paste("abc")])
  }

  @Test func pastedEscapesAndControlsStayText() {
    #expect(keys("\u{1B}[200~a\u{1B}[Ab\u{03}\u{1B}[201~") == [.paste("a\u{1B}[Ab\u{03}")])
  }

  @Test func utf8SplitAcrossChunks() {
    var decoder = KeyDecoder()
    let bytes = Array("é東🙂".utf8)
    var decoded: [Key] = []
    for byte in bytes { decoded += decoder.decode([byte]) }
    #expect(decoded == [.character("é"), .character("東"), .character("🙂")])
    #expect(!decoder.hasPending)
  }

  @Test func combiningMarkArrivesAsItsOwnKey() {
    #expect(keys("e\u{301}") == [.character("e"), .character("\u{301}")])
  }

  @Test func malformedUTF8IsAReplacementCharacter() {
    var decoder = KeyDecoder()
    #expect(decoder.decode([0xFF, 0x61]) == [.character("\u{FFFD}"), .character("a")])
    #expect(decoder.decode([0xE6, 0x9D]).isEmpty)
    #expect(decoder.flush() == [.character("\u{FFFD}")])
  }
}
