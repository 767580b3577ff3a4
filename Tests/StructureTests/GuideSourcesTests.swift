import Foundation
import Testing

/// Every DocC guide names the files it describes and the tests that check them.
///
/// A guide (a page of a catalogue other than the module's landing page and its `Extensions/`)
/// has, right after its abstract, a paragraph that begins with `Source:` and has a line that
/// begins with `Tests:`, as swift-async-algorithms' guides link theirs. Every backticked path
/// under `Sources/` or `Tests/` in that paragraph must exist, so that a file renamed or moved
/// fails here until its guides follow.
@Suite struct GuideSourcesTests {
  /// The package's root.
  static let root = FolderGraphTests.sources.deletingLastPathComponent()

  /// The documentation catalogues, relative to the root.
  static let catalogues = [
    "Sources/SearchEngine/SearchEngine.docc", "Sources/SearchCore/SearchCore.docc",
    "Sources/SearchPostgres/SearchPostgres.docc", "Sources/SearchWeb/SearchWeb.docc",
  ]

  @Test func everyGuideNamesItsSourcesAndTests() throws {
    var guides = 0
    for catalogue in Self.catalogues {
      for page in try Self.pages(in: catalogue) {
        let text = try String(contentsOf: Self.root.appendingPathComponent(page), encoding: .utf8)
        let isGuide = Self.isGuide(page, in: catalogue)
        // Another page is checked only when it names sources too.
        guard isGuide || text.hasPrefix("Source: ") || text.contains("\nSource: ") else {
          continue
        }
        if isGuide { guides += 1 }
        for problem in Self.problems(in: text, exists: Self.exists) {
          Issue.record("\(page): \(problem)")
        }
      }
    }
    #expect(guides > 0, "no guide found under \(Self.root.path)")
  }

  @Test func theReaderNamesWhatIsWrong() {
    let existing: Set = ["Sources/A/A.swift", "Sources/A", "Tests/ATests/ATests.swift"]
    let guide = """
      # A guide

      Its abstract.

      Source: `Sources/A/A.swift`, `Package.swift`,
      `Sources/A/Gone.swift` ·
      Tests: `Tests/ATests/ATests.swift`, `Sources/A`

      ## Introduction

      `Sources/B.swift` is no source line.
      """
    #expect(
      Self.problems(in: guide, exists: existing.contains) == [
        "`Sources/A/Gone.swift` (line 6) does not exist"
      ])
    #expect(
      Self.problems(in: "# A guide\n\nIts abstract.\n\n## Introduction", exists: { _ in true })
        == ["no `Source:` line after the abstract"])
    #expect(
      Self.problems(
        in: "# A guide\n\nIts abstract.\n\nSource: `Sources/A`\n\nTests: `Tests/A`",
        exists: { _ in true })
        == ["no `Tests:` line in the paragraph of `Source:` (line 5)"])
    #expect(
      Self.problems(
        in:
          "# A guide\n\nIts abstract.\n\n## Introduction\n\nSource: `Sources/A` ·\nTests: `Sources/A`",
        exists: { _ in true })
        == [
          "the `Source:` paragraph (line 7) is below the first heading: it goes right after the abstract",
          "`Tests:` names no path under Tests/",
        ])
  }

  /// The Markdown pages of `catalogue`, relative to the root, sorted.
  static func pages(in catalogue: String) throws -> [String] {
    let folder = root.appendingPathComponent(catalogue)
    return try FileManager.default.subpathsOfDirectory(atPath: folder.path)
      .filter { $0.hasSuffix(".md") }.sorted().map { catalogue + "/" + $0 }
  }

  /// Whether `page` of `catalogue` is a guide: neither the landing page nor an extension page.
  static func isGuide(_ page: String, in catalogue: String) -> Bool {
    let landing = URL(fileURLWithPath: catalogue).deletingPathExtension().lastPathComponent + ".md"
    let name = String(page.dropFirst(catalogue.count + 1))
    return name != landing && !name.hasPrefix("Extensions/")
  }

  /// Whether a file or folder exists at `path`, relative to the root.
  static func exists(_ path: String) -> Bool {
    FileManager.default.fileExists(atPath: root.appendingPathComponent(path).path)
  }

  /// What is wrong with the `Source:` paragraph of a guide's `text`, one message per problem.
  static func problems(in text: String, exists: (String) -> Bool) -> [String] {
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    guard let start = lines.firstIndex(where: { $0.hasPrefix("Source: ") }) else {
      return ["no `Source:` line after the abstract"]
    }
    var problems: [String] = []
    if let heading = lines.firstIndex(where: { $0.hasPrefix("## ") }), heading < start {
      problems.append(
        "the `Source:` paragraph (line \(start + 1)) is below the first heading: it goes right after the abstract"
      )
    }
    let end =
      lines[start...].firstIndex { $0.trimmingCharacters(in: .whitespaces).isEmpty } ?? lines.count
    guard let testsLine = lines[start..<end].firstIndex(where: { $0.hasPrefix("Tests: ") }) else {
      return problems + ["no `Tests:` line in the paragraph of `Source:` (line \(start + 1))"]
    }
    let sources = paths(in: lines, start..<testsLine)
    let tests = paths(in: lines, testsLine..<end)
    if !sources.contains(where: { $0.path.hasPrefix("Sources/") }) {
      problems.append("`Source:` names no path under Sources/")
    }
    if !tests.contains(where: { $0.path.hasPrefix("Tests/") }) {
      problems.append("`Tests:` names no path under Tests/")
    }
    for (line, path) in sources + tests where !exists(path) {
      problems.append("`\(path)` (line \(line)) does not exist")
    }
    return problems
  }

  /// The backticked paths under `Sources/` or `Tests/` of `lines[range]`, with their lines
  /// counted from 1.
  static func paths(in lines: [String], _ range: Range<Int>) -> [(line: Int, path: String)] {
    range.flatMap { index in
      lines[index].matches(of: #/`([^`]+)`/#).map { String($0.1) }
        .filter { $0.hasPrefix("Sources/") || $0.hasPrefix("Tests/") }
        .map { (line: index + 1, path: $0) }
    }
  }
}
