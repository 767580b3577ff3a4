/// A corpus's word index, built on first use and shared by the copies of the corpus that have
/// not changed since (as `CompletionCache` is): a program that never searches with typos
/// does not pay for it, at start-up or at all.
///
/// A corpus that changes gets a cache of its own, holding the index brought up to date when this
/// one had it built.
final class WordIndexCache: Sendable {
  private let state: LockedValue<WordIndex?>

  /// A cache holding `index`, or nothing yet.
  init(_ index: WordIndex? = nil) { state = LockedValue(index) }

  /// The index; built by `build` first when it is not built yet.
  func index(orBuild build: () -> WordIndex) -> WordIndex {
    state.withLock { index in
      if let built = index { return built }
      let built = build()
      index = built
      return built
    }
  }

  /// The index, or nil when it is not built.
  var current: WordIndex? { state.withLock { $0 } }
}

extension SearchCorpus {
  /// The word index of the searched fields, built now if it is not yet.
  var wordIndex: WordIndex {
    wordIndexCache.index { WordIndex(index: index, model: model) }
  }

  /// Builds the word index that typo tolerance reads, unless it is built: what the first
  /// query with a typo budget would otherwise do (a benchmark times it apart).
  package func prepareWordIndex() { _ = wordIndex }

  /// Whether the word index is built.
  package var wordIndexIsBuilt: Bool { wordIndexCache.current != nil }

  /// The items of `scope` that the folded word `word` finds with typos under `rule` (none
  /// when its budget is 0): those with a word of a searched field of the scope within the
  /// budget, at distance 1 or more.
  func typoMatches(of word: [UInt8], rule: TypoRule, scope: Int) -> TypoMatches {
    guard rule.budget > 0 else { return TypoMatches() }
    let words = wordIndex
    let query = words.codes(of: String(decoding: word, as: UTF8.self))
    let searched = scopeFields[scope]
    let members = scopeMembers[scope]
    let model = self.model
    // The fewest edits of each item found, by identity (0: not found; a word at distance 0
    // is never reported), and the items in the order found.
    var best = [UInt8](repeating: 0, count: model.identityLimit)
    var found: [Int32] = []
    for (field, value, distance) in words.postings(
      of: query, budget: rule.budget, prefix: rule.isPrefix)
    {
      guard searched.contains(field), value < model.columns[field].valueCount else { continue }
      let owner = model.valueMaps[field].owner(of: value)
      guard distance > 0, owner >= 0, model.isAlive[Int(owner)],
        members?.contains(Int(owner)) ?? true
      else { continue }
      let known = best[Int(owner)]
      if known == 0 { found.append(owner) } else if Int(known) <= distance { continue }
      best[Int(owner)] = UInt8(clamping: distance)
    }
    return TypoMatches(found: found, best: best)
  }
}
