import Foundation

/// Which folders of a target's sources use which, derived from the code: folder A uses folder
/// B when a file of A names a type, function or constant that B declares at the top level, or
/// a nested type (`.Kind`) that only B declares.
///
/// It reads Swift as words, not as a compiler would: comments and string literals are skipped
/// (an interpolation's code is kept), and a name counts only where one folder declares it, so
/// a name two folders declare links neither. That is enough to keep layers honest: a type moved
/// into the wrong folder, or a new use of an upper folder from a lower one, shows as an edge.
struct FolderGraph {
  /// A reference that makes an edge: the name used and the file that uses it.
  struct Reference: Hashable, Comparable {
    var name: String
    var file: String

    static func < (lhs: Reference, rhs: Reference) -> Bool {
      (lhs.file, lhs.name) < (rhs.file, rhs.name)
    }
  }

  /// For each folder, the folders it uses and the references that make each edge.
  private(set) var edges: [String: [String: Set<Reference>]] = [:]
  /// Every folder, with or without edges.
  let folders: Set<String>

  /// The graph of `files`: each file's path (relative to the target, its first component is
  /// the folder) and its text.
  init(files: [(path: String, text: String)]) {
    let parsed = files.map { file in
      (
        folder: file.path.split(separator: "/").first.map(String.init) ?? "",
        path: file.path, code: Self.code(of: file.text)
      )
    }
    folders = Set(parsed.map(\.folder))
    var owners: [String: Set<String>] = [:]
    for file in parsed {
      for name in Self.declarations(in: file.code) { owners[name, default: []].insert(file.folder) }
    }
    for file in parsed {
      let local = Set(Self.typeDeclarations(in: file.code))
      for (name, afterDot) in Self.words(in: file.code) where !local.contains(name) {
        var keys = [name]
        if afterDot, name.first?.isUppercase == true { keys.append("." + name) }
        for key in keys {
          guard let owner = owners[key], owner.count == 1, let folder = owner.first,
            folder != file.folder
          else { continue }
          edges[file.folder, default: [:]][folder, default: []].insert(
            Reference(name: key, file: file.path))
        }
      }
    }
  }

  /// The graph of the Swift files under `targets`, the source folders of one or more targets:
  /// a file's folder is the first component of its path under its target, so the folders of
  /// targets that depend on each other make one graph.
  ///
  /// A file beside the folders (a target's re-exports, its deprecated names) belongs to no
  /// layer and is not read.
  init(reading targets: [URL]) throws {
    let keys: [URLResourceKey] = [.isRegularFileKey]
    var files: [(path: String, text: String)] = []
    for target in targets {
      guard
        let enumerator = FileManager.default.enumerator(
          at: target, includingPropertiesForKeys: keys)
      else { throw CocoaError(.fileReadNoSuchFile, userInfo: [NSFilePathErrorKey: target.path]) }
      let base = target.standardizedFileURL.path + "/"
      for case let url as URL in enumerator where url.pathExtension == "swift" {
        let path = url.standardizedFileURL.path
        guard path.dropFirst(base.count).contains("/") else { continue }
        files.append(
          (String(path.dropFirst(base.count)), try String(contentsOf: url, encoding: .utf8)))
      }
    }
    self.init(files: files.sorted { $0.path < $1.path })
  }

  /// A cycle of folders (the first folder repeated at the end), or nil when the folders form
  /// layers.
  func cycle() -> [String]? {
    var state: [String: Bool] = [:]  // false: on the current path; true: finished
    var path: [String] = []
    func visit(_ folder: String) -> [String]? {
      state[folder] = false
      path.append(folder)
      for next in (edges[folder] ?? [:]).keys.sorted() {
        switch state[next] {
        case false?:
          let start = path.firstIndex(of: next) ?? 0
          return Array(path[start...]) + [next]
        case nil:
          if let cycle = visit(next) { return cycle }
        case true?: continue
        }
      }
      path.removeLast()
      state[folder] = true
      return nil
    }
    for folder in folders.sorted() where state[folder] == nil {
      if let cycle = visit(folder) { return cycle }
    }
    return nil
  }

  /// The folders from the bottom (using no other) to the top, or nil when there is a cycle.
  func layers() -> [String]? {
    guard cycle() == nil else { return nil }
    var order: [String] = []
    var placed: Set<String> = []
    while placed.count < folders.count {
      let ready = folders.subtracting(placed).sorted().filter { folder in
        (edges[folder] ?? [:]).keys.allSatisfy { placed.contains($0) }
      }
      guard !ready.isEmpty else { return nil }
      order += ready
      placed.formUnion(ready)
    }
    return order
  }

  /// Each edge of `cycle` with the references that make it, a line each.
  func explain(_ cycle: [String]) -> String {
    zip(cycle, cycle.dropFirst()).map { from, to in
      let references = (edges[from]?[to] ?? []).sorted().prefix(6).map {
        "\($0.name) in \($0.file)"
      }
      return "\(from) → \(to): " + references.joined(separator: ", ")
    }.joined(separator: "\n")
  }

  // MARK: - Reading Swift as words

  /// The text without comments and string literals; an interpolation's code stays.
  static func code(of text: String) -> [UInt8] {
    let bytes = Array(text.utf8)
    var output: [UInt8] = []
    output.reserveCapacity(bytes.count)
    var index = 0
    skip(bytes, from: &index, into: &output, until: nil)
    return output
  }

