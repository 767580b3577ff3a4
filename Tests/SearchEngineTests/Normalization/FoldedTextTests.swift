import Testing

@testable import SearchEngine

@Suite struct FoldedTextTests {
  let normalizer: Normalizer

  init() throws { normalizer = try Normalizer() }

  /// The original text that each match of `query` in `text` highlights.
  private func highlights(_ query: String, in text: String) throws -> [String] {
    let folded = try normalizer.foldedText(text)
    let pattern = try FoldedPattern(query, normalizer: normalizer)
    return pattern.originalRanges(in: folded).map { String(text[$0]) }
  }

  @Test func asciiMatchMapsOneToOne() throws {
    #expect(try highlights("lo", in: "Hello, lot") == ["lo", "lo"])
  }

  @Test func accentedMatchCoversWholeCharacters() throws {
    #expect(try highlights("cafe", in: "Un café noir") == ["café"])
    #expect(try highlights("fe", in: "cafe\u{301}") == ["fe\u{301}"])
  }

  @Test func expansionSnapsOutwardToTheOriginalCharacter() throws {
    // "ß" folds to "ss": a match ending inside it covers the whole ß.
    #expect(try highlights("stras", in: "Straße") == ["Straß"])
    #expect(try highlights("i", in: "ﬁle") == ["ﬁ"])
    #expect(try highlights("1", in: "step ①") == ["①"])
  }

  @Test func letterFoldedToSeveralIsHighlightedWhole() throws {
    // "Þ" folds to "th", "Æ" to "ae": a match of part of them covers the letter.
    #expect(try highlights("th", in: "Þingvellir") == ["Þ"])
    #expect(try highlights("t", in: "Þingvellir") == ["Þ"])
    #expect(try highlights("hing", in: "Þingvellir") == ["Þing"])
    #expect(try highlights("a", in: "Ærø") == ["Æ"])
    #expect(try highlights("ero", in: "Ærø") == ["Ærø"])
    #expect(try highlights("oeuvre", in: "Œuvre") == ["Œuvre"])
    // A letter with a stroke folds to one letter: mapped one to one.
    #expect(try highlights("l", in: "Łódź") == ["Ł"])
    #expect(try highlights("odz", in: "Łódź") == ["ódź"])
    #expect(try highlights("da", in: "Đà Nẵng") == ["Đà"])
    #expect(try highlights("o", in: "Tromsø") == ["o", "ø"])
  }

