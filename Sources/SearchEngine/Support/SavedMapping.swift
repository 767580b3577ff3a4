#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A saved index file mapped read-only into memory (`mmap`, `PROT_READ`, `MAP_PRIVATE`), so
/// that the big arrays read from it are views of its pages rather than copies: only the pages
/// a search touches become part of the process's memory, and the system can drop them again.
///
/// The mapping lives as long as the last array that views it, and is unmapped in `deinit`.
///
/// The file may be renamed over or deleted while it is mapped: the mapping keeps the old
/// file's pages. It must not be truncated or written in place, which would show other bytes
/// to the arrays already checked, or end the process with `SIGBUS` when a page past the new
/// end is touched: ``SearchCorpus/save(toFile:source:)`` writes a new file and renames it.
final class SavedMapping: @unchecked Sendable {
  // Sendable: the pages are never written (`PROT_READ`) and the fields never change.

  /// The first byte of the file.
  let base: UnsafeRawPointer
  /// The file's size in bytes.
  let size: Int

  /// Maps the `size` bytes of the open file `descriptor`; nil when the system refuses.
  init?(descriptor: Int32, size: Int) {
    guard size > 0 else { return nil }
    let address = mmap(nil, size, PROT_READ, MAP_PRIVATE, descriptor, 0)
    guard let address, address != MAP_FAILED else { return nil }
    base = UnsafeRawPointer(address)
    self.size = size
  }

  deinit { munmap(UnsafeMutableRawPointer(mutating: base), size) }
}
