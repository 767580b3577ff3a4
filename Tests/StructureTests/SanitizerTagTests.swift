import Foundation
import TestSupport
import Testing

/// The sanitizers' passes choose their suites by tag, and the tags are right: every suite whose
/// code runs on several threads carries `.concurrent`, and none that reaches unsafe memory
/// carries `.plainSwift`.
///
/// The thread sanitizer's pass in `.ci/run` runs the suites tagged `.concurrent`, as
/// `.ci/tagged-suites concurrent` lists them: a suite whose code runs on several threads and
/// lacks the tag would silently go unchecked for races. This reads every test file and fails for
/// a suite that needs the tag and does not carry it.
///
/// A suite needs it when its file starts a task or a thread itself, or names a type of the
/// library's that does (the controller, its schedulers, `Parallel`, the line filter…: derived
/// from the sources, so a new threaded type counts at once); a nested type of one
/// (`SearchController.Error`, an error value) starts nothing. A file that starts child processes
/// (through Foundation's `Process`, tmux, or a test helper that does) is exempt: its threads wait
/// on another process, whose races no sanitizer in this one sees.
/// A suite may carry the tag for other reasons (its code under test uses `Parallel`, say).
@Suite struct SanitizerTagTests {
  static let root = FolderGraphTests.sources.deletingLastPathComponent()