  @Test func joinersInsideAConjunctAreDroppedAndCovered() throws {
    // "क्‍ष" (with a ZWJ) folds to "क्ष": a match of the conjunct covers the joiner too.
    #expect(try highlights("क्ष", in: "क्\u{200D}षमा") == ["क्\u{200D}ष"])
    #expect(try highlights("क्षमा", in: "क्\u{200C}षमा") == ["क्\u{200C}षमा"])
    // Between emoji the ZWJ stays and holds the sequence whole.
    #expect(try highlights("👨\u{200D}👩", in: "👨\u{200D}👩") == ["👨\u{200D}👩"])
    #expect(try highlights("👨", in: "👨\u{200D}👩") == [])
    let family = "👨🏽\u{200D}🚀 ❤️\u{200D}🔥"
    #expect(
      Array(try normalizer.fold(family).unicodeScalars)
        == Array("👨🏽\u{200D}🚀 ❤\u{200D}🔥".unicodeScalars))
  }

  @Test func ignorableCharactersInsideAMatchAreCovered() throws {
    #expect(try highlights("coop", in: "a co\u{AD}op") == ["co\u{AD}op"])
    // Leading and trailing ignorables are not part of the highlight.
    #expect(try highlights("op", in: "co\u{AD}op\u{AD}") == ["op"])
  }

  @Test func emojiAreNeverSplit() throws {
    #expect(try highlights("👍", in: "👍🏽") == [])
    #expect(try highlights("👍🏽", in: "ok 👍🏽!") == ["👍🏽"])
    #expect(try highlights("👍", in: "👍🏽 👍") == ["👍"])
    #expect(try highlights("🇷🇩", in: "🇫🇷🇩🇪") == [])
    #expect(try highlights("🇩🇪", in: "🇫🇷🇩🇪") == ["🇩🇪"])
    #expect(try highlights("👩", in: "👨‍👩‍👧") == [])
  }

  @Test func indicVowelSignsStayWithTheirConsonant() throws {
    #expect(try highlights("क", in: "कि") == [])
    #expect(try highlights("कि", in: "किताब") == ["कि"])
  }

  @Test func utf16RangesAreForNSRange() throws {
    let text = "👍🏽 café"
    let folded = try normalizer.foldedText(text)
    let pattern = try FoldedPattern("cafe", normalizer: normalizer)
    let match = try #require(pattern.firstMatch(in: folded))
    // 👍 and 🏽 are two UTF-16 units each, then a space.
    #expect(folded.utf16Range(forFolded: match) == 5..<9)
  }

  @Test func rangesInsideAFoldedCharacterMapToNothing() throws {
    let folded = try normalizer.foldedText("🇫🇷🇩🇪")
    #expect(folded.utf8.count == 16)
    #expect(folded.isCharacterBoundary(8))
    #expect(!folded.isCharacterBoundary(4))
    #expect(folded.originalRange(forFolded: 4..<12) == nil)
    let second = try #require(folded.originalRange(forFolded: 8..<16))
    #expect(folded.original[second] == "🇩🇪")
  }

  @Test func joinedCharactersAcrossAnIgnorableFoldAsOne() throws {
    // A soft hyphen between "e" and a combining acute: without it they are one character.
    let noDiacritics = try Normalizer(folding: [.case, .compatibility])
    let text = "e\u{AD}\u{301}x"
    let folded = try noDiacritics.foldedText(text)
    #expect(folded.utf8 == Array("éx".utf8))
    let match = try #require(
      try FoldedPattern("é", normalizer: noDiacritics).firstMatch(in: folded))
    let range = try #require(folded.originalRange(forFolded: match))
    #expect(text[range] == "e\u{AD}\u{301}")
  }

  @Test func emptyPatternMatchesEverythingWithNoHighlight() throws {
    let pattern = try FoldedPattern("\u{AD}", normalizer: normalizer)
    #expect(pattern.isEmpty)
    let folded = try normalizer.foldedText("anything")
    #expect(pattern.firstMatch(in: folded) == 0..<0)
    #expect(pattern.matches(in: folded).isEmpty)
  }
}

extension FoldedTextTests {
  @Test func carriageReturnAndLineFeedJoinAcrossADroppedMark() throws {
    // CR, a lone Hebrew point (its own character after a control), LF: the point is dropped,
    // and CR LF is one character in the folded text.
    let text = "\r\u{5C1}\n"
    let folded = try Normalizer(folding: [.diacritics]).foldedText(text)
    #expect(folded.utf8 == [0x0D, 0x0A])
    #expect(!folded.isCharacterBoundary(1))
    #expect(folded.originalRange(forFolded: 0..<2).map { text[$0] == text[...] } == true)
  }
}

extension FoldedTextTests {
  @Test func indicConjunctJoinsAcrossADroppedSoftHyphen() throws {
    // क + virama + vowel sign u, a soft hyphen, then ष: without the hyphen the virama links
    // the two consonants into one character (a conjunct).
    let text = "\u{915}\u{94D}\u{941}\u{AD}\u{937}"
    let folded = try Normalizer(folding: [.compatibility]).foldedText(text)
    #expect(folded.folded.count == 1)
    #expect(!folded.isCharacterBoundary(9))
    #expect(
      folded.originalRange(forFolded: 0..<folded.utf8.count).map { text[$0] == text[...] } == true)
  }
}
