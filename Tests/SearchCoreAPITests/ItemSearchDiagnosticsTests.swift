import Foundation
import TestSupport
import Testing

/// What the compiler tells an app that creates an ``ItemSearch`` wrongly: each snippet is type
/// checked by `swiftc` against the modules this test was built with, as an app's file would be.
@Suite(.tags(.concurrent)) struct ItemSearchDiagnosticsTests {
  /// A search whose type names a scope or token type and whose call leaves out what fills it.
  static let missing: [(call: String, says: String)] = [
    (
      "let s: ItemSearch<Contact, Contact.Group, Never> = try await ItemSearch(contacts, searching: \\.name)",
      "pass its scope bar, scopes: .cases(\\.scope)"
    ),
    (
      "let s: ItemSearch<Contact, Contact.Group, Tag> = try await ItemSearch(contacts, searching: \\.name, scopes: .cases(\\.group))",
      "this search has a token type: pass the tokens it offers"
    ),
    (
      "let s: ItemSearch<Contact, Contact.Group, Tag> = try await ItemSearch(contacts, searching: \\.name, tokens: ItemTokens([Tag.work], title: \\.id, filter: { _ in .equals(\\.name, \"Ada\") }))",
      "this search has a scope type: pass its scope bar"
    ),
  ]

  @Test(arguments: missing.indices)
  func leavingOutScopesOrTokensSaysWhatToPass(index: Int) throws {
    let (call, says) = Self.missing[index]
    let output = try Self.typeCheck(call)
    #expect(output.contains("is unavailable"), "\(output)")
    #expect(output.contains(says), "\(output)")
    #expect(!output.contains("be equivalent"), "\(output)")
  }

  @Test func theCallsThatFitCompile() throws {
    let output = try Self.typeCheck(
      """
      let a = try await ItemSearch(contacts, searching: \\.name)
      let b = try await ItemSearch(contacts, searching: \\.name, scopes: .cases(\\.group))
      let c = try await ItemSearch(
        contacts, searching: \\.name,
        configuration: .init(sections: .firstLetter(\\.name), search: SearchConfiguration(minimumLength: 2)))
      _ = (a, b, c)
      """)
    #expect(output.isEmpty, "\(output)")
  }

  /// Type checks `body` inside an app's function and returns the compiler's diagnostics.
  static func typeCheck(_ body: String) throws -> String {
    let modules = try #require(builtModules(), "no Modules folder beside the test bundle")
    let source = """
      import SearchCore
      struct Contact: Identifiable, Sendable {
        enum Group: String, CaseIterable, Hashable, Sendable { case work, family }
        var id: Int
        var name: String
        var group: Group
      }
      struct Tag: Identifiable, Hashable, Sendable {
        static let work = Tag(id: "work")
        var id: String
      }
      @MainActor func make(_ contacts: [Contact]) async throws {
        \(body)
      }
      """
    let file = FileManager.default.temporaryDirectory
      .appendingPathComponent("ItemSearchDiagnostics-\(UUID().uuidString).swift")
    try source.write(to: file, atomically: true, encoding: .utf8)
    defer { try? FileManager.default.removeItem(at: file) }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = [
      "swiftc", "-typecheck", "-swift-version", "6", "-I", modules.path,
      "-Xcc",
      "-fmodule-map-file=\(modules.deletingLastPathComponent().path)/CICU.build/module.modulemap",
      file.path,
    ]
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = pipe
    try process.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return String(decoding: data, as: UTF8.self)
  }

  /// The `Modules` folder of the build this test runs from: the test bundle lies in the
  /// build's configuration folder (`.build/debug`, or a sanitizer's scratch path).
  static func builtModules() -> URL? {
    var folder = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
    for _ in 0..<6 {
      folder.deleteLastPathComponent()
      let modules = folder.appendingPathComponent("Modules")
      if FileManager.default.fileExists(
        atPath: modules.appendingPathComponent("SearchCore.swiftmodule").path)
      {
        return modules
      }
    }
    return nil
  }
}
