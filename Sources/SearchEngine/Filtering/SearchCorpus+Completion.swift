extension SearchQuery {
  /// A suggestion of query text taken from the items' own words and values, with the part the
  /// user typed marked.
  ///
  /// Typing "san" in a list of cities may suggest "San Francisco", "San Diego" and "Santiago":
  /// see ``SearchCorpus/completions(for:scope:limit:)`` for the rule that picks and orders them.
  public struct Completion: Hashable, Sendable {
    /// The suggested text, as an item spells it: the value or word of the first item (in the
    /// model's order) that holds it, cut to the suggestion.
    public let text: String
    /// ``text`` with the part that matches the typed text marked, on whole characters: typing
    /// "zu" marks "Zü" of "Zürich".
    public let marked: MarkedText
    /// The number of items whose searched fields hold the suggestion, as a whole value or as a
    /// word: how many it would find.
    public let count: Int

    /// Creates a completion.
    public init(text: String, marked: MarkedText, count: Int) {
      self.text = text
      self.marked = marked
      self.count = count
    }
  }
}

extension SearchCorpus {
  /// Suggestions of query text that complete `text`, taken from the items' own values and
  /// words, best first.
  ///
  /// The candidates are the folded forms of every value of the searched fields (white space
  /// at either end left out) and of every word in them (a run of letters and numbers, with
  /// the marks that follow them). A candidate completes `text` when it starts with `text`
  /// folded as queries are, white space at either end left out, so "san" completes
  /// "san francisco" and "santiago", and "zu" completes "zürich". Its count is the number of
  /// items of the scope whose searched fields hold it; candidates no such item holds are
  /// left out. They are ordered by count, most first, then by their folded text in the
  /// binary order of its UTF-8 bytes.
  ///
  /// The first call builds the corpus's completion index, which the corpus and its copies
  /// then keep, up to date with every change.
  ///
  /// - Parameters:
  ///   - text: The text typed so far. Empty text, or text that folds to nothing, has no
  ///     completions.
  ///   - scope: The index of a scope of the corpus's scope bar: only its items count.
  ///   - limit: The most completions to return.
  /// - Returns: At most `limit` completions, best first; none when folding fails.
  /// - Complexity: O(*k* log *n*) for *k* = `limit` and *n* candidates, in the scope of all
  ///   items and in a scope asked for before (its second lookup first ranks the candidates
  ///   its items hold, once: a pass over every candidate); the first lookup in a smaller
  ///   scope may pass over the candidates that complete `text`.
  public func completions(for text: String, scope: Int = 0, limit: Int = 10) -> [SearchQuery
    .Completion]
  {
    completions(for: text, admitted: scopeMembers[scope], limit: limit)
  }

  /// The completions of `text` counting only the items of `admitted` (every item when nil),
  /// as ``completions(for:scope:limit:)`` gives them for a scope's items.
  package func completions(for text: String, admitted: Bitset?, limit: Int) -> [SearchQuery
    .Completion]
  {
    completions(for: text, admitted: admitted, limit: limit, keepsRank: true)
  }

