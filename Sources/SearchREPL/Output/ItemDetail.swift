import SearchCore
import SearchEngine

/// What the detail of an item shows: each field (its values joined with ", "), each
/// attribute, and the status link when the schema has an author and an id, as the REPL's
/// `select` and the live view's detail show them.
enum ItemDetail {
  /// The detail link of an item whose schema has an `author` and an id.
  static let statusLink = "https://twitter.com/{author}/status/{id}"

  /// The names and values of the detail, in the schema's order, the link last; with a query,
  /// what it matched in each value is marked (in the fields `scope` searches), so a detail
  /// shows why its item is a result.
  static func entries(
    of item: ItemID, in corpus: SearchCorpus, query: SearchQuery? = nil, scope: Int = 0
  ) -> [(name: String, value: MarkedText)] {
    let model = corpus.model
    let schema = model.schema
    // Matches by field and value; a value that cannot be folded is shown unmarked.
    var matches: [Int: [Int: SearchResult.Highlight]] = [:]
    if let query, let highlights = try? corpus.highlights(of: item, for: query, scope: scope) {
      for highlight in highlights {
        matches[highlight.field, default: [:]][highlight.value] = highlight
      }
    }
    var entries: [(name: String, value: MarkedText)] = []
    for (index, field) in schema.fields.enumerated() {
      entries.append(
        (field.name, joined(model.values(of: item, field: index), marks: matches[index] ?? [:])))
    }
    for (index, name) in schema.attributes.enumerated() {
      entries.append((name, MarkedText(text: model.attribute(index, of: item))))
    }
    if let link = try? TemplateRowAdapter.Link(statusLink, schema: schema) {
      entries.append(("link", MarkedText(text: link.row(for: item, in: model))))
    }
    return entries
  }

  /// Values joined with ", ", with each value's highlight (by its index) as marks of the
  /// joined text.
  private static func joined(_ values: [String], marks: [Int: SearchResult.Highlight]) -> MarkedText
  {
    var text = ""
    var offsets: [Range<Int>] = []
    for (index, value) in values.enumerated() {
      if index > 0 { text += ", " }
      let base = text.utf8.count
      if let highlight = marks[index] {
        let utf8 = highlight.text.utf8
        for range in highlight.ranges {
          offsets.append(
            (base + utf8.distance(from: utf8.startIndex, to: range.lowerBound))..<(base
              + utf8.distance(from: utf8.startIndex, to: range.upperBound)))
        }
      }
      text += value
    }
    let utf8 = text.utf8
    let ranges = offsets.map { range in
      utf8.index(
        utf8.startIndex, offsetBy: range.lowerBound)..<utf8.index(
          utf8.startIndex, offsetBy: range.upperBound)
    }
    return MarkedText(text: text, marks: ranges)
  }
}
