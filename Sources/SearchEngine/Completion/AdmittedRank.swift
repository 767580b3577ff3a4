/// The base candidates of a completion index that the items of one set hold, with their
/// weights counted over those items only, and a tree over them: what makes a lookup
/// restricted to a set that comes back (a scope, a scope and the same tokens) cost what an
/// unrestricted one does.
///
/// Built from the index's item lists for one state of the index; a change to the corpus
/// drops it (the corpus gets a new `CompletionCache`).
struct AdmittedRank: Sendable {
  /// The set.
  let admitted: Bitset
  /// The base candidates held by an item of the set, ascending (so by key).
  private(set) var handles: [Int32] = []
  /// The number of items of the set holding each of them.
  private(set) var weights: [Int32] = []
  /// The best weights of ranges of them.
  private(set) var tree = CompletionTree()

  /// The bytes it holds.
  var memoryBytes: Int { handles.count * 8 + tree.memoryBytes + admitted.words.count * 8 }

  /// The rank of `admitted` in `index`.
  ///
  /// - Complexity: O(*n* + *e*) for *n* base candidates holding *e* items in all.
  init(index: CompletionIndex, admitted: Bitset) {
    self.admitted = admitted
    for handle in 0..<index.baseCount {
      let count = index.count(of: handle, admitted: admitted)
      guard count > 0 else { continue }
      handles.append(Int32(handle))
      weights.append(Int32(count))
    }
    tree = CompletionTree(weights: weights)
  }

  /// Offers the base candidates whose keys start with `prefix` to `best`, best first, until
  /// no other could enter.
  ///
  /// - Complexity: O(*k* log *n*) for *k* candidates offered.
  func offer(
    prefix: UnsafeBufferPointer<UInt8>, in index: CompletionIndex,
    into best: inout CompletionIndex.Best, buffers: [UnsafeBufferPointer<UInt8>]
  ) {
    let range = index.prefixRange(prefix, count: handles.count, buffers: buffers) {
      Int(handles[$0])
    }
    var walk = tree.walk(range)
    while let position = walk.next(in: tree, weights: weights) {
      let handle = Int(handles[position])
      let count = Int(weights[position])
      guard best.mayTake(handle, bound: count, in: index, buffers: buffers) else { return }
      best.offer(handle, count: count, in: index, buffers: buffers)
    }
  }
}
