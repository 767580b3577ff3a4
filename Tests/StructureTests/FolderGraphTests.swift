import Foundation
import TestSupport
import Testing

/// The folders of SearchEngine and SearchCore are layers: each uses only folders below it, so a
/// maintainer can read them bottom to top, in the order of ``layers``.
///
/// (That SearchEngine never uses SearchCore the compiler checks: SearchCore depends on it, not the
/// other way round.) The graph is derived from the code (``FolderGraph``); a use of an upper folder
/// from a lower one fails here, naming the names and files that make it.
@Suite(.tags(.plainSwift)) struct FolderGraphTests {
  static let sources = URL(fileURLWithPath: Fixtures.root).appendingPathComponent("Sources")

  /// The engine's folders from the bottom (the helpers and the C boundary, text folding and
  /// matching, queries, the model, the index and the filter over it, the backends), then
  /// the app API's: the data sources, the controller, and the app's front door.
  static let layers = [
    "Support", "ICU", "Normalization", "Matching", "Query", "Model", "Input", "Index",
    "Completion", "Filtering", "Backend", "Lines", "DataSources", "Search", "Items",
  ]
  /// Where the engine's layers end and the app API's begin.
  static let firstAppLayer = "DataSources"

  @Test func theFoldersUseOnlyTheLayersBelow() throws {
    let engine = Self.sources.appendingPathComponent("SearchEngine")
    let app = Self.sources.appendingPathComponent("SearchCore")
    let reserved = FolderGraph.standardLibraryMembers()
    #expect(reserved.contains(".count"), "the standard library's interface was not found")
    let graph = try FolderGraph(reading: [engine, app], reserved: reserved)
    #expect(
      graph.folders == Set(Self.layers),
      "a new folder needs its place in FolderGraphTests.layers")
    let split = try #require(Self.layers.firstIndex(of: Self.firstAppLayer))
    let engineFolders = try FileManager.default.contentsOfDirectory(atPath: engine.path)
      .filter { !$0.hasSuffix(".docc") && !$0.hasSuffix(".swift") }
    #expect(
      Set(engineFolders) == Set(Self.layers[..<split]),
      "SearchEngine holds the layers below \(Self.firstAppLayer), SearchCore the rest")
    Self.expectLayers(graph, Self.layers)
  }

  /// The command line's folders, bottom to top: the terminal, output formats, token syntax,
  /// option groups, data sources (files, saved indexes, the server), the REPL, the live view,
  /// and its entry and commands (the files beside the folders).
  static let commandLineLayers = [
    "Console", "Output", "Tokens", "Options", "REPL", "Live", "Commands", "(entry)",
  ]

  /// The command line's folders are layers too, its entry and commands on top: a folder that
  /// reaches up into them, or into a folder above it, fails.
  @Test func theCommandLinesFoldersUseOnlyTheLayersBelow() throws {
    let graph = try FolderGraph(
      reading: [Self.sources.appendingPathComponent("SearchREPL")], rootLayer: "(entry)",
      reserved: FolderGraph.standardLibraryMembers())
    #expect(
      graph.folders == Set(Self.commandLineLayers),
      "a new folder needs its place in FolderGraphTests.commandLineLayers")
    Self.expectLayers(graph, Self.commandLineLayers)
  }

  /// Each library has a test target that mirrors it: its folders are the library's folders
  /// (and `Support/`, the target's own helpers), and its files import no library built over
  /// the one they test, so a test of a layer sits with that layer.
  @Test(arguments: [
    (library: "SearchEngine", above: ["SearchCore", "SearchPostgres"]),
    (library: "SearchCore", above: ["SearchPostgres"]),
    (library: "SearchDataSets", above: ["SearchCore", "SearchPostgres"]),
  ])
  func eachLibrarysTestsMirrorIt(library: String, above: [String]) throws {
    let files = FileManager.default
    let tests = Self.sources.deletingLastPathComponent()
      .appendingPathComponent("Tests/\(library)Tests")
    let source = Self.sources.appendingPathComponent(library)
    var isFolder: ObjCBool = false
    for entry in try files.contentsOfDirectory(atPath: tests.path)
    where files.fileExists(atPath: tests.appendingPathComponent(entry).path, isDirectory: &isFolder)
      && isFolder.boolValue && entry != "Support"
    {
      #expect(
        files.fileExists(atPath: source.appendingPathComponent(entry).path),
        "Tests/\(library)Tests/\(entry) has no folder Sources/\(library)/\(entry): name it as the folder it tests"
      )
    }
    let enumerator = try #require(files.enumerator(atPath: tests.path))
    for case let path as String in enumerator where path.hasSuffix(".swift") {
      let text = try String(contentsOf: tests.appendingPathComponent(path), encoding: .utf8)
      for line in text.split(separator: "\n")
      where line.hasPrefix("import ") || line.hasPrefix("@testable import ") {
        let module = line.split(separator: " ").last.map(String.init) ?? ""
        #expect(
          !above.contains(module),
          "Tests/\(library)Tests/\(path) imports \(module), which is built over \(library): move the test to \(module)'s tests"
        )
      }
    }
  }

  /// Records every edge of `graph` from a layer to one above it in `layers`, and any cycle.
  static func expectLayers(_ graph: FolderGraph, _ layers: [String]) {
    for (from, targets) in graph.edges {
      for (to, references) in targets {
        guard let upper = layers.firstIndex(of: from),
          let lower = layers.firstIndex(of: to), lower > upper
        else { continue }
        let names = references.sorted().prefix(6).map { "\($0.name) in \($0.file)" }
        Issue.record(
          """
          \(from) uses \(to), a layer above it: \(names.joined(separator: ", "))
          Move the declaration down to \(from) or below, or the use up to \(to) or above.
          """)
      }
    }
    if let cycle = graph.cycle() {
      Issue.record("a cycle: \(cycle.joined(separator: " → "))\n\(graph.explain(cycle))")
    }
  }

  @Test func aBackEdgeMakesACycleThatNamesItsReferences() throws {
    let graph = FolderGraph(files: [
      ("Model/Model.swift", "public struct Model { var edit: TableEdit? }"),
      ("DataSources/TableEdit.swift", "struct TableEdit {}\nfunc show(_ model: Model) {}"),
      ("Search/Controller.swift", "final class Controller { let model = Model(); }"),
    ])
    let cycle = try #require(graph.cycle())
    #expect(Set(cycle) == ["Model", "DataSources"])
    let explanation = graph.explain(cycle)
    #expect(explanation.contains("TableEdit in Model/Model.swift"))
    #expect(explanation.contains("Model in DataSources/TableEdit.swift"))
    #expect(graph.layers() == nil)
  }

  @Test func commentsStringsAndOwnTypesAreNotUses() throws {
    let graph = FolderGraph(files: [
      ("Model/Model.swift", "struct Model {}"),
      (
        "Index/Index.swift",
        """
        // A Model is read here.
        /* Model, /* nested */ Model */
        struct Index {
          let text = "Model \\(count) Model"
          let raw = #"Model "\\#(Model.self)" "#
          struct Normalizer {}
          let normalizer: Normalizer
          var count = 0
        }
        """
      ),
      ("Normalization/Normalizer.swift", "struct Normalizer { let index: Index }"),
    ])
    // The raw string's interpolation uses Model; the comments and the rest of the strings do
    // not; `Normalizer` in Index is Index's own nested type.
    #expect(graph.edges["Index"].map { Set($0.keys) } == ["Model"])
    #expect(graph.cycle() == nil)
    #expect(graph.layers() == ["Model", "Index", "Normalization"])
  }

  @Test func nestedTypesLinkTheirFolder() throws {
    let graph = FolderGraph(files: [
      ("Filtering/Corpus.swift", "struct Corpus { struct NumberMatch {} }\nlet m: Matcher? = nil"),
      ("Index/Matcher.swift", "struct Matcher { var matches: [Corpus.NumberMatch] }"),
    ])
    let cycle = try #require(graph.cycle())
    #expect(graph.explain(cycle).contains(".NumberMatch in Index/Matcher.swift"))
  }

  @Test func extensionMembersLinkTheFolderThatDeclaresThem() throws {
    let graph = FolderGraph(files: [
      ("Index/Index.swift", "struct Index { func rebuild() { corpus.rebuildScopes() } }"),
      ("Filtering/Corpus.swift", "struct Corpus {}"),
      ("Filtering/Corpus+Scopes.swift", "extension Index {\n  func rebuildScopes() {}\n}"),
    ])
    #expect(graph.edges["Index"]?["Filtering"]?.map(\.name) == [".rebuildScopes"])
    // A member the standard library also declares links nothing: `words.count` is not a use
    // of an extension's `count`.
    let reserved = FolderGraph(
      files: [
        ("Index/Index.swift", "struct Index { func size() -> Int { words.count } }"),
        ("Filtering/Corpus+Count.swift", "extension Index {\n  var count: Int { 0 }\n}"),
      ], reserved: FolderGraph.standardLibraryMembers())
    #expect(reserved.edges["Index"] == nil)
  }

  @Test func anOwnerTellsSameNamedNestedTypesApart() throws {
    let graph = FolderGraph(files: [
      ("Backend/BackendError.swift", "struct BackendError { enum Kind {} }"),
      ("Index/SavedError.swift", "struct SavedError { enum Kind {} }"),
      ("Model/Model.swift", "struct Model { let kind: SavedError.Kind }"),
      (
        "Support/Helper.swift",
        "extension BackendError {\n  func describe(_ kind: Kind) {}\n}"
      ),
    ])
    // `.Kind` alone is declared twice and links neither; with its owner it is one of them,
    // written out (`SavedError.Kind`) or implied by the extension (`Kind` in BackendError's).
    #expect(
      graph.edges["Model"]?["Index"].map { Set($0.map(\.name)) } == [
        "SavedError", "SavedError.Kind",
      ])
    #expect(graph.edges["Model"]?["Backend"] == nil)
    #expect(
      graph.edges["Support"]?["Backend"]?.map(\.name).sorted() == [
        "BackendError", "BackendError.Kind",
      ])
  }

  @Test func importsAreKeptPerFolder() throws {
    let graph = FolderGraph(files: [
      ("ICU/ICU.swift", "import CICU\nimport Foundation\nstruct ICU {}"),
      ("Normalization/Fold.swift", "@preconcurrency import struct CICU.UChar\n// import CSQLite"),
    ])
    #expect(graph.imports["ICU"].map { Set($0.keys) } == ["CICU", "Foundation"])
    #expect(graph.imports["Normalization"] == ["CICU": ["Normalization/Fold.swift"]])
  }
}
