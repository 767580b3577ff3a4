import SearchCore
import SearchEngine

/// The tokens to suggest for the text typed: values of the data set's attributes, as
/// conditions (`country=CH`), whose folded text has a word that starts with the folded text.
///
/// Only attributes with at most ``maximumDistinctValues`` distinct values are offered: a
/// token stands for a group of items (a country, a continent), not for one item's number.
/// The values are counted once per model version, in one pass over the items.
struct TokenSuggestions {
  /// An attribute with more distinct values than this is not offered: past a thousand, its
  /// values name single items rather than groups (populations, ids).
  static let maximumDistinctValues = 1_000
  /// The most suggestions a list shows: a screenful to choose from, not a listing.
  static let limit = 10

  /// A suggested token and how many items hold its value.
  struct Suggestion: Equatable, Sendable {
    var condition: AttributeFilter.Condition
    var items: Int
  }

  /// An offered value, its folded words and how many items hold it.
  private struct Value {
    var condition: AttributeFilter.Condition
    var folded: String
    var words: [Substring]
    var items: Int
  }

  private var values: [Value] = []
  private var modelVersion: Int?
  private var modelCount = -1
  private var normalizer: Normalizer?

  /// The suggestions for `text` in `corpus`, most items first (ties by attribute, then by
  /// value), leaving out the conditions in `excluded`; at most ``limit``.
  ///
  /// An empty text suggests every offered value.
  mutating func suggestions(
    for text: String, in corpus: SearchCorpus,
    excluding excluded: Set<AttributeFilter.Condition> = []
  ) -> [Suggestion] {
    refresh(corpus)
    let typed = (try? corpus.normalizer.fold(text.trimmingSpacesAtEnds)) ?? text
    var found: [Suggestion] = []
    for value in values where !excluded.contains(value.condition) {
      guard
        typed.isEmpty || value.folded.hasPrefix(typed)
          || value.words.contains(where: { $0.hasPrefix(typed) })
      else { continue }
      found.append(Suggestion(condition: value.condition, items: value.items))
      // `values` is ordered by items: the first `limit` that match are the answer.
      if found.count == Self.limit { break }
    }
    return found
  }

  /// Counts the values again when the model or its folding changed.
  private mutating func refresh(_ corpus: SearchCorpus) {
    let model = corpus.model
    guard
      model.version != modelVersion || model.count != modelCount
        || corpus.normalizer != normalizer
    else { return }
    modelVersion = model.version
    modelCount = model.count
    normalizer = corpus.normalizer
    let attributes = model.schema.attributes
    var counts = Array(repeating: [String: Int](), count: attributes.count)
    var offered = Array(repeating: true, count: attributes.count)
    for id in model.ids {
      for attribute in attributes.indices where offered[attribute] {
        let value = model.attribute(attribute, of: id)
        guard !value.isEmpty else { continue }
        counts[attribute][value, default: 0] += 1
        if counts[attribute].count > Self.maximumDistinctValues { offered[attribute] = false }
      }
    }
    var values: [(value: Value, attribute: Int)] = []
    for (attribute, name) in attributes.enumerated() where offered[attribute] {
      for (text, items) in counts[attribute] {
        let folded = (try? corpus.normalizer.fold(text)) ?? text
        let words = folded.split { !$0.isLetter && !$0.isNumber }
        values.append(
          (
            Value(
              condition: .equals(attribute: name, value: text), folded: folded, words: words,
              items: items), attribute
          ))
      }
    }
    values.sort { a, b in
      if a.value.items != b.value.items { return a.value.items > b.value.items }
      if a.attribute != b.attribute { return a.attribute < b.attribute }
      return a.value.condition.description < b.value.condition.description
    }
    self.values = values.map(\.value)
  }
}

extension String {
  /// The text without spaces and tabs at either end.
  fileprivate var trimmingSpacesAtEnds: String {
    let start = firstIndex { $0 != " " && $0 != "\t" } ?? endIndex
    let end = lastIndex { $0 != " " && $0 != "\t" }.map { index(after: $0) } ?? start
    return String(self[start..<Swift.max(start, end)])
  }
}
