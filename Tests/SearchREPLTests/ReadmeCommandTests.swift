import Foundation
import TestSupport
import Testing

/// The README's command lines, run as a reader would run them (the built executable in place
/// of `swift run`), from the repository's folder: each exits as it should, and what the text
/// says they print is what they print.
@Suite struct ReadmeCommandTests {
  static let root = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

  static func readme() throws -> String {
    try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
  }

  /// The lines of the README's `sh` blocks that run the executable.
  static func commands() throws -> [String] {
    var commands: [String] = []
    var inShell = false
    for line in try readme().split(separator: "\n", omittingEmptySubsequences: false) {
      if line.hasPrefix("```") {
        inShell = line == "```sh"
        continue
      }
      if inShell, line.contains("swift run") { commands.append(String(line)) }
    }
    return commands
  }

  /// A README line made runnable: `swift run [-c release] SearchREPL` becomes the built
  /// executable, the comment goes.
  static func runnable(_ line: String) throws -> String {
    let binary = try BinaryRunner.executableURL().path
    var command = line
    if let hash = command.range(of: "  #") { command = String(command[..<hash.lowerBound]) }
    for prefix in ["swift run -c release SearchREPL", "swift run SearchREPL"] {
      command = command.replacingOccurrences(of: prefix, with: "'\(binary)'")
    }
    return command.trimmingCharacters(in: .whitespaces)
  }

  /// Runs a shell line from the repository's folder, with timings left out of events.
  static func shell(_ line: String) throws -> RunResult {
    var environment = ProcessInfo.processInfo.environment
    environment["SEARCHREPL_NO_TIMING"] = "1"
    return try BinaryRunner.run(
      executable: URL(fileURLWithPath: "/bin/sh"), ["-c", line],
      stdinFile: URL(fileURLWithPath: "/dev/null"), timeout: 120, environment: environment,
      folder: root)
  }

  /// Every command that needs neither a terminal, a server nor a data set built by a script,
  /// and ends by itself (not `serve`), runs and succeeds.
  @Test func everyCommandRuns() throws {
    let commands = try Self.commands()
    #expect(commands.count >= 6, "\(commands)")
    var ran = 0
    for line in commands {
      let needsMore = [" live", "$URL", "SearchBenchmarks", " load ", "postgres", " serve"]
        .contains { line.contains($0) }
      if needsMore { continue }
      let result = try Self.shell(try Self.runnable(line))
      #expect(result.status == 0, "\(line): \(result.stderrText)")
      ran += 1
    }
    #expect(ran >= 3)
  }

  /// "prints contubernal, Haushaltsüberlegung, gegenüberliegt, …": the first lines printed.
  @Test func theFilterExamplePrintsWhatItSays() throws {
    let readme = try Self.readme()
    let claim = try #require(
      readme.range(of: #"\(prints ([^)]*), …\)"#, options: .regularExpression))
    let words = readme[claim].dropFirst("(prints ".count).dropLast(", …)".count)
      .replacingOccurrences(of: "\n", with: " ")
      .components(separatedBy: ", ")
    let line = try #require(try Self.commands().first { $0.contains("filter --input") })
    let result = try Self.shell(try Self.runnable(line))
    let printed = String(decoding: result.stdout, as: UTF8.self).split(separator: "\n")
    #expect(Array(printed.prefix(words.count)).map(String.init) == words)
  }

  /// The JSON events shown for products with `set minlen 3`, `begin`, `type mac` are the ones
  /// the REPL prints.
  @Test func theJSONExampleIsWhatTheREPLPrints() throws {
    let readme = try Self.readme()
    let start = try #require(readme.range(of: "`set minlen 3`, `begin`, `type mac`:\n\n```\n"))
    let end = try #require(readme.range(of: "\n```", range: start.upperBound..<readme.endIndex))
    let shown = readme[start.upperBound..<end.lowerBound]
    let line = try #require(try Self.commands().first { $0.contains("--json") })
    let result = try Self.shell(try Self.runnable(line))
    #expect(String(decoding: result.stdout, as: UTF8.self) == shown + "\n")
  }

  /// The help's list of REPL commands and the README's table agree on `update`.
  @Test func helpAndREADMEAgree() throws {
    let help = try BinaryRunner.run(["repl", "--help"])
    let text = help.stdoutText.replacingOccurrences(of: "\n", with: " ")
    #expect(text.contains("update ROW|SECTION.ROW NAME=VALUE"))
    #expect(try Self.readme().contains("| `update ROW\\|SECTION.ROW NAME=VALUE; …` |"))
  }
}

extension RunResult {
  /// Standard output decoded as UTF-8.
  var stdoutText: String { String(decoding: stdout, as: UTF8.self) }
}
