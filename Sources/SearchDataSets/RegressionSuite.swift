import SearchEngine

/// The regression cases of one cases file, and how to run them against a corpus.
///
/// A cases file is tab-separated text with the header line
/// `case<TAB>scope<TAB>input<TAB>expect<TAB>options<TAB>why`; lines starting with `#` are
/// comments and blank lines are ignored. A comment `# manifest: NAME` before the header names
/// the manifest (beside the cases file) whose data set the cases are written for.
///
/// - `case`: a unique name; `scope`: a scope title (any case) or number (0 is All).
/// - `input`: the query; or a typing session `> c > ca > c > @German > cafe`, where each
///   `> step` is the whole field text at that moment (a step of only spaces is the empty field)
///   and `@Title` switches the scope. At every step the incremental result must equal a full
///   scan; the expectation applies to the final state.
/// - `expect`: `= a | b` the exact identities in order (`=` alone: no item), or
///   `#145: a | b` the count and then the first identities in order (`#145` alone: the count).
/// - `options`: empty, or `rank` to compare the relevance order.
/// - `why`: free text.
///
/// Every bad line is an error with its file:line; none is skipped.
public struct RegressionSuite: Hashable, Sendable {
  /// The file the cases came from, as named in errors.
  public var file: String
  /// The manifest named by a `# manifest: NAME` comment, if any.
  public var manifest: String?
  /// The cases, in file order.
  public var cases: [RegressionCase]

  /// The header line every cases file starts with (after comments).
  public static let header = "case\tscope\tinput\texpect\toptions\twhy"

  /// Creates a suite.
  public init(file: String, manifest: String? = nil, cases: [RegressionCase]) {
    self.file = file
    self.manifest = manifest
    self.cases = cases
  }

  // MARK: Parsing

  /// Reads and parses the cases file at `path`.
  public static func load(from path: String) throws(RegressionError) -> RegressionSuite {
    let bytes: [UInt8]
    switch FileBytes.contents(of: path) {
    case .success(let contents): bytes = contents
    case .failure(.system(let message)):
      throw RegressionError(problems: [
        .init(
          file: path, line: 0, reason: "cannot read the cases file: \(message)",
          hint: "check the path")
      ])
    case .failure(let failure):
      throw RegressionError(problems: [
        .init(file: path, line: failure.line ?? 0, reason: failure.message, hint: failure.hint)
      ])
    }
    guard let text = String(validating: bytes, as: UTF8.self) else {
      throw RegressionError(problems: [
        .init(
          file: path, line: 0, reason: "the cases file is not valid UTF-8",
          hint: "save it as UTF-8")
      ])
    }
    return try parse(text, file: path)
  }

