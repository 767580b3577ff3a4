import Foundation
import Testing

/// What an app sees when it writes `import SearchCore`: SearchCore's own public top-level
/// types and the SearchEngine types it re-exports by name (`Sources/SearchCore/Exports.swift`),
/// never the whole engine module.
///
/// The count may only fall: the aim is 45, the size of a curated 1.0 surface; a new public type
/// nests under its owner or stays internal.
@Suite struct PublicSurfaceTests {
  /// The most top-level types an app may see; lower it as types nest or leave.
  static let ceiling = 45

  @Test func anAppSeesACuratedSurface() throws {
    let core = FolderGraphTests.sources.appendingPathComponent("SearchCore")
    let exports = try String(
      contentsOf: core.appendingPathComponent("Exports.swift"), encoding: .utf8)
    #expect(
      !exports.split(separator: "\n").contains { $0.hasPrefix("@_exported import SearchEngine") },
      "SearchCore re-exports engine types by name, not the whole module")
    // A deprecated alias of an old name is kept for one release and not counted, here or
    // re-exported from the engine.
    let engine = FolderGraphTests.sources.appendingPathComponent("SearchEngine")
    let surface = PublicSurface.reExported(in: exports)
      .subtracting(try PublicSurface.deprecatedAliases(in: engine))
      .union(try PublicSurface.declared(in: core))
    #expect(
      surface.count <= Self.ceiling,
      "an app sees \(surface.count) types: \(surface.sorted().joined(separator: ", "))")
  }

  /// Without library evolution a case added to a public enum breaks every app's exhaustive
  /// `switch`: a public error is a struct with a `code` a release may add to, and holds no
  /// public enum either (its codes are static members of a struct).
  @Test func noPublicErrorIsAnEnum() throws {
    let modules = ["SearchEngine", "SearchCore", "SearchDataSets", "SearchPostgres"]
    var enums: [String] = []
    for module in modules {
      let folder = FolderGraphTests.sources.appendingPathComponent(module)
      for source in try PublicSurface.sources(in: folder) {
        enums += PublicSurface.publicErrorEnums(in: source)
      }
    }
    #expect(enums.isEmpty, "public error enums: \(enums.joined(separator: ", "))")
    #expect(
      PublicSurface.publicErrorEnums(
        in: """
          public enum BadError: Error { case a }
          public struct Fine: Error {
            public enum Kind: Hashable { case a }
          }
          package enum Failure: Error { case a }
          """) == ["BadError", "Kind"])
  }

  @Test func theCountReadsDeclarationsAndNamedReExports() {
    let source = """
      @MainActor public final class Controller {
        public struct Nested {}
      }
      public enum Kind { case a }
      struct Hidden {}
      package struct Shared {}
      @_exported import struct SearchEngine.SearchQuery
      @_exported import protocol SearchEngine.SearchBackend
      // public struct Commented {}
      @available(*, deprecated, renamed: "Kind")
      public typealias OldKind = Kind
      """
    #expect(PublicSurface.declaredNames(in: source) == ["Controller", "Kind"])
    #expect(PublicSurface.deprecatedAliasNames(in: source) == ["OldKind"])
    #expect(PublicSurface.reExported(in: source) == ["SearchQuery", "SearchBackend"])
  }
}

/// Reads public top-level type names from Swift sources, line by line: a declaration at the
/// start of a line, after its attributes, is top level (the sources are formatted).
enum PublicSurface {
  private static var declaration: Regex<(Substring, Substring)> {
    #/^(?:@[\w.]+(?:\([^)]*\))?\s+)*(?:public|open)\s+(?:final\s+)?(?:struct|enum|class|protocol|actor|typealias)\s+(\w+)/#
  }
  private static var reExport: Regex<(Substring, Substring)> {
    #/^@_exported\s+import\s+(?:struct|enum|class|protocol|typealias|func|var|let)\s+\w+\.(\w+)/#
  }

  /// The public top-level types declared in `source`, but for deprecated aliases.
  static func declaredNames(in source: String) -> Set<String> {
    names(in: source, deprecated: false)
  }

  /// The typealiases of `source` that keep an old name for one release: a public typealias
  /// whose line before says `@available(*, deprecated`.
  static func deprecatedAliasNames(in source: String) -> Set<String> {
    names(in: source, deprecated: true)
  }

