import Foundation
import TestSupport
import Testing

/// End-to-end tests of `SearchREPL repl`: scripts on standard input, transcripts compared.
@Suite struct REPLTests {
  static func manifest(_ folder: String, _ name: String) -> String {
    corpusManifest(folder, name)
  }

  private func repl(_ arguments: [String], _ script: String) throws -> RunResult {
    try runREPL(arguments, script)
  }

  /// Every line of standard output as a JSON object; fails the test for a line that is not.
  private func events(_ result: RunResult) throws -> [[String: Any]] {
    let text = String(decoding: result.stdout, as: UTF8.self)
    return try text.split(separator: "\n").map { line in
      let object = try JSONSerialization.jsonObject(with: Data(line.utf8))
      let event = try #require(object as? [String: Any], "not an object: \(line)")
      #expect(event["event"] is String, "no event key: \(line)")
      return event
    }
  }

  @Test func jsonExampleIsExact() throws {
    let result = try repl(
      ["--corpus", Self.manifest("products", "products"), "--json"],
      "set minlen 3\nbegin\ntype mac\n")
    #expect(result.status == 0, "\(result.stderrText)")
    #expect(result.visibleStdout == visible(REPLGolden.productsJSON.utf8))
  }

  @Test func backgroundDeliversOnlyTheNewestGeneration() throws {
    let result = try repl(
      ["--corpus", Self.manifest("products", "products"), "--json"],
      "set mode background\nbegin\ntype ipad\nwait\n")
    #expect(result.status == 0, "\(result.stderrText)")
    let all = try events(result)
    let texts = all.filter { $0["event"] as? String == "text" }
    #expect(texts.map { $0["text"] as? String } == ["i", "ip", "ipa", "ipad"])
    #expect(texts.allSatisfy { $0["reload"] as? String == "deferred" })
    #expect(texts.map { $0["generation"] as? Int } == [1, 2, 3, 4])
    let reloads = all.filter { $0["event"] as? String == "reload" }
    #expect(reloads.count == 1)
    #expect(reloads.first?["generation"] as? Int == 4)
    #expect(reloads.first?["rows"] as? Int == 4)
    #expect(reloads.first?["reload"] as? String == "deferred")
    #expect(!reloads.contains { ($0["generation"] as? Int ?? 0) < 4 })
  }

  @Test func productsTranscriptMatchesGolden() throws {
    let manifest = Self.manifest("products", "products")
    let result = try repl(
      ["--corpus", manifest, "--sections", "type"], REPLGolden.productsScript)
    #expect(result.status == 0, "\(result.stderrText)")
    let expected = REPLGolden.productsTranscript.replacingOccurrences(
      of: "{MANIFEST}", with: manifest)
    #expect(result.visibleStdout == visible(expected.utf8))
  }

  @Test func modelChangesAndFoldingMatchGolden() throws {
    let manifest = Self.manifest("products", "products")
    let result = try repl(["--corpus", manifest], REPLGolden.modelAndFoldingScript)
    expectFailures(result, "3 commands")
    let expected = REPLGolden.modelAndFoldingTranscript.replacingOccurrences(
      of: "{MANIFEST}", with: manifest)
    #expect(result.visibleStdout == visible(expected.utf8))
  }

