import TestSupport
import Testing

@testable import SearchEngine

/// Display text with its matches marked: the template's literal text is never marked, a
/// field's matched ranges land where the field's value sits in the row.
@Suite struct MarkedTextTests {
  private static func corpus(_ records: [SearchModel.Record], template: String?) throws
    -> SearchCorpus
  {
    let schema = SearchModel.Schema(
      fields: [.init(name: "name"), .init(name: "alias"), .init(name: "note", isSearched: false)],
      attributes: ["country"], displayTemplate: template)
    var model = SearchModel(schema: schema)
    for record in records { _ = try model.insert(record, at: model.count) }
    return try SearchCorpus(model: model, normalizer: try Normalizer())
  }

  /// The marked runs as "[marked]" text, for readable expectations.
  private static func shown(_ marked: MarkedText) -> String {
    marked.runs.map { $0.isMarked ? "[\($0.text)]" : String($0.text) }.joined()
  }

  private static func query(_ text: String, _ corpus: SearchCorpus) throws -> SearchQuery {
    try SearchQuery(text, normalizer: corpus.normalizer)
  }

  @Test func matchesInSeveralValuesLandInTheRow() throws {
    let corpus = try Self.corpus(
      [
        SearchModel.Record(
          fields: [["Zürich"], ["Zurigo", "Zurich"], ["zur note"]], attributes: ["CH (zur)"])
      ],
      template: "{name} – {alias} [[{country}]] {note}")
    let id = corpus.model.ids[0]
    let marked = try corpus.markedDisplay(of: id, for: try Self.query("zur", corpus))
    #expect(marked.text == "Zürich – Zurigo, Zurich [CH (zur)] zur note")
    // The attribute and the unsearched field hold "zur" too, but are not searched.
    #expect(Self.shown(marked) == "[Zür]ich – [Zur]igo, [Zur]ich [CH (zur)] zur note")
  }