  private static func names(in source: String, deprecated: Bool) -> Set<String> {
    var names: Set<String> = []
    var previous: Substring = ""
    for line in source.split(separator: "\n") {
      defer { previous = line }
      guard let name = try? declaration.firstMatch(in: line)?.1 else { continue }
      let isAlias = line.contains("typealias") && previous.contains("@available(*, deprecated")
      if isAlias == deprecated { names.insert(String(name)) }
    }
    return names
  }

  static func reExported(in source: String) -> Set<String> {
    Set(
      source.split(separator: "\n").compactMap { try? reExport.firstMatch(in: $0)?.1 }.map(
        String.init))
  }

  /// The types a documentation page lists in its topic groups: a line `- ``Name``` (or
  /// ``Module/Name``, or a member path, whose first type is named).
  static func curatedNames(in page: String) -> Set<String> {
    let topic = #/^\s*-\s+``(?:(?:SearchEngine|SearchCore|SearchPostgres)/)?(\w+)/#
    return Set(
      page.split(separator: "\n").compactMap { try? topic.firstMatch(in: $0)?.1 }.map(String.init))
  }

  /// The public top-level types of every Swift file under `folder`.
  static func declared(in folder: URL) throws -> Set<String> {
    try sources(in: folder).reduce(into: []) { $0.formUnion(declaredNames(in: $1)) }
  }

  /// The deprecated aliases of every Swift file under `folder`.
  static func deprecatedAliases(in folder: URL) throws -> Set<String> {
    try sources(in: folder).reduce(into: []) { $0.formUnion(deprecatedAliasNames(in: $1)) }
  }

  /// The public enums of `source` that are errors, or nest in a public error type (a kind
  /// an app would switch on).
  static func publicErrorEnums(in source: String) -> [String] {
    var found: [String] = []
    var errorDepth: Int?
    var depth = 0
    for line in source.split(separator: "\n", omittingEmptySubsequences: false) {
      let text = line.trimmingCharacters(in: .whitespaces)
      let isError = text.contains(/:\s*(?:Swift\.)?(?:Error|LocatedError)\b/)
      if let match = text.firstMatch(of: #/^(?:public|open)\s+enum\s+(\w+)/#),
        isError || errorDepth != nil
      {
        found.append(String(match.1))
      } else if text.contains(/^(?:public|open)\s+(?:struct|final class|class)\s/), isError,
        errorDepth == nil
      {
        errorDepth = depth
      }
      depth += line.filter { $0 == "{" }.count - line.filter { $0 == "}" }.count
      if let start = errorDepth, depth <= start { errorDepth = nil }
    }
    return found
  }

  static func sources(in folder: URL) throws -> [String] {
    var texts: [String] = []
    let files = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)
    while let file = files?.nextObject() as? URL {
      guard file.pathExtension == "swift" else { continue }
      texts.append(try String(contentsOf: file, encoding: .utf8))
    }
    return texts
  }
}

/// Every public top-level type of SearchEngine and SearchCore is in a topic group of its
/// module's documentation catalogue (a `- ``Name``` line), so the reference lists no type
/// under "Other".
@Suite struct CurationTests {
  @Test(arguments: ["SearchEngine", "SearchCore"])
  func everyPublicTypeIsInATopicGroup(module: String) throws {
    let folder = FolderGraphTests.sources.appendingPathComponent(module)
    let catalogue = folder.appendingPathComponent("\(module).docc")
    var curated: Set<String> = []
    let files = FileManager.default.enumerator(at: catalogue, includingPropertiesForKeys: nil)
    while let file = files?.nextObject() as? URL {
      guard file.pathExtension == "md" else { continue }
      curated.formUnion(
        PublicSurface.curatedNames(in: try String(contentsOf: file, encoding: .utf8)))
    }
    let declared = try PublicSurface.declared(in: folder)
    #expect(!declared.isEmpty)
    let missing = declared.subtracting(curated).sorted()
    #expect(
      missing.isEmpty,
      "\(module): add to a topic group of \(module).docc: \(missing.joined(separator: ", "))")
  }

  @Test func aTopicLineNamesItsType() {
    let page = """
      ### Tables
      - ``TableDataSource``
      - ``SearchCore/RowAdapter``
      - ``ItemSearch/Rows-swift.struct``
      Prose that mentions ``Hidden`` is no topic.
      """
    #expect(
      PublicSurface.curatedNames(in: page) == ["TableDataSource", "RowAdapter", "ItemSearch"])
  }
}