  /// Parses the text of a cases file; `file` names it in errors.
  public static func parse(_ text: String, file: String) throws(RegressionError)
    -> RegressionSuite
  {
    var problems: [RegressionError.Problem] = []
    func problem(_ line: Int, _ reason: String, _ hint: String) {
      problems.append(.init(file: file, line: line, reason: reason, hint: hint))
    }
    var manifest: String?
    var sawHeader = false
    var cases: [RegressionCase] = []
    var names: [String: Int] = [:]
    var lines = text.split(separator: "\n", omittingEmptySubsequences: false)
    if lines.last == "" { lines.removeLast() }
    for (offset, rawLine) in lines.enumerated() {
      let number = offset + 1
      var line = rawLine
      if line.hasSuffix("\r") { line = line.dropLast() }
      if line.allSatisfy({ $0 == " " }) { continue }
      if line.hasPrefix("#") {
        let comment = line.dropFirst().drop { $0 == " " }
        if !sawHeader, comment.hasPrefix("manifest:") {
          let name = comment.dropFirst("manifest:".count).trimmingSpaces()
          if name.isEmpty {
            problem(number, "empty manifest name", "write \"# manifest: NAME.manifest.json\"")
          } else {
            manifest = String(name)
          }
        }
        continue
      }
      if !sawHeader {
        sawHeader = true
        if line != header {
          problem(
            number, "the header line is not \"\(header.replacingTabs)\"",
            "start the file (after comments) with the six column names, tab-separated")
        }
        continue
      }
      let cells = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
      guard cells.count == 6 else {
        problem(
          number, "\(cells.count) columns, 6 needed (case, scope, input, expect, options, why)",
          "separate the six cells with single tabs; leave options or why empty, but keep the tabs"
        )
        continue
      }
      let name = String(cells[0].trimmingSpaces())
      var good = true
      if name.isEmpty {
        problem(number, "empty case name", "give the case a short unique name")
        good = false
      } else if let first = names[name] {
        problem(number, "duplicate case name \"\(name)\" (line \(first))", "rename one of them")
        good = false
      } else {
        names[name] = number
      }
      let scope = String(cells[1].trimmingSpaces())
      if scope.isEmpty {
        problem(number, "empty scope", "write a scope title or number (0 is All)")
        good = false
      }
      let steps: [RegressionCase.Step]
      switch parseInput(cells[2]) {
      case .success(let parsed): steps = parsed
      case .failure(let failure):
        problem(number, failure.reason, failure.hint)
        steps = []
        good = false
      }
      let expectation: RegressionCase.Expectation
      switch parseExpectation(cells[3]) {
      case .success(let parsed): expectation = parsed
      case .failure(let failure):
        problem(number, failure.reason, failure.hint)
        expectation = .exact([])
        good = false
      }
      let options = cells[4].split(separator: " ").map(String.init)
      var ranked = false
      for option in options {
        if option == "rank" {
          ranked = true
        } else {
          problem(number, "unknown option \"\(option)\"", "options are empty or \"rank\"")
          good = false
        }
      }
      if good {
        cases.append(
          RegressionCase(
            name: name, scope: scope, steps: steps, expectation: expectation, isRanked: ranked,
            why: cells[5], line: number))
      }
    }
    if !sawHeader {
      problem(
        0, "no header line", "start the file (after comments) with \"\(header.replacingTabs)\"")
    }
    if !problems.isEmpty { throw RegressionError(problems: problems) }
    return RegressionSuite(file: file, manifest: manifest, cases: cases)
  }

  private struct CellProblem: Error {
    var reason: String
    var hint: String
  }

  /// A query, or a typing session: `> a > ab > @German > abc`.
  private static func parseInput(_ cell: String) -> Result<[RegressionCase.Step], CellProblem> {
    guard cell.hasPrefix(">") else { return .success([.text(cell)]) }
    guard cell == ">" || cell.hasPrefix("> ") else {
      return .failure(
        CellProblem(
          reason: "input \"\(cell)\" starts with \">\" but is not a typing session",
          hint: "write a session as \"> a > ab > @Title > abc\" (\"> \" before each step)"))
    }
    let body = cell.dropFirst(2)
    var steps: [RegressionCase.Step] = []
    for piece in body.pieces(separatedBy: " > ") {
      let text = piece.trimmingSpaces()
      if text.hasPrefix("@") {
        let title = text.dropFirst().trimmingSpaces()
        if title.isEmpty {
          return .failure(
            CellProblem(
              reason: "empty scope switch \"@\" in a typing session",
              hint: "write \"@Title\" or \"@number\""))
        }
        steps.append(.scope(String(title)))
      } else {
        steps.append(.text(String(text)))
      }
    }
    return .success(steps)
  }

