import SearchCommandLine
import SearchCore
import SearchEngine

/// One line of the REPL's command language, parsed.
///
/// The language is line based: a command word, then its arguments. Text arguments (`type`,
/// `paste`) are the rest of the line after one space, kept as written (inner and trailing
/// spaces included); wrapping them in double quotes keeps leading or trailing spaces visible.
enum REPLCommand: Equatable {
  case type(String)
  case paste(String)
  case back(Int)
  case clear
  case scope(String)
  case token(TokenAction)
  case suggest
  case search
  case cancel
  case more
  case begin
  case end
  case show(SearchController.TableKind?, page: Int)
  case next
  case previous
  case select(TableIndexPath)
  case delete(TableIndexPath)
  case insert([Assignment])
  case update(TableIndexPath, [Assignment])
  case set(Setting)
  case wait
  case stats
  case help(String?)
  case quit

  /// What a `token` command does to the tokens in the field.
  ///
  /// Conditions stay text here: they are read against the data set's attributes
  /// (``ConditionSyntax``) when the command runs.
  enum TokenAction: Equatable {
    /// `token add CONDITION`.
    case add(String)
    /// `token remove CONDITION`.
    case remove(String)
    /// `token remove INDEX`, from 0 as `token list` numbers them.
    case removeAt(Int)
    case list
    case clear
  }

  /// A `set` command's setting.
  enum Setting: Equatable {
    case minimumLength(Int)
    case mode(SearchConfiguration.Mode)
    /// Milliseconds; 0 turns coalescing off.
    case coalesce(Int)
    case rank(Bool)
    /// How the text is read.
    case syntax(SearchQuery.Syntax)
    /// The typos a word of the words syntax may have.
    case typos(TypoTolerance)
    case sections(SectionedTable.Sectioning)
    case fold(Folding)
    /// A locale identifier; "" is the root locale.
    case locale(String)
  }

  /// `NAME=VALUE`: one value of a field, or an attribute's value, in `insert` and `update`.
  struct Assignment: Equatable {
    var name: String
    var value: String
  }

  /// A command word with its usage line and what it does, for `help` and error messages.
  struct Spec {
    var name: String
    var usage: String
    var summary: String

    /// The usage as the list of `help` shows it: at most 30 columns.
    var shortUsage: String {
      switch name {
      case "set": "set SETTING VALUE"
      case "insert": "insert NAME=VALUE; …"
      case "update": "update ROW NAME=VALUE; …"
      case "show": "show [original|results] [PAGE]"
      case "token": "token add|remove|list|clear"
      default: usage
      }
    }

    /// What it does, as the list of `help` shows it: the summary up to its first aside, at
    /// most 46 columns.
    var brief: String {
      var text = Substring(summary)
      for stop in [" (", ":", ";"] {
        if let range = text.range(of: stop) { text = text[..<range.lowerBound] }
      }
      return text.count > 46 ? String(text.prefix(45)) + "…" : String(text)
    }
  }

