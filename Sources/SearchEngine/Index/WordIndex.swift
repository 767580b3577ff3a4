/// The distinct words of the searched fields, each with the values that hold it: where typo
/// tolerance finds the words near a query word without reading the items.
///
/// The words (see `FoldedWords`) sit in a table sorted by their character codes, with the
/// number of characters each shares with the one before: a trie laid out flat, which
/// ``search(_:budget:prefix:visit:)`` walks depth first with one row of the edit distance
/// table per character, skipping every word under a prefix whose row already exceeds the
/// budget. The walk reads one record per word (``Node``), and the sorted table's first levels
/// as nodes of their own, siblings side by side (``TopNode``): the levels where it visits the
/// most nodes, which in the table lie a subtree apart. Values added by model changes go to a
/// second, unsorted table walked the same way (a shared prefix still saves rows there, and
/// still skips a run of words); when it grows past ``rebuildShare`` of the sorted one, the
/// whole index is built again.
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
    /// Word `w`'s postings are `postings[postingStarts[w]..<postingStarts[w + 1]]`.
    var postingStarts: [Int32] = [0]
    /// The postings of every word, one word's after the other's, as ``PostingCoder`` writes
    /// them: about a byte each for a common word.
    var postings: [UInt8] = []
    /// What the walk reads of each word, side by side (see ``Node``): filled by
    /// ``linkNodes(sorted:)`` once the words are in, which a table of every occurrence (the
    /// index's input) never calls.
    var nodes: [Node] = []
    /// Whether the words are sorted and ``Node/next`` links their subtrees; the unsorted
    /// table is walked word by word.
    var isSorted = false
    /// The first ``TopNode/levels`` levels of a sorted table's trie, level by level, the
    /// children of a node side by side (``TopNode``); the root first.
    ///
    /// Empty when unsorted.
    var top: [TopNode] = []

    var count: Int { starts.count - 1 }

    /// Gives the words without a ``Node`` theirs; with `sorted`, links every word's subtree
    /// (``Node/next``) with a stack of the words still waiting for theirs.
    mutating func linkNodes(sorted: Bool) {
      nodes.reserveCapacity(count)
      for word in nodes.count..<count {
        let start = Int(starts[word])
        let common = Int(shared[word])
        let length = Int(starts[word + 1]) - start
        nodes.append(
          Node(
            start: Int32(start), next: Int32(count),
            branch: common < length ? characters[start + common] : 0, shared: shared[word],
            length: UInt8(clamping: length), following: sorted ? 0 : ~0))
      }
      isSorted = sorted
      guard sorted else { return }
      var waiting: [Int32] = []
      // The words whose branch (their first `shared` + 1 characters) may still have children.
      var branches: [Int32] = []
      for word in 0..<count {
        while let last = waiting.last, shared[Int(last)] > shared[word] {
          nodes[Int(last)].next = Int32(word)
          waiting.removeLast()
        }
        waiting.append(Int32(word))
        let common = Int(shared[word])
        while let last = branches.last, Int(shared[Int(last)]) + 1 > common {
          branches.removeLast()
        }
        // The word branches off at `common` from the branch that ends there.
        if let last = branches.last, Int(shared[Int(last)]) + 1 == common {
          nodes[Int(last)].following |= WordIndex.bit(nodes[word].branch)
        }
        let start = Int(starts[word])
        if Int(starts[word + 1]) - start > common + 1 {
          nodes[word].following |= WordIndex.bit(characters[start + common + 1])
        }
        branches.append(Int32(word))
      }
      linkTop()
    }

    /// The word after `word` that does not share its first `depth` characters (a sorted
    /// table).
    func subtreeEnd(_ word: Int, depth: Int) -> Int {
      var next = word + 1
      while next < count && Int(nodes[next].shared) >= depth { next = Int(nodes[next].next) }
      return next
    }

    /// Builds ``top``, breadth first: each node's children are the runs of its words that
    /// share one more character.
    mutating func linkTop() {
      var top = [TopNode(character: 0, first: 0, end: Int32(count), children: 1, childEnd: 1)]
      var level = [0]
      for depth in 0..<TopNode.levels {
        var below: [Int] = []
        for parent in level {
          var word = Int(top[parent].first)
          let end = Int(top[parent].end)
          // The node's own text, when it is a word, comes first.
          if word < end && Int(nodes[word].length) == depth { word += 1 }
          top[parent].children = Int32(top.count)
          while word < end {
            let next = subtreeEnd(word, depth: depth + 1)
            below.append(top.count)
            top.append(
              TopNode(
                character: characters[Int(nodes[word].start) + depth], first: Int32(word),
                end: Int32(next), children: 0, childEnd: 0))
            word = next
          }
          top[parent].childEnd = Int32(top.count)
        }
        level = below
      }
      self.top = top
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
      var coder = PostingCoder()
      for (field, value) in zip(fields, values) {
        coder.encode(field: Int(field), value: Int(value)) { postings.append($0) }
      }
      postingStarts.append(Int32(postings.count))
    }

    /// Calls `body` with each posting of word `w`, in order.
    func forEachPosting(ofWord w: Int, _ body: (_ field: Int, _ value: Int) -> Void) {
      postings.withUnsafeBufferPointer { bytes in
        var coder = PostingCoder()
        var offset = Int(postingStarts[w])
        let end = Int(postingStarts[w + 1])
        while offset < end {
          let posting = coder.decode(bytes, at: &offset)
          body(posting.field, posting.value)
        }
      }
    }
  }

  /// A word's postings in bytes, each a field and a value: one of the same field as the
  /// posting before, at a value not below its, is a varint of twice the difference of the
  /// values; any other (the word's first) is a varint of twice its field plus one, then one of
  /// its value.
  ///
  /// The build adds a word's postings in order of field and value, so a word met in many
  /// values takes about a byte a posting where a field and a value took six, and a rare word
  /// four or five bytes: at 200,000 contacts (1.1 million occurrences), the postings went from
  /// 6.7 MB to 1.6.
  struct PostingCoder {
    private var field = -1
    private var value = 0

    /// Gives `emit` the bytes of the posting (`field`, `value`) after the ones before.
    @inline(__always)
    mutating func encode(field: Int, value: Int, _ emit: (UInt8) -> Void) {
      if field == self.field && value >= self.value {
        Self.encode((value - self.value) << 1, emit)
      } else {
        Self.encode(field << 1 | 1, emit)
        Self.encode(value, emit)
      }
      self.field = field
      self.value = value
    }

    /// The posting at `offset` in `bytes`, after the ones before; `offset` moves past it.
    @inline(__always)
    mutating func decode(_ bytes: UnsafeBufferPointer<UInt8>, at offset: inout Int) -> (
      field: Int, value: Int
    ) {
      let head = Self.decode(bytes, at: &offset)
      if head & 1 == 1 {
        field = head >> 1
        value = Self.decode(bytes, at: &offset)
      } else {
        value += head >> 1
      }
      return (field, value)
    }

    /// A varint: seven bits a byte, the low ones first, the high bit set on every byte but the
    /// last.
    @inline(__always)
    private static func encode(_ number: Int, _ emit: (UInt8) -> Void) {
      var rest = UInt(number)
      while rest >= 0x80 {
        emit(UInt8(truncatingIfNeeded: rest) | 0x80)
        rest >>= 7
      }
      emit(UInt8(rest))
    }

    @inline(__always)
    private static func decode(_ bytes: UnsafeBufferPointer<UInt8>, at offset: inout Int) -> Int {
      var number = 0
      var shift = 0
      while true {
        let byte = bytes[offset]
        offset += 1
        number |= Int(byte & 0x7F) << shift
        if byte < 0x80 { return number }
        shift += 7
      }
    }
  }

  /// One word as the trie walk reads it: where its characters start, its length, the
  /// characters it shares with the word before, the first one it does not (where it branches
  /// off), and the next word outside its subtree.
  ///
  /// Most words the walk visits are left after one row of the edit distance table, on that first
  /// character: one record in one cache line serves the whole visit, where separate arrays cost a
  /// cache miss each.
  struct Node: Sendable {
    /// Where the word's characters start in ``Table/characters``.
    var start: Int32
    /// The first word after this one that shares fewer leading characters with its
    /// predecessor than this one does (the table's count when none): every word between them
    /// shares at least as many, so a walk that skips a subtree jumps over them at once.
    ///
    /// Only in a sorted table.
    var next: Int32
    /// The word's character after the ``shared`` ones.
    var branch: UInt32
    /// How many leading characters the word shares with the word before (0 for the first).
    var shared: UInt8
    /// The word's length in characters (at most ``longestWord``).
    var length: UInt8
    /// The characters that follow the word's first ``shared`` + 1 in the words that start
    /// with them (its own next character and those of the words that branch off there), as
    /// bits of ``WordIndex/bit(_:)``.
    ///
    /// A walk whose row leaves no edit to spare at that depth skips the subtree when none of
    /// them is a character of the query that could come next. Every bit in an unsorted table.
    var following: UInt64
  }

  /// A node of the first levels of a sorted table's trie: the words that start with its
  /// characters, and its children.
  ///
  /// Siblings are side by side, where in the table they lie a subtree apart: a walk reads the
  /// levels where it visits most nodes in order.
  struct TopNode: Sendable {
    /// How many levels below the root are nodes.
    static let levels = 3
    /// The node's last character (0 for the root).
    var character: UInt32
    /// The words that start with the node's characters: `first..<end` of the table; `first`
    /// is the node's own text when it is a word.
    var first: Int32
    var end: Int32
    /// The node's children: `children..<childEnd` of ``Table/top`` (none on the last level).
    var children: Int32
    var childEnd: Int32
  }

  /// The bit that stands for `character` in ``Node/following``: one of 64, by a
  /// multiplicative hash.
  static func bit(_ character: UInt32) -> UInt64 {
    1 << UInt64((character &* 0x9E37_79B1) >> 26)
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
  init(index: SearchIndex, model: SearchModel) {
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
    sorted.linkNodes(sorted: true)
  }

  /// Appends every word of the values in `range` of a field to `table`, one entry per
  /// occurrence, in value order (a word twice in a value gives the same posting twice, which
  /// the search takes as once).
  private static func collect(
    _ values: FoldedValues, range: Range<Int>, field: Int, codes: inout CharacterCodes,
    into table: inout Table, isLive: (Int) -> Bool
  ) {
    forEachIndexedWord(of: values, range: range, codes: &codes, isLive: isLive) {
      characters, value in
      table.append(
        characters, fields: CollectionOfOne(UInt16(field)), values: CollectionOfOne(Int32(value)))
    }
  }

  /// Calls `body` with every word the index holds of the values in `range` that `isLive`
  /// keeps (those of at most ``longestWord`` characters) and its value, in value order, one
  /// call per occurrence: what the build and a model change both read.
  static func forEachIndexedWord(
    of values: FoldedValues, range: Range<Int>, codes: inout CharacterCodes,
    isLive: (Int) -> Bool, _ body: (UnsafeBufferPointer<UInt32>, Int) -> Void
  ) {
    var words = FoldedWords()
    values.bytes.withUnsafeBufferPointer { bytes in
      for value in range where isLive(value) {
        words.forEachWord(
          in: bytes, range: values.range(of: value), codes: &codes, isBoundary: values.isBoundary
        ) { characters, _ in
          guard characters.count <= longestWord else { return }
          body(characters, value)
        }
      }
    }
  }

  /// Brings the index up to date with the values `index` has gained for `model` since this
  /// index was built: their words go to the unsorted table, or, past ``rebuildShare``, the
  /// whole index is built again.
  func updated(for index: SearchIndex, model: SearchModel) -> WordIndex {
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
    result.added.linkNodes(sorted: false)
    if Double(result.added.count) > Self.rebuildShare * Double(max(sorted.count, 4096)) {
      return WordIndex(index: index, model: model)
    }
    return result
  }

  /// The codes of the characters of `text` (folded), as the index codes words.
  func codes(of text: String) -> [UInt32] { text.map { codes.existingCode(of: $0) } }

  /// The postings of every indexed word within `budget` edits of `query` (see
  /// `TypoDistance`), each with that distance; with `prefix`, of every word with a prefix
  /// within `budget`, with the least such distance.
  ///
  /// Words at distance 0 are left out: they contain the query, which an exact match finds.
  ///
  /// The walk only gathers the words; their postings are read in a loop of their own, which
  /// stays as fast whatever the caller does with them (a closure called for each posting ran
  /// several times slower where the compiler did not specialise it).
  func postings(of query: [UInt32], budget: Int, prefix: Bool)
    -> [(field: Int, value: Int, distance: Int)]
  {
    var result: [(field: Int, value: Int, distance: Int)] = []
    for table in [sorted, added] where table.count > 0 {
      var words: [(word: Int, distance: Int)] = []
      Self.search(query, budget: budget, prefix: prefix, in: table) { word, distance in
        words.append((word, distance))
      }
      let starts = table.postingStarts
      table.postings.withUnsafeBufferPointer { postings in
        for (word, distance) in words {
          var coder = PostingCoder()
          var offset = Int(starts[word])
          let end = Int(starts[word + 1])
          while offset < end {
            let posting = coder.decode(postings, at: &offset)
            result.append((posting.field, posting.value, distance))
          }
        }
      }
    }
    return result
  }

  /// The trie walk over one table: `visit` gets each word within the budget.
  ///
  /// Row `d` holds the distances between every prefix of the query and the word's first `d`
  /// characters. No cell below row `d` is less than the row's minimum, its `floor`: a cell
  /// comes from the row above (plus 0 or 1), from its left (plus 1), or by a transposition
  /// from two rows above plus 1, and row `d`'s minimum is at most row `d - 1`'s plus 1 (its
  /// diagonal). So a subtree is skipped when the floor exceeds the budget, and in prefix mode
  /// taken whole, at its best distance so far, when that distance is at most the floor. When
  /// the floor is the budget, a cell of the next row is within it only by a match (on the
  /// diagonal after a cell at the budget, or by a transposition after a cell under it two rows
  /// up): a branch none of whose next characters (``Node/following``) is such a character of
  /// the query is skipped too.
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
    // The query's characters that may follow a row with no edit to spare at each depth: after a
    // cell of that row at the budget (a match on the diagonal), or of the row above under it (a
    // transposition); a cell is at least its distance from the diagonal.
    let following = (0...depthLimit).map { depth in
      let low = max(0, depth - budget)
      let high = min(m - 1, depth + budget)
      return low > high ? 0 : query[low...high].reduce(UInt64(0)) { $0 | bit($1) }
    }
    let count = table.count
    let isSorted = table.isSorted
    table.characters.withUnsafeBufferPointer { characters in
      table.nodes.withUnsafeBufferPointer { nodes in
        table.top.withUnsafeBufferPointer { top in
          query.withUnsafeBufferPointer { query in
            rows.withUnsafeMutableBufferPointer { rows in
              best.withUnsafeMutableBufferPointer { best in
                /// Fills row `depth` for the word character `character`, `previous()` the one
                /// before it (read only for a transposition), and `best[depth]`; returns the
                /// row's floor.
                func fill(depth: Int, character: UInt32, previous: () -> UInt32) -> Int {
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
                    if depth > 1 && j > 1 && query[j - 2] == character && query[j - 1] == previous()
                    {
                      value = min(value, rows[above - width + j - 2] + 1)
                    }
                    value = min(value, cap)
                    rows[row + j] = value
                    minimum = min(minimum, value)
                  }
                  best[depth] = min(best[depth - 1], rows[row + m])
                  return minimum
                }

                /// Whether the walk leaves the subtree at `depth` once its row is filled: out of
                /// reach, or in prefix mode taken whole (see ``take(_:depth:)``).
                func leaves(depth: Int, floor: Int) -> Bool {
                  prefix ? best[depth] <= floor || floor > budget : floor > budget
                }

                /// Visits the words of a subtree left at `depth`, when in prefix mode it is taken
                /// whole at its best distance so far.
                func take(_ words: Range<Int>, depth: Int) {
                  guard prefix, best[depth] <= budget, best[depth] > 0 else { return }
                  for taken in words { visit(taken, best[depth]) }
                }

                /// The first word after `word` that does not share its first `depth` characters.
                func subtreeEnd(_ word: Int, depth: Int) -> Int {
                  var next = word + 1
                  if isSorted {
                    while next < count && Int(nodes[next].shared) >= depth {
                      next = Int(nodes[next].next)
                    }
                  } else {
                    while next < count && Int(nodes[next].shared) >= depth { next += 1 }
                  }
                  return next
                }

                /// The words of `range`, whose rows up to `computed` are filled for the first.
                func walk(_ range: Range<Int>, computed: Int) {
                  var computed = computed
                  var word = range.lowerBound
                  let end = range.upperBound
                  outer: while word < end {
                    let node = nodes[word]
                    let start = Int(node.start)
                    let length = Int(node.length)
                    let branchDepth = Int(node.shared) + 1
                    var depth =
                      word == range.lowerBound ? computed : min(Int(node.shared), computed)
                    while depth < length {
                      depth += 1
                      let before = start + depth - 2
                      let floor = fill(
                        depth: depth,
                        character: depth == branchDepth ? node.branch : characters[before + 1],
                        previous: { characters[before] })
                      // With no edit to spare, the next character must be one of the query's: when
                      // no word here goes on with one, the whole branch is out of reach (the word
                      // ending here, if any, is this one, longer than `depth`).
                      if leaves(depth: depth, floor: floor)
                        || (floor == budget && depth == branchDepth && depth < length
                          && node.following & following[depth] == 0)
                      {
                        let skipped = min(subtreeEnd(word, depth: depth), end)
                        take(word..<skipped, depth: depth)
                        computed = depth
                        word = skipped
                        continue outer
                      }
                    }
                    computed = length
                    let distance = prefix ? best[length] : rows[length * width + m]
                    if distance <= budget && distance > 0 { visit(word, distance) }
                    word += 1
                  }
                }

                /// The children of top node `parent` at `depth` and their subtrees.
                func walkTop(_ parent: Int, depth: Int) {
                  let parentNode = top[parent]
                  for child in Int(parentNode.children)..<Int(parentNode.childEnd) {
                    let node = top[child]
                    let words = Int(node.first)..<Int(node.end)
                    let floor = fill(
                      depth: depth + 1, character: node.character,
                      previous: { parentNode.character })
                    if leaves(depth: depth + 1, floor: floor) {
                      take(words, depth: depth + 1)
                      continue
                    }
                    var rest = words
                    if Int(nodes[words.lowerBound].length) == depth + 1 {
                      let distance = prefix ? best[depth + 1] : rows[(depth + 1) * width + m]
                      if distance <= budget && distance > 0 { visit(words.lowerBound, distance) }
                      rest = words.dropFirst()
                    }
                    if depth + 1 < TopNode.levels {
                      walkTop(child, depth: depth + 1)
                    } else {
                      walk(rest, computed: depth + 1)
                    }
                  }
                }

                if top.isEmpty {
                  walk(0..<count, computed: 0)
                } else {
                  walkTop(0, depth: 0)
                }
              }
            }
          }
        }
      }
    }
  }
}