  /// `= a | b`, `=`, `#145: a | b`, `#145`.
  private static func parseExpectation(_ cell: String) -> Result<
    RegressionCase.Expectation, CellProblem
  > {
    let text = cell.trimmingSpaces()
    let hint =
      "write \"= a | b\" (exactly these, in order), \"=\" (no item) or \"#145: a | b\""
      + " (a count, then the first items)"
    func names(_ list: Substring) -> [String]? {
      let trimmed = list.trimmingSpaces()
      if trimmed.isEmpty { return [] }
      let names = trimmed.split(separator: "|", omittingEmptySubsequences: false).map {
        String($0.trimmingSpaces())
      }
      return names.contains("") ? nil : names
    }
    if text.hasPrefix("=") {
      guard let list = names(text.dropFirst()) else {
        return .failure(
          CellProblem(reason: "malformed expect \"\(cell)\": an empty item", hint: hint))
      }
      return .success(.exact(list))
    }
    if text.hasPrefix("#") {
      let body = text.dropFirst()
      let digits = body.prefix { $0.isASCII && $0.isNumber }
      let rest = body.dropFirst(digits.count)
      guard let count = Int(digits), rest.isEmpty || rest.hasPrefix(":"),
        let list = names(rest.dropFirst(rest.isEmpty ? 0 : 1))
      else {
        return .failure(CellProblem(reason: "malformed expect \"\(cell)\"", hint: hint))
      }
      guard list.count <= count else {
        return .failure(
          CellProblem(
            reason: "malformed expect \"\(cell)\": names \(list.count) items but counts \(count)",
            hint: "name at most as many items as the count"))
      }
      return .success(.count(count, first: list))
    }
    return .failure(CellProblem(reason: "malformed expect \"\(cell)\"", hint: hint))
  }

  // MARK: Running

  /// The longest result printed in full for an exact expectation.
  static let shownItems = 20

  /// Runs every case against `corpus`.
  ///
  /// - Throws: ``RegressionError`` when a case names a scope the corpus does not have, names
  ///   an identity that more than one item has, or a query cannot be folded; nothing is run
  ///   then.
  public func run(on corpus: SearchCorpus) throws(RegressionError) -> [RegressionResult] {
    let bar = corpus.scopeBar
    let titles = bar.titles.enumerated().map { "\($0.offset) \($0.element)" }.joined(
      separator: ", ")
    var problems: [RegressionError.Problem] = []
    var resolved: [(RegressionCase, Int, [ResolvedStep])] = []
    // Identities the cases name, and how many items have each.
    var named: [String: Int] = [:]
    for regressionCase in cases {
      for name in regressionCase.expectation.identities { named[name] = 0 }
    }
    for id in corpus.model.ids {
      let display = corpus.model.display(id)
      if let count = named[display] { named[display] = count + 1 }
    }
    for regressionCase in cases {
      func problem(_ reason: String, _ hint: String) {
        problems.append(
          .init(file: file, line: regressionCase.line, reason: reason, hint: hint))
      }
      guard let start = bar.index(of: regressionCase.scope) else {
        problem("unknown scope \"\(regressionCase.scope)\"", "the scopes are: \(titles)")
        continue
      }
      var steps: [ResolvedStep] = []
      var good = true
      for step in regressionCase.steps {
        switch step {
        case .text(let text): steps.append(.text(text))
        case .scope(let title):
          if let index = bar.index(of: title) {
            steps.append(.scope(index))
          } else {
            problem(
              "unknown scope \"@\(title)\" in the typing session", "the scopes are: \(titles)")
            good = false
          }
        }
      }
      for name in regressionCase.expectation.identities where (named[name] ?? 0) > 1 {
        problem(
          "identity \"\(name)\" names \(named[name] ?? 0) items of the corpus",
          "name only items whose display text is unique, or expect a count")
        good = false
      }
      if good { resolved.append((regressionCase, start, steps)) }
    }
    if !problems.isEmpty { throw RegressionError(problems: problems) }
    var results: [RegressionResult] = []
    for (regressionCase, start, steps) in resolved {
      let outcome: RegressionResult.Outcome
      do {
        outcome = try Self.run(regressionCase, scope: start, steps: steps, on: corpus)
      } catch {
        throw RegressionError(problems: [
          .init(
            file: file, line: regressionCase.line, reason: "cannot fold the query: \(error)",
            hint: "check the input's text")
        ])
      }
      results.append(RegressionResult(regressionCase: regressionCase, outcome: outcome))
    }
    return results
  }