  /// Every command, in the order `help` lists them.
  static let specs: [Spec] = [
    Spec(
      name: "type", usage: "type TEXT",
      summary: "type TEXT one keystroke at a time (an idle bar begins first, as a tap on it)"),
    Spec(
      name: "paste", usage: "paste TEXT",
      summary: "replace the whole text in one change, as code sets it (no focus needed)"),
    Spec(
      name: "back", usage: "back [N]",
      summary: "delete the last N characters (default 1), one change each (begins as type)"),
    Spec(name: "clear", usage: "clear", summary: "set the text to empty"),
    Spec(
      name: "scope", usage: "scope NAME|INDEX",
      summary: "select a scope button by title (any case) or number"),
    Spec(
      name: "token", usage: "token add CONDITION | remove CONDITION|INDEX | list | clear",
      summary:
        "change the tokens in the field (every one must hold; a change is a new search):"
        + " conditions as country=CH, country=CH|DE, population>=1000000, population<=5000,"
        + " population=1000..5000, elevation?; numbers are decimals (a bound has at most 15"
        + " significant digits); a text value folds as the text does (country=ch takes CH);"
        + " list numbers them from 0"),
    Spec(
      name: "suggest", usage: "suggest",
      summary:
        "print the tokens suggested for the text: attribute values with a word that starts"
        + " with it, most items first (query completions are not offered yet)"),
    Spec(name: "search", usage: "search", summary: "press the search button"),
    Spec(
      name: "cancel", usage: "cancel",
      summary: "press cancel: the search ends and the text is cleared"),
    Spec(
      name: "more", usage: "more",
      summary:
        "load the next page of results a server sent in part (repl --backend URL --page-size N)"),
    Spec(name: "begin", usage: "begin", summary: "give the search bar focus"),
    Spec(name: "end", usage: "end", summary: "end the search, keeping the text"),
    Spec(
      name: "show", usage: "show [original|results] [PAGE]",
      summary: "print a page of 20 rows (default: the table on screen, page 1)"),
    Spec(name: "next", usage: "next", summary: "print the next page of the last table shown"),
    Spec(name: "prev", usage: "prev", summary: "print the previous page of the last table"),
    Spec(
      name: "select", usage: "select ROW|SECTION.ROW",
      summary: "select a row and print its item (a row of the table on screen)"),
    Spec(
      name: "delete", usage: "delete ROW|SECTION.ROW",
      summary: "delete a row's item from the model (a row of the table on screen)"),
    Spec(
      name: "insert", usage: "insert NAME=VALUE[; NAME=VALUE …]",
      summary:
        "add an item at the end of the model: fields and attributes by name (a field named"
        + " twice gets two values; \\; is a semicolon)"),
    Spec(
      name: "update", usage: "update ROW|SECTION.ROW NAME=VALUE[; NAME=VALUE …]",
      summary: "change named fields and attributes of a row (of the table on screen)"),
    Spec(
      name: "set",
      usage:
        "set minlen N | mode immediate|background|submit | coalesce MS | rank on|off"
        + " | syntax extended|words|literal | typos default|off|ONE,TWO"
        + " | sections none|ATTRIBUTE|letter:FIELD | fold LIST | locale ID|root",
      summary:
        "change a setting (coalesce 0 is off; fold changes the default folding: latin or"
        + " dotless-i adds, -case takes away, none alone folds nothing; locale tr or az folds"
        + " the Turkic i, unless dotless-i folds every i alike)"),
    Spec(name: "wait", usage: "wait", summary: "wait until no search runs"),
    Spec(
      name: "stats", usage: "stats",
      summary: "print counts: items, generation, state, results (and discarded searches)"),
    Spec(name: "help", usage: "help [COMMAND]", summary: "list the commands, or explain one"),
    Spec(name: "quit", usage: "quit", summary: "end the session (so does the end of input)"),
  ]

  /// The usage lines of the `set` settings, one each, for precise error messages.
  static let settingUsage: [String: String] = [
    "minlen": "set minlen N",
    "mode": "set mode immediate|background|submit",
    "coalesce": "set coalesce MS",
    "rank": "set rank on|off",
    "syntax": "set syntax extended|words|literal",
    "typos": "set typos default|off|ONE,TWO",
    "sections": "set sections none|ATTRIBUTE|letter:FIELD",
    "fold": "set fold case,diacritics,compatibility,latin,dotless-i|none",
    "locale": "set locale ID|root",
  ]

  /// The spec of a command word, if it is one.
  static func spec(named name: String) -> Spec? { specs.first { $0.name == name } }

