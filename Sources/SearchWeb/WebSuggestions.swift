#if Web
  import SearchCore
  import SearchEngine

  /// The tokens a server offers its pages: the values of its corpus's attributes, most items
  /// first (SearchCore's `AttributeValueTokens`, as `SearchREPL live` offers them), counted once
  /// per corpus and shared by every session over it.
  ///
  /// The sessions of a server get its corpus and nothing that names the server, so the counted
  /// offers are kept here by what tells corpora apart: the model's version, count, identities
  /// and attributes' distinct values, and the folding. A server's sessions share one copy of the
  /// corpus, so comparing its arrays compares their storage, which is immediate.
  @MainActor
  enum WebTokenOffers {
    /// An attribute with more distinct values than this is not offered (as in live): its values
    /// name single items (populations, ids) rather than groups.
    nonisolated static let maximumDistinctValues = 1_000
    /// The most values offered per attribute: those most items hold.
    nonisolated static let perAttribute = 200
    /// The most suggestions an update carries.
    nonisolated static let suggestionLimit = 8
    /// The most corpora whose offers are kept (a process runs one server, its tests a few).
    nonisolated static let kept = 4

    private struct Key: Equatable {
      var version: Int
      var ids: [ItemID]
      var attributes: [String]
      var values: [[String]]
      var normalizer: Normalizer

      init(_ corpus: SearchCorpus) {
        let model = corpus.model
        version = model.version
        ids = model.ids
        attributes = model.schema.attributes
        values = attributes.indices.map { model.distinctValues(ofAttribute: $0) }
        normalizer = corpus.normalizer
      }
    }

    /// The offers counted, the one used last at the end.
    private static var entries: [(key: Key, offers: AttributeValueTokens)] = []
    /// How many times offers were counted: once per corpus (its tests read it).
    private(set) static var countings = 0

    /// The offers of `corpus`, counted on first use.
    static func offers(of corpus: SearchCorpus) -> AttributeValueTokens {
      let key = Key(corpus)
      if let index = entries.firstIndex(where: { $0.key == key }) {
        let entry = entries.remove(at: index)
        entries.append(entry)
        return entry.offers
      }
      let offers = AttributeValueTokens(
        corpus: corpus, maximumDistinctValues: maximumDistinctValues, perAttribute: perAttribute)
      countings += 1
      entries.append((key, offers))
      if entries.count > kept { entries.removeFirst() }
      return offers
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
