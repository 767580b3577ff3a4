import TestSupport
import Testing

@testable import SearchCore
@testable import SearchEngine

/// Optional groups in display templates: `{name}[ ({company})]` leaves out the brackets'
/// contents when their placeholders are all empty, in the model's display, the row adapters
/// and the marked display text.
@Suite(.tags(.plainSwift)) struct DisplayTemplateTests {
  private static let schema = SearchModel.Schema(
    fields: [.init(name: "name"), .init(name: "company"), .init(name: "city")],
    attributes: ["kind"])

  /// Mulder has everything; Scully no company (no values) and no kind; Skinner only an empty
  /// company value and no city; the Gunmen an empty company value and a real one.
  private static func model(template: String? = nil) throws -> SearchModel {
    var schema = Self.schema
    schema.displayTemplate = template
    var model = SearchModel(schema: schema)
    for record in [
      SearchModel.Record(fields: [["Fox Mulder"], ["FBI"], ["Washington"]], attributes: ["agent"]),
      SearchModel.Record(fields: [["Dana Scully"], [], ["Washington"]], attributes: [""]),
      SearchModel.Record(fields: [["Walter Skinner"], [""], []], attributes: ["boss"]),
      SearchModel.Record(fields: [["Lone Gunmen"], ["", "Magazine"], []], attributes: [""]),
    ] {
      _ = try model.append(record)
    }
    return model
  }

  /// Every item's row through the strict adapter, checked against the lenient display.
  private func rows(_ template: String) throws -> [String] {
    let model = try Self.model(template: template)
    let adapter = try TemplateRowAdapter(template, schema: model.schema)
    let rows = model.ids.map { adapter.row(for: $0, in: model) }
    #expect(model.ids.map { model.display($0) } == rows, "\(template)")
    return rows
  }

  @Test func aGroupIsLeftOutWhenItsPlaceholdersAreEmpty() throws {
    #expect(
      try rows("{name}[ ({company})]") == [
        "Fox Mulder (FBI)", "Dana Scully", "Walter Skinner", "Lone Gunmen (, Magazine)",
      ])
    // Without the group, the empty parentheses show.
    #expect(try rows("{name} ({company})")[1] == "Dana Scully ()")
    // One placeholder with a value is enough for the whole group.
    #expect(
      try rows("{name}[ ({company}, {city})]") == [
        "Fox Mulder (FBI, Washington)", "Dana Scully (, Washington)", "Walter Skinner",
        "Lone Gunmen (, Magazine, )",
      ])
    // An attribute, and groups side by side; text outside them always shows.
    #expect(
      try rows("{name}[ ({company})][ in {city}][ #{kind}].") == [
        "Fox Mulder (FBI) in Washington #agent.", "Dana Scully in Washington.",
        "Walter Skinner #boss.", "Lone Gunmen (, Magazine).",
      ])
    #expect(try rows("[{kind}: ]{name}")[0...1] == ["agent: Fox Mulder", "Dana Scully"])
  }

  @Test func doubledBracketsAreLiteral() throws {
    #expect(try rows("[[{kind}]] {name}")[0...1] == ["[agent] Fox Mulder", "[] Dana Scully"])
    #expect(try rows("{name} ]] [[x")[0] == "Fox Mulder ] [x")
    // Inside a group too: a group that ends with a literal "]".
    #expect(try rows("{name}[ [[{kind}]]]")[0...1] == ["Fox Mulder [agent]", "Dana Scully"])
    #expect(try rows("{name}[[[[")[0] == "Fox Mulder[[")
  }

  @Test func itemsOutsideTheModelAndOtherSchemas() throws {
    var model = try Self.model()
    let adapter = try TemplateRowAdapter("<{name}>[ ({company})]", schema: model.schema)
    let gone = model.id(at: 0)
    try model.remove(gone)
    #expect(adapter.row(for: gone, in: model) == "<>")
    // A model without the company field shows the placeholder, so the group shows.
    var other = SearchModel(schema: SearchModel.Schema(fields: [.init(name: "name")]))
    let fox = try other.append(SearchModel.Record(fields: [["Fox Mulder"]], attributes: []))
    #expect(adapter.row(for: fox, in: other) == "<Fox Mulder> ({company})")
  }

  @Test func linkTemplatesHaveGroupsToo() throws {
    let model = try Self.model()
    let link = try TemplateRowAdapter.Link(
      "https://example.com/{name}[?company={company}]", schema: model.schema)
    #expect(
      link.row(for: model.id(at: 0), in: model) == "https://example.com/Fox%20Mulder?company=FBI")
    #expect(link.row(for: model.id(at: 1), in: model) == "https://example.com/Dana%20Scully")
    let host = try TemplateRowAdapter.Link("http://[[::1]]:8080/{kind}", schema: model.schema)
    #expect(host.row(for: model.id(at: 0), in: model) == "http://[::1]:8080/agent")
  }

  // MARK: Mistakes

  @Test(arguments: [
    (
      "{name}[ ({company})",
      RowAdapterError.unclosedGroup(template: "{name}[ ({company})", column: 7),
      #"template "{name}[ ({company})" opens a group with "[" at column 7 and never closes it;"#
        + #" close it with "]" ("]]" is a literal "]"), or write "[[" for a literal "[""#
    ),
    (
      // "]]" is a literal bracket, so this group is never closed either.
      "{name}[ ({company})]]",
      .unclosedGroup(template: "{name}[ ({company})]]", column: 7),
      #"template "{name}[ ({company})]]" opens a group with "[" at column 7 and never closes"#
        + #" it; close it with "]" ("]]" is a literal "]"), or write "[[" for a literal "[""#
    ),
    (
      "{name}] x", .unopenedGroup(template: "{name}] x", column: 7),
      #"template "{name}] x" has a "]" at column 7 that closes no group; write "]]" for a"#
        + #" literal "]""#
    ),
    (
      "Zürich 👍🏽 {name}]", .unopenedGroup(template: "Zürich 👍🏽 {name}]", column: 16),
      #"template "Zürich 👍🏽 {name}]" has a "]" at column 16 that closes no group; write "]]""#
        + #" for a literal "]""#
    ),
    (
      "{name}[ ([{company}])]", .nestedGroup(template: "{name}[ ([{company}])]", column: 10),
      #"template "{name}[ ([{company}])]" opens a group with "[" at column 10 inside another"#
        + #" group; groups do not nest: close the first one before, or write "[[" for a literal"#
        + #" "[""#
    ),
    (
      "{name} [beta]", .groupWithoutPlaceholder(template: "{name} [beta]", column: 8),
      #"template "{name} [beta]" has a group at column 8 without a placeholder, which would"#
        + #" never show; write "[[" and "]]" for literal brackets"#
    ),
  ])
  func theStrictParserSaysWhereAndWhat(
    _ template: String, _ error: RowAdapterError, _ message: String
  ) throws {
    #expect(throws: error) { try TemplateRowAdapter(template, schema: Self.schema) }
    #expect(throws: error) { try TemplateRowAdapter.Link(template, schema: Self.schema) }
    #expect(error.description == message)
  }

  @Test func theFirstProblemIsReported() throws {
    #expect(
      throws: RowAdapterError.unknownPlaceholder(
        "nick", template: "{name}[ ({nick})", fields: ["name", "company", "city"],
        attributes: ["kind"])
    ) { try TemplateRowAdapter("{name}[ ({nick})", schema: Self.schema) }
    #expect(throws: RowAdapterError.unopenedGroup(template: "] [x", column: 1)) {
      try TemplateRowAdapter("] [x", schema: Self.schema)
    }
  }

  /// The display template of a data file shows what it cannot read.
  @Test func theLenientParserKeepsMistakesAsText() throws {
    func display(_ template: String) throws -> [String] {
      let model = try Self.model(template: template)
      return model.ids.prefix(2).map { model.display($0) }
    }
    // An unclosed "[" is a literal bracket, and what follows it always shows.
    #expect(try display("{name}[ ({company})") == ["Fox Mulder[ (FBI)", "Dana Scully[ ()"])
    #expect(try display("{name}] x") == ["Fox Mulder] x", "Dana Scully] x"])
    // The inner "[" is literal; its "]" closes the group; the last "]" closes nothing.
    #expect(
      try display("{name}[ ([{company}])]") == ["Fox Mulder ([FBI)]", "Dana Scully)]"])
    #expect(try display("{name} [beta]") == ["Fox Mulder [beta]", "Dana Scully [beta]"])
    // An unknown name is text, so its group has no placeholder and stays as written.
    #expect(
      try display("{name}[ ({nick})]") == ["Fox Mulder[ ({nick})]", "Dana Scully[ ({nick})]"])
    #expect(try display("[{kind}] {name} {x") == ["agent Fox Mulder {x", " Dana Scully {x"])
  }

  // MARK: Highlights

  private static func shown(_ marked: MarkedText) -> String {
    marked.runs.map { $0.isMarked ? "<\($0.text)>" : String($0.text) }.joined()
  }

  @Test func highlightsSkipDroppedGroups() throws {
    let schema = SearchModel.Schema(
      fields: [.init(name: "name"), .init(name: "alias"), .init(name: "note", isSearched: false)],
      attributes: ["country"], displayTemplate: "[{alias}: ]{name}[ ({note})] – {country}")
    var model = SearchModel(schema: schema)
    for record in [
      SearchModel.Record(fields: [["Zürich"], [], ["zur"]], attributes: ["CH"]),
      SearchModel.Record(fields: [["Zürich"], ["Zurigo", "Zurich"], []], attributes: ["CH"]),
      SearchModel.Record(fields: [["Zürich"], [""], [""]], attributes: [""]),
    ] {
      _ = try model.append(record)
    }
    let corpus = try SearchCorpus(model: model, normalizer: try Normalizer())
    let query = try SearchQuery("zur", normalizer: corpus.normalizer)
    let marked = try corpus.model.ids.map { try corpus.markedDisplay(of: $0, for: query) }
    #expect(
      marked.map(Self.shown) == [
        "<Zür>ich (zur) – CH",
        "<Zur>igo, <Zur>ich: <Zür>ich – CH",
        "<Zür>ich – ",
      ])
    #expect(marked.map(\.text) == corpus.model.ids.map { corpus.model.display($0) })
  }
}
