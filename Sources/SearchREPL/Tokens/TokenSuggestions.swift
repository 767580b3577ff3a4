import SearchCore
import SearchEngine

/// The tokens to suggest for the text typed: values of the data set's attributes, as
/// conditions (`country=CH`), whose folded text has a word that starts with the folded text
/// (SearchCore's `AttributeValueTokens`, which the web page's suggestions read too).
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
  typealias Suggestion = AttributeValueTokens.Suggestion

  private var offered: AttributeValueTokens?

  /// The suggestions for `text` in `corpus`, most items first (ties by attribute, then by
  /// value), leaving out the conditions in `excluded`; at most ``limit``.
  ///
  /// An empty text suggests every offered value.
  mutating func suggestions(
    for text: String, in corpus: SearchCorpus,
    excluding excluded: Set<AttributeFilter.Condition> = []
  ) -> [Suggestion] {
    let offered: AttributeValueTokens
    if let current = self.offered, current.isCurrent(for: corpus) {
      offered = current
    } else {
      // Counted again when the model or its folding changed.
      offered = AttributeValueTokens(
        corpus: corpus, maximumDistinctValues: Self.maximumDistinctValues)
      self.offered = offered
    }
    return offered.suggestions(for: text, excluding: excluded, limit: Self.limit)
  }
}
