/// Folders for the chunks of one parallel fold: a chunk takes a folder that an earlier chunk
/// gave back, its cache warm with the characters met so far, or makes one.
///
/// A folder made for each chunk would ask ICU again for every character that is not ASCII, once per
/// chunk: on cities500, thousands of characters in each of its 56 chunks.
///
/// A folder is with one chunk at a time; the lock hands it from one thread to the next.
final class FolderPool: @unchecked Sendable {
  private let normalizer: Normalizer
  // Guarded by `lock`.
  private var idle: [Folder] = []
  private let lock = LockedValue(())

  init(normalizer: Normalizer) {
    self.normalizer = normalizer
  }

  /// Runs `body` with a folder of the pool.
  func withFolder<R>(_ body: (Folder) throws(ICUError) -> R) throws(ICUError) -> R {
    let folder: Folder
    if let reused = lock.withLock({ _ in idle.popLast() }) {
      folder = reused
    } else {
      folder = try normalizer.makeFolder()
    }
    defer { lock.withLock { _ in idle.append(folder) } }
    return try body(folder)
  }
}