  private enum ResolvedStep {
    case text(String)
    case scope(Int)
  }

  private static func run(
    _ regressionCase: RegressionCase, scope start: Int, steps: [ResolvedStep],
    on corpus: SearchCorpus
  ) throws(ICUError) -> RegressionResult.Outcome {
    var incremental = IncrementalFilter()
    var text = ""
    var scope = start
    var final: SearchResult?
    for (index, step) in steps.enumerated() {
      switch step {
      case .text(let typed): text = typed
      case .scope(let number): scope = number
      }
      let query = try SearchQuery(text, normalizer: corpus.normalizer)
      var fresh = IncrementalFilter()
      guard let result = incremental.search(query, scope: scope, in: corpus),
        let scan = fresh.search(query, scope: scope, in: corpus)
      else {
        return .failed(expected: "a result", got: "a cancelled search")
      }
      if result.items != scan.items {
        let place = "step \(index + 1) \"\(text)\" in \(corpus.scopeBar.titles[scope])"
        return .failed(
          expected: "\(place): the full scan's \(describe(scan.items, in: corpus))",
          got: "\(describe(result.items, in: corpus)) (\(result.path))")
      }
      final = result
    }
    guard let final else { return .failed(expected: "a step", got: "an empty session") }
    let items = regressionCase.isRanked ? corpus.ranked(final) : final.items
    let displays = { (range: Range<Int>) in range.map { corpus.model.display(items[$0]) } }
    switch regressionCase.expectation {
    case .exact(let names):
      if items.count == names.count && displays(0..<items.count) == names { return .passed }
      return .failed(
        expected: regressionCase.expectation.description, got: describe(items, in: corpus))
    case .count(let count, let names):
      let shown = displays(0..<min(names.count, items.count))
      if items.count == count && shown == names { return .passed }
      let got = RegressionCase.Expectation.count(items.count, first: shown)
      return .failed(expected: regressionCase.expectation.description, got: got.description)
    }
  }

  /// A result as an exact expectation, or as a count and the first items when it is long.
  private static func describe(_ items: [ItemID], in corpus: SearchCorpus) -> String {
    let names = items.prefix(shownItems).map { corpus.model.display($0) }
    if items.count > shownItems {
      return RegressionCase.Expectation.count(items.count, first: names).description + " | …"
    }
    return RegressionCase.Expectation.exact(names).description
  }
}

extension StringProtocol {
  /// The text without leading and trailing spaces (and tabs).
  fileprivate func trimmingSpaces() -> Substring {
    let text = self[...]
    let start = text.firstIndex { $0 != " " && $0 != "\t" } ?? text.endIndex
    let end = text.lastIndex { $0 != " " && $0 != "\t" }.map { text.index(after: $0) } ?? start
    return Substring(text[start..<Swift.max(start, end)])
  }

  /// The pieces between occurrences of `separator` (empty pieces kept).
  fileprivate func pieces(separatedBy separator: String) -> [Substring] {
    let text = Substring(self)
    var pieces: [Substring] = []
    var start = text.startIndex
    var position = text.startIndex
    while position < text.endIndex {
      if text[position...].hasPrefix(separator) {
        pieces.append(text[start..<position])
        position = text.index(position, offsetBy: separator.count)
        start = position
      } else {
        position = text.index(after: position)
      }
    }
    pieces.append(text[start...])
    return pieces
  }

  /// The text with tabs shown as `\t`.
  fileprivate var replacingTabs: String {
    String(self).split(separator: "\t", omittingEmptySubsequences: false).joined(separator: "\\t")
  }
}