  /// Parses a line; nil for a blank line or a `#` comment.
  static func parse(_ line: String) throws(REPLCommandError) -> REPLCommand? {
    // Separators are scalars, not characters: a space followed by a combining mark is one
    // character, but still separates (so indenting a line never changes what it means).
    let isSeparator = { (scalar: Unicode.Scalar) in scalar == " " || scalar == "\t" }
    let trimmed = line.unicodeScalars.drop(while: isSeparator)
    if trimmed.isEmpty || trimmed.first == "#" { return nil }
    let nameScalars = trimmed.prefix { !isSeparator($0) }
    let name = String(Substring(nameScalars))
    var rest = trimmed[nameScalars.endIndex...]
    // One separator belongs to the syntax; anything after it is the argument as written.
    if let first = rest.first, isSeparator(first) { rest = rest.dropFirst() }
    let argument = String(Substring(rest))
    let words = rest.split(whereSeparator: isSeparator).map { String(Substring($0)) }
    guard let spec = spec(named: name.lowercased()) else {
      throw .unknown(name, suggestion: suggestion(for: name.lowercased()))
    }
    let usage = REPLCommandError.usage(spec.usage)

    func noArguments(_ command: REPLCommand) throws(REPLCommandError) -> REPLCommand {
      guard words.isEmpty else { throw usage }
      return command
    }

    switch spec.name {
    case "type", "paste":
      let text = unquoted(argument)
      guard !text.isEmpty else { throw usage }
      return spec.name == "type" ? .type(text) : .paste(text)
    case "back":
      guard words.count <= 1 else { throw usage }
      guard let word = words.first else { return .back(1) }
      guard let count = Int(word), count > 0 else { throw usage }
      return .back(count)
    case "clear": return try noArguments(.clear)
    case "scope":
      guard !words.isEmpty else { throw usage }
      return .scope(words.joined(separator: " "))
    case "token": return .token(try parseToken(argument, usage: usage))
    case "suggest": return try noArguments(.suggest)
    case "search": return try noArguments(.search)
    case "cancel": return try noArguments(.cancel)
    case "more": return try noArguments(.more)
    case "begin": return try noArguments(.begin)
    case "end": return try noArguments(.end)
    case "show": return try parseShow(words, usage: usage)
    case "next": return try noArguments(.next)
    case "prev": return try noArguments(.previous)
    case "select", "delete":
      guard words.count == 1, let path = indexPath(words[0]) else { throw usage }
      return spec.name == "select" ? .select(path) : .delete(path)
    case "insert":
      return .insert(
        try assignments(argument, column: line.count - argument.count + 1, command: "insert"))
    case "update":
      guard let first = words.first, let path = indexPath(first) else { throw usage }
      let rest = argument.drop { $0 == " " || $0 == "\t" }.dropFirst(first.count)
      let column = line.count - rest.count + 1
      return .update(path, try assignments(String(rest), column: column, command: "update"))
    case "set": return .set(try parseSetting(words, usage: usage))
    case "wait": return try noArguments(.wait)
    case "stats": return try noArguments(.stats)
    case "help":
      guard words.count <= 1 else { throw usage }
      return .help(words.first)
    default: return try noArguments(.quit)
    }
  }

  private static func parseToken(_ argument: String, usage: REPLCommandError)
    throws(REPLCommandError) -> TokenAction
  {
    let text = argument.trimmingSpaces
    let verbEnd = text.firstIndex { $0 == " " || $0 == "\t" } ?? text.endIndex
    let verb = text[..<verbEnd].lowercased()
    let condition = String(text[verbEnd...]).trimmingSpaces
    switch verb {
    case "add":
      guard !condition.isEmpty else { throw .usage("token add CONDITION") }
      return .add(condition)
    case "remove":
      guard !condition.isEmpty else { throw .usage("token remove CONDITION|INDEX") }
      if condition.allSatisfy(\.isASCII), let index = Int(condition) {
        guard index >= 0 else { throw .usage("token remove CONDITION|INDEX") }
        return .removeAt(index)
      }
      return .remove(condition)
    case "list":
      guard condition.isEmpty else { throw .usage("token list") }
      return .list
    case "clear":
      guard condition.isEmpty else { throw .usage("token clear") }
      return .clear
    default:
      throw usage
    }
  }

