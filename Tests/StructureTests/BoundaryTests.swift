import Foundation
import Testing

/// Boundaries between the package's parts that the compiler does not keep by itself.
@Suite struct BoundaryTests {
  /// The Swift files under `Sources/`, by path relative to it, with their text.
  static func sourceFiles() throws -> [(path: String, text: String)] {
    let root = FolderGraphTests.sources.standardizedFileURL
    guard let enumerator = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil)
    else { throw CocoaError(.fileReadNoSuchFile, userInfo: [NSFilePathErrorKey: root.path]) }
    var files: [(path: String, text: String)] = []
    for case let url as URL in enumerator where url.pathExtension == "swift" {
      let path = String(url.standardizedFileURL.path.dropFirst(root.path.count + 1))
      files.append((path, try String(contentsOf: url, encoding: .utf8)))
    }
    return files.sorted { $0.path < $1.path }
  }

  /// Only `SearchEngine/ICU/` imports CICU: every other file reaches ICU through its Swift
  /// functions, so the C API has one place to read and to change.
  @Test func onlyTheICUFolderImportsCICU() throws {
    let files = try Self.sourceFiles()
    #expect(files.contains { $0.path.hasPrefix("SearchEngine/ICU/") })
    let importers = files.filter { file in
      FolderGraph.importedModules(in: FolderGraph.words(in: FolderGraph.code(of: file.text)))
        .contains("CICU")
    }.map(\.path)
    #expect(importers.allSatisfy { $0.hasPrefix("SearchEngine/ICU/") }, "\(importers)")
  }

  /// The command line's streaming line filter and line input (`SearchEngine/Lines/`) are off
  /// the app's path: no folder of SearchCore uses them (the engine's own folders below `Lines`
  /// cannot, which ``FolderGraphTests`` checks).
  @Test func theAppDoesNotUseTheLineFolder() throws {
    let graph = try FolderGraph(
      reading: [
        FolderGraphTests.sources.appendingPathComponent("SearchEngine"),
        FolderGraphTests.sources.appendingPathComponent("SearchCore"),
      ], reserved: FolderGraph.standardLibraryMembers())
    #expect(graph.folders.contains("Lines"))
    let split = try #require(FolderGraphTests.layers.firstIndex(of: FolderGraphTests.firstAppLayer))
    for folder in FolderGraphTests.layers[split...] {
      let uses = (graph.edges[folder]?["Lines"] ?? []).sorted().map { "\($0.name) in \($0.file)" }
      #expect(uses.isEmpty, "\(folder) uses Lines: \(uses.joined(separator: ", "))")
    }
  }
}
