/// The folded text of one field with the value ranges of each item, for checking items one by
/// one.
struct FieldText: Sendable {
  let values: FoldedValues
  let map: ValueMap
}

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
  func typos(ofItem item: Int32, fields: [FieldText]) -> Int? {
    if let matches { return matches.typos(of: item) }
    return best(ofItem: item, fields: fields)?.typos
  }

  /// The item's best match with typos, as the ranking orders them: the fewest edits, then the
  /// best place of a word at that distance (`place` 0: the whole value, 1: its start, 2:
  /// another word, as the ranking counts its categories), then the shortest value holding one;
  /// nil when no word is within the budget.
  func best(ofItem item: Int32, fields: [FieldText])
    -> (typos: Int, place: Int, length: Int)?
  {
    var best: (typos: Int, place: Int, length: Int)?
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
              let place = first == range.lowerBound ? (last == range.upperBound ? 0 : 1) : 2
              let candidate = (distance, place, range.count)
              if best.map({ candidate < $0 }) ?? true { best = candidate }
            }
          }
        }
      }
    }
    return best
  }
}
