/// The folded text of one field with the value ranges of each item, for checking items one by
/// one.
struct FieldText: Sendable {
  let values: FoldedValues
  let map: ValueMap
}

/// Items, ascending by identity, each with a number of typos: what the word index gives for a
/// term with a typo budget (the items of a scope holding a word within the budget at distance 1
/// or more; whether an item also contains the term exactly, 0 typos, is for the caller to
/// tell), the items a set of a query found only with typos, or how many typos each item of a
/// result needed (``SearchCorpus/typoCounts(of:)``).
package struct TypoMatches: Sendable {
  /// Item identities, ascending.
  package private(set) var items: [Int32] = []
  /// The typos of each item, in the order of ``items``.
  package private(set) var typos: [UInt8] = []

  package init() {}

  /// The items of `found` (each once, in any order) with their typos in `best`, by identity.
  init(found: [Int32], best: [UInt8]) {
    if found.count * 16 < best.count {
      items = found.sorted()
    } else {
      // Many: reading the table in order costs less than sorting them.
      items.reserveCapacity(found.count)
      for (item, typos) in best.enumerated() where typos > 0 { items.append(Int32(item)) }
    }
    typos = items.map { best[Int($0)] }
  }

  /// `items` (ascending) with `typos`, one for each.
  init(items: [Int32], typos: [UInt8]) {
    self.items = items
    self.typos = typos
  }

  package var isEmpty: Bool { items.isEmpty }

  /// How many items there are.
  package var count: Int { items.count }

  /// The typos of `item`, or nil when it is not listed.
  package func typos(of item: Int32) -> Int? {
    var low = 0
    var high = items.count
    while low < high {
      let middle = (low + high) / 2
      if items[middle] < item { low = middle + 1 } else { high = middle }
    }
    return low < items.count && items[low] == item ? Int(typos[low]) : nil
  }

  /// The listed items that `others` (ascending) lacks.
  func subtracting(_ others: [ItemID]) -> TypoMatches {
    var result = TypoMatches()
    result.items.reserveCapacity(items.count)
    result.typos.reserveCapacity(items.count)
    var j = 0
    for (item, typos) in zip(items, typos) {
      while j < others.count && others[j].rawValue < item { j += 1 }
      if j < others.count && others[j].rawValue == item { continue }
      result.items.append(item)
      result.typos.append(typos)
    }
    return result
  }

  /// The items of both, each with the fewer typos.
  func merging(_ other: TypoMatches) -> TypoMatches {
    var result = TypoMatches()
    var i = 0
    var j = 0
    while i < items.count || j < other.items.count {
      if j == other.items.count || (i < items.count && items[i] < other.items[j]) {
        result.items.append(items[i])
        result.typos.append(typos[i])
        i += 1
      } else if i == items.count || other.items[j] < items[i] {
        result.items.append(other.items[j])
        result.typos.append(other.typos[j])
        j += 1
      } else {
        result.items.append(items[i])
        result.typos.append(min(typos[i], other.typos[j]))
        i += 1
        j += 1
      }
    }
    return result
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
  /// first of `fields` with a word at that distance (`field`, an index of `fields`), then the
  /// best place of such a word (`place` 0: the whole value, 1: its start, 2: another word),
  /// then the shortest value holding one; nil when no word is within the budget.
  func best(ofItem item: Int32, fields: [FieldText])
    -> (typos: Int, field: Int, place: Int, length: Int)?
  {
    var best: (typos: Int, field: Int, place: Int, length: Int)?
    var codes = self.codes
    var words = FoldedWords()
    query.withUnsafeBufferPointer { query in
      for (index, field) in fields.enumerated() {
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
              let candidate = (distance, index, place, range.count)
              if best.map({ candidate < $0 }) ?? true { best = candidate }
            }
          }
        }
      }
    }
    return best
  }
}
