import SearchEngine

extension ItemSearch {
  /// Where the rows on screen matched an item's text at `keyPath`, one marked text per value
  /// (a list of e-mail addresses gives one each); no marks while no results are shown, for a
  /// key path that is not searched, or for an item that is not in the list.
  ///
  /// The text is the item's as the search knows it, so the marks always fit it.
  public func highlights<Text: SearchableText>(of item: Item, in keyPath: KeyPath<Item, Text>)
    -> [MarkedText]
  {
    guard let id = identities[item.id], let field = schema.fieldOfKeyPath[keyPath] else {
      return item[keyPath: keyPath].searchableValues.map { MarkedText(text: $0) }
    }
    let values = controller.corpus.model.values(of: id, field: field)
    var marked = values.map { MarkedText(text: $0) }
    guard controller.visibleTable == .results, let results = controller.results,
      let found = try? controller.corpus.highlights(
        of: id, for: results.query, scope: results.scope)
    else { return marked }
    for highlight in found
    where highlight.field == field && marked.indices.contains(highlight.value) {
      marked[highlight.value] = MarkedText(text: highlight.text, marks: highlight.ranges)
    }
    return marked
  }

  /// Where the rows on screen matched an item's text at `keyPath`: the text with the matched
  /// characters marked.
  public func highlight(of item: Item, in keyPath: KeyPath<Item, String>) -> MarkedText {
    highlights(of: item, in: keyPath).first ?? MarkedText(text: item[keyPath: keyPath])
  }

  /// An item's highlights, to hand to a row adapter: read by key path, worked out when read.
  public func highlights(of item: Item) -> ItemHighlights<Item> {
    ItemHighlights(self, item: item)
  }

  /// How many typos a row needed to match the text (``SearchConfiguration/typos``): 0 when
  /// the item contains every word exactly, while no results are shown, and for an item that
  /// is not in the list. Inside each section the rows found with typos come after the exact
  /// ones, fewest typos first, each group in the section's own order (sorted rows too, as a
  /// search engine puts exact matches first; ranked results follow the ranking), so a list can
  /// label them:
  ///
  /// ```swift
  /// if search.typos(of: contact) > 0 { Text("Close match").foregroundStyle(.secondary) }
  /// ```
  public func typos(of item: Item) -> Int {
    guard let id = identities[item.id] else { return 0 }
    return controller.typos(of: id)
  }
}

/// The highlights of one item, read by key path (see ``ItemSearch/highlights(of:)``).
@MainActor
public struct ItemHighlights<Item> {
  private let read: (KeyPath<Item, [String]>) -> [MarkedText]
  private let readOne: (KeyPath<Item, String>) -> MarkedText

  init<Scope, Token>(_ search: ItemSearch<Item, Scope, Token>, item: Item)
  where Item: Identifiable & Sendable {
    read = { search.highlights(of: item, in: $0) }
    readOne = { search.highlight(of: item, in: $0) }
  }

  /// The text at `keyPath` with its matches marked.
  public subscript(keyPath: KeyPath<Item, String>) -> MarkedText { readOne(keyPath) }

  /// The texts at `keyPath`, one per value, with their matches marked.
  public subscript(keyPath: KeyPath<Item, [String]>) -> [MarkedText] { read(keyPath) }
}
