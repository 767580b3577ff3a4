#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Where `--corpus` finds a data set: a short name (`cities`, `products`, …) is a manifest of
/// the repository's `Corpus` folder, found from the current folder or from the executable's
/// own place (`.build/release/SearchREPL` lives inside the repository), so that the default
/// data set works from any folder; anything else is a manifest's path.
enum CorpusPaths {
  /// The data sets known by name, each with its manifest under `Corpus`.
  static let named: [(name: String, manifest: String)] = [
    ("cities", "cities/cities.manifest.json"),
    ("products", "products/products.manifest.json"),
    ("chat", "chat/chat.manifest.json"),
    ("tweets", "tweets/tweets.manifest.json"),
    ("unicode", "unicode/unicode.manifest.json"),
    ("words", "words/sample.manifest.json"),
    // Built by scripts (Corpus/README.md), not committed.
    ("cities500", "cities/cities500.manifest.json"),
    ("w1", "words/words.manifest.json"),
  ]

  /// The names, for help texts: "cities|products|…".
  static var names: String { named.map(\.name).joined(separator: "|") }

  /// The manifest a `--corpus` argument names.
  ///
  /// - Throws: ``CommandError`` when a short name's folder cannot be found, or the argument
  ///   is a data file rather than its manifest.
  static func manifest(_ argument: String) throws(CommandError) -> String {
    if let known = named.first(where: { $0.name == argument.lowercased() }) {
      for folder in corpusFolders() where exists(folder + "/" + known.manifest) {
        return folder + "/" + known.manifest
      }
      throw CommandError(
        "the \(known.name) data set is in the repository's Corpus folder, which is neither in"
          + " the current folder nor around this executable; run from the repository, or give"
          + " the manifest's path: --corpus PATH/Corpus/\(known.manifest)")
    }
    let lower = argument.lowercased()
    if [".tsv", ".txt", ".jsonl", ".csv"].contains(where: { lower.hasSuffix($0) }) {
      throw CommandError(
        "\(argument) is a data file, not a manifest: --corpus takes the data set's manifest"
          + " (NAME.manifest.json beside it, see Corpus/README.md) or a short name"
          + " (\(names)); plain lines, one item each, go through --input")
    }
    if !argument.contains("/"), !lower.hasSuffix(".json"), !exists(argument) {
      throw CommandError(
        "no data set is named \"\(argument)\": the names are"
          + " \(named.map(\.name).joined(separator: ", ")); or give a manifest's path"
          + " (Corpus/NAME/NAME.manifest.json)")
    }
    return argument
  }

  /// A path as given, or, for a path inside `Corpus/` that the current folder does not
  /// have, the file of the first `Corpus` folder that has it (a default of a command, run
  /// from another folder; see ``corpusFolders()``).
  static func repositoryFile(forDefault path: String) -> String {
    guard path.hasPrefix("Corpus/"), !exists(path) else { return path }
    let inside = path.dropFirst("Corpus/".count)
    return corpusFolders().map { $0 + "/" + inside }.first(where: exists) ?? path
  }

  /// The path of `Scripts/NAME` in the repository: beside the first `Corpus` folder of
  /// ``corpusFolders()`` that has a `Scripts` folder next to it.
  static func repositoryScript(_ name: String) -> String {
    let candidates = corpusFolders().map { String($0.dropLast("Corpus".count)) + "Scripts/" + name }
    return candidates.first(where: exists) ?? "Scripts/" + name
  }

  /// `Corpus` folders to look in, nearest first: the current folder's, then those of the
  /// executable's folder and its parents.
  static func corpusFolders() -> [String] {
    var folders = ["Corpus"]
    var folder = executableFolder()
    while let current = folder {
      folders.append(current + "/Corpus")
      folder = parent(of: current)
    }
    return folders
  }

  private static func executableFolder() -> String? {
    var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
    let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
    guard count > 0 else { return nil }
    let path = String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    return parent(of: path)
  }

  private static func parent(of path: String) -> String? {
    guard let slash = path.lastIndex(of: "/"), slash != path.startIndex else { return nil }
    return String(path[..<slash])
  }

  private static func exists(_ path: String) -> Bool {
    access(path, R_OK) == 0
  }
}