  /// The completions of `text` in `admitted`; without `keepsRank`, the set's rank is neither
  /// used nor built (what tests use to compare both ways).
  func completions(for text: String, admitted: Bitset?, limit: Int, keepsRank: Bool)
    -> [SearchQuery.Completion]
  {
    guard limit > 0, let folder = try? normalizer.makeFolder() else { return [] }
    let trimmed = String(
      text.drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
    guard !trimmed.isEmpty, var typed = try? folder.foldedText(trimmed).utf8 else { return [] }
    typed.withUnsafeBufferPointer { all in
      let lead = Whitespace.leadingLength(all)
      let rest = UnsafeBufferPointer(rebasing: all[lead...])
      let trail = Whitespace.trailingLength(rest)
      typed = Array(all[lead..<(all.count - trail)])
    }
    guard !typed.isEmpty else { return [] }
    let (completionIndex, rank) = completionCache.index(admitted: keepsRank ? admitted : nil) {
      CompletionIndex(model: model, index: index)
    }
    let fields = index.fields
    return CompletionIndex.withBuffers(fields) { buffers in
      let ranked = typed.withUnsafeBufferPointer { prefix in
        completionIndex.top(
          prefix: prefix, admitted: admitted, rank: rank, limit: limit, buffers: buffers)
      }
      return ranked.map { candidate in
        completion(
          candidate, typedLength: typed.count, in: completionIndex, admitted: admitted,
          folder: folder, buffers: buffers)
      }
    }
  }

  /// The completion index, built first if it is not yet.
  var completionIndex: CompletionIndex {
    completionCache.index { CompletionIndex(model: model, index: index) }
  }

  /// A ranked candidate as a completion: its spelling in the first admitted item holding it,
  /// the typed part marked.
  private func completion(
    _ candidate: CompletionIndex.Ranked, typedLength: Int, in completionIndex: CompletionIndex,
    admitted: Bitset?, folder: Folder, buffers: [UnsafeBufferPointer<UInt8>]
  ) -> SearchQuery.Completion {
    let handle = candidate.handle
    let field = Int(completionIndex.keyField[handle])
    let keyStart = Int(completionIndex.keyStart[handle])
    let keyLength = Int(completionIndex.keyLength[handle])
    let key = UnsafeBufferPointer(rebasing: buffers[field][keyStart..<(keyStart + keyLength)])
    let folded = String(decoding: key, as: UTF8.self)
    let fallback = SearchQuery.Completion(
      text: folded,
      marked: MarkedText(
        text: folded,
        marks: [folded.startIndex..<folded.utf8.index(folded.startIndex, offsetBy: typedLength)]),
      count: candidate.count)
    guard
      let item = firstItem(
        of: completionIndex.items(of: handle), admitted: admitted),
      let (field, value, offset) = place(of: key, item: item, buffers: buffers),
      let text = try? folder.foldedText(model.columns[field].string(value)),
      text.utf8.count == index.fields[field]?.range(of: value).count
    else { return fallback }
    var lower = offset
    while lower > 0 && !text.isCharacterBoundary(lower) { lower -= 1 }
    var upper = offset + keyLength
    while upper < text.utf8.count && !text.isCharacterBoundary(upper) { upper += 1 }
    var markEnd = offset + typedLength
    while markEnd < upper && !text.isCharacterBoundary(markEnd) { markEnd += 1 }
    guard let span = text.originalUTF8Range(forFolded: lower..<upper),
      let mark = text.originalUTF8Range(forFolded: lower..<markEnd)
    else { return fallback }
    let original = Array(text.original.utf8)
    let cut = String(decoding: original[span], as: UTF8.self)
    let utf8 = cut.utf8
    let markLength = min(max(mark.upperBound - span.lowerBound, 0), utf8.count)
    let marks =
      markLength > 0 ? [cut.startIndex..<utf8.index(cut.startIndex, offsetBy: markLength)] : []
    return SearchQuery.Completion(
      text: cut, marked: MarkedText(text: cut, marks: marks), count: candidate.count)
  }

  /// The first item, in the model's order, of `items` (ascending identities) that `admitted`
  /// holds (any when nil).
  private func firstItem(of items: ArraySlice<Int32>, admitted: Bitset?) -> Int? {
    if model.isInIdentityOrder {
      return items.first { admitted?.contains(Int($0)) ?? true }.map { Int($0) }
    }
    let positions = model.positions
    var best: Int32?
    for item in items where admitted?.contains(Int(item)) ?? true {
      if let current = best, positions[Int(current)] <= positions[Int(item)] { continue }
      best = item
    }
    return best.map { Int($0) }
  }

  /// Where item `item` holds `key` first, as a value or a word: the field, the value and the
  /// key's offset in the value's folded bytes.
  private func place(
    of key: UnsafeBufferPointer<UInt8>, item: Int, buffers: [UnsafeBufferPointer<UInt8>]
  ) -> (field: Int, value: Int, offset: Int)? {
    for field in index.fields.indices {
      guard let folded = index.fields[field] else { continue }
      for value in model.valueMaps[field].range(of: item) {
        let range = folded.range(of: value)
        var found: Int?
        CompletionKeys.forEach(in: buffers[field], range: range) { start, length in
          guard found == nil, length == key.count,
            CompletionIndex.compare(buffers[field], start, length, key, 0, key.count) == 0
          else { return }
          found = start - range.lowerBound
        }
        if let found { return (field, value, found) }
      }
    }
    return nil
  }

  // MARK: Upkeep

  /// What the completion index's upkeep needs to know before `changes` are made: nil when
  /// the index is not built (a fresh cache then builds it from the corpus after them).
  func completionBaseline(for changes: [SearchModel.Change]) -> CompletionBaseline? {
    guard completionCache.isBuilt else { return nil }
    return CompletionBaseline(
      of: model, changes: changes,
      fields: index.fields.indices.filter { index.isIndexed(field: $0) })
  }

  /// Brings the completion index up to date after a batch (see ``CompletionIndex/apply``),
  /// in a cache of this corpus's own: in place when no copy shares the cache, else a copy.
  mutating func updateCompletions(since baseline: CompletionBaseline?) {
    guard let baseline else {
      completionCache = CompletionCache()
      return
    }
    let owned = isKnownUniquelyReferenced(&completionCache)
    guard var updated = owned ? completionCache.take() : completionCache.current else {
      completionCache = CompletionCache()
      return
    }
    updated.apply(baseline, model: model, index: index)
    completionCache = CompletionCache(updated)
  }
}
