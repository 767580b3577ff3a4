/// Runs one query over a corpus and returns the matching items.
///
/// Each term set becomes a list of item identities, ascending: a positive term by scanning
/// the folded columns (``TermMatcher/scan(_:valueRange:owner:into:accept:)``), an inverse term
/// as the scope's members minus that list, a set as the union of its terms' lists. The query
/// is the intersection of its sets. A short list of candidates (earlier results that the query
/// narrows, or what the first set left) is instead checked item by item, which costs time in
/// proportion to the candidates rather than to the whole corpus.
package struct QueryEvaluator: Sendable {
  let corpus: SearchCorpus
  /// The query's term sets, ready to match: all sets must match, any term of a set.
  private(set) var sets: [[TermMatcher]]
  /// The index of each set that no earlier set equals, in query order: only these are
  /// evaluated (`e e e …` costs one set's work, whatever was pasted).
  private let distinctSets: [Int]
  let scope: Int
  let fields: [Int]
  /// The attribute conditions every result meets besides the query; nil admits every item.
  let filter: CompiledFilter?

  /// Chunks per core: more chunks than cores balance the load and let a newer query abandon
  /// a scan sooner (cancellation is checked between chunks).
  static let chunksPerCore = 4
  /// Below this many items a list is handled on one thread.
  static let parallelThreshold = 16_384
  /// Candidates are checked one by one while they are fewer than the corpus's items divided
  /// by this; above it a column scan and an intersection are cheaper (a scan reads every
  /// byte once at memory speed, a check per item pays for jumping around).
  static let scanRatio = 24
  /// A term's rarest gram gives the values to check while they are fewer than the bytes of
  /// the values searched divided by this: checking a value costs about as much as reading
  /// this many bytes in a scan.
  static let bytesPerCandidate = 256
  /// The same for a term the grams give exactly (``GramIndex/isExact(_:atStart:)``), whose candidates
  /// are not checked: each costs its owner's lookup.
  static let bytesPerExactCandidate = 16
  /// How many values of a gram cost as much to decode as a candidate costs to check.
  static let gramsPerCheck = 16
  /// From how many candidates on a check finds the items of a word with a budget of one typo,
  /// and of two, in the word index (a walk of its trie, whatever the candidates) instead of
  /// reading each candidate's words: a candidate costs a few microseconds, a walk with one typo
  /// a millisecond or two, one with two typos about four times that.
  var typoIndexThresholds = (one: 256, two: 1024)

  package init(corpus: SearchCorpus, query: SearchQuery, scope: Int, filter: CompiledFilter? = nil)
  {
    self.corpus = corpus
    self.sets = zip(query.sets, query.typoRules).map { set, rules in
      zip(set.terms, rules).map { term, rule in
        var matcher = TermMatcher(term)
        matcher.numberMatches = corpus.numberMatches(of: matcher.number)
        matcher.typo = TypoWord(term, rule: rule)
        return matcher
      }
    }
    self.distinctSets = query.distinctSetIndices
    self.scope = scope
    self.fields = corpus.scopeFields[scope]
    self.filter = filter
  }

  /// The matching items in model order, or nil when `isCancelled` said stop.
  ///
  /// `candidates` (in model order) are the only items that may match, when given.
  func evaluate(candidates: [ItemID]?, isCancelled: @Sendable () -> Bool) -> [ItemID]? {
    evaluateCountingTypos(candidates: candidates, isCancelled: isCancelled)?.items
  }

  /// The matching items in model order, as ``evaluate(candidates:isCancelled:)`` finds them,
  /// and, by the index of each set that a scan evaluated whose words found items with typos,
  /// the items that set found only with typos (none of its words exactly), with the fewest
  /// edits: what a scan knows of the results' typo counts (``SearchResult/typoOnly``).
  func evaluateCountingTypos(candidates: [ItemID]?, isCancelled: @Sendable () -> Bool)
    -> (items: [ItemID], typoOnly: [Int: TypoMatches])?
  {
    if sets.isEmpty {
      guard let filter else { return (candidates ?? corpus.members(ofScope: scope), [:]) }
      guard let candidates else { return (corpus.members(ofScope: scope, admittedBy: filter), [:]) }
      return (admitted(candidates), [:])
    }
    let sets = distinctSets.map { self.sets[$0] }
    if let candidates, isShort(candidates.count) {
      // Few candidates are checked one by one: those the grams leave (a fourth letter after
      // three that matched thousands of places with many names each).
      return check(holdingGrams(candidates), sets: sets, isCancelled: isCancelled).map {
        ($0, [:])
      }
    }
    if candidates == nil, let filter {
      // A filter that admits few items gives the candidates: checking them costs less than
      // a scan of the scope.
      let admitted = corpus.members(ofScope: scope, admittedBy: filter)
      if isShort(admitted.count) {
        return check(admitted, sets: sets, isCancelled: isCancelled).map { ($0, [:]) }
      }
    }
    // Many candidates: a full scan gives the same answer (every match is a candidate) for less
    // than checking them. Start from the most selective set.
    var remaining = distinctSets
    var typoOnly: [Int: TypoMatches] = [:]
    let first = remaining.remove(at: remaining.firstIndex(of: mostSelectiveSet()) ?? 0)
    guard
      var current = items(
        matching: withTypoMatches(self.sets[first]), typoOnly: &typoOnly[first],
        isCancelled: isCancelled)
    else { return nil }
    while !remaining.isEmpty {
      if isShort(current.count) {
        return check(
          inModelOrder(current), sets: remaining.map { self.sets[$0] }, isCancelled: isCancelled
        ).map { ($0, typoOnly) }
      }
      let index = remaining.removeFirst()
      guard
        let list = items(
          matching: withTypoMatches(self.sets[index]), typoOnly: &typoOnly[index],
          isCancelled: isCancelled)
      else { return nil }
      current = SortedLists.intersection(current, list)
    }
    return (admitted(inModelOrder(current)), typoOnly)
  }

  /// Finds the items that the words at `positions` (with a typo budget) find with typos in
  /// the word index, and keeps them for the evaluation, which then does not search for them
  /// again.
  mutating func findTypoMatches(at positions: [TermPosition]) -> [TypoMatches] {
    positions.compactMap { position in
      guard var typo = sets[position.set][position.term].typo else { return nil }
      let matches = corpus.typoMatches(
        of: sets[position.set][position.term].needle, rule: typo.rule, scope: scope)
      typo.matches = matches
      sets[position.set][position.term].typo = typo
      return matches
    }
  }

  /// A set whose words with a typo budget carry the items the word index finds for them: what
  /// a scan adds to the exact matches.
  ///
  /// A check of fewer `candidates` than ``typoIndexThresholds`` reads their words instead.
  private func withTypoMatches(_ set: [TermMatcher], candidates: Int? = nil) -> [TermMatcher] {
    set.map { term in
      guard var typo = term.typo, typo.matches == nil,
        candidates.map({
          $0 >= (typo.rule.budget > 1 ? typoIndexThresholds.two : typoIndexThresholds.one)
        }) ?? true
      else { return term }
      var term = term
      typo.matches = corpus.typoMatches(of: term.needle, rule: typo.rule, scope: scope)
      term.typo = typo
      return term
    }
  }

  /// The items the filter admits, in their order.
  private func admitted(_ items: [ItemID]) -> [ItemID] {
    guard let filter else { return items }
    let model = corpus.model
    return items.filter { filter.admits(Int($0.rawValue), model: model) }
  }

  /// The candidates (kept in their order) that may match every set whose grams say so for
  /// less than checking them: those that own a value holding the rarest grams of one of the
  /// set's words in some field searched, or a value the grams do not cover.
  ///
  /// A set takes part when its words are all positive, exact or anchored, without typos or
  /// numbers, and have grams in every field searched. Decoding a gram's value costs far less
  /// than checking an item, which reads every value of it: a set's grams are read while their
  /// values are fewer than ``gramsPerCheck`` times the candidates left.
  private func holdingGrams(_ candidates: [ItemID]) -> [ItemID] {
    var candidates = candidates
    let searched = fields.compactMap { field in corpus.index.fields[field].map { (field, $0) } }
    for index in distinctSets {
      let set = sets[index]
      guard
        set.allSatisfy({
          !$0.isInverse && $0.kind != .fuzzy && $0.typo == nil && $0.numberMatches.isEmpty
        })
      else { continue }
      // Each word's rarest grams in each field, and the values they hold at most.
      var lookups: [(values: FoldedValues, field: Int, term: TermMatcher)] = []
      var cost = 0
      for term in set {
        for (field, values) in searched {
          guard
            let count = values.grams?.rarestCount(
              for: term.needle, atStart: term.isAnchoredAtStart)
          else {
            cost = Int.max
            break
          }
          cost += count + values.count - (values.grams?.valueCount ?? 0)
          lookups.append((values, field, term))
        }
        if cost == Int.max { break }
      }
      guard cost / Self.gramsPerCheck < candidates.count else { continue }
      let valueMaps = corpus.model.valueMaps
      var holders = Bitset(capacity: lookups.map { valueMaps[$0.field].itemCount }.max() ?? 0)
      for lookup in lookups {
        guard let grams = lookup.values.grams,
          let values = grams.candidates(
            for: lookup.term.needle, atStart: lookup.term.isAnchoredAtStart, limit: .max)
        else { continue }
        let owner = valueMaps[lookup.field]
        for value in values {
          let item = owner.owner(of: Int(value))
          if item >= 0 { holders.insert(Int(item)) }
        }
        for value in grams.valueCount..<lookup.values.count {
          let item = owner.owner(of: value)
          if item >= 0 { holders.insert(Int(item)) }
        }
      }
      candidates = candidates.filter { holders.contains(Int($0.rawValue)) }
      if candidates.isEmpty { break }
    }
    return candidates
  }

  private func isShort(_ count: Int) -> Bool {
    count * Self.scanRatio < corpus.model.count
  }

  /// The set worth scanning first: all positive, not fuzzy, longest shortest term.
  private func mostSelectiveSet() -> Int {
    var best = 0
    var bestScore = -1
    for (index, set) in sets.enumerated() {
      let positive = set.allSatisfy { !$0.isInverse && $0.kind != .fuzzy }
      let score = positive ? 1 + (set.map(\.needle.count).min() ?? 0) : 0
      if score > bestScore {
        best = index
        bestScore = score
      }
    }
    return best
  }

  // MARK: Lists by scanning

  /// The scope's items matching any term of a set, ascending; `typoOnly` gets those the set's
  /// words found only with typos, when the word index was searched for them (and no word is
  /// inverse).
  private func items(
    matching set: [TermMatcher], typoOnly: inout TypoMatches?,
    isCancelled: @Sendable () -> Bool
  ) -> [ItemID]? {
    // Only a set whose words were looked up in the word index (and none inverse) tells what
    // it found only with typos; the others skip the bookkeeping.
    let countsTypos =
      set.contains { $0.typo?.matches != nil } && !set.contains(where: \.isInverse)
    var result: [ItemID]?
    var exact: [ItemID] = []
    var withTypos = TypoMatches()
    for term in set {
      guard let found = scan(term, isCancelled: isCancelled) else { return nil }
      var list = found
      if countsTypos { exact = exact.isEmpty ? found : SortedLists.union(exact, found) }
      if let matches = term.typo?.matches, !matches.isEmpty {
        // The items found with typos are the scope's already.
        list = SortedLists.union(list, matches.items.map { ItemID(rawValue: $0) })
        withTypos = withTypos.merging(matches)
      }
      if term.isInverse { list = SortedLists.difference(scopeMembers(), list) }
      result = result.map { SortedLists.union($0, list) } ?? list
    }
    if countsTypos { typoOnly = withTypos.subtracting(exact) }
    return result ?? []
  }

  /// The scope's items in which a term (taken as positive) occurs exactly, ascending.
  private func scan(_ term: TermMatcher, isCancelled: @Sendable () -> Bool) -> [ItemID]? {
    var result: [ItemID]? =
      term.numberMatches.isEmpty ? nil : corpus.items(withNumber: term.numberMatches, scope: scope)
    for field in fields {
      guard let values = corpus.index.fields[field] else { continue }
      guard let list = scan(term, values: values, field: field, isCancelled: isCancelled) else {
        return nil
      }
      result = result.map { SortedLists.union($0, list) } ?? list
    }
    return result ?? []
  }

  private func scan(
    _ term: TermMatcher, values: FoldedValues, field: Int, isCancelled: @Sendable () -> Bool
  ) -> [ItemID]? {
    let owner = corpus.model.valueMaps[field]
    let inside = corpus.scopeValues[scope][field]
    if let found = gramScan(term, values: values, owner: owner, inside: inside) { return found }
    let chunkCount = inside.count < Self.parallelThreshold ? 1 : Self.chunkCount
    let pieces = inside.split(into: chunkCount)
    let chunks = Parallel.map(chunks: pieces.count) { chunk -> [ItemID]? in
      if isCancelled() { return nil }
      var owners: [ItemID] = []
      inside.forEachRun(in: pieces[chunk]) { run in
        // Only the scope's items' values: every owner found is admitted.
        term.scan(values, valueRange: run, owner: owner, into: &owners)
      }
      return owners
    }
    var result: [ItemID] = []
    result.reserveCapacity(chunks.reduce(0) { $0 + ($1?.count ?? 0) })
    for chunk in chunks {
      guard let chunk else { return nil }
      // An item's values may straddle two chunks.
      result.append(contentsOf: chunk.first == result.last ? chunk.dropFirst() : chunk[...])
    }
    if !result.isStrictlyAscending() {
      // Values appended by updates come after everything else.
      result.sort()
      result = result.removingAdjacentDuplicates()
    }
    return result
  }

  /// The owners of the values in `inside` that hold `term`, ascending, found through the
  /// column's grams.
  ///
  /// The values of the term's rarest grams are checked (unless the grams give the term
  /// exactly), and those the grams do not cover scanned. nil when the column has no grams, the
  /// term none (fewer than three bytes, or fuzzy), or its rarest is in so many values that
  /// reading the values costs less.
  private func gramScan(
    _ term: TermMatcher, values: FoldedValues, owner: ValueMap, inside: ScopeMembership.Values
  ) -> [ItemID]? {
    let atStart = term.isAnchoredAtStart
    guard term.kind != .fuzzy, let grams = values.grams,
      let rarest = grams.rarestCount(for: term.needle, atStart: atStart)
    else { return nil }
    let exact =
      (term.kind == .exact || term.kind == .prefix) && grams.isExact(term.needle, atStart: atStart)
    // The bytes a scan reads, counted only for a term the grams may give.
    var bytes = 0
    inside.forEachRun(in: 0..<inside.capacity) { run in
      bytes += Int(values.starts[run.upperBound] - values.starts[run.lowerBound])
    }
    guard rarest <= bytes / (exact ? Self.bytesPerExactCandidate : Self.bytesPerCandidate),
      let candidates = grams.candidates(for: term.needle, atStart: atStart, limit: .max)
    else { return nil }
    var owners: [ItemID] = []
    owners.reserveCapacity(candidates.count)
    // The values where an exact hit may still end inside a character or follow white space.
    let interior = exact ? grams.valuesToCheck(atStart: atStart) : []
    var nextInterior = 0
    term.withValueCheck(values) { holdsTerm in
      for value in candidates {
        let value = Int(value)
        guard inside.contains(value) else { continue }
        let item = owner.owner(of: value)
        guard item >= 0, owners.last?.rawValue != item else { continue }
        var sure = exact
        if exact {
          while nextInterior < interior.count && interior[nextInterior] < value {
            nextInterior += 1
          }
          sure = nextInterior == interior.count || interior[nextInterior] != value
        }
        if sure || holdsTerm(value) { owners.append(ItemID(rawValue: item)) }
      }
    }
    // The values appended since the grams were built.
    inside.forEachRun(in: grams.valueCount..<inside.capacity) { run in
      term.scan(values, valueRange: run, owner: owner, into: &owners)
    }
    if !owners.isStrictlyAscending() {
      owners.sort()
      owners = owners.removingAdjacentDuplicates()
    }
    return owners
  }

  /// The scope's members, ascending.
  private func scopeMembers() -> [ItemID] {
    var members = corpus.members(ofScope: scope)
    if !corpus.positions.isEmpty { members.sort() }
    return members
  }

  // MARK: Checking item by item

  /// The candidates (kept in their order) that match every set.
  private func check(
    _ candidates: [ItemID], sets: [[TermMatcher]], isCancelled: @Sendable () -> Bool
  ) -> [ItemID]? {
    let chunkCount = candidates.count < Self.parallelThreshold ? 1 : Self.chunkCount
    let ranges = Parallel.ranges(
      count: candidates.count, size: (candidates.count + chunkCount - 1) / chunkCount)
    let corpus = self.corpus
    let fields = self.fields.compactMap { field in
      corpus.index.fields[field].map {
        ItemText(values: $0, map: corpus.model.valueMaps[field])
      }
    }
    let model = corpus.model
    let filter = self.filter
    let typos = Self.hasTypos(sets)
    // Many candidates: the words with typos are found in the word index once, rather than by
    // reading every word of every candidate (an item with many names holds dozens).
    let sets = typos ? sets.map { withTypoMatches($0, candidates: candidates.count) } : sets
    let chunks = Parallel.map(chunks: ranges.count) { chunk -> [ItemID]? in
      if isCancelled() { return nil }
      if typos {
        return candidates[ranges[chunk]].filter {
          (filter?.admits(Int($0.rawValue), model: model) ?? true)
            && Self.matchesWithTypos($0.rawValue, sets: sets, fields: fields, model: model)
        }
      }
      return candidates[ranges[chunk]].filter {
        (filter?.admits(Int($0.rawValue), model: model) ?? true)
          && Self.matchesExactly($0.rawValue, sets: sets, fields: fields, model: model)
      }
    }
    var result: [ItemID] = []
    for chunk in chunks {
      guard let chunk else { return nil }
      result.append(contentsOf: chunk)
    }
    return result
  }

  /// The folded text of one field with the value ranges of each item, for checking items.
  typealias ItemText = FieldText

  /// Whether an item matches every set; a word with a typo budget (``TermMatcher/typo``) also
  /// with typos.
  static func matches(_ item: Int32, sets: [[TermMatcher]], fields: [ItemText], model: SearchModel)
    -> Bool
  {
    hasTypos(sets)
      ? matchesWithTypos(item, sets: sets, fields: fields, model: model)
      : matchesExactly(item, sets: sets, fields: fields, model: model)
  }

  /// Whether some word of the sets has a typo budget.
  static func hasTypos(_ sets: [[TermMatcher]]) -> Bool {
    sets.contains { $0.contains { $0.typo != nil } }
  }

  /// Whether an item matches every set, every word exactly.
  ///
  /// Kept apart from ``matchesWithTypos(_:sets:fields:model:)``, without a word of typos: the
  /// mere presence of the typo check in this loop made the check of every item several times
  /// slower, typos or not (a scoped keystroke's p99 four times), in release builds.
  static func matchesExactly(
    _ item: Int32, sets: [[TermMatcher]], fields: [ItemText], model: SearchModel
  )
    -> Bool
  {
    for set in sets {
      var matched = false
      for term in set {
        var found =
          !term.numberMatches.isEmpty
          && SearchCorpus.hasNumber(Int(item), matches: term.numberMatches, model: model)
        for field in fields where !found {
          let range = field.map.range(of: Int(item))
          guard term.matches(field.values, first: range.lowerBound, end: range.upperBound) else {
            continue
          }
          found = true
          break
        }
        if found != term.isInverse {
          matched = true
          break
        }
      }
      if !matched { return false }
    }
    return true
  }

  /// Whether an item matches every set, a word with a typo budget also with typos.
  static func matchesWithTypos(
    _ item: Int32, sets: [[TermMatcher]], fields: [ItemText], model: SearchModel
  )
    -> Bool
  {
    for set in sets {
      var matched = false
      for term in set {
        var found =
          !term.numberMatches.isEmpty
          && SearchCorpus.hasNumber(Int(item), matches: term.numberMatches, model: model)
        for field in fields where !found {
          let range = field.map.range(of: Int(item))
          guard term.matches(field.values, first: range.lowerBound, end: range.upperBound) else {
            continue
          }
          found = true
          break
        }
        if !found, let typo = term.typo, typo.typos(ofItem: item, fields: fields) != nil {
          found = true
        }
        if found != term.isInverse {
          matched = true
          break
        }
      }
      if !matched { return false }
    }
    return true
  }

  /// Whether one item is in the scope and matches the query: what a model change re-checks.
  package func admits(_ id: ItemID) -> Bool {
    guard corpus.model.contains(id) else { return false }
    if let members = corpus.scopeMembers[scope], !members.contains(Int(id.rawValue)) {
      return false
    }
    if let filter, !filter.admits(Int(id.rawValue), model: corpus.model) { return false }
    let fields = self.fields.compactMap { field in
      corpus.index.fields[field].map { ItemText(values: $0, map: corpus.model.valueMaps[field]) }
    }
    return Self.matches(
      id.rawValue, sets: distinctSets.map { sets[$0] }, fields: fields, model: corpus.model)
  }

  // MARK: Lists

  private func inModelOrder(_ items: [ItemID]) -> [ItemID] {
    var items = items
    if !corpus.positions.isEmpty { corpus.sortedByPosition(&items) }
    return items
  }

  private static var chunkCount: Int { Parallel.activeProcessorCount * chunksPerCore }
}

extension Array where Element == ItemID {
  /// The array without elements equal to the one before.
  func removingAdjacentDuplicates() -> [ItemID] {
    var result: [ItemID] = []
    result.reserveCapacity(count)
    for value in self where result.last != value { result.append(value) }
    return result
  }

  /// Whether every element is greater than the one before.
  func isStrictlyAscending() -> Bool {
    var previous = Int32.min
    for value in self {
      if value.rawValue <= previous { return false }
      previous = value.rawValue
    }
    return true
  }
}
