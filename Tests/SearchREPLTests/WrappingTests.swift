import PropertyBased
import SearchCore
import SearchEngine
import TestSupport
import Testing

@testable import SearchREPL

/// Lines for a person are wrapped between words at the terminal's width, never inside a word
/// that fits on a line of its own.
@MainActor
@Suite(.tags(.plainSwift)) struct WrappingTests {
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

/// Wrapping text of many scripts: lines are cut only between characters (grapheme clusters),
/// between words where a word fits on a line, and no line is wider than the terminal counts.
@Suite(.tags(.plainSwift)) struct WrappingPropertyTests {
  /// Words whose characters are many code points, or wide, or both.
  private static let words = [
    "Zürich", "Zu\u{308}rich", "Ζυρίχη", "Цюрих", "Ցյուրիխ", "ציריך", "زيورخ", "ܙܝܘܪܚ",
    "ज़्यूरिख़", "झ्युरिक", "জুরিখ", "ਜ਼ਿਊਰਿਖ", "சூரிக்கு", "സൂറിച്ച്", "ซูริก", "ဇူးရစ်ချ်မြို့",
    "ციურიხი", "ዙሪክ", "チューリッヒ", "苏黎世", "취리히", "\u{1112}\u{1161}\u{11AB}", "👩\u{200D}💻",
    "🇨🇭", "e\u{301}cole", "ＡＢＣ", "a", "Sŭ-là̤-sié", "abcdefghijklmnopqrstuvwxyz0123456789",
  ]

  @Test func linesAreCutBetweenCharactersAndFit() async {
    let texts = Gen.int(in: 0..<Self.words.count).array(of: 1...30)
    let widths = Gen.int(in: 9...60)
    await propertyCheck(count: 300, input: texts, widths) { picks, width in
      let line = "  " + picks.map { Self.words[$0] }.joined(separator: ", ")
      let boundaries = Set(line.indices).union([line.endIndex])
      let pieces = REPLOutput.wrapping(line, width: width)
      for (indent, range) in pieces {
        #expect(boundaries.contains(range.lowerBound) && boundaries.contains(range.upperBound))
        let columns = indent + ColumnWidth.columns(of: line[range])
        #expect(columns <= width, "\(line[range]) takes \(columns) of \(width) columns")
      }
      // Nothing is lost or repeated: the pieces, in order and without their spaces, are the
      // line without its spaces (a word longer than a line is cut with no space between).
      let shown = pieces.map { line[$0.range].filter { $0 != " " } }.joined()
      #expect(shown == line.filter { $0 != " " }, "width \(width): \(line)")
    }
  }
}
