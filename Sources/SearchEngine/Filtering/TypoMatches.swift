/// The items of a scope that one query word finds with typos, and how many each needed:
/// what the word index gives for a term with a typo budget, ascending by identity.
///
/// Only items holding a word within the budget at distance 1 or more are listed; whether an
/// item also contains the term exactly (0 typos) is for the caller to tell.
struct TypoMatches: Sendable {
  /// Item identities, ascending.
  private(set) var items: [Int32] = []
  /// The fewest edits each item needed, in the order of ``items``.
  private(set) var typos: [UInt8] = []

  init() {}

  /// The matches gathered in `best` (item to fewest edits).
  init(_ best: [Int32: Int]) {
    items = best.keys.sorted()
    typos = items.map { UInt8(clamping: best[$0] ?? 0) }
  }

  var isEmpty: Bool { items.isEmpty }

  /// The fewest edits with which the word finds `item`, or nil when it does not with typos.
  func typos(of item: Int32) -> Int? {
    var low = 0
    var high = items.count
    while low < high {
      let middle = (low + high) / 2
      if items[middle] < item { low = middle + 1 } else { high = middle }
    }
    return low < items.count && items[low] == item ? Int(typos[low]) : nil
  }
}

/// One query word with a typo budget, as the evaluator and the ranking match it: against an
/// item's values directly (a few items: the candidates of a narrowed search, an item a model
/// change touched, the results being ranked), or through ``matches`` from the word index
/// (a scan of the scope).
struct TypoWord: Sendable {
  let rule: TypoRule
  /// The folded word's character codes under ``codes``.
  let query: [UInt32]
  /// A code table that knows the word's characters: each check takes a copy, which codes the
  /// item's other characters of several scalars.
  let codes: CharacterCodes
  /// The items found through the word index, when the evaluator scans.
  var matches: TypoMatches?

  /// The typo word of `term` under `rule`; nil when the term has no budget.
  init?(_ term: Term, rule: TypoRule) {
    guard rule.budget > 0, !term.isInverse else { return nil }
    self.rule = rule
    var codes = CharacterCodes()
    query = String(decoding: term.pattern.utf8, as: UTF8.self).map { codes.code(of: $0) }
    self.codes = codes
  }

  /// The fewest edits with which the word finds the item whose values in each field are
  /// `fields` (value ranges of folded columns), or nil when none is within the budget.
  func typos(ofItem item: Int32, fields: [QueryEvaluator.ItemText]) -> Int? {
    if let matches { return matches.typos(of: item) }
    return best(ofItem: item, fields: fields)?.typos
  }

  /// The item's best match with typos, as the ranking orders them: the fewest edits, then the
  /// best place of a word at that distance (the whole value, its start, another word), then
  /// the shortest value holding one; nil when no word is within the budget.
  func best(ofItem item: Int32, fields: [QueryEvaluator.ItemText])
    -> (typos: Int, category: Ranking.Category, length: Int)?
  {
    var best: (typos: Int, category: Ranking.Category, length: Int)?
    var codes = self.codes
    var words = FoldedWords()
    query.withUnsafeBufferPointer { query in
      for field in fields {
        let values = field.values
        values.bytes.withUnsafeBufferPointer { bytes in
          for value in field.map.range(of: Int(item)) {
            let range = values.range(of: value)
            words.forEachWord(
              in: bytes, range: range, codes: &codes, isBoundary: values.isBoundary
            ) { characters, offsets in
              let distance = TypoDistance.distance(
                query, characters, prefix: rule.isPrefix, budget: rule.budget)
              guard distance <= rule.budget, let first = offsets.first, let last = offsets.last
              else { return }
              let category: Ranking.Category =
                first == range.lowerBound
                ? (last == range.upperBound ? .wholeValue : .valuePrefix) : .wordPrefix
              let candidate = (distance, category, range.count)
              if best.map({ candidate < $0 }) ?? true { best = candidate }
            }
          }
        }
      }
    }
    return best
  }
}

/// A corpus's word index, built on first use and shared by the copies of the corpus that have
/// not changed since (as `CompletionCache` is): a program that never searches with typos
/// does not pay for it, at start-up or at all. A corpus that changes gets a cache of its own,
/// holding the index brought up to date when this one had it built.
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
    var best: [Int32: Int] = [:]
    words.search(query, budget: rule.budget, prefix: rule.isPrefix) { field, value, distance in
      guard searched.contains(field), value < model.columns[field].valueCount else { return }
      let owner = model.valueMaps[field].owner(of: value)
      guard owner >= 0, model.isAlive[Int(owner)],
        members?.contains(Int(owner)) ?? true
      else { return }
      if let known = best[owner], known <= distance { return }
      best[owner] = distance
    }
    return TypoMatches(best)
  }
}
