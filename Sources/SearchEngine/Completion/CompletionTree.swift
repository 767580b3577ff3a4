/// A segment tree over the weights of sorted candidates: each node holds the best candidate
/// of its range (the heaviest; of equal weights, the first), so that a walk gives the
/// candidates of any range in ranking order without looking at the others.
///
/// The tree is the perfect binary tree over the next power of two; node 1 is the root, node
/// `i`'s children are `2i` and `2i + 1`, and leaf `size + c` is candidate `c`. A node of no
/// candidate holds -1.
struct CompletionTree: Sendable {
  /// The number of leaves: a power of two at least the number of candidates.
  private(set) var size = 1
  /// The best candidate of each node's range, or -1.
  private(set) var nodes: [Int32] = [-1, -1]

  /// The bytes the tree holds.
  var memoryBytes: Int { nodes.count * 4 }

  /// An empty tree.
  init() {}

  /// The tree of `weights`.
  ///
  /// - Complexity: O(*n*).
  init(weights: [Int32]) {
    while size < weights.count { size *= 2 }
    nodes = [Int32](repeating: -1, count: 2 * size)
    for candidate in weights.indices { nodes[size + candidate] = Int32(candidate) }
    for node in stride(from: size - 1, to: 0, by: -1) {
      nodes[node] = Self.best(nodes[2 * node], nodes[2 * node + 1], weights)
    }
  }

  /// The better of two candidates (or -1): the heavier; of equal weights, the first.
  @inline(__always)
  static func best(_ a: Int32, _ b: Int32, _ weights: [Int32]) -> Int32 {
    if a < 0 { return b }
    if b < 0 { return a }
    return weights[Int(b)] > weights[Int(a)] ? b : a
  }

  /// Takes a changed weight of candidate `candidate` into account.
  ///
  /// - Complexity: O(log *n*).
  mutating func update(_ candidate: Int, weights: [Int32]) {
    var node = (size + candidate) / 2
    while node > 0 {
      nodes[node] = Self.best(nodes[2 * node], nodes[2 * node + 1], weights)
      node /= 2
    }
  }

  /// A walk over the candidates of `range` in ranking order.
  func walk(_ range: Range<Int>) -> Walk {
    var walk = Walk()
    var low = range.lowerBound + size
    var high = range.upperBound + size
    while low < high {
      if low & 1 == 1 {
        walk.heap.append(Int32(low))
        low += 1
      }
      if high & 1 == 1 {
        high -= 1
        walk.heap.append(Int32(high))
      }
      low /= 2
      high /= 2
    }
    return walk
  }

  /// The candidates of a range in ranking order: a heap of the tree's nodes whose ranges
  /// together make the part of the range not yet given, ordered by their best candidates.
  ///
  /// - Complexity: O(log *n*) for each candidate given, after O(log *n*) for the first.
  struct Walk {
    fileprivate(set) var heap: [Int32] = []
    fileprivate var isHeap = false

    /// The next candidate, or nil when none of positive weight is left.
    mutating func next(in tree: CompletionTree, weights: [Int32]) -> Int? {
      if !isHeap {
        heap.removeAll { tree.nodes[Int($0)] < 0 }
        for index in stride(from: heap.count / 2 - 1, through: 0, by: -1) {
          siftDown(index, tree, weights)
        }
        isHeap = true
      }
      while let top = heap.first {
        let candidate = tree.nodes[Int(top)]
        if candidate < 0 || weights[Int(candidate)] <= 0 { return nil }
        if Int(top) >= tree.size {
          removeTop(tree, weights)
          return Int(candidate)
        }
        // Replace the node with its children: the top's best is in one of them.
        let left = 2 * top
        let right = left + 1
        heap[0] = left
        siftDown(0, tree, weights)
        if tree.nodes[Int(right)] >= 0 { push(right, tree, weights) }
      }
      return nil
    }

    /// Whether node `a`'s best candidate ranks before node `b`'s.
    @inline(__always)
    private func precedes(_ a: Int32, _ b: Int32, _ tree: CompletionTree, _ weights: [Int32])
      -> Bool
    {
      let x = tree.nodes[Int(a)]
      let y = tree.nodes[Int(b)]
      if x < 0 { return false }
      if y < 0 { return true }
      let wx = weights[Int(x)]
      let wy = weights[Int(y)]
      return wx > wy || (wx == wy && x < y)
    }

    private mutating func removeTop(_ tree: CompletionTree, _ weights: [Int32]) {
      let last = heap.removeLast()
      guard !heap.isEmpty else { return }
      heap[0] = last
      siftDown(0, tree, weights)
    }

    private mutating func push(_ node: Int32, _ tree: CompletionTree, _ weights: [Int32]) {
      heap.append(node)
      var child = heap.count - 1
      while child > 0 {
        let parent = (child - 1) / 2
        guard precedes(heap[child], heap[parent], tree, weights) else { break }
        heap.swapAt(child, parent)
        child = parent
      }
    }

    private mutating func siftDown(_ start: Int, _ tree: CompletionTree, _ weights: [Int32]) {
      var parent = start
      while true {
        let left = 2 * parent + 1
        guard left < heap.count else { return }
        var best = left
        if left + 1 < heap.count, precedes(heap[left + 1], heap[left], tree, weights) {
          best = left + 1
        }
        guard precedes(heap[best], heap[parent], tree, weights) else { return }
        heap.swapAt(best, parent)
        parent = best
      }
    }
  }
}