  /// Copies code from `index` into `output` until `closer` (a `)` that closes an interpolation)
  /// at depth 0, or the end.
  private static func skip(
    _ bytes: [UInt8], from index: inout Int, into output: inout [UInt8], until closer: UInt8?
  ) {
    var depth = 0
    func starts(_ text: String, at position: Int) -> Bool {
      let pattern = Array(text.utf8)
      return position + pattern.count <= bytes.count
        && bytes[position..<(position + pattern.count)].elementsEqual(pattern)
    }
    while index < bytes.count {
      let byte = bytes[index]
      if starts("//", at: index) {
        while index < bytes.count && bytes[index] != UInt8(ascii: "\n") { index += 1 }
      } else if starts("/*", at: index) {
        var nesting = 0
        repeat {
          if starts("/*", at: index) {
            nesting += 1
            index += 2
          } else if starts("*/", at: index) {
            nesting -= 1
            index += 2
          } else {
            index += 1
          }
        } while nesting > 0 && index < bytes.count
        output.append(UInt8(ascii: " "))
      } else if byte == UInt8(ascii: "\"")
        || (byte == UInt8(ascii: "#") && isRawStringStart(bytes, index))
      {
        string(bytes, from: &index, into: &output)
      } else {
        if let closer, byte == closer, depth == 0 { return }
        if byte == UInt8(ascii: "(") { depth += 1 }
        if byte == UInt8(ascii: ")") { depth -= 1 }
        output.append(byte)
        index += 1
      }
    }
  }

  private static func isRawStringStart(_ bytes: [UInt8], _ index: Int) -> Bool {
    var position = index
    while position < bytes.count && bytes[position] == UInt8(ascii: "#") { position += 1 }
    return position < bytes.count && bytes[position] == UInt8(ascii: "\"")
  }

  /// Skips a string literal (plain, multi-line or raw), keeping its interpolations' code.
  private static func string(_ bytes: [UInt8], from index: inout Int, into output: inout [UInt8]) {
    var hashes = 0
    while bytes[index] == UInt8(ascii: "#") {
      hashes += 1
      index += 1
    }
    let quote = UInt8(ascii: "\"")
    let multiline =
      index + 2 < bytes.count && bytes[index + 1] == quote && bytes[index + 2] == quote
    let quotes = multiline ? 3 : 1
    index += quotes
    let closing =
      [UInt8](repeating: quote, count: quotes)
      + [UInt8](repeating: UInt8(ascii: "#"), count: hashes)
    let escape = [UInt8(ascii: "\\")] + [UInt8](repeating: UInt8(ascii: "#"), count: hashes)
    output.append(contentsOf: [quote, quote])
    while index < bytes.count {
      if bytes[index...].starts(with: closing) {
        index += closing.count
        return
      }
      if bytes[index...].starts(with: escape) {
        index += escape.count
        if index < bytes.count && bytes[index] == UInt8(ascii: "(") {
          index += 1
          output.append(UInt8(ascii: " "))
          skip(bytes, from: &index, into: &output, until: UInt8(ascii: ")"))
          output.append(UInt8(ascii: " "))
        }
        index += 1
        continue
      }
      index += 1
    }
  }

  /// The identifiers of the code, each with whether a `.` comes right before it.
  static func words(in code: [UInt8]) -> [(String, afterDot: Bool)] {
    var words: [(String, afterDot: Bool)] = []
    var index = 0
    while index < code.count {
      guard isIdentifierStart(code[index]) else {
        index += 1
        continue
      }
      let start = index
      while index < code.count && isIdentifierByte(code[index]) { index += 1 }
      let afterDot = start > 0 && code[start - 1] == UInt8(ascii: ".")
      words.append((String(decoding: code[start..<index], as: UTF8.self), afterDot))
    }
    return words
  }

  /// The names declared at the top level, and the nested types (as ".Name").
  static func declarations(in code: [UInt8]) -> [String] {
    var names: [String] = []
    var depth = 0
    var previous = ""
    var index = 0
    while index < code.count {
      let byte = code[index]
      if byte == UInt8(ascii: "{") { depth += 1 }
      if byte == UInt8(ascii: "}") { depth -= 1 }
      guard isIdentifierStart(byte) else {
        index += 1
        continue
      }
      let start = index
      while index < code.count && isIdentifierByte(code[index]) { index += 1 }
      let word = String(decoding: code[start..<index], as: UTF8.self)
      if depth == 0 && declarationKeywords.contains(previous) {
        names.append(word)
      } else if depth > 0 && typeKeywords.contains(previous) {
        names.append("." + word)
      }
      previous = word
    }
    return names
  }

  /// The names of the types a file declares at any depth: a use of one of them in that file is
  /// its own, even when another folder declares the same name.
  static func typeDeclarations(in code: [UInt8]) -> [String] {
    var names: [String] = []
    var previous = ""
    for (word, _) in words(in: code) {
      if typeKeywords.contains(previous) { names.append(word) }
      previous = word
    }
    return names
  }

  private static let typeKeywords: Set<String> = [
    "struct", "class", "enum", "protocol", "actor", "typealias",
  ]
  private static let declarationKeywords = typeKeywords.union(["func", "let", "var"])

  private static func isIdentifierStart(_ byte: UInt8) -> Bool {
    (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
      || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z")) || byte == UInt8(ascii: "_")
  }

  private static func isIdentifierByte(_ byte: UInt8) -> Bool {
    isIdentifierStart(byte) || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
  }
}
