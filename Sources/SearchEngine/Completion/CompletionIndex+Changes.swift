/// What a completion index's upkeep needs to know of the model before a batch: the values
/// that the items the batch updates or removes held, which the batch kills.
///
/// Their folded bytes stay in the index after it, so their keys can still be read.
struct CompletionBaseline {
  /// One more than the largest identity before the batch: items from it on are new.
  let identityLimit: Int
  /// Each item of the model that the batch updates or removes, with its values of each
  /// searched field before the batch.
  let touched: [(item: Int, values: [(field: Int, range: Range<Int>)])]

  /// The baseline of `changes` for `model`, whose searched fields are `fields`.
  init(of model: SearchModel, changes: [SearchModel.Change], fields: [Int]) {
    identityLimit = model.identityLimit
    var seen = Set<Int>()
    var touched: [(item: Int, values: [(field: Int, range: Range<Int>)])] = []
    for change in changes {
      let id: ItemID
      switch change {
      case .insert, .reorder: continue
      case .update(let item, _), .remove(let item): id = item
      }
      guard model.contains(id), seen.insert(Int(id.rawValue)).inserted else { continue }
      let item = Int(id.rawValue)
      touched.append((item, fields.map { ($0, model.valueMaps[$0].range(of: item)) }))
    }
    self.touched = touched
  }
}

extension CompletionIndex {
  /// Brings the index up to date with `model` after a batch, from what `baseline` knew before
  /// it; `index` holds the folded text of the model after the batch.
  ///
  /// Each item the batch touched or added gives the set of candidates it held before (from
  /// its killed values) and the set it holds now (from its values, none if it went); it
  /// leaves the candidates only in the first and joins those only in the second, and a key
  /// no candidate has yet becomes a new one. So every weight and item list is what a build
  /// from scratch gives; only the order of handles differs, which no answer shows. Past
  /// ``newShare`` new candidates, or for a batch touching more than
  /// `ScopeMembership.incrementalShare` of the items, the index is built again.
  ///
  /// - Complexity: O(*k* log *n*) for *k* keys of the touched items' old and new values and
  ///   *n* candidates, plus the length of the item list of each candidate they change.
  mutating func apply(_ baseline: CompletionBaseline, model: SearchModel, index: SearchIndex) {
    let added = model.identityLimit - baseline.identityLimit
    if ScopeMembership.rebuilds(changes: baseline.touched.count + added, count: model.count) {
      self = CompletionIndex(model: model, index: index)
      return
    }
    let fields = index.fields
    let searched = fields.indices.filter { fields[$0] != nil }
    Self.withBuffers(fields) { buffers in
      var before: [Int: Set<Int>] = [:]
      for (item, values) in baseline.touched {
        var held = Set<Int>()
        for (field, range) in values {
          guard let folded = fields[field] else { continue }
          for value in range {
            CompletionKeys.forEach(in: buffers[field], range: folded.range(of: value)) {
              start, length in
              let key = UnsafeBufferPointer(rebasing: buffers[field][start..<(start + length)])
              if let handle = handle(of: key, buffers: buffers) { held.insert(handle) }
            }
          }
        }
        before[item] = held
      }
      let items = before.keys.sorted() + Array(baseline.identityLimit..<model.identityLimit)
      for item in items {
        var held = Set<Int>()
        if model.isAlive[item] {
          for field in searched {
            guard let folded = fields[field] else { continue }
            for value in model.valueMaps[field].range(of: item) {
              CompletionKeys.forEach(in: buffers[field], range: folded.range(of: value)) {
                start, length in
                let key = UnsafeBufferPointer(rebasing: buffers[field][start..<(start + length)])
                held.insert(
                  handle(of: key, buffers: buffers)
                    ?? addCandidate(field: field, start: start, length: length, buffers: buffers))
              }
            }
          }
        }
        let old = before[item] ?? []
        for handle in old.subtracting(held) { set(Int32(item), holds: false, handle: handle) }
        for handle in held.subtracting(old) { set(Int32(item), holds: true, handle: handle) }
      }
    }
    if needsRebuild { self = CompletionIndex(model: model, index: index) }
  }

  /// Adds a new candidate for the key at `start..<start + length` of field `field`, with no
  /// items, and returns its handle.
  mutating func addCandidate(
    field: Int, start: Int, length: Int, buffers: [UnsafeBufferPointer<UInt8>]
  ) -> Int {
    let handle = count
    keyField.append(UInt16(field))
    keyStart.append(Int32(start))
    keyLength.append(Int32(length))
    weights.append(0)
    overridden.grow(to: handle + 1)
    overridden.insert(handle)
    overrides[Int32(handle)] = []
    let key = UnsafeBufferPointer(rebasing: buffers[field][start..<(start + length)])
    var low = 0
    var high = newOrder.count
    while low < high {
      let middle = (low + high) / 2
      if compare(Int(newOrder[middle]), with: key, buffers: buffers) < 0 {
        low = middle + 1
      } else {
        high = middle
      }
    }
    newOrder.insert(Int32(handle), at: low)
    return handle
  }

  /// Adds `item` to candidate `handle`'s items (when it is not there) or removes it, and
  /// counts the change in its weight.
  mutating func set(_ item: Int32, holds: Bool, handle: Int) {
    if !overridden.contains(handle) {
      overrides[Int32(handle)] = Array(items(of: handle))
      overridden.insert(handle)
    }
    var changed = false
    let key = Int32(handle)
    var list = overrides.removeValue(forKey: key) ?? []
    let position = list.partitionPoint { $0 >= item }
    let present = position < list.count && list[position] == item
    if holds && !present {
      list.insert(item, at: position)
      changed = true
    } else if !holds && present {
      list.remove(at: position)
      changed = true
    }
    overrides[key] = list
    guard changed else { return }
    weights[handle] += holds ? 1 : -1
    if handle < baseCount { tree.update(handle, weights: weights) }
  }
}
