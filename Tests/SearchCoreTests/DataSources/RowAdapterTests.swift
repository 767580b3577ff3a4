import TestSupport
import Testing

@testable import SearchCore
@testable import SearchDataSets
@testable import SearchEngine

/// Loads a committed data set of `Corpus/`.
private func loadModel(_ name: String) throws -> SearchModel {
  let path = Fixtures.root + "/Corpus/\(name)/\(name).manifest.json"
  let manifest = try Manifest.load(from: path)
  let (model, report) = try DataSetLoader.load(manifest: manifest, manifestPath: path)
  #expect(report.rejected.isEmpty)
  return model
}

/// The item whose "id" attribute (the data set's own id, not the ItemID) is `id`.
private func item(withID id: String, in model: SearchModel) throws -> ItemID {
  let attribute = try #require(model.schema.attributeIndex(named: "id"))
  return try #require(model.ids.first { model.attribute(attribute, of: $0) == id })
}

/// The chat's three kinds, each with its template.
private func chatRegistry(for schema: SearchModel.Schema, skipping skipped: String? = nil) throws
  -> RowAdapterRegistry<String>
{
  let templates = [
    "text": "{author}: {text}",
    "image": "{author} sent a photo: {caption}",
    "link": "{author} shared a link: {title} ({url})",
  ]
  var registry = RowAdapterRegistry<String>(kindAttribute: "kind")
  for (kind, template) in templates where kind != skipped {
    registry.register(try TemplateRowAdapter(template, schema: schema), forKind: kind)
  }
  return registry
}