  /// A row whose display shows nothing of what matched says why: the first matched value it
  /// leaves out, marked, cut around the match when long.
  @Test func aRowShowsTheValueThatMatchedWhenTheDisplayDoesNot() throws {
    let corpus = try Self.corpus(
      [
        SearchModel.Record(fields: [["Moscow"], ["Moskva", "Москва"], []], attributes: ["RU"]),
        SearchModel.Record(
          fields: [["Sinop"], ["Sinope", "Sanub", "Синоп"], []], attributes: ["TR"]),
        SearchModel.Record(
          fields: [
            ["Bangkok"],
            ["Krung Thep Maha Nakhon Amon Rattanakosin Mahinthara Ayuthaya Mahadilok"], [],
          ], attributes: ["TH"]),
      ],
      template: "{name} ({country})")
    let ids = corpus.model.ids
    let moscow = try corpus.markedRow(of: ids[0], for: try Self.query("москва", corpus))
    #expect(Self.shown(moscow) == "Moscow (RU) · [Москва]")
    // The display matches "sin": it shows why, nothing is added.
    let sinop = try corpus.markedRow(of: ids[1], for: try Self.query("sin", corpus))
    #expect(Self.shown(sinop) == "[Sin]op (TR)")
    #expect(
      Self.shown(try corpus.markedRow(of: ids[1], for: try Self.query("anu", corpus)))
        == "Sinop (TR) · S[anu]b")
    // A long value is cut to 20 characters, 5 of them before the match.
    let bangkok = try corpus.markedRow(
      of: ids[2], for: try Self.query("ayuthaya", corpus), snippetLength: 20)
    // "Ayuthaya" starts at character 52: the cut keeps characters 47 to 66.
    #expect(Self.shown(bangkok) == "Bangkok (TH) · …hara [Ayuthaya] Mahadi…")
    // No query, no reason to give.
    #expect(try corpus.markedRow(of: ids[0], for: nil).text == "Moscow (RU)")
  }

  @Test func overlappingAndTouchingTermsMerge() throws {
    let corpus = try Self.corpus(
      [SearchModel.Record(fields: [["Straße"], [], []], attributes: [""])], template: nil)
    let id = corpus.model.ids[0]
    // "strasse" is the whole name by full case folding; "st" and "ra" overlap and touch it.
    #expect(
      Self.shown(try corpus.markedDisplay(of: id, for: try Self.query("st ra", corpus)))
        == "[Stra]ße")
    #expect(
      Self.shown(try corpus.markedDisplay(of: id, for: try Self.query("STRASSE", corpus)))
        == "[Straße]")
    // "ß" folds to "ss": a match of "ss", or of one "s" inside it, marks the whole character.
    #expect(
      Self.shown(try corpus.markedDisplay(of: id, for: try Self.query("ass", corpus)))
        == "Str[aß]e")
    #expect(
      Self.shown(try corpus.markedDisplay(of: id, for: try Self.query("sse$", corpus)))
        == "Stra[ße]")
  }

  @Test func inverseTermsAndNoQueryMarkNothing() throws {
    let corpus = try Self.corpus(
      [SearchModel.Record(fields: [["Köln"], [], []], attributes: ["DE"])],
      template: "{name} ({country})")
    let id = corpus.model.ids[0]
    #expect(try corpus.markedDisplay(of: id, for: nil).marks.isEmpty)
    let inverse = try corpus.markedDisplay(of: id, for: try Self.query("!koln", corpus))
    #expect(inverse.text == "Köln (DE)" && inverse.marks.isEmpty)
    #expect(inverse.runs.map(\.isMarked) == [false])
  }

  @Test func columnWidthsFollowTheTerminal() {
    #expect(ColumnWidth.columns(of: "abc") == 3)
    #expect(ColumnWidth.columns(of: "東京") == 4)
    #expect(ColumnWidth.columns(of: "e\u{301}") == 1)  // one character, with its mark
    #expect(ColumnWidth.columns(of: "ＡＢ") == 4)  // fullwidth Latin
    #expect(ColumnWidth.columns(of: "😀") == 2)
    #expect(ColumnWidth.columns(of: "\u{AD}x") == 1)  // soft hyphen: a format character
    let (cut, used) = ColumnWidth.prefix(of: "ab東京"[...], fitting: 5)
    #expect(cut == "ab東" && used == 4)  // 京 would straddle the edge
  }

  /// A terminal moves its cursor by code points: a spacing vowel sign takes a column of its
  /// own inside its letter's character, a nonspacing one and the vowel and final jamo of a
  /// syllable spelled in jamo take none.
  @Test func columnWidthsCountSpacingSignsAsTheTerminalDoes() {
    #expect(ColumnWidth.columns(of: Character("\u{B9A}\u{BC2}")) == 2)  // Tamil "சூ": ச + ூ
    #expect(ColumnWidth.columns(of: Character("\u{915}\u{93F}")) == 2)  // Devanagari "कि"
    // "ज़्यू": ज, nukta, virama, य, vowel sign u (nonspacing): two letters.
    #expect(ColumnWidth.columns(of: "\u{91C}\u{93C}\u{94D}\u{92F}\u{942}") == 2)
    #expect(ColumnWidth.columns(of: "\u{1112}\u{1161}\u{11AB}") == 2)  // "한" in jamo
    #expect(ColumnWidth.columns(of: "\u{D55C}") == 2)  // "한" precomposed
    #expect(ColumnWidth.columns(of: "👩\u{200D}💻") == 2)  // one emoji, however spelled
    #expect(ColumnWidth.columns(of: "🇨🇭") == 2)
  }

  @Test func unknownLocalesAreRecognised() {
    #expect(Normalizer.isKnownLocale("tr"))
    #expect(Normalizer.isKnownLocale("sv_SE"))
    #expect(Normalizer.isKnownLocale("de-AT"))
    #expect(Normalizer.isKnownLocale(""))
    #expect(!Normalizer.isKnownLocale("zz"))
    #expect(!Normalizer.isKnownLocale("xx_YY"))
  }

  @Test func loadProgressCountsBytesThenValues() throws {
    let progress = LoadProgress()
    let corpus = try Fixtures.corpus("products/products", progress: progress)
    // Indexing is the last step and it counted every value of the one searched field.
    #expect(progress.phase == .indexing)
    #expect(progress.fraction == 1)
    #expect(corpus.model.count == 45)
  }
}