  /// What starts a task or a thread.
  static var startsWork: Regex<(Substring, Substring?, Substring?)> {
    #/\bTask\s*(\{|\(|\.detached)|\bwith(Throwing|Discarding)?TaskGroup\b|\basync let\b|\bThread\b|\bDispatch\w*/#
  }
  /// A type's name before one of its nested types (`SearchController.` in
  /// `SearchController.Error`): the nested type is what the code uses.
  static var nestedTypeOwner: Regex<Substring> { #/\b[A-Z]\w*\.(?=[A-Z])/# }
  /// What starts a child process, or a terminal that runs one.
  static var startsProcess: Regex<Substring> { #/\bProcess\b|\bposix_spawn\b|\btmux\b/# }

  @Test func everySuiteOnSeveralThreadsIsTagged() throws {
    let threaded = try Self.threadedTypes()
    #expect(threaded.contains("SearchController") && threaded.contains("TaskSearchScheduler"))
    let tagged = try Self.taggedSuites()
    #expect(tagged.contains("SearchControllerTests"), "`.ci/tagged-suites` lists no suite")
    let tests = try Self.swiftFiles(under: "Tests")
    let runners = Self.processRunners(in: tests)
    #expect(runners.contains("runREPL"))
    for file in tests {
      let code = String(decoding: FolderGraph.code(of: file.text), as: UTF8.self)
      let words = Self.words(of: file.text.replacing(Self.nestedTypeOwner, with: ""))
      guard code.firstMatch(of: Self.startsProcess) == nil,
        !words.contains(where: { runners.contains($0.text) })
      else { continue }
      let reason: String
      if let start = code.firstMatch(of: Self.startsWork) {
        reason = "it starts work with `\(start.output.0)`"
      } else if let name = words.first(where: { threaded.contains($0.text) }) {
        reason = "it uses \(name.text), which starts tasks or threads"
      } else {
        continue
      }
      for suite in Self.suites(in: words) where !tagged.contains(suite) {
        Issue.record(
          """
          \(file.path): \(suite) needs `.tags(.concurrent)` (\(reason)), or the thread \
          sanitizer's pass in .ci/run does not run it.
          """)
      }
    }
  }

  /// The types of SearchEngine and SearchCore declared or extended in a file that starts a
  /// task or a thread.
  static func threadedTypes() throws -> Set<String> {
    let files =
      try swiftFiles(under: "Sources/SearchEngine") + swiftFiles(under: "Sources/SearchCore")
    let declared = Set(files.flatMap { FolderGraph.typeDeclarations(in: words(of: $0.text)) })
    var threaded: Set<String> = []
    for file in files {
      let code = String(decoding: FolderGraph.code(of: file.text), as: UTF8.self)
      guard code.firstMatch(of: startsWork) != nil else { continue }
      var previous = ""
      for word in words(of: file.text) {
        if word.depth == 0, ["struct", "class", "actor", "enum", "extension"].contains(previous),
          declared.contains(word.text)
        {
          threaded.insert(word.text)
        }
        previous = word.text
      }
    }
    return threaded
  }

  /// A suite the address sanitizer skips as plain Swift uses no unsafe pointer, no C module and
  /// no child process.
  @Test func plainSwiftSuitesReachNoUnsafeMemory() throws {
    let plain = try Self.taggedSuites("plainSwift")
    #expect(plain.contains("SearchStateMachineTests"), "`.ci/tagged-suites` lists no suite")
    let unsafe = #/\b[Uu]nsafe\w*|\bimport\s+C[A-Z]\w*|\bProcess\b/#
    for file in try Self.swiftFiles(under: "Tests") {
      let suites = Self.suites(in: Self.words(of: file.text)).filter(plain.contains)
      let code = String(decoding: FolderGraph.code(of: file.text), as: UTF8.self)
      guard !suites.isEmpty, let use = code.firstMatch(of: unsafe) else { continue }
      Issue.record(
        """
        \(file.path): \(suites.joined(separator: ", ")) uses `\(use.output)` and is tagged \
        .plainSwift, so the address sanitizer's pass skips it: remove the tag.
        """)
    }
  }

  /// The types and functions the tests declare at their top level to start child processes.
  ///
  /// They are those whose code names Foundation's `Process`, `posix_spawn`, tmux, or another of them (a
  /// helper that calls the runner). A file that uses one starts child processes.
  static func processRunners(in files: [(path: String, text: String)]) -> Set<String> {
    // Each top-level declaration's name and the words of its code.
    var declarations: [(name: String, words: Set<String>)] = []
    for file in files {
      var previous = ""
      for word in words(of: file.text) {
        if word.depth == 0, ["func", "struct", "class", "enum", "actor"].contains(previous) {
          declarations.append((word.text, []))
        } else if !declarations.isEmpty {
          declarations[declarations.count - 1].words.insert(word.text)
        }
        previous = word.text
      }
    }
    var runners: Set<String> = []
    var grew = true
    while grew {
      grew = false
      for declaration in declarations where !runners.contains(declaration.name) {
        if !declaration.words.isDisjoint(with: runners)
          || !declaration.words.isDisjoint(with: ["Process", "posix_spawn", "tmux"])
        {
          runners.insert(declaration.name)
          grew = true
        }
      }
    }
    return runners
  }

  /// The suites `.ci/tagged-suites` lists for `tag`: what a sanitizer's pass runs or skips.
  static func taggedSuites(_ tag: String = "concurrent") throws -> Set<String> {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = [
      "bash", root.appendingPathComponent(".ci/tagged-suites").path, tag,
    ]
    let output = Pipe()
    process.standardOutput = output
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    #expect(process.terminationStatus == 0)
    return Set(String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init))
  }

  /// The suites a file declares at its top level (nested suites inherit their tags): its types
  /// whose names end in `Tests`.
  static func suites(in words: [FolderGraph.Word]) -> [String] {
    var suites: [String] = []
    var previous = ""
    for word in words {
      if word.depth == 0, ["struct", "class", "actor", "enum"].contains(previous),
        word.text.hasSuffix("Tests")
      {
        suites.append(word.text)
      }
      previous = word.text
    }
    return suites
  }

  static func words(of text: String) -> [FolderGraph.Word] {
    FolderGraph.words(in: FolderGraph.code(of: text))
  }

  static func swiftFiles(under folder: String) throws -> [(path: String, text: String)] {
    let base = root.appendingPathComponent(folder)
    guard let enumerator = FileManager.default.enumerator(at: base, includingPropertiesForKeys: nil)
    else { return [] }
    var files: [(path: String, text: String)] = []
    for case let url as URL in enumerator where url.pathExtension == "swift" {
      let path = url.standardizedFileURL.path.dropFirst(root.standardizedFileURL.path.count + 1)
      files.append((String(path), try String(contentsOf: url, encoding: .utf8)))
    }
    return files.sorted { $0.path < $1.path }
  }
}
