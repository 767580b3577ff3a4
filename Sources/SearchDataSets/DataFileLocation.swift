#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Where a manifest's data file may be: in the manifest's folder or below it, unless the
/// caller trusts the manifest to name any file it can read.
///
/// A manifest is data too, and may come from someone else: its `"data"` could name
/// `../../etc/passwd` or `/home/someone/.ssh/id_ed25519`, which `filter` would print line by
/// line. The rule is checked on the real paths (symbolic links followed), so a link beside the
/// manifest that points elsewhere is outside too.
enum DataFileLocation {
  /// Checks that `dataPath` lies in the folder of `manifestPath`; a data file that does not
  /// exist passes (reading it fails with its own error).
  static func check(dataPath: String, manifest: Manifest, manifestPath: String)
    throws(LoadError)
  {
    let folder = manifestPath.lastIndex(of: "/").map { String(manifestPath[..<$0]) } ?? "."
    guard let realFolder = realPath(folder.isEmpty ? "/" : folder),
      let realData = realPath(dataPath)
    else { return }
    let inside = realFolder == "/" ? "/" : realFolder + "/"
    guard !realData.hasPrefix(inside) else { return }
    throw LoadError(
      file: manifestPath,
      reason:
        "the data file \"\(manifest.dataFile)\" is \(realData), outside the manifest's folder",
      hint:
        "put the data file in the manifest's folder, or, if you trust this manifest, allow data outside it (--allow-data-outside)"
    )
  }

  /// `path` with every symbolic link, `.` and `..` resolved; nil when it does not exist.
  private static func realPath(_ path: String) -> String? {
    guard let resolved = realpath(path, nil) else { return nil }
    defer { free(resolved) }
    return String(cString: resolved)
  }
}
