import SearchEngine

/// A token's title folded as the items are, whole and by word: what a suggestion matches the
/// typed text against (``ItemSearch/suggestedTokens``, the command line's and the web page's
/// suggested attribute values).
package struct FoldedTokenTitle: Sendable {
  /// The folded title.
  package var text: String
  /// Its words: the runs of letters and digits.
  package var words: [Substring]

  /// Folds `title` with `normalizer`; a title ICU cannot fold is kept as written when
  /// `keepingUnfoldable`, else matches nothing but the empty text.
  package init(_ title: String, normalizer: Normalizer, keepingUnfoldable: Bool = false) {
    text = (try? normalizer.fold(title)) ?? (keepingUnfoldable ? title : "")
    words = text.split { !$0.isLetter && !$0.isNumber }
  }

  /// Whether a token with this title is suggested for `typed`, folded as the title was: every
  /// title for the empty text, else a title that starts with it or has a word that does
  /// ("wor" and "WÖR" suggest "Work", "zur" "Bad Zurzach").
  package func isSuggested(for typed: String) -> Bool {
    typed.isEmpty || text.hasPrefix(typed) || words.contains { $0.hasPrefix(typed) }
  }
}

/// The tokens a data set offers: the values of its attributes as conditions
/// (`country=CH`), those most items hold first, with their folded titles.
///
/// Only attributes with at most `maximumDistinctValues` distinct values are offered: a token
/// stands for a group of items (a country, a continent), not for one item's number. The values
/// are counted in one pass over the items; a value is its own title.
package struct AttributeValueTokens: Sendable {
  /// A suggested token and how many items hold its value.
  package struct Suggestion: Equatable, Sendable {
    package var condition: AttributeFilter.Condition
    /// The attribute's name.
    package var attribute: String
    /// The value, which is the token's title.
    package var value: String
    /// How many items hold the value.
    package var items: Int
  }

  private struct OfferedValue: Sendable {
    var suggestion: Suggestion
    var title: FoldedTokenTitle
  }

  /// The offered values, those most items hold first (ties by attribute, then by value).
  private let values: [OfferedValue]
  /// The model's version and count, and the folding, the values were counted for.
  private let modelVersion: Int
  private let modelCount: Int
  /// Folds the typed text as the titles were folded.
  package let normalizer: Normalizer

  /// Counts the values of `corpus`'s attributes that have at most `maximumDistinctValues`
  /// distinct values, keeping at most `perAttribute` of each (those most items hold).
  ///
  /// - Complexity: O(*n* × *a*) for *n* items and *a* attributes, and a sort of the values.
  package init(corpus: SearchCorpus, maximumDistinctValues: Int, perAttribute: Int = .max) {
    let model = corpus.model
    let normalizer = corpus.normalizer
    modelVersion = model.version
    modelCount = model.count
    self.normalizer = normalizer
    let attributes = model.schema.attributes
    var counts = Array(repeating: [String: Int](), count: attributes.count)
    var offered = Array(repeating: true, count: attributes.count)
    for id in model.ids {
      for attribute in attributes.indices where offered[attribute] {
        let value = model.attribute(attribute, of: id)
        guard !value.isEmpty else { continue }
        counts[attribute][value, default: 0] += 1
        if counts[attribute].count > maximumDistinctValues { offered[attribute] = false }
      }
    }
    var values: [(value: OfferedValue, attribute: Int)] = []
    for (attribute, name) in attributes.enumerated() where offered[attribute] {
      let kept = counts[attribute].sorted { a, b in
        a.value != b.value ? a.value > b.value : a.key < b.key
      }.prefix(perAttribute)
      for (text, items) in kept {
        let suggestion = Suggestion(
          condition: .equals(attribute: name, value: text), attribute: name, value: text,
          items: items)
        values.append(
          (
            OfferedValue(
              suggestion: suggestion,
              title: FoldedTokenTitle(text, normalizer: normalizer, keepingUnfoldable: true)),
            attribute
          ))
      }
    }
    values.sort { a, b in
      if a.value.suggestion.items != b.value.suggestion.items {
        return a.value.suggestion.items > b.value.suggestion.items
      }
      if a.attribute != b.attribute { return a.attribute < b.attribute }
      return a.value.suggestion.value < b.value.suggestion.value
    }
    self.values = values.map(\.value)
  }

  /// Whether these are the values of `corpus` as it is now: neither its model nor its folding
  /// changed since they were counted.
  package func isCurrent(for corpus: SearchCorpus) -> Bool {
    corpus.model.version == modelVersion && corpus.model.count == modelCount
      && corpus.normalizer == normalizer
  }

  /// How many values are offered.
  package var count: Int { values.count }

  /// The suggestions for `text`, those most items hold first, leaving out the conditions in
  /// `excluded`; at most `limit`.
  ///
  /// The text is folded as the titles were, spaces and tabs at its ends left out; the empty
  /// text suggests every offered value.
  package func suggestions(
    for text: String, excluding excluded: Set<AttributeFilter.Condition> = [], limit: Int
  ) -> [Suggestion] {
    let trimmed = text.trimmingSpacesAtEnds
    let typed = (try? normalizer.fold(trimmed)) ?? trimmed
    var found: [Suggestion] = []
    guard limit > 0 else { return found }
    for value in values where !excluded.contains(value.suggestion.condition) {
      guard value.title.isSuggested(for: typed) else { continue }
      found.append(value.suggestion)
      // `values` is ordered by items: the first `limit` that match are the answer.
      if found.count == limit { break }
    }
    return found
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
