import SearchCoreTesting
import Testing

@testable import SearchEngine

/// Marks of ``SearchCorpus/markedDisplay(of:for:scope:)`` cover whole characters of the row,
/// even where a character forms across the join of two parts of the template (a value's
/// last letter and a vowel sign, a skin-tone modifier or a virama that starts the next part).
///
/// The match decision stays the field-level search's: a match in a value is marked, grown to
/// the whole characters of the row it touches.
@Suite struct MarkedDisplayBoundaryTests {
  /// A corpus of one item whose fields `name` and `note` (several values, joined by ", ")
  /// are shown through `template`.
  private func marks(
    template: String, name: String, note: [String], query: String
  ) throws -> (text: String, marks: [Range<Int>], matched: Bool, isEmpty: Bool) {
    var model = SearchModel(
      schema: SearchModel.Schema(
        fields: [SearchModel.Schema.Field(name: "name"), SearchModel.Schema.Field(name: "note")],
        displayTemplate: template))
    try model.append(SearchModel.Record(fields: [[name], note]))
    let corpus = try SearchCorpus(model: model, normalizer: Normalizer())
    let parsed = try SearchQuery(query, normalizer: corpus.normalizer)
    let marked = try corpus.markedDisplay(of: model.ids[0], for: parsed)
    var filter = IncrementalFilter()
    let matched = filter.search(parsed, scope: 0, in: corpus)?.items.count == 1
    return (
      marked.text, marked.marks.map { Self.utf8($0, in: marked.text) }, matched, parsed.isEmpty
    )
  }

  private static func utf8(_ range: Range<String.Index>, in text: String) -> Range<Int> {
    text.utf8.distance(
      from: text.startIndex, to: range.lowerBound)..<text.utf8.distance(
        from: text.startIndex, to: range.upperBound)
  }

  /// The UTF-8 offsets where characters of `text` start, and its end.
  private static func boundaries(_ text: String) -> Set<Int> {
    var offsets: Set<Int> = [0]
    var offset = 0
    for character in text {
      offset += character.utf8.count
      offsets.insert(offset)
    }
    return offsets
  }

  /// Issue input 1: "a" ends the name; the note starts with the vowel sign ि (U+093F), so
  /// the row's character is "aि", bytes 8..<12.
  ///
  /// The final "a" is 19..<20.
  @Test func aVowelSignAfterTheJoin() throws {
    let found = try marks(
      template: "{name}{note}", name: "\u{FDFA}i\u{937}ba", note: ["\u{93F}ss\u{D55C}10a"],
      query: "a")
    #expect(found.text == "\u{FDFA}i\u{937}ba\u{93F}ss\u{D55C}10a")
    #expect(found.marks == [8..<12, 19..<20])
    #expect(found.matched)
  }

  /// Issue input 2: 한 ends the name, the template's text starts with a skin-tone modifier:
  /// "한🏽" is one character of the row, bytes 6..<13.
  ///
  /// The soft hyphen folds away.
  @Test func aSkinToneModifierInTheTemplatesText() throws {
    let found = try marks(
      template: "{name}\u{1F3FD}, {note}", name: "\u{93F}\u{3000}\u{D55C}", note: ["a"],
      query: "\u{AD}\u{D55C}")
    #expect(found.text == "\u{93F}\u{3000}\u{D55C}\u{1F3FD}, a")
    #expect(found.marks == [6..<13])
    #expect(found.matched)
  }

  /// Issue input 3: "$" ends the name and the note starts with a virama (U+094D): "$्" is
  /// one character, bytes 23..<27.
  ///
  /// The long term matches nothing; `$` is its alternative.
  @Test func aViramaAfterTheJoin() throws {
    let found = try marks(
      template: "{name}{note}",
      name: "\u{1F468}\u{200D}\u{1F469}\u{200D}\u{1F467}\u{C9}abI$",
      note: ["\u{94D}\u{4E2D}b\u{A0}", "\u{3A9}ESSssa"],
      query: "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaab | $")
    #expect(
      found.text
        == "\u{1F468}\u{200D}\u{1F469}\u{200D}\u{1F467}\u{C9}abI$\u{94D}\u{4E2D}b\u{A0}, \u{3A9}ESSssa"
    )
    #expect(found.marks == [23..<27])
    #expect(found.matched)
  }

  /// Random rows of awkward pieces, joined by templates whose text starts and ends with marks,
  /// modifiers and joiners; queries taken from the values.
  ///
  /// Every mark is on character boundaries of the row, and a row the field-level search finds has
  /// marks.
  @Test func everyMarkCoversWholeCharactersOfTheRow() throws {
    let pieces = [
      "a", "b", "ss", "é", "e\u{301}", "\u{93F}", "\u{94D}", "\u{915}", "\u{D55C}", "\u{1100}",
      "\u{1161}", "\u{11A8}", "\u{1F3FD}", "\u{1F44D}", "\u{200D}", "\u{1F469}", "\u{AD}",
      "\u{3000}", "Ω", "ı", "İ", "\u{4E2D}", "ﬁ", "Ｋ", ", ", " ", "$", "\u{1F1EB}", "\u{1F1F7}",
    ]
    let templates = [
      "{name}{note}", "{name}\u{1F3FD}{note}", "{name}\u{94D} {note}", "{name}\u{200D}{note}",
      "\u{93F}{name}[ ({note})]", "{note}{name}\u{301}",
    ]
    var random = SplitMix64(seed: 0x17)
    func pick<T>(_ list: [T]) -> T { list[Int(random.next() % UInt64(list.count))] }
    func value() -> String { (0..<(1 + random.next() % 4)).map { _ in pick(pieces) }.joined() }
    var checked = 0
    for _ in 0..<400 {
      let name = value()
      let note = (0..<(random.next() % 3)).map { _ in value() }
      let source = pick([name] + note)
      let characters = Array(source)
      let start = Int(random.next() % UInt64(characters.count))
      let length = 1 + Int(random.next() % UInt64(min(2, characters.count - start)))
      let query = String(characters[start..<(start + length)])
        .replacingOccurrences(of: " ", with: "")
      guard !query.isEmpty else { continue }
      let found = try marks(template: pick(templates), name: name, note: note, query: query)
      let boundaries = Self.boundaries(found.text)
      for mark in found.marks {
        #expect(
          boundaries.contains(mark.lowerBound) && boundaries.contains(mark.upperBound),
          "\(mark) of \(found.text.unicodeScalars.map { String($0.value, radix: 16) })")
      }
      // An item the search finds shows its match (no inverse or number terms here; a query
      // of only soft hyphens is empty and marks nothing).
      if found.matched && !found.isEmpty {
        #expect(!found.marks.isEmpty, "\(query.unicodeScalars.map(\.value)) in \(found.text)")
      }
      checked += 1
    }
    #expect(checked > 300)
  }
}

extension String {
  fileprivate func replacingOccurrences(of target: String, with replacement: String) -> String {
    split(separator: target, omittingEmptySubsequences: false).joined(separator: replacement)
  }
}