  private static func parseShow(_ words: [String], usage: REPLCommandError)
    throws(REPLCommandError) -> REPLCommand
  {
    var words = words[...]
    var table: SearchController.TableKind?
    if let first = words.first, let kind = SearchController.TableKind(rawValue: first.lowercased())
    {
      table = kind
      words = words.dropFirst()
    }
    guard words.count <= 1 else { throw usage }
    guard let word = words.first else { return .show(table, page: 1) }
    guard let page = Int(word), page > 0 else { throw usage }
    return .show(table, page: page)
  }

  private static func parseSetting(_ words: [String], usage: REPLCommandError)
    throws(REPLCommandError) -> Setting
  {
    guard let name = words.first?.lowercased(), let line = settingUsage[name] else { throw usage }
    let wrong = REPLCommandError.usage(line)
    guard words.count == 2 else { throw wrong }
    let value = words[1]
    switch name {
    case "minlen":
      guard let length = Int(value), length >= 0 else { throw wrong }
      return .minimumLength(length)
    case "mode":
      guard let mode = SearchConfiguration.Mode(rawValue: value.lowercased()) else { throw wrong }
      return .mode(mode)
    case "coalesce":
      // An hour is far beyond any useful quiet interval; the bound keeps Duration arithmetic
      // far from overflow.
      guard let milliseconds = Int(value), (0...3_600_000).contains(milliseconds) else {
        throw wrong
      }
      return .coalesce(milliseconds)
    case "rank":
      switch value.lowercased() {
      case "on": return .rank(true)
      case "off": return .rank(false)
      default: throw wrong
      }
    case "syntax":
      guard let syntax = SearchQuery.Syntax(rawValue: value.lowercased()) else { throw wrong }
      return .syntax(syntax)
    case "typos":
      switch TypoRuleText.tolerance(value.lowercased(), what: "set typos") {
      case .success(let tolerance): return .typos(tolerance)
      case .failure(let error): throw .invalid(error.description)
      }
    case "fold":
      do { return .fold(try Folding(changing: .default, by: value)) } catch {
        throw .invalid("set fold: \(error.description)")
      }
    case "locale":
      let locale = value.lowercased() == "root" ? "" : value
      guard Normalizer.isKnownLocale(locale) else {
        throw .invalid(
          "set locale: ICU has no data for \"\(value)\"; use a language code such as tr, sv,"
            + " de_AT, or root")
      }
      return .locale(locale)
    default:
      guard let sectioning = sectioning(value) else { throw wrong }
      return .sections(sectioning)
    }
  }

  /// `NAME=VALUE; NAME=VALUE …`, with `\;` for a semicolon and `\\` for a backslash inside a
  /// value; names and values are trimmed of spaces.
  ///
  /// `column` is where `text` starts in the line (from 1), for errors.
  static func assignments(_ text: String, column: Int, command: String)
    throws(REPLCommandError) -> [Assignment]
  {
    var result: [Assignment] = []
    var piece = ""
    var pieceColumn = column
    var position = column
    var escaped = false
    func finish() throws(REPLCommandError) {
      defer {
        piece = ""
        pieceColumn = position + 1
      }
      let trimmed = piece.trimmingSpaces
      guard !trimmed.isEmpty else { return }
      // Errors point at the piece's first character, past its leading spaces.
      let column = pieceColumn + piece.prefix { $0 == " " || $0 == "\t" }.count
      guard let equals = trimmed.firstIndex(of: "=") else {
        throw .invalid(
          "\(command): \"\(trimmed)\" at column \(column) is not NAME=VALUE; separate"
            + " assignments with ;")
      }
      let name = String(trimmed[..<equals]).trimmingSpaces
      guard !name.isEmpty else {
        throw .invalid("\(command): a name is missing before = at column \(column)")
      }
      result.append(
        Assignment(
          name: name, value: String(trimmed[trimmed.index(after: equals)...]).trimmingSpaces))
    }
    for character in text {
      if escaped {
        piece.append(character)
        escaped = false
      } else if character == "\\" {
        escaped = true
      } else if character == ";" {
        try finish()
      } else {
        piece.append(character)
      }
      position += 1
    }
    if escaped { piece.append("\\") }
    try finish()
    guard !result.isEmpty else {
      throw .invalid("\(command): nothing to set; write NAME=VALUE, e.g. name=Vision Pro")
    }
    return result
  }

