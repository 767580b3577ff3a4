import SearchCore

/// What the detail of an item shows: each field (its values joined with ", "), each
/// attribute, and the status link when the schema has an author and an id, as the REPL's
/// `select` prints them.
enum ItemDetail {
  /// The detail link of an item whose schema has an `author` and an `id`.
  static let statusLink = "https://twitter.com/{author}/status/{id}"

  /// The names and values of the detail, in the schema's order, the link last.
  static func entries(of item: ItemID, in model: Model) -> [(name: String, value: String)] {
    let schema = model.schema
    var entries: [(name: String, value: String)] = []
    for (index, field) in schema.fields.enumerated() {
      entries.append((field.name, model.values(of: item, field: index).joined(separator: ", ")))
    }
    for (index, name) in schema.attributes.enumerated() {
      entries.append((name, model.attribute(index, of: item)))
    }
    if let link = try? LinkTemplate(statusLink, schema: schema) {
      entries.append(("link", link.row(for: item, in: model)))
    }
    return entries
  }
}
