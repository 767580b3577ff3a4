import SearchCore
import Testing

/// The README's library example, statement by statement.
@Suite struct ReadmeExampleTests {
  @Test func libraryExample() throws {
    let normalizer = try Normalizer()
    #expect(try normalizer.fold("Straße") == "strasse")

    let text = try normalizer.foldedText("Un café, s’il vous plaît")
    let pattern = try FoldedPattern("CAFE", normalizer: normalizer)
    #expect(pattern.originalRanges(in: text).map { String(text.original[$0]) } == ["café"])
    let match = try #require(pattern.firstMatch(in: text))
    #expect(text.utf16Range(forFolded: match) == 3..<7)

    let turkish = try Normalizer(locale: "tr")
    #expect(try turkish.fold("DİYARBAKIR") == turkish.fold("diyarbakır"))
    let latin = try Normalizer(folding: [.case, .diacritics, .compatibility, .latin])
    #expect(try latin.fold("Москва") == "moskva")
  }
}