  /// `none`, `letter:FIELD` or an attribute's name.
  static func sectioning(_ text: String) -> SectionedTable.Sectioning? {
    if text.lowercased() == "none" { return SectionedTable.Sectioning.none }
    if text.lowercased().hasPrefix("letter:") {
      let field = String(text.dropFirst("letter:".count))
      return field.isEmpty ? nil : .firstLetter(field: field)
    }
    return text.isEmpty ? nil : .attribute(text)
  }

  /// `ROW` (in section 0) or `SECTION.ROW`, both from 0.
  static func indexPath(_ text: String) -> TableIndexPath? {
    let parts = text.split(separator: ".", omittingEmptySubsequences: false)
    let numbers = parts.map { part in part.allSatisfy(\.isASCII) ? Int(part) : nil }
    switch numbers.count {
    case 1:
      guard let row = numbers[0], row >= 0 else { return nil }
      return TableIndexPath(section: 0, row: row)
    case 2:
      guard let section = numbers[0], let row = numbers[1], section >= 0, row >= 0 else {
        return nil
      }
      return TableIndexPath(section: section, row: row)
    default:
      return nil
    }
  }

  /// The text without one pair of surrounding double quotes.
  private static func unquoted(_ text: String) -> String {
    guard text.count >= 2, text.hasPrefix("\""), text.hasSuffix("\"") else { return text }
    return String(text.dropFirst().dropLast())
  }

  /// The command nearest to a mistyped word, if one is at most two edits away.
  static func suggestion(for word: String) -> String? {
    var best: (name: String, distance: Int)?
    for spec in specs {
      let distance = editDistance(word, spec.name)
      if distance <= 2 && distance < (best?.distance ?? Int.max) {
        best = (spec.name, distance)
      }
    }
    return best?.name
  }

  /// Levenshtein distance between two words, by characters.
  static func editDistance(_ a: String, _ b: String) -> Int {
    let a = Array(a)
    let b = Array(b)
    if a.isEmpty { return b.count }
    var previous = Array(0...b.count)
    for i in 1...a.count {
      var current = [i] + [Int](repeating: 0, count: b.count)
      for j in stride(from: 1, through: b.count, by: 1) {
        let substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)
        current[j] = min(previous[j] + 1, current[j - 1] + 1, substitution)
      }
      previous = current
    }
    return previous[b.count]
  }
}

/// A line the REPL could not run as a command; the session goes on.
enum REPLCommandError: Error, Equatable, CustomStringConvertible {
  /// Not a command word; with the nearest command, if one is close.
  case unknown(String, suggestion: String?)
  /// The arguments do not fit; the usage line says what does.
  case usage(String)
  /// An argument is wrong in a way the message explains.
  case invalid(String)

  var description: String {
    switch self {
    case .unknown(let name, let suggestion?):
      return "unknown command \"\(name)\"; did you mean \"\(suggestion)\"?"
    case .unknown(let name, nil):
      let names = REPLCommand.specs.map(\.name).joined(separator: ", ")
      return "unknown command \"\(name)\"; the commands are \(names)"
    case .usage(let line):
      return "usage: \(line)"
    case .invalid(let message):
      return message
    }
  }
}

extension StringProtocol {
  /// The text without spaces and tabs at either end.
  fileprivate var trimmingSpaces: String {
    let start = firstIndex { $0 != " " && $0 != "\t" } ?? endIndex
    let end = lastIndex { $0 != " " && $0 != "\t" }.map { index(after: $0) } ?? start
    return String(self[start..<Swift.max(start, end)])
  }
}
