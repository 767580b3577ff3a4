extension CompletionIndex {
  /// A candidate of an answer and the number of items it would find.
  struct Ranked: Equatable {
    var handle: Int
    var count: Int
  }

  /// How many candidates a restricted lookup takes in the order of their weights over every
  /// item, per completion asked for, before it scans the whole range instead: a set that
  /// admits most items finds its best among the first few, a small one may need every
  /// candidate, and a scan of the range, which skips the candidates too light to enter
  /// without reading their items, then costs less than a walk of the tree.
  static let walkBudget = 16

  /// The `limit` best candidates whose keys start with `prefix` (folded bytes), by the
  /// ranking rule (weight descending, then key in binary order), counting only the items of
  /// `admitted` (every item when nil); candidates of no such item are left out.
  ///
  /// Without a set, the tree gives them in order. With one, the tree gives candidates by
  /// their weight over every item, an upper bound of their admitted weight: the walk stops
  /// when that bound cannot beat the last of the best so far, or, after ``walkBudget`` per
  /// completion, the rest of the range is scanned.
  ///
  /// - Complexity: O(*k* log *n*) for *k* = `limit` without a set; with one, up to the items
  ///   of the range's candidates heavy enough to enter, plus the new candidates of the range.
  ///
  /// With `rank` (the ``AdmittedRank`` of `admitted`), the base candidates come from its tree
  /// instead, in order of their admitted weights, as without a set.
  func top(
    prefix: UnsafeBufferPointer<UInt8>, admitted: Bitset?, rank: AdmittedRank? = nil,
    limit: Int, walkBudget: Int = Self.walkBudget, buffers: [UnsafeBufferPointer<UInt8>]
  ) -> [Ranked] {
    guard limit > 0, !prefix.isEmpty else { return [] }
    var best = Best(limit: limit)
    let newRange = prefixRange(prefix, count: newOrder.count, buffers: buffers) {
      Int(newOrder[$0])
    }
    for position in newRange {
      let handle = Int(newOrder[position])
      best.offer(handle, count: count(of: handle, admitted: admitted), in: self, buffers: buffers)
    }
    if let rank {
      rank.offer(prefix: prefix, in: self, into: &best, buffers: buffers)
      return best.ranked
    }
    let range = prefixRange(prefix, count: baseCount, buffers: buffers) { $0 }
    var walk = tree.walk(range)
    var taken = 0
    while let handle = walk.next(in: tree, weights: weights) {
      if !best.mayTake(handle, bound: Int(weights[handle]), in: self, buffers: buffers) {
        return best.ranked
      }
      if let admitted, taken == walkBudget * limit {
        // Start again from the new candidates, with the best so far as a floor.
        let floor = best.ranked.count == limit ? best.ranked.last : nil
        best = Best(limit: limit)
        for position in newRange {
          let handle = Int(newOrder[position])
          best.offer(
            handle, count: count(of: handle, admitted: admitted), in: self, buffers: buffers)
        }
        scan(range, admitted: admitted, floor: floor, into: &best, buffers: buffers)
        return best.ranked
      }
      taken += 1
      best.offer(handle, count: count(of: handle, admitted: admitted), in: self, buffers: buffers)
    }
    return best.ranked
  }

  /// Offers every base candidate of `range` that could rank above `floor` (and the last of
  /// the best so far, once there are enough) to `best`, counting the items of `admitted`;
  /// the items of a candidate whose weight over every item is below that are not read.
  private func scan(
    _ range: Range<Int>, admitted: Bitset, floor: Ranked?, into best: inout Best,
    buffers: [UnsafeBufferPointer<UInt8>]
  ) {
    var floor = floor
    let hasOverrides = !overrides.isEmpty
    let capacity = admitted.capacity
    weights.withUnsafeBufferPointer { weights in
      listStart.withUnsafeBufferPointer { starts in
        listItems.withUnsafeBufferPointer { items in
          admitted.words.withUnsafeBufferPointer { bits in
            for handle in range {
              let bound = Int(weights[handle])
              if let last = floor {
                if bound < last.count { continue }
                if bound == last.count && !keyPrecedes(handle, last.handle, buffers: buffers) {
                  continue
                }
              } else if bound == 0 {
                continue
              }
              var count = 0
              if hasOverrides && overridden.contains(handle) {
                count = self.count(of: handle, admitted: admitted)
              } else {
                for position in Int(starts[handle])..<Int(starts[handle + 1]) {
                  let item = Int(items[position])
                  if item < capacity && bits[item >> 6] & (1 << UInt64(item & 63)) != 0 {
                    count += 1
                  }
                }
              }
              guard count > 0 else { continue }
              best.offer(handle, count: count, in: self, buffers: buffers)
              if best.ranked.count == best.limit, let last = best.ranked.last {
                // The higher of the two floors: the one that ranks first.
                if let current = floor,
                  current.count > last.count
                    || (current.count == last.count
                      && keyPrecedes(current.handle, last.handle, buffers: buffers))
                {
                  continue
                }
                floor = last
              }
            }
          }
        }
      }
    }
  }

  /// The number of items of `admitted` (all when nil) holding candidate `handle`.
  @inline(__always)
  func count(of handle: Int, admitted: Bitset?) -> Int {
    guard let admitted else { return Int(weights[handle]) }
    var count = 0
    for item in items(of: handle) where admitted.contains(Int(item)) { count += 1 }
    return count
  }

  /// The best candidates offered so far, best first, at most `limit`.
  struct Best {
    let limit: Int
    private(set) var ranked: [Ranked] = []

    init(limit: Int) {
      self.limit = limit
      ranked.reserveCapacity(limit + 1)
    }

    /// Whether a candidate of at most `bound` items could enter.
    @inline(__always)
    func mayTake(
      _ handle: Int, bound: Int, in index: CompletionIndex, buffers: [UnsafeBufferPointer<UInt8>]
    ) -> Bool {
      guard ranked.count == limit, let last = ranked.last else { return bound > 0 }
      return bound > last.count
        || (bound == last.count && index.keyPrecedes(handle, last.handle, buffers: buffers))
    }

    /// Takes a candidate found in `count` items, when it ranks among the best.
    mutating func offer(
      _ handle: Int, count: Int, in index: CompletionIndex, buffers: [UnsafeBufferPointer<UInt8>]
    ) {
      guard count > 0, mayTake(handle, bound: count, in: index, buffers: buffers) else { return }
      var position = ranked.count
      while position > 0 {
        let other = ranked[position - 1]
        let before =
          count > other.count
          || (count == other.count && index.keyPrecedes(handle, other.handle, buffers: buffers))
        guard before else { break }
        position -= 1
      }
      ranked.insert(Ranked(handle: handle, count: count), at: position)
      if ranked.count > limit { ranked.removeLast() }
    }
  }
}
