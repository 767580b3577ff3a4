import Foundation

/// Which folders of a target's sources use which, derived from the code: folder A uses folder
/// B when a file of A names something B declares.
///
/// What counts as a declaration of B:
/// - a type, function or constant at B's top level;
/// - a nested type, as `.Kind` and with its owner as `Owner.Kind` (declared in the type's body
///   or in an extension of it), so that `SearchBackendError.Kind` and `SavedIndexError.Kind`
///   are two names; inside an extension of `Owner`, a bare `Kind` is `Owner.Kind`;
/// - a member (function, property or case) declared in an extension, as `.name`: B's extension
///   that adds `corpus.rebuildScopes()` is what a use of `.rebuildScopes` needs.
///
/// It reads Swift as words, not as a compiler would: comments and string literals are skipped
/// (an interpolation's code is kept), and a name counts only where one folder declares it, so
/// a name two folders declare links neither. That is enough to keep layers honest: a type moved
/// into the wrong folder, or a new use of an upper folder from a lower one, shows as an edge.
/// Each folder's `import` lines are kept apart (``imports``), for the rules about which folder
/// may reach a module.
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
  /// For each folder, the modules its files import, each with the files that import it.
  private(set) var imports: [String: [String: Set<String>]] = [:]
  /// Every folder, with or without edges.
  let folders: Set<String>

  /// The graph of `files`: each file's path (relative to the target, its first component is
  /// the folder) and its text.
  ///
  /// A member whose name is in `reserved` (the standard library's, as `.count`) links nothing:
  /// without types, `text.count` cannot be told from a use of the package's own `count`.
  init(files: [(path: String, text: String)], reserved: Set<String> = []) {
    let parsed = files.map { file in
      let code = Self.code(of: file.text)
      return (
        folder: file.path.split(separator: "/").first.map(String.init) ?? "",
        path: file.path, code: code, words: Self.words(in: code)
      )
    }
    folders = Set(parsed.map(\.folder))
    var owners: [String: Set<String>] = [:]
    var members: [String: Set<String>] = [:]
    for file in parsed {
      for name in Self.declarations(in: file.words) {
        owners[name, default: []].insert(file.folder)
      }
      for name in Self.memberDeclarations(in: file.words) {
        members[name, default: []].insert(file.folder)
      }
    }
    // An extension's member links its folder only where no other folder's type declares a
    // member of that name (`.count` of a type and of an extension are not told apart).
    for (name, folders) in members where owners[name] != nil {
      owners[name]?.formUnion(folders)
    }
    for name in reserved { owners[name] = nil }
    for file in parsed {
      for module in Self.importedModules(in: file.words) {
        imports[file.folder, default: [:]][module, default: []].insert(file.path)
      }
      let local = Set(Self.typeDeclarations(in: file.words))
      for use in Self.uses(in: file.words) where !local.contains(use.name) {
        // The most precise key first: a qualified name, then the name, then a nested type or
        // member without its owner. The first key some folder declares decides.
        for key in use.keys {
          guard let owner = owners[key] else { continue }
          if owner.count == 1, let folder = owner.first, folder != file.folder {
            edges[file.folder, default: [:]][folder, default: []].insert(
              Reference(name: key, file: file.path))
          }
          break
        }
      }
    }
  }

  /// The graph of the Swift files under `targets`, the source folders of one or more targets:
  /// a file's folder is the first component of its path under its target, so the folders of
  /// targets that depend on each other make one graph.
  ///
  /// A file beside the folders (a target's re-exports, its deprecated names) belongs to no
  /// layer and is not read, unless `rootLayer` names the layer such files make (an
  /// executable's entry and its commands, above its folders).
  init(reading targets: [URL], rootLayer: String? = nil, reserved: Set<String> = []) throws {
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
        var relative = String(path.dropFirst(base.count))
        if !relative.contains("/") {
          guard let rootLayer else { continue }
          relative = rootLayer + "/" + relative
        }
        files.append((relative, try String(contentsOf: url, encoding: .utf8)))
      }
    }
    self.init(files: files.sorted { $0.path < $1.path }, reserved: reserved)
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

  /// The members the standard library declares (`.count`, `.append`), read from the running
  /// toolchain's module interfaces; empty when they cannot be found.
  static func standardLibraryMembers() -> Set<String> {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
    for folder in path.split(separator: ":") {
      let swift = URL(fileURLWithPath: String(folder)).appendingPathComponent("swift")
      guard FileManager.default.isExecutableFile(atPath: swift.path) else { continue }
      let lib = swift.resolvingSymlinksInPath().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("lib/swift/linux")
      var names: Set<String> = []
      for module in ["Swift", "_Concurrency", "_StringProcessing"] {
        let folder = lib.appendingPathComponent("\(module).swiftmodule")
        let files = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        for file in files
        where file.hasSuffix(".swiftinterface") && !file.hasSuffix(".private.swiftinterface") {
          let url = folder.appendingPathComponent(file)
          guard let text = try? String(contentsOf: url, encoding: .utf8) else { continue }
          let words = words(in: code(of: text))
          names.formUnion(memberDeclarations(in: words))
          names.formUnion(declarations(in: words).map { "." + $0 })
        }
      }
      if !names.isEmpty { return names }
    }
    return []
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

  /// An identifier of the code, with the brace depth it is at and what comes right before it.
  struct Word {
    var text: String
    /// The number of `{` open before it.
    var depth: Int
    /// Whether a `.` comes right before it.
    var afterDot: Bool
    /// The identifier before the `.`, when the word is qualified (`Owner.Kind`).
    var qualifier: String?
  }

  /// A use of a name, with the keys that may declare it, most precise first.
  struct Use {
    var name: String
    var keys: [String]
  }

  /// The identifiers of the code.
  static func words(in code: [UInt8]) -> [Word] {
    var words: [Word] = []
    var depth = 0
    var index = 0
    var previousEnd = -1
    while index < code.count {
      let byte = code[index]
      guard isIdentifierStart(byte) else {
        if byte == UInt8(ascii: "{") { depth += 1 }
        if byte == UInt8(ascii: "}") { depth -= 1 }
        index += 1
        continue
      }
      let start = index
      while index < code.count && isIdentifierByte(code[index]) { index += 1 }
      let afterDot = start > 0 && code[start - 1] == UInt8(ascii: ".")
      let qualifier =
        afterDot && previousEnd == start - 1 && words.last?.text.first?.isUppercase == true
        ? words.last?.text : nil
      words.append(
        Word(
          text: String(decoding: code[start..<index], as: UTF8.self), depth: depth,
          afterDot: afterDot, qualifier: qualifier))
      previousEnd = index
    }
    return words
  }

  /// The names a file declares: at the top level as they are; nested types as `.Name` and
  /// `Owner.Name`; an extension's members as `.name`.
  static func declarations(in words: [Word]) -> [String] {
    var names: [String] = []
    var previous = ""
    var extending: String?
    var owner: String?
    var hidden = false
    for word in words {
      if word.depth == 0 {
        if typeKeywords.contains(previous) || previous == "extension" {
          owner = word.text
          extending = previous == "extension" ? word.text : nil
        }
        if declarationKeywords.contains(previous) { names.append(word.text) }
      } else if typeKeywords.contains(previous) {
        names.append("." + word.text)
        if let owner, word.depth == 1 { names.append(owner + "." + word.text) }
      } else if extending != nil, word.depth == 1, memberKeywords.contains(previous),
        !hidden
      {
        names.append("." + word.text)
      }
      if word.text == "private" || word.text == "fileprivate" {
        hidden = true
      } else if declarationKeywords.contains(word.text) || word.text == "case" {
        // The modifiers before a declaration keyword apply to the name after it.
      } else if !memberKeywords.contains(previous) {
        hidden = false
      }
      previous = word.text
    }
    return names
  }

  /// The members a file declares in a type's body or an extension, as `.name`.
  static func memberDeclarations(in words: [Word]) -> [String] {
    var names: [String] = []
    var previous = ""
    for word in words {
      if word.depth >= 1 && memberKeywords.contains(previous) { names.append("." + word.text) }
      previous = word.text
    }
    return names
  }

  /// The names a file uses, each with the keys that may declare it.
  static func uses(in words: [Word]) -> [Use] {
    var uses: [Use] = []
    var previous = ""
    var owner: String?
    for word in words {
      if word.depth == 0 && (typeKeywords.contains(previous) || previous == "extension") {
        owner = word.text
      }
      defer { previous = word.text }
      var keys: [String] = []
      let upper = word.text.first?.isUppercase == true
      if let qualifier = word.qualifier { keys.append(qualifier + "." + word.text) }
      if !word.afterDot {
        keys.append(word.text)
        if upper, word.depth > 0, let owner { keys.append(owner + "." + word.text) }
      }
      if upper || word.afterDot { keys.append("." + word.text) }
      uses.append(Use(name: word.text, keys: keys))
    }
    return uses
  }

  /// The modules a file imports (`import X`, `@testable import X`, `import struct X.Y`).
  static func importedModules(in words: [Word]) -> [String] {
    var modules: [String] = []
    var index = 0
    while index < words.count {
      defer { index += 1 }
      guard words[index].text == "import", words[index].depth == 0, !words[index].afterDot
      else { continue }
      var next = index + 1
      if next < words.count, importKinds.contains(words[next].text) { next += 1 }
      if next < words.count { modules.append(words[next].text) }
    }
    return modules
  }

  /// The names of the types a file declares at any depth: a use of one of them in that file is
  /// its own, even when another folder declares the same name.
  static func typeDeclarations(in words: [Word]) -> [String] {
    var names: [String] = []
    var previous = ""
    for word in words {
      if typeKeywords.contains(previous) { names.append(word.text) }
      previous = word.text
    }
    return names
  }

  private static let typeKeywords: Set<String> = [
    "struct", "class", "enum", "protocol", "actor", "typealias",
  ]
  private static let declarationKeywords = typeKeywords.union(["func", "let", "var"])
  private static let memberKeywords: Set<String> = ["func", "let", "var", "case"]
  private static let importKinds: Set<String> = [
    "struct", "class", "enum", "protocol", "typealias", "func", "let", "var",
  ]

  private static func isIdentifierStart(_ byte: UInt8) -> Bool {
    (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
      || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z")) || byte == UInt8(ascii: "_")
  }

  private static func isIdentifierByte(_ byte: UInt8) -> Bool {
    isIdentifierStart(byte) || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
  }
}