@Suite(.tags(.plainSwift)) struct RowAdapterTests {
  /// Each kind renders through its own template: expected strings read from chat.jsonl.
  @Test func chatRendersEachKindThroughItsAdapter() throws {
    let model = try loadModel("chat")
    let registry = try chatRegistry(for: model.schema)
    #expect(registry.kinds == ["image", "link", "text"])
    let expected = [
      "1": "Lucía: ¡Hola a todos! ¿Listos para el viaje a Roma? 🎉",
      "4": "Giulia sent a photo: Il nostro appartamento a Trastevere",
      "7": "Tom shared a link: Colosseum tickets – skip the line"
        + " (https://www.example.com/roma/colosseo-tickets)",
      "12": "Lucía sent a photo: Mi maleta ya está lista 🧳",
      "21": "Marco: 👍",
      "23": "Lucía shared a link: Mapa del metro de Roma (https://www.example.com/metro-roma)",
    ]
    for (id, row) in expected {
      #expect(try registry.row(for: item(withID: id, in: model), in: model) == row, "id \(id)")
    }
    // Every message renders: the registry covers the chat's kinds.
    for id in model.ids { _ = try registry.row(for: id, in: model) }
  }

  @Test func existentialAdaptersWork() throws {
    let model = try loadModel("chat")
    let adapters: [any RowAdapter<String>] = [
      try TemplateRowAdapter("#{id}", schema: model.schema),
      try TemplateRowAdapter.Link("https://chat.example/{author}/{id}", schema: model.schema),
      ClosureRowAdapter { id, model in model.values(of: id, field: 3).joined() },
    ]
    let first = try item(withID: "1", in: model)
    #expect(
      adapters.map { $0.row(for: first, in: model) } == [
        "#1", "https://chat.example/Luc%C3%ADa/1", "Lucía",
      ])
  }

  /// Without an image adapter, image rows fail with a message naming the kind and the item;
  /// text rows are unaffected.
  @Test func missingAdapterFailsOnlyItsKind() throws {
    let model = try loadModel("chat")
    let registry = try chatRegistry(for: model.schema, skipping: "image")
    let photo = try item(withID: "4", in: model)
    #expect(throws: RowAdapterError.noAdapter(kind: "image", item: photo)) {
      try registry.row(for: photo, in: model)
    }
    do {
      _ = try registry.row(for: photo, in: model)
    } catch {
      #expect(
        error.description
          == "no row adapter for kind \"image\" (item \(photo.rawValue)); register one with"
          + " register(_:forKind:) or give the registry a fallback")
    }
    let text = try item(withID: "2", in: model)
    #expect(try registry.row(for: text, in: model) == "Marco: Ciao ragazzi! Io sono prontissimo 😂")
  }

  /// A kind nobody registered goes to the fallback; without one, its error names it.
  @Test func fallbackCatchesUnknownKinds() throws {
    let schema = SearchModel.Schema(
      fields: [SearchModel.Schema.Field(name: "title")], attributes: ["kind"])
    var model = SearchModel(schema: schema)
    let note = try model.append(
      SearchModel.Record(fields: [["Shopping list"]], attributes: ["text"]))
    let video = try model.append(
      SearchModel.Record(fields: [["Trevi at night"]], attributes: ["video"]))
    var registry = RowAdapterRegistry<String>(kindAttribute: "kind")
    registry.register(try TemplateRowAdapter("note: {title}", schema: schema), forKind: "text")
    #expect(throws: RowAdapterError.noAdapter(kind: "video", item: video)) {
      try registry.row(for: video, in: model)
    }
    registry.fallback = try TemplateRowAdapter("[[{kind}]] {title}", schema: schema)
    #expect(try registry.row(for: video, in: model) == "[video] Trevi at night")
    #expect(try registry.row(for: note, in: model) == "note: Shopping list")

    // Registering a kind again replaces its adapter.
    registry.register(try TemplateRowAdapter("{title}!", schema: schema), forKind: "text")
    #expect(try registry.row(for: note, in: model) == "Shopping list!")
    #expect(registry.kinds == ["text"])

    // An item that is not in the model is an error, not a crash.
    try model.remove(note)
    #expect(throws: RowAdapterError.unknownItem(note)) { try registry.row(for: note, in: model) }
    #expect(throws: RowAdapterError.unknownItem(ItemID(rawValue: 99))) {
      try registry.row(for: ItemID(rawValue: 99), in: model)
    }
  }

  @Test func unknownPlaceholderFailsAtConstruction() throws {
    let model = try loadModel("chat")
    let error = #expect(throws: RowAdapterError.self) {
      try TemplateRowAdapter("{author} sent a photo: {picture}", schema: model.schema)
    }
    #expect(
      error?.description
        == "unknown placeholder \"{picture}\" in template \"{author} sent a photo: {picture}\";"
        + " the schema's fields are \"text\", \"caption\", \"title\", \"author\", \"url\" and its"
        + " attributes \"id\", \"kind\", \"sent\"")
    #expect(throws: RowAdapterError.unclosedPlaceholder(template: "{author")) {
      try TemplateRowAdapter.Link("{author", schema: model.schema)
    }
  }

  @Test func unknownKindAttributeFailsOnFirstUse() throws {
    let model = try loadModel("chat")
    var registry = RowAdapterRegistry<String>(kindAttribute: "type")
    registry.register(try TemplateRowAdapter("{text}", schema: model.schema), forKind: "text")
    let expected = RowAdapterError.unknownKindAttribute("type", attributes: ["id", "kind", "sent"])
    #expect(throws: expected) { try registry.validate(against: model.schema) }
    #expect(throws: expected) { try registry.row(for: model.id(at: 0), in: model) }
    #expect(expected.description.contains("attribute \"type\""))
    try RowAdapterRegistry<String>(kindAttribute: "kind").validate(against: model.schema)
  }

  /// The tweets' detail link, for the first tweet of tweets.jsonl.
  @Test func tweetStatusLink() throws {
    let model = try loadModel("tweets")
    let link = try TemplateRowAdapter.Link(
      "https://twitter.com/{author}/status/{id}", schema: model.schema)
    let tweet = try item(withID: "1788120450118713344", in: model)
    #expect(
      link.row(for: tweet, in: model) == "https://twitter.com/nube_dev/status/1788120450118713344")
    let other = try item(withID: "1797482421698078574", in: model)
    #expect(
      link.row(for: other, in: model)
        == "https://twitter.com/treno_lento/status/1797482421698078574")
  }

  @Test func percentEncodingKeepsOnlyUnreservedCharacters() {
    #expect(TemplateRowAdapter.Link.percentEncoded("nube_dev-1.2~3") == "nube_dev-1.2~3")
    #expect(TemplateRowAdapter.Link.percentEncoded("Lucía a/b?c#d") == "Luc%C3%ADa%20a%2Fb%3Fc%23d")
    #expect(TemplateRowAdapter.Link.percentEncoded("100%") == "100%25")
    #expect(TemplateRowAdapter.Link.percentEncoded("🎉") == "%F0%9F%8E%89")
    #expect(TemplateRowAdapter.Link.percentEncoded("") == "")
  }
}