  @Test func assignmentsParseWithEscapesAndSayWhereTheyAreWrong() throws {
    let result = try repl(
      ["--corpus", Self.manifest("products", "products"), "--json"],
      "insert name=A\\;B ;; type = Device\ninsert  name=x; oops\ninsert =x\nupdate 0\n"
        + "set locale zz\nset fold case,vowels\n")
    expectFailures(result, "5 commands")
    let lines = try events(result).map { event in
      "\(event["event"] as? String ?? "") \(event["text"] as? String ?? "")"
        + " \(event["message"] as? String ?? "")"
    }
    #expect(
      lines == [
        "insert A;B () ",
        "error  insert: \"oops\" at column 17 is not NAME=VALUE; separate assignments with ;",
        "error  insert: a name is missing before = at column 8",
        "error  update: nothing to set; write NAME=VALUE, e.g. name=Vision Pro",
        "error  set locale: ICU has no data for \"zz\"; use a language code such as tr, sv,"
          + " de_AT, or root",
        "error  set fold: unknown folding \"vowels\" in \"case,vowels\"; use a comma list of"
          + " case, diacritics, compatibility, latin, dotless-i, or none",
      ])
  }

  @Test func tweetDetailHasItsStatusLink() throws {
    // Line 2 of tweets.jsonl: paolo_pixel's dark theme, id 1789457874630050652.
    let result = try repl(
      ["--corpus", Self.manifest("tweets", "tweets")], "begin\npaste tema scuro\nselect 0\n")
    #expect(result.status == 0, "\(result.stderrText)")
    let text = String(decoding: result.stdout, as: UTF8.self)
    #expect(text.contains("\n  author: paolo_pixel\n"))
    #expect(text.contains("\n  id: 1789457874630050652\n"))
    #expect(
      text.contains("\n  link: https://twitter.com/paolo_pixel/status/1789457874630050652\n"))
  }

  /// Paging past either end says so instead of printing a page again; the labels of a page
  /// share one width.
  @Test func pagingPastTheEndsSaysSo() throws {
    let result = try repl(
      ["--corpus", Self.manifest("products", "products")],
      "begin\ntype ipod\nshow results 5\nshow\nnext\nprev\nend\nshow original 3\nnext\n")
    expectFailures(result, "4 commands")
    let text = String(decoding: result.stdout, as: UTF8.self)
    #expect(text.contains("show: the results table has 1 page (6 rows); there is no page 5\n"))
    #expect(text.contains("next: page 1 is the last page of the results table\n"))
    #expect(text.contains("prev: page 1 is the first page of the results table\n"))
    #expect(text.contains("next: page 3 is the last page of the original table\n"))
    // Page 3 of 45 products holds 0.40 to 0.44: one width, no padding.
    #expect(text.contains("original table, page 3 of 3 (45 rows)\n0.40  "))
    // "show" printed the one page once, "show results 5" printed nothing.
    #expect(text.components(separatedBy: "results table, page 1 of 1").count == 2)
  }

  @Test func mistakesAreReportedAndTheSessionGoesOn() throws {
    let result = try repl(
      ["--corpus", Self.manifest("products", "products")],
      "serch\nselect x\nback 0\nset mode fast\nbegin\nxyzzy\nscope Phones\nselect 99\n")
    expectFailures(result, "7 commands")
    let lines = String(decoding: result.stdout, as: UTF8.self).split(separator: "\n")
      .dropFirst().map(String.init)
    #expect(
      lines == [
        "unknown command \"serch\"; did you mean \"search\"?",
        "usage: select ROW|SECTION.ROW",
        "usage: back [N]",
        "usage: set mode immediate|background|submit",
        "begin",
        "state: Dimmed",
        "unknown command \"xyzzy\"; the commands are type, paste, back, clear, scope, token,"
          + " suggest, search, cancel, more, begin, end, show, next, prev, select, delete, insert,"
          + " update, set, wait, stats, help, quit",
        "no scope \"Phones\"; the scopes are 0 All, 1 Device, 2 Desktop, 3 Portable",
        "the original table has no row 0.99; rows are SECTION.ROW from 0.0",
      ])
  }

  /// A program that drives the REPL through pipes reads each event as it is written: the
  /// first event arrives while the session still runs, standard input still open, not at exit
  /// (standard output on a pipe is block-buffered unless each line is flushed).
  @Test func eventsReachAPipeAsTheyAreWritten() throws {
    let session = try PipedSession(["--no-rank"])
    defer { session.close() }
    try session.write("begin\n")
    // A bound on a hang, not a timing assertion: the event is due at once.
    let first = session.lines.firstLine(within: 60)
    #expect(session.process.isRunning, "the session ended before its input did")
    let line = try #require(first, "no event within 60 s while standard input stayed open")
    let event = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
    #expect(event?["event"] as? String == "begin")
    try session.write("quit\n")
  }

  /// A background search's reload reaches the pipe when the search ends, not when the next
  /// line of input comes: a program writes a command and waits for its events. (Before, the
  /// flush after each event waited for standard input's lock, held by the thread blocked
  /// reading the next line.)
  @Test func aBackgroundReloadDoesNotWaitForTheNextLine() throws {
    let session = try PipedSession(["--mode", "background"])
    defer { session.close() }
    try session.write("begin\npaste mac\n")
    // A bound on a hang, not a timing assertion: the search takes milliseconds.
    let reload = session.lines.firstLine(within: 60) { $0.contains(#""event":"reload""#) }
    #expect(session.process.isRunning, "the session ended before its input did")
    let line = try #require(reload, "no reload within 60 s while standard input stayed open")
    let event = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
    #expect(event?["generation"] as? Int == 1)
    #expect((event?["rows"] as? Int ?? 0) > 0, "\(line)")
    try session.write("quit\n")
  }

  /// Words syntax tolerates typos by default and says which rows needed them; `set typos off`
  /// and a stricter `--typos` rule make the same text find nothing; a wrong rule is refused.
  @Test func wordsSyntaxShowsRowsFoundWithTypos() throws {
    let products = Self.manifest("products", "products")
    let script = "begin\ntype macbok\nshow\nset typos off\nback\ntype k\nshow\n"
    let result = try repl(["--corpus", products, "--syntax", "words"], script)
    #expect(result.status == 0, "\(result.stderrText)")
    let lines = String(decoding: result.stdout, as: UTF8.self).split(separator: "\n")
    let rows = lines.filter { $0.contains("MacBook") }
    #expect(!rows.isEmpty, "\(lines)")
    #expect(rows.allSatisfy { $0.hasSuffix("(1 typo)") }, "\(rows)")
    #expect(lines.contains("typos off"))
    #expect(lines.last?.hasPrefix("results table, page 1 of 1 (0 rows): No Results") == true)
    let strict = try repl(
      ["--corpus", products, "--syntax", "words", "--typos", "7,12"], "begin\ntype macbok\n")
    #expect(!String(decoding: strict.stdout, as: UTF8.self).contains("(1 typo)"))
    #expect(strict.visibleStdout.contains("(generation 6): no results"))
    let wrong = try repl(["--corpus", products, "--typos", "9,5"], "")
    #expect(wrong.status != 0)
    #expect(wrong.stderrText.contains("--typos 9,5"), "\(wrong.stderrText)")
    let wrongSetting = try repl(["--corpus", products], "set typos 9,5\nset syntax words\n")
    #expect(wrongSetting.status == 2)
    let said = String(decoding: wrongSetting.stdout, as: UTF8.self) + wrongSetting.stderrText
    #expect(said.contains("set typos 9,5: typo lengths 9 and 5 are not valid"), "\(said)")
    #expect(said.contains("\nsyntax words\n"), "\(said)")
  }

  @Test func quitEndsTheSessionBeforeTheRest() throws {
    let result = try repl(
      ["--corpus", Self.manifest("products", "products"), "--json"], "begin\nquit\nend\n")
    #expect(result.status == 0)
    #expect(try events(result).map { $0["event"] as? String } == ["begin"])
  }

  @Test func jsonModeWritesOnlyEvents() throws {
    let script = """
      help
      serch
      set minlen 2
      begin
      type ipod
      show
      next
      select 0
      scope Device
      back 2
      search
      stats
      delete 1
      set rank on
      set mode submit
      paste mac
      search
      cancel
      end
      select 0.999
      wait

      """
    let result = try repl(["--corpus", Self.manifest("products", "products"), "--json"], script)
    expectFailures(result, "3 commands")
    let all = try events(result)
    let names = Set(all.compactMap { $0["event"] as? String })
    #expect(
      names
        == [
          "begin", "text", "load", "show", "select", "scope", "search", "delete", "cancel",
          "hide", "unload", "end", "error",
        ])
    // Tables, details and help go to standard error, for a person watching.
    #expect(result.stderrText.contains("results table, page 1 of 1"))
  }
}

