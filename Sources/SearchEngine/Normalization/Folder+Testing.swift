// Hooks for the package's tests; not part of the public API.
extension Folder {
  /// How many distinct non-ASCII characters this folder has folded with ICU and cached.
  package var cachedCharacterCount: Int { entries.count }
}
