#if Web
  import SearchCore
  import SearchEngine

  /// The tokens a server offers its pages: the values of its corpus's attributes, most items
  /// first (SearchCore's `AttributeValueTokens`, as `SearchREPL live` offers them), counted once
  /// by the server and shared by every session.
  enum WebTokenOffers {
    /// An attribute with more distinct values than this is not offered (as in live): its values
    /// name single items (populations, ids) rather than groups.
    static let maximumDistinctValues = 1_000
    /// The most values offered per attribute: those most items hold.
    static let perAttribute = 200
    /// The most suggestions an update carries.
    static let suggestionLimit = 8

    /// The offers of `corpus`.
    static func offers(of corpus: SearchCorpus) -> AttributeValueTokens {
      AttributeValueTokens(
        corpus: corpus, maximumDistinctValues: maximumDistinctValues, perAttribute: perAttribute)
    }

    /// The suggestions of `offers` for `text`, leaving out the tokens in the field.
    static func suggestions(
      from offers: AttributeValueTokens, for text: String,
      excluding tokens: [AttributeFilter.Condition]
    ) -> [WebSuggestion] {
      offers.suggestions(
        for: text, excluding: Set(tokens), limit: suggestionLimit
      ).map { suggestion in
        WebSuggestion(
          title: suggestion.value, count: suggestion.items,
          token: WebToken(attribute: suggestion.attribute, values: [suggestion.value]))
      }
    }
  }
#endif
