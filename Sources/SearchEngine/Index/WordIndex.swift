/// The distinct words of the searched fields, each with the values that hold it: where typo
/// tolerance finds the words near a query word without reading the items.
///
/// The words (see `FoldedWords`) sit in a table sorted by their character codes, with the
/// number of characters each shares with the one before: a trie laid out flat, which
/// ``search(_:budget:prefix:visit:)`` walks depth first with one row of the edit distance
/// table per character, skipping every word under a prefix whose row already exceeds the
/// budget. Values added by model changes go to a second, unsorted table walked the same way
/// (a shared prefix still saves rows there, and still skips a run of words); when it grows
/// past ``rebuildShare`` of the sorted one, the whole index is built again.
///
/// A posting names a field and a value, not an item: values of removed or updated items are
/// left in place (as in ``SearchIndex``) and skipped when a posting's owner is looked up.
struct WordIndex: Sendable {
  /// Words, their shared prefixes and their postings.
  struct Table: Sendable {
    /// The character codes of every word, one after the other.
    var characters: [UInt32] = []
    /// Word `w` is `characters[starts[w]..<starts[w + 1]]`.
    var starts: [Int32] = [0]
    /// How many leading characters word `w` shares with word `w - 1` (0 for the first).
    var shared: [UInt8] = []
    /// Word `w`'s postings are `postingStarts[w]..<postingStarts[w + 1]`.
    var postingStarts: [Int32] = [0]
    var postingFields: [UInt16] = []
    var postingValues: [Int32] = []
    /// For each word `w`, the first word after it that shares fewer leading characters with
    /// its predecessor than `w` does (`count` when none): every word between them shares at
    /// least as many, so a walk that skips a subtree jumps over them at once. Empty for the
    /// unsorted table, which is walked word by word.
    var nextShorter: [Int32] = []

    var count: Int { starts.count - 1 }

    /// Computes ``nextShorter`` with a stack of the words still waiting for theirs.
    mutating func linkSubtrees() {
      var next = [Int32](repeating: Int32(count), count: count)
      var waiting: [Int32] = []
      for word in 0..<count {
        while let last = waiting.last, shared[Int(last)] > shared[word] {
          next[Int(last)] = Int32(word)
          waiting.removeLast()
        }
        waiting.append(Int32(word))
      }
      nextShorter = next
    }

    /// Appends a word with its postings, its shared prefix counted against the last word.
    mutating func append(
      _ word: UnsafeBufferPointer<UInt32>, fields: some Sequence<UInt16>,
      values: some Sequence<Int32>
    ) {
      var common = 0
      if count > 0 {
        let last = Int(starts[count - 1])..<Int(starts[count])
        let limit = min(min(last.count, word.count), Int(UInt8.max))
        while common < limit && characters[last.lowerBound + common] == word[common] {
          common += 1
        }
      }
      shared.append(UInt8(common))
      characters.append(contentsOf: word)
      starts.append(Int32(characters.count))
      postingFields.append(contentsOf: fields)
      postingValues.append(contentsOf: values)
      postingStarts.append(Int32(postingValues.count))
    }
  }

  /// Words longer than this are not indexed: the shared prefixes are counted in a byte.
  static let longestWord = Int(UInt8.max)
  /// The share of the sorted table's words the unsorted one may reach before a rebuild.
  static let rebuildShare = 0.125

  private(set) var sorted = Table()
  private(set) var added = Table()
  private(set) var codes = CharacterCodes()
  /// For each field, how many of its values are indexed (0 for fields not searched).
  private(set) var indexedValues: [Int] = []

  /// Indexes the words of every live value of the searched fields of `model`, folded in
  /// `index`.
  init(index: SearchIndex, model: Model) {
    var collector = WordCollector()
    // About a word a value: the occurrences grow once or not at all.
    collector.reserve(occurrences: index.fields.reduce(0) { $0 + ($1?.count ?? 0) })
    var codes = CharacterCodes()
    indexedValues = Array(repeating: 0, count: index.fields.count)
    for (field, values) in index.fields.enumerated() {
      guard let values else { continue }
      let map = model.valueMaps[field]
      collector.collect(values, range: 0..<values.count, field: field, codes: &codes) {
        map.owner(of: $0) >= 0
      }
      indexedValues[field] = values.count
    }
    self.codes = codes
    sorted = collector.table()
    sorted.linkSubtrees()
  }

  /// Appends every word of the values in `range` of a field to `table`, one entry per
  /// occurrence, in value order (a word twice in a value gives the same posting twice, which
  /// the search takes as once).
  private static func collect(
    _ values: FoldedValues, range: Range<Int>, field: Int, codes: inout CharacterCodes,
    into table: inout Table, isLive: (Int) -> Bool
  ) {
    var words = FoldedWords()
    values.bytes.withUnsafeBufferPointer { bytes in
      for value in range where isLive(value) {
        words.forEachWord(
          in: bytes, range: values.range(of: value), codes: &codes, isBoundary: values.isBoundary
        ) { characters, _ in
          guard characters.count <= longestWord else { return }
          table.append(
            characters, fields: CollectionOfOne(UInt16(field)),
            values: CollectionOfOne(Int32(value)))
        }
      }
    }
  }

