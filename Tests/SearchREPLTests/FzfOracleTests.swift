import Foundation
import SearchCoreTesting
import TestSupport
import Testing

/// An oracle test of the query language: for several hundred queries, `SearchREPL filter QUERY`
/// must print exactly the lines that fzf 0.38 prints for `fzf --filter QUERY --exact -i`, in
/// the same order, and exit with the same status.
///
/// The items are ASCII, where fzf's `-i` (ASCII lower-casing) and this library's default
/// folding agree: the pure-ASCII lines of `Corpus/words/sample.txt` and a few constructed
/// lines with the characters fzf treats specially (spaces and tabs at the ends, `$`, `^`, `!`,
/// `|`, `'`, `\`, inner spaces, an empty line).
///
/// fzf runs with `--no-sort` too: without it fzf orders the matches by score whenever the query
/// has a non-inverse term, and with it fzf prints the matches in input order, as `filter` does
/// without `--rank`. Both paths match each item with the same `Pattern.MatchItem`.
///
/// fzf is a test dependency (`.ci/install-deps` installs Debian's package): when it is missing
/// the test fails rather than passing without having compared anything.
@Suite(.tags(.manyProcesses)) struct FzfOracleTests {
  /// How many queries run at the same time (each runs two processes).
  private static let concurrency = 4
  /// The most mismatches described line by line in the failure message.
  private static let detailedMismatches = 40

  @Test func filterPrintsWhatFzfPrints() async throws {
    guard let fzf = Fzf.locate() else {
      Issue.record(
        """
        fzf is not installed (looked for /usr/bin/fzf and fzf on PATH): this test compares \
        `SearchREPL filter` with fzf 0.38, the reference for the query language. Run \
        `bash .ci/install-deps` to install it (Debian's fzf package).
        """)
      return
    }
    let version = try Fzf.version(of: fzf)
    guard version.hasPrefix("0.38.") else {
      Issue.record(
        """
        \(fzf.path) is fzf \(version), but the query language follows fzf 0.38 \
        (Sources/SearchEngine/Query/Query.swift), and another version's differences would show \
        up as ours. Run `bash .ci/install-deps` on Debian 12 for fzf 0.38, or put fzf 0.38 at \
        /usr/bin/fzf.
        """)
      return
    }

    let items = try OracleItems.all()
    #expect(items.count > 4_000, "too few items: is Corpus/words/sample.txt complete?")
    let queries = OracleQueries.all(words: try OracleItems.sampleWords())
    #expect(queries.count >= 300)
    #expect(Set(queries).count == queries.count, "the query list repeats itself")

    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("FzfOracleTests-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let itemsFile = directory.appendingPathComponent("items.txt")
    try Data(items.map { $0 + "\n" }.joined().utf8).write(to: itemsFile)

    let outcomes = try await Self.compare(queries, fzf: fzf, itemsFile: itemsFile)

    // The comparison means something only if the queries find something, and not everything.
    let matching = outcomes.filter { $0.fzf.status == 0 }.count
    #expect(matching >= queries.count / 2, "fzf found matches for only \(matching) queries")
    #expect(matching < queries.count, "fzf found matches for every query")

    let failures = outcomes.filter { !$0.agrees }
    if !failures.isEmpty {
      Issue.record(
        Comment(
          rawValue: Self.report(
            failures, of: outcomes.count, items: items.count, fzfVersion: version)))
    }
  }

  /// Runs fzf and `SearchREPL filter` for every query, `concurrency` queries at a time, each
  /// on a Dispatch thread (the runs block while they wait for the processes).
  private static func compare(_ queries: [String], fzf: URL, itemsFile: URL) async throws
    -> [QueryOutcome]
  {
    try await withThrowingTaskGroup(of: (Int, QueryOutcome).self) { group in
      var outcomes: [QueryOutcome?] = Array(repeating: nil, count: queries.count)
      var next = 0
      func addNext() {
        let index = next
        let query = queries[index]
        next += 1
        group.addTask {
          let outcome = try await onDispatchThread {
            let fzfResult = try Fzf.filter(query, executable: fzf, stdinFile: itemsFile)
            let ours = try BinaryRunner.run(
              ["filter", "--", query], stdinFile: itemsFile, timeout: 60)
            return QueryOutcome(query: query, fzf: fzfResult, ours: ours)
          }
          return (index, outcome)
        }
      }
      while next < min(concurrency, queries.count) { addNext() }
      while let (index, outcome) = try await group.next() {
        outcomes[index] = outcome
        if next < queries.count { addNext() }
      }
      return outcomes.compactMap { $0 }
    }
  }

  /// The failure message: one paragraph per disagreeing query.
  private static func report(
    _ failures: [QueryOutcome], of total: Int, items: Int, fzfVersion: String
  ) -> String {
    var text =
      "\(failures.count) of \(total) queries disagree with "
      + "`fzf --filter QUERY --exact -i --no-sort` (fzf \(fzfVersion)) on \(items) ASCII items. "
      + "Queries and lines are shown with \\\\, \\t, \\n and \\xHH escapes.\n"
    for failure in failures.prefix(detailedMismatches) {
      text += failure.description + "\n"
    }
    if failures.count > detailedMismatches {
      let rest = failures.dropFirst(detailedMismatches).map { quoted($0.query) }
      text += "… and \(rest.count) more: \(rest.joined(separator: ", "))\n"
    }
    return text
  }
}

/// What fzf and `SearchREPL filter` did with one query.
private struct QueryOutcome: Sendable, CustomStringConvertible {
  var query: String
  var fzf: RunResult
  var ours: RunResult

  /// Whether fzf ran as a filter should: exit 0 (a match) or 1 (no match), nothing on stderr.
  var fzfWorked: Bool {
    fzf.exitedNormally && (fzf.status == 0 || fzf.status == 1) && fzf.stderr.isEmpty
  }

  /// Whether both exited with the same status and printed the same bytes, and only fzf's
  /// output was there to compare with.
  var agrees: Bool {
    fzfWorked && ours.exitedNormally && ours.status == fzf.status && ours.stdout == fzf.stdout
      && ours.stderr.isEmpty
  }

  var description: String {
    let fzfLines = lines(of: fzf.stdout)
    let ourLines = lines(of: ours.stdout)
    var text =
      "- query \(quoted(query)): fzf \(summary(fzf, fzfLines.count)), "
      + "ours \(summary(ours, ourLines.count))"
    if !fzfWorked {
      text += "\n    fzf itself failed: \(fzf.stderrText)"
    }
    if !ours.stderr.isEmpty {
      text += "\n    our stderr: \(ours.stderrText)"
    }
    let fzfSet = Set(fzfLines)
    let ourSet = Set(ourLines)
    let onlyFzf = fzfLines.filter { !ourSet.contains($0) }
    let onlyOurs = ourLines.filter { !fzfSet.contains($0) }
    if !onlyFzf.isEmpty { text += "\n    only fzf prints: " + sample(onlyFzf) }
    if !onlyOurs.isEmpty { text += "\n    only we print: " + sample(onlyOurs) }
    let common = min(fzfLines.count, ourLines.count)
    if let index = (0..<common).first(where: { fzfLines[$0] != ourLines[$0] })
      ?? (fzfLines.count == ourLines.count ? nil : common)
    {
      // The lines are already in visible form.
      let fzfLine = index < fzfLines.count ? "\"\(fzfLines[index])\"" : "(end)"
      let ourLine = index < ourLines.count ? "\"\(ourLines[index])\"" : "(end)"
      text += "\n    first difference, line \(index + 1): fzf \(fzfLine), ours \(ourLine)"
    }
    return text
  }

  private func summary(_ result: RunResult, _ lineCount: Int) -> String {
    let exit = result.exitedNormally ? "exit \(result.status)" : "signal \(result.status)"
    return "\(exit), \(lineCount) line\(lineCount == 1 ? "" : "s")"
  }

  private func sample(_ lines: [String]) -> String {
    let shown = lines.prefix(5).map { "\"\($0)\"" }.joined(separator: ", ")
    return lines.count > 5 ? "\(shown) and \(lines.count - 5) more" : shown
  }
}

/// The lines of a process's output, each in ``visible(_:)`` form.
private func lines(of output: Data) -> [String] {
  var parts = Array(output).split(separator: 0x0A, omittingEmptySubsequences: false)
  if parts.last?.isEmpty == true { parts.removeLast() }
  return parts.map { visible($0) }
}

/// A query or line in quotes, with every byte visible.
private func quoted(_ text: String) -> String {
  "\"\(visible(text.utf8))\""
}

/// Runs blocking `work` on a Dispatch thread, so that it does not hold a thread of the
/// concurrency pool.
private func onDispatchThread<Value: Sendable>(
  _ work: @escaping @Sendable () throws -> Value
) async throws -> Value {
  try await withCheckedThrowingContinuation { continuation in
    DispatchQueue.global().async {
      continuation.resume(with: Result { try work() })
    }
  }
}

/// The reference implementation, run as a filter.
private enum Fzf {
  /// Environment variables that would change what fzf does.
  private static let ignoredEnvironment: Set<String> = [
    "FZF_DEFAULT_OPTS", "FZF_DEFAULT_OPTS_FILE", "FZF_DEFAULT_COMMAND",
  ]

  /// Debian's /usr/bin/fzf, or else the first fzf on PATH.
  static func locate() -> URL? {
    var candidates = ["/usr/bin/fzf"]
    let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
    for directory in path.split(separator: ":") where !directory.isEmpty {
      candidates.append("\(directory)/fzf")
    }
    return candidates.first { FileManager.default.isExecutableFile(atPath: $0) }
      .map { URL(fileURLWithPath: $0) }
  }

  /// The version fzf reports, such as "0.38.0 (debian)".
  static func version(of executable: URL) throws -> String {
    let result = try BinaryRunner.run(
      executable: executable, ["--version"], stdinFile: URL(fileURLWithPath: "/dev/null"),
      timeout: 30, environment: environment)
    guard result.exitedNormally && result.status == 0 else {
      throw BinaryRunnerError(
        description: "\(executable.path) --version failed (status \(result.status)): "
          + result.stderrText)
    }
    return String(decoding: result.stdout, as: UTF8.self)
      .trimmingCharacters(in: .whitespacesAndNewlines)
  }

  /// `fzf --filter query --exact -i --no-sort` with standard input read from `stdinFile`.
  static func filter(_ query: String, executable: URL, stdinFile: URL) throws -> RunResult {
    // fzf takes the argument after --filter as it is, even when it starts with "-".
    try BinaryRunner.run(
      executable: executable, ["--filter", query, "--exact", "-i", "--no-sort"],
      stdinFile: stdinFile, timeout: 60, environment: environment)
  }

  /// The test's environment without the variables that change what fzf does.
  private static var environment: [String: String] {
    ProcessInfo.processInfo.environment.filter { !ignoredEnvironment.contains($0.key) }
  }
}

/// The lines both programs filter.
private enum OracleItems {
  /// Lines with what fzf treats specially: whitespace that anchored terms skip (Go's
  /// `unicode.IsSpace`), the operator characters, spaces inside, an empty line, upper case.
  static let constructed: [String] = [
    "  leading", "trailing  ", "\tTabbed", "both\t ", " \t mixed\twhite space \t", "   ", "",
    "new york", "New York City", "san  jose", "san jose", "tab\tinside", "a b c",
    "price $5", "cost$", "$dollar", "$", "$$", "^caret", "up^down", "^", "wow!", "!bang", "!",
    "a|b", "|pipe", "pipe|", "|", "it's", "'quoted'", "'", "back\\slash", "trail\\", "\\",
    "C:\\Program Files\\", "50% off", "abc$", "^abc", "abc", "UPPER CASE", "MiXeD",
  ]

  /// The constructed lines, then the words (in that order, which both programs keep).
  static func all() throws -> [String] {
    constructed + (try sampleWords())
  }

  /// The pure-ASCII lines of `Corpus/words/sample.txt`, in file order.
  static func sampleWords() throws -> [String] {
    let root = URL(fileURLWithPath: #filePath)
      .deletingLastPathComponent()  // SearchREPLTests
      .deletingLastPathComponent()  // Tests
      .deletingLastPathComponent()
    let file = root.appendingPathComponent("Corpus/words/sample.txt")
    let bytes = Array(try Data(contentsOf: file))
    var lines = bytes.split(separator: 0x0A, omittingEmptySubsequences: false)
    if lines.last?.isEmpty == true { lines.removeLast() }
    return lines.filter { line in line.allSatisfy { $0 < 0x80 } }
      .map { String(decoding: $0, as: UTF8.self) }
  }
}

/// The queries: a fixed list of corner cases, and queries made from the words with a fixed
/// seed, so that every run asks the same ones.
private enum OracleQueries {
  /// Corner cases of the syntax, mostly about the constructed items.
  static let fixed: [String] = [
    // Empty and blank queries; lone operators and tokens that are nothing but operators.
    "", " ", "   ", "\t", "$", "^", "!", "'", "|", "\\", "$$", "$$$", "^$", "^$$", "!$", "!$$",
    "!^", "!'", "'$", "^'", "!^$", "''", "^^", "!!", "||", "|||", "!|", "^|", "|$", "^|$",
    // Escaped spaces: inside a term, at the ends, a final escaped space kept.
    "\\ ", " \\ ", "\\ \\ ", "\\ \\ \\ ", "^\\ \\ \\ $", "new\\ york", "NEW\\ YORK",
    "san\\ \\ jose", "san\\ jose", "^new\\ york$", "^san\\ \\ jose$", "new\\ ", "\\ york",
    "york\\ ", "\\ city", "^\\ ", "\\ $", "^\\ \\ lead", "^\\ \\ leading$", "trailing\\ \\ $",
    "ing\\ $", "a\\  ", "a\\ b\\ c", "'new\\ york", "!\\ ", "^new\\ york\\ city$",
    // Backslashes that escape nothing.
    "\\\\", "\\\\ ", "\\\\\\ ", "C:\\\\Program\\ Files", "back\\slash", "\\slash", "trail\\",
    "^\\", "\\$", "^trail\\$", "mixed\\\twhite",
    // Tabs in the query (read as spaces); runs of spaces; spaces at both ends.
    "new\tyork", "san\t\tjose", "tab\tinside", "  new   york  ", "  apple", "zoo   ",
    " a  b   c ", "   x", "y   ",
    // Whitespace around items: anchored terms skip it unless they start or end with a space.
    "^lead", "^leading$", "leading$", "trailing$", "^trailing$", "^trail", "^tabbed",
    "^tabbed$", "tabbed$", "!^lead", "!ing$", "^mixed", "space$", "^mixed\\ white",
    "white\\ space$", "^both$", "both$", "!^both$",
    // Dollars, carets, bangs, bars and quotes in items and terms.
    "$5", "price\\ $5", "price\\ $", "cost$", "cost$$", "^cost$$", "$dollar", "^$dollar",
    "dollar$", "^$dollar$", "^caret", "^^caret", "up^down", "up^", "^up^down$", "'^caret",
    "^'quoted", "'quoted'", "''quoted", "it's", "'s", "s'", "!'s", "wow!", "!bang", "!!bang",
    "^!bang", "!wow!", "a|b", "|pipe", "pipe|", "!|pipe", "| pipe", "pipe |", "| |", "a | b",
    "a | | b", "| a | b", "a | ! b", "a | !b", "!a | !b", "^new | jose$", "york | jose city",
    "abc$", "^abc", "^abc$", "^abc$$", "abc", "^^abc", "50%", "%\\ off",
    // Upper and mixed case.
    "UPPER", "upper case", "UPPER\\ CASE", "mixed", "MIXED", "^MiXeD$", "NEW YORK", "CITY",
    // Fuzzy terms.
    "'nwyrk", "'nyc", "!'nyc", "'n y", "'sjs", "'ab$", "'abc$", "!'zzq",
  ]

  /// The fixed queries, then `count` made from `words`.
  static func all(words: [String], count: Int = 312) -> [String] {
    var queries = fixed
    var seen = Set(fixed)
    var generator = QueryGenerator(words: words)
    while queries.count < fixed.count + count {
      let query = generator.next(kind: queries.count - fixed.count)
      if seen.insert(query).inserted { queries.append(query) }
    }
    return queries
  }
}

/// Makes queries from words: fragments (2 to 6 characters) combined with the operators.
private struct QueryGenerator {
  private let words: [[Character]]
  private var random = SplitMix64(seed: 0x5EED_F2F0_0038)

  init(words: [String]) {
    self.words = words.filter { $0.count >= 2 }.map(Array.init)
  }

  /// The query of kind `kind % 24`, from random words.
  mutating func next(kind: Int) -> String {
    let word = pickWord()
    let other = pickWord()
    switch kind % 24 {
    case 0: return infix(word)
    case 1: return prefix(word)
    case 2: return suffix(word)
    case 3: return infix(word).uppercased()
    case 4: return mixedCase(infix(word))
    case 5: return "\(prefix(word)) \(suffix(word))"
    case 6: return "\(infix(word)) \(infix(other))"
    case 7: return shuffled([prefix(word), infix(word), suffix(word)]).joined(separator: " ")
    case 8: return "^" + prefix(word)
    case 9: return suffix(word) + "$"
    case 10: return "^\(String(word))$"
    case 11: return "!" + infix(word)
    case 12: return "\(infix(word)) !\(infix(other))"
    case 13: return "!^" + prefix(word)
    case 14: return "!\(suffix(word))$"
    case 15: return "'" + subsequence(word)
    case 16: return "!'" + subsequence(word)
    case 17: return "\(infix(word)) | \(infix(other))"
    case 18: return "\(infix(word)) | \(infix(other)) \(infix(pickWord()))"
    case 19: return "^\(prefix(word)) | \(suffix(other))$"
    case 20: return "  \(infix(word))   \(infix(word))  "
    case 21: return "| \(infix(word))"
    case 22: return "\(infix(word)) | | \(infix(other))"
    default: return "^\(String(word).uppercased())$"
    }
  }

  private mutating func pickWord() -> [Character] {
    words[random.below(words.count)]
  }

  private mutating func length(in word: [Character]) -> Int {
    min(word.count, 2 + random.below(5))
  }

  private mutating func prefix(_ word: [Character]) -> String {
    String(word.prefix(length(in: word)))
  }

  private mutating func suffix(_ word: [Character]) -> String {
    String(word.suffix(length(in: word)))
  }

  private mutating func infix(_ word: [Character]) -> String {
    let count = length(in: word)
    let start = random.below(word.count - count + 1)
    return String(word[start..<start + count])
  }

  /// Two to five characters of `word` in order, usually with gaps between them.
  private mutating func subsequence(_ word: [Character]) -> String {
    let count = min(word.count, 2 + random.below(4))
    let positions = shuffled(Array(0..<word.count)).prefix(count).sorted()
    return String(positions.map { word[$0] })
  }

  /// `elements` in a random order (Fisher-Yates, with this generator's numbers only).
  private mutating func shuffled<Element>(_ elements: [Element]) -> [Element] {
    var elements = elements
    for index in stride(from: elements.count - 1, to: 0, by: -1) {
      elements.swapAt(index, random.below(index + 1))
    }
    return elements
  }

  private mutating func mixedCase(_ text: String) -> String {
    String(text.map { random.below(2) == 0 ? Character($0.uppercased()) : $0 })
  }
}

extension SplitMix64 {
  /// A number in `0..<bound`.
  mutating func below(_ bound: Int) -> Int {
    Int(next() % UInt64(bound))
  }
}
