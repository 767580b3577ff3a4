import Testing

@testable import SearchREPL

/// Lines for a person are wrapped between words at the terminal's width, never inside a word
/// that fits on a line of its own.
@MainActor
@Suite struct WrappingTests {
  @Test func linesBreakBetweenWords() {
    let line =
      "Loaded 34,006 cities (Corpus/cities/cities.manifest.json); scopes: All, Africa,"
      + " Americas, Asia, Europe, Oceania, Name. Type help."
    let lines = REPLOutput.wrapped(line, width: 40)
    #expect(
      lines == [
        "Loaded 34,006 cities",
        "  (Corpus/cities/cities.manifest.json);",
        "  scopes: All, Africa, Americas, Asia,",
        "  Europe, Oceania, Name. Type help.",
      ])
    for piece in lines { #expect(piece.count <= 40) }
    // The words are all there, in order.
    #expect(lines.joined(separator: " ").split(separator: " ") == line.split(separator: " "))
  }

  @Test func aShortLineStaysWhole() {
    #expect(REPLOutput.wrapped("help", width: 80) == ["help"])
    #expect(
      REPLOutput.wrapped("  type TEXT   one keystroke", width: 80) == [
        "  type TEXT   one keystroke"
      ])
  }

  @Test func indentationIsKeptAndAWordTooLongIsCut() {
    #expect(
      REPLOutput.wrapped("    change a setting at once", width: 16)
        == ["    change a", "      setting at", "      once"])
    #expect(
      REPLOutput.wrapped("abcdefghijklmnopqrstuvwxyz", width: 10) == [
        "abcdefghij", "  klmnopqr", "  stuvwxyz",
      ])
    // Wide characters count two columns.
    #expect(REPLOutput.wrapped("東京 大阪 名古屋 札幌", width: 10) == ["東京 大阪", "  名古屋", "  札幌"])
  }
}
