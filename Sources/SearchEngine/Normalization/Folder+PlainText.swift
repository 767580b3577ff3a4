// The folded bytes of a text whose characters fold one by one, for a prefilter that rejects
// texts before the fold loop sees them.

extension Folder {
  /// Writes the folded form of `text` (valid UTF-8) to `out`, when every character of it is
  /// one plain scalar that folds on its own: the bytes ``fold(_:into:recordsMap:allowsRuns:)``
  /// gives, without the map or the interior boundaries. Returns the number of bytes written,
  /// or nil when the text holds anything else, or its folded form passes `capacity`.
  ///
  /// A plain scalar (``ScalarClasses/isPlain(_:)``) next to another plain scalar is a
  /// character of its own, and when no character folds to nothing or may join its neighbours
  /// (the cache entry's flags), the fold loop appends each character's entry unchanged: the
  /// folded text is their concatenation, which this writes without the loop's bookkeeping.
  /// Under ``Folding/latin``, where runs of a script fold as wholes, it always returns nil.
  func foldedPlainText(
    _ text: UnsafeBufferPointer<UInt8>, into out: UnsafeMutablePointer<UInt8>, capacity: Int
  ) throws(ICUError) -> Int? {
    if transliteratesRuns { return nil }
    guard let base = text.baseAddress else { return 0 }
    var progress = PlainProgress()
    while true {
      // The caches are read through pointers until a character is missing from them; it is
      // then folded (which may move them), and the reading goes on.
      progress = writePlain(base, count: text.count, into: out, capacity: capacity, from: progress)
      switch progress.state {
      case .done: return progress.used
      case .notPlain: return nil
      case .missing(let length):
        _ = try entry(base, progress.position..<(progress.position + length))
      }
    }
  }

  /// How far ``writePlain(_:count:into:capacity:from:)`` went.
  struct PlainProgress {
    enum State {
      case done
      case notPlain
      /// The scalar at `position`, this long, is not in the cache yet.
      case missing(length: Int)
    }
    var position = 0
    var used = 0
    var state = State.done
  }

  /// Writes the folded characters of `base[..<count]` from `progress` on, while they are plain
  /// and cached.
  private func writePlain(
    _ base: UnsafePointer<UInt8>, count n: Int, into out: UnsafeMutablePointer<UInt8>,
    capacity: Int, from progress: PlainProgress
  ) -> PlainProgress {
    var i = progress.position
    var used = progress.used
    return asciiFolds.withUnsafeBufferPointer { asciiFolds in
      scalarKinds.withUnsafeBufferPointer { kinds in
        bmpPages.withUnsafeBufferPointer { pages in
          bmpEntries.withUnsafeBufferPointer { slots in
            entries.withUnsafeBufferPointer { entries in
              entryBytes.withUnsafeBufferPointer { entryBytes in
                let folds = entryBytes.baseAddress
                while i < n {
                  let byte = base[i]
                  if byte < 0x80 {
                    let folded = asciiFolds[Int(byte)]
                    if folded == 0xFF || used == capacity {
                      return PlainProgress(position: i, used: used, state: .notPlain)
                    }
                    out[used] = folded
                    used += 1
                    i += 1
                    continue
                  }
                  let (value, length) = Self.decode(base, at: i, count: n)
                  guard value < 0x10000, kinds[Int(value)] == ScalarClasses.plain else {
                    return PlainProgress(position: i, used: used, state: .notPlain)
                  }
                  let page = Int(pages[Int(value >> 8)])
                  let slot = page < 0 ? 0 : Int(slots[page + Int(value & 0xFF)])
                  if slot == 0 {
                    return PlainProgress(position: i, used: used, state: .missing(length: length))
                  }
                  let folded = entries[slot - 1]
                  if folded.count == 0 || folded.mayJoinPrevious || folded.mayJoinNext
                    || used + folded.count > capacity
                  {
                    return PlainProgress(position: i, used: used, state: .notPlain)
                  }
                  if let folds { (out + used).update(from: folds + folded.start, count: folded.count) }
                  used += folded.count
                  i += length
                }
                return PlainProgress(position: i, used: used, state: .done)
              }
            }
          }
        }
      }
    }
  }
}