  /// Brings the index up to date with the values `index` has gained for `model` since this
  /// index was built: their words go to the unsorted table, or, past ``rebuildShare``, the
  /// whole index is built again.
  func updated(for index: SearchIndex, model: Model) -> WordIndex {
    var result = self
    for (field, values) in index.fields.enumerated() {
      guard let values, field < result.indexedValues.count else { continue }
      let first = result.indexedValues[field]
      guard first < values.count else { continue }
      let map = model.valueMaps[field]
      Self.collect(
        values, range: first..<values.count, field: field, codes: &result.codes,
        into: &result.added
      ) { map.owner(of: $0) >= 0 }
      result.indexedValues[field] = values.count
    }
    if Double(result.added.count) > Self.rebuildShare * Double(max(sorted.count, 4096)) {
      return WordIndex(index: index, model: model)
    }
    return result
  }

  /// The codes of the characters of `text` (folded), as the index codes words.
  func codes(of text: String) -> [UInt32] { text.map { codes.existingCode(of: $0) } }

  /// Calls `visit` with the postings of every indexed word within `budget` edits of `query`
  /// (see `TypoDistance`), and that distance; with `prefix`, of every word with a prefix
  /// within `budget`, and the least such distance. Words at distance 0 are left out: they
  /// contain the query, which an exact match finds.
  func search(
    _ query: [UInt32], budget: Int, prefix: Bool,
    visit: (_ field: Int, _ value: Int, _ distance: Int) -> Void
  ) {
    for table in [sorted, added] where table.count > 0 {
      Self.search(query, budget: budget, prefix: prefix, in: table) { word, distance in
        for posting in Int(table.postingStarts[word])..<Int(table.postingStarts[word + 1]) {
          visit(Int(table.postingFields[posting]), Int(table.postingValues[posting]), distance)
        }
      }
    }
  }

  /// The trie walk over one table: `visit` gets each word within the budget.
  ///
  /// Row `d` holds the distances between every prefix of the query and the word's first `d`
  /// characters. No cell below row `d` is less than the row's minimum, its `floor`: a cell
  /// comes from the row above (plus 0 or 1), from its left (plus 1), or by a transposition
  /// from two rows above plus 1, and row `d`'s minimum is at most row `d - 1`'s plus 1 (its
  /// diagonal). So a subtree is skipped when the floor exceeds the budget, and in prefix mode
  /// taken whole, at its best distance so far, when that distance is at most the floor.
  static func search(
    _ query: [UInt32], budget: Int, prefix: Bool, in table: Table,
    visit: (_ word: Int, _ distance: Int) -> Void
  ) {
    let m = query.count
    let width = m + 1
    let depthLimit = longestWord + 1
    // Cells are capped at `cap`: past the budget only "too far" matters. A cell is at least
    // the difference of its row and column, so only the band of `budget` cells either side
    // of the diagonal is computed; the others keep the cap they start with.
    let cap = budget + 1
    var rows = [Int](repeating: cap, count: width * (depthLimit + 1))
    var best = [Int](repeating: m, count: depthLimit + 1)
    for j in 0...m { rows[j] = min(j, cap) }
    var computed = 0
    var word = 0
    let count = table.count
    table.characters.withUnsafeBufferPointer { characters in
      table.shared.withUnsafeBufferPointer { shared in
        query.withUnsafeBufferPointer { query in
          rows.withUnsafeMutableBufferPointer { rows in
            /// The first word after `word` that does not share its first `depth` characters.
            func subtreeEnd(_ word: Int, depth: Int) -> Int {
              var next = word + 1
              if table.nextShorter.isEmpty {
                while next < count && Int(shared[next]) >= depth { next += 1 }
              } else {
                while next < count && Int(shared[next]) >= depth {
                  next = Int(table.nextShorter[next])
                }
              }
              return next
            }
            outer: while word < count {
              let start = Int(table.starts[word])
              let length = Int(table.starts[word + 1]) - start
              let from = min(Int(shared[word]), computed)
              var depth = from
              while depth < length {
                depth += 1
                let character = characters[start + depth - 1]
                let row = depth * width
                let above = row - width
                rows[row] = min(depth, cap)
                var minimum = rows[row]
                let low = max(1, depth - budget)
                let high = min(width, depth + budget + 1)
                for j in low..<max(low, high) {
                  let cost = query[j - 1] == character ? 0 : 1
                  var value = min(
                    rows[above + j] + 1, rows[row + j - 1] + 1, rows[above + j - 1] + cost)
                  if depth > 1 && j > 1 && query[j - 1] == characters[start + depth - 2]
                    && query[j - 2] == character
                  {
                    value = min(value, rows[above - width + j - 2] + 1)
                  }
                  value = min(value, cap)
                  rows[row + j] = value
                  minimum = min(minimum, value)
                }
                best[depth] = min(best[depth - 1], rows[row + m])
                let floor = minimum
                if prefix && (best[depth] <= floor || floor > budget) {
                  let end = subtreeEnd(word, depth: depth)
                  if best[depth] <= budget && best[depth] > 0 {
                    for taken in word..<end { visit(taken, best[depth]) }
                  }
                  computed = depth
                  word = end
                  continue outer
                }
                if !prefix && floor > budget {
                  computed = depth
                  word = subtreeEnd(word, depth: depth)
                  continue outer
                }
              }
              computed = length
              let distance = prefix ? best[length] : rows[length * width + m]
              if distance <= budget && distance > 0 { visit(word, distance) }
              word += 1
            }
          }
        }
      }
    }
  }
}
