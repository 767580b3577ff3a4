import TestSupport
import Testing

@testable import SearchEngine

/// A query read in one syntax, and the terms expected of it: one inner array per set, each
/// term as its unfolded text (all terms of words and literal queries are exact and positive).
struct PlainParseCase: CustomTestStringConvertible, Sendable {
  var syntax: SearchQuery.Syntax
  var query: String
  var sets: [[String]]
  /// When given: the folded pattern of every term, in order.
  var folded: [String]?

  init(_ syntax: SearchQuery.Syntax, _ query: String, _ sets: [[String]], folded: [String]? = nil) {
    self.syntax = syntax
    self.query = query
    self.sets = sets
    self.folded = folded
  }

  var testDescription: String { "\(syntax): \(query.debugDescription) → \(sets)" }
}

private let plainCases: [PlainParseCase] = [
  // Words: operators are characters like any other
  .init(.words, "!mül", [["!mül"]], folded: ["!mul"]),
  .init(.words, "a|b", [["a|b"]]),
  .init(.words, "a | b", [["a"], ["|"], ["b"]]),
  .init(.words, "'mlr", [["'mlr"]]),
  .init(.words, "^york$", [["^york$"]]),
  .init(.words, "!", [["!"]]),
  .init(.words, "$", [["$"]]),
  // no escapes: a backslash is a character and the space after it separates
  .init(.words, #"new\ york"#, [[#"new\"#], ["york"]]),
  // Words: every Unicode white space separates, runs of it and both ends are ignored
  .init(.words, "New York", [["New"], ["York"]], folded: ["new", "york"]),
  .init(.words, "  new   york  ", [["new"], ["york"]]),
  .init(.words, "new\tyork", [["new"], ["york"]]),
  .init(.words, "new\u{A0}york\u{3000}city\u{2003}x", [["new"], ["york"], ["city"], ["x"]]),
  .init(.words, "new\r\nyork\nx\u{2028}y", [["new"], ["york"], ["x"], ["y"]]),
  // a word that folds to nothing is dropped; the others stay
  .init(.words, "ab \u{AD} cd", [["ab"], ["cd"]]),
  .init(.words, "", []),
  .init(.words, " \t\u{3000} ", []),
  .init(.words, "\u{AD} \u{200B}", []),
  // Literal: the whole text, trimmed, is one term
  .init(.literal, "new york", [["new york"]]),
  .init(.literal, " \tNew York\u{3000}\n", [["New York"]], folded: ["new york"]),
  .init(.literal, "new  york", [["new  york"]]),
  .init(.literal, "!mül | 'x$", [["!mül | 'x$"]], folded: ["!mul | 'x$"]),
  .init(.literal, #"new\ york"#, [[#"new\ york"#]]),
  .init(.literal, "a\tb", [["a\tb"]]),
  .init(.literal, "", []),
  .init(.literal, " \t\u{A0}\u{3000}", []),
  .init(.literal, " \u{AD} ", []),
  // blank characters at either end go, even when they are not white space themselves
  .init(.literal, "\u{AD} new york\u{200B}", [["new york"]]),
  .init(.literal, "a\u{AD}b", [["a\u{AD}b"]], folded: ["ab"]),
  // Extended is as before; a tab in it is a space inside a term, not a separator
  .init(.extended, "a\tb", [["a b"]]),
  .init(.extended, "\t", [[" "]]),
  .init(.extended, "new york", [["new"], ["york"]]),
]

@Suite struct QuerySyntaxTests {
  let normalizer: Normalizer

  init() throws { normalizer = try Normalizer() }

  @Test(arguments: plainCases)
  func parses(_ row: PlainParseCase) throws {
    let query = try SearchQuery(row.query, syntax: row.syntax, normalizer: normalizer)
    #expect(query.syntax == row.syntax)
    #expect(query.sets.map { $0.terms.map(\.text) } == row.sets)
    #expect(query.isEmpty == row.sets.isEmpty)
    if row.syntax != .extended {
      let terms = query.sets.flatMap(\.terms)
      #expect(terms.allSatisfy { $0.kind == .exact && !$0.isInverse })
    }
    if let folded = row.folded {
      let patterns = query.sets.flatMap(\.terms).map {
        String(decoding: $0.pattern.utf8, as: UTF8.self)
      }
      #expect(patterns == folded)
    }
  }

  @Test func extendedIsTheDefault() throws {
    let typed = "!mül | ^a"
    let byDefault = try SearchQuery(typed, normalizer: normalizer)
    #expect(byDefault == (try SearchQuery(typed, syntax: .extended, normalizer: normalizer)))
    #expect(byDefault.syntax == .extended)
    #expect(byDefault.description == "(!mül | ^a)")
  }

  @Test(arguments: [
    (SearchQuery.Syntax.words, "  ab\t cd ", ["ab", "cd"]),
    (.words, "a\u{3000}b", ["a", "b"]),
    (.literal, "  ab\t cd ", ["ab\t cd"]),
  ])
  func termRangesCoverTheirText(_ syntax: SearchQuery.Syntax, _ text: String, _ pieces: [String])
    throws
  {
    let query = try SearchQuery(text, syntax: syntax, normalizer: normalizer)
    let ranges = query.sets.flatMap(\.terms).map(\.range)
    #expect(ranges.map { String(text[$0]) } == pieces)
  }

  // MARK: Matching

  /// A name and a country; both searched.
  private func places() throws -> SearchCorpus {
    var model = SearchModel(
      schema: SearchModel.Schema(
        fields: [.init(name: "name"), .init(name: "country")], attributes: []))
    for (name, country) in [
      ("New York", "USA"), ("York, New", "Nowhere"), ("Newark", "USA"), ("York", "England"),
      ("Newport", "Wales"), ("Müller & Co | Köln", "Germany"), ("Molar", "Malta"),
    ] {
      _ = try model.append(SearchModel.Record(fields: [[name], [country]], attributes: []))
    }
    return try SearchCorpus(model: model, normalizer: normalizer)
  }

  private func names(_ text: String, _ syntax: SearchQuery.Syntax, in corpus: SearchCorpus) throws
    -> [String]
  {
    var filter = IncrementalFilter()
    let query = try SearchQuery(text, syntax: syntax, normalizer: corpus.normalizer)
    let items = filter.search(query, scope: 0, in: corpus)?.items ?? []
    return items.map { corpus.model.values(of: $0, field: 0)[0] }
  }

  @Test func literalTextMatchesOnlyAsOnePiece() throws {
    let corpus = try places()
    #expect(try names("new york", .literal, in: corpus) == ["New York"])
    #expect(try names(" NEW YORK ", .literal, in: corpus) == ["New York"])
    #expect(try names("york new", .literal, in: corpus).isEmpty)
    // Words match in any order, and in any searched field.
    #expect(try names("new york", .words, in: corpus) == ["New York", "York, New"])
    #expect(try names("york new", .words, in: corpus) == ["New York", "York, New"])
    #expect(try names("new usa", .words, in: corpus) == ["New York", "Newark"])
    // Extended reads the same two words alike.
    #expect(try names("new york", .extended, in: corpus) == ["New York", "York, New"])
  }

  @Test func operatorsAreCharactersInWordsAndLiteral() throws {
    let corpus = try places()
    // In extended syntax "!mül" excludes; as a word it is text that no item holds.
    #expect(try names("!mül", .words, in: corpus).isEmpty)
    #expect(try names("!mül", .literal, in: corpus).isEmpty)
    #expect(try names("!mül", .extended, in: corpus).count == 6)
    #expect(try names("& co |", .words, in: corpus) == ["Müller & Co | Köln"])
    #expect(try names("co | köln", .literal, in: corpus) == ["Müller & Co | Köln"])
    // In extended syntax a lone "|" makes a choice: York, York, New, New York or Köln. As
    // words, "|" must occur too, and no item with a "|" holds "york".
    #expect(try names("york | köln", .extended, in: corpus).count == 4)
    #expect(try names("york | köln", .words, in: corpus).isEmpty)
    // "'mlr" is fuzzy in extended syntax (Müller, Molar) and literal text otherwise.
    #expect(try names("'mlr", .extended, in: corpus) == ["Müller & Co | Köln", "Molar"])
    #expect(try names("'mlr", .words, in: corpus).isEmpty)
    #expect(try names("^york", .words, in: corpus).isEmpty)
  }

  @Test(arguments: SearchQuery.Syntax.allCases)
  func emptyQueriesMatchEverything(_ syntax: SearchQuery.Syntax) throws {
    let corpus = try places()
    var texts = ["", "   ", "\u{AD}", " \u{AD} \u{200B} "]
    // Extended syntax follows fzf: only spaces separate and are trimmed, and a tab is a space
    // inside a term ("\t" looks for " ").
    if syntax != .extended { texts += ["\t\u{3000}\n", "\u{A0}\u{AD}\u{2003}"] }
    for text in texts {
      let query = try SearchQuery(text, syntax: syntax, normalizer: corpus.normalizer)
      #expect(query.isEmpty, "\(text.debugDescription)")
      #expect(try names(text, syntax, in: corpus).count == 7, "\(text.debugDescription)")
    }
  }

  // MARK: Numbers

  private func products() throws -> SearchCorpus { try Fixtures.corpus("products/products") }

  @Test func numberWordsMatchByEqualityInWordsSyntax() throws {
    let corpus = try products()
    // The four products of 2007; "ipod 2007" the two iPods among them; 200 is no year.
    #expect(
      try Set(names("2007", .words, in: corpus))
        == ["iPhone", "iPod touch", "iPod classic", "Apple TV"])
    #expect(try Set(names("2007", .words, in: corpus)) == Set(names("2007", .extended, in: corpus)))
    #expect(try Set(names("ipod 2007", .words, in: corpus)) == ["iPod touch", "iPod classic"])
    #expect(try names("200", .words, in: corpus).isEmpty)
    #expect(try Set(names("499.00 ipad", .words, in: corpus)) == ["iPad", "iPad Air"])
  }

  @Test func aLiteralNumberMatchesByEqualityToo() throws {
    let corpus = try products()
    #expect(
      try Set(names(" 2007 ", .literal, in: corpus)) == Set(names("2007", .words, in: corpus)))
    #expect(try Set(names("499", .literal, in: corpus)).isSuperset(of: ["iPhone", "iPad"]))
    // Text with a space is no number: only names that hold it.
    #expect(try names("ipod 2007", .literal, in: corpus).isEmpty)
    #expect(try names("12-inch", .literal, in: corpus) == ["12-inch MacBook"])
  }

  // MARK: Narrowing

  @Test(arguments: [
    // Literal text: the new text contains the old one on whole characters.
    (SearchQuery.Syntax.literal, "ab", "ab c", true),
    (.literal, "ab ", "ab c", true),
    (.literal, "b c", "ab cd", true),
    (.literal, "ab c", "ab", false),
    (.literal, "ab c", "ab  c", false),
    (.literal, "!ab", "!abc", true),
    // Words: every old word is contained in some new word.
    (.words, "ab", "ab c", true),
    (.words, "ab c", "c ab", true),
    // "abc" holds both words.
    (.words, "ab c", "abc", true),
    (.words, "ab c", "ab", false),
    (.words, "!ab", "!abc", true),
    (.words, "a|b", "a|bc", true),
    (.words, "", "x", true),
    (.words, "x", "", false),
  ])
  func narrowing(_ syntax: SearchQuery.Syntax, _ older: String, _ newer: String, _ narrows: Bool)
    throws
  {
    let old = try SearchQuery(older, syntax: syntax, normalizer: normalizer)
    let new = try SearchQuery(newer, syntax: syntax, normalizer: normalizer)
    #expect(new.narrows(old) == narrows)
  }

  @Test func numberWordsDoNotNarrowLongerNumbers() throws {
    for syntax in [SearchQuery.Syntax.words, .literal] {
      let older = try SearchQuery("200", syntax: syntax, normalizer: normalizer)
      let newer = try SearchQuery("2007", syntax: syntax, normalizer: normalizer)
      #expect(newer.narrows(older))
      #expect(!newer.narrows(older, matchingNumbers: true))
      let phrase = try SearchQuery("2007 ipod", syntax: syntax, normalizer: normalizer)
      let year = try SearchQuery("2007", syntax: syntax, normalizer: normalizer)
      #expect(phrase.narrows(year, matchingNumbers: true))
    }
  }
}