/// A script whose commands had errors goes on after each, then exits with status 2 and says
/// how many failed on standard error.
func expectFailures(
  _ result: RunResult, _ count: String, sourceLocation: SourceLocation = #_sourceLocation
) {
  #expect(result.exitedNormally && result.status == 2, sourceLocation: sourceLocation)
  #expect(
    result.stderrText.hasSuffix("SearchREPL: error: \(count) of the script failed (see above)\n"),
    "\(result.stderrText)", sourceLocation: sourceLocation)
}

/// `repl --json` over products with its standard input and output on pipes, as a program
/// drives it: lines are written while the session runs, and its events read as they come.
private struct PipedSession {
  let process = Process()
  let input = Pipe()
  let lines: LineCollector

  init(_ arguments: [String]) throws {
    process.executableURL = try BinaryRunner.executableURL()
    process.arguments =
      ["repl", "--corpus", REPLTests.manifest("products", "products"), "--json"] + arguments
    let output = Pipe()
    process.standardInput = input
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    try process.run()
    lines = LineCollector(output.fileHandleForReading)
  }

  func write(_ text: String) throws {
    try input.fileHandleForWriting.write(contentsOf: Data(text.utf8))
  }

  /// Ends standard input and waits for the session to end.
  func close() {
    try? input.fileHandleForWriting.close()
    process.waitUntilExit()
  }
}

/// Reads a pipe on another thread and hands over its first line as soon as it is complete.
private final class LineCollector: @unchecked Sendable {
  private let condition = NSCondition()
  // Guarded by `condition`.
  private var buffer = Data()
  private var lines: [String] = []

  init(_ handle: FileHandle) {
    DispatchQueue.global().async { [self] in
      while true {
        let chunk = handle.availableData
        if chunk.isEmpty { break }
        condition.lock()
        buffer.append(chunk)
        while let end = buffer.firstIndex(of: UInt8(ascii: "\n")) {
          lines.append(String(decoding: buffer[..<end], as: UTF8.self))
          buffer.removeSubrange(...end)
        }
        condition.broadcast()
        condition.unlock()
      }
    }
  }

  /// The first complete line that `isWanted` accepts, or nil when none came within `seconds`.
  func firstLine(within seconds: Double, where isWanted: (String) -> Bool = { _ in true })
    -> String?
  {
    let deadline = Date(timeIntervalSinceNow: seconds)
    condition.lock()
    defer { condition.unlock() }
    while true {
      if let line = lines.first(where: isWanted) { return line }
      if !condition.wait(until: deadline) { return lines.first(where: isWanted) }
    }
  }
}
