import Foundation
import SearchCommandLine
import SearchCore
import SearchEngine

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The line being typed at a prompt, as a pure state machine: keys in, the line, the cursor
/// and an ``Outcome`` out.
///
/// It does no input or output; ``InteractiveLineReader`` draws it.
///
/// The bindings are Emacs's (as in bash and readline):
///
/// | Keys | Action |
/// |---|---|
/// | a character, a paste | insert at the cursor (a paste's line breaks and tabs become spaces) |
/// | Enter | submit the line |
/// | Backspace, Ctrl-H / Delete | delete the character before / under the cursor |
/// | Ctrl-D | end of input on an empty line, otherwise Delete |
/// | Left, Ctrl-B / Right, Ctrl-F | one character left / right |
/// | Home, Ctrl-A / End, Ctrl-E | start / end of the line |
/// | Alt-B / Alt-F | one word left / right (words are letters, digits and `_`) |
/// | Ctrl-K / Ctrl-U | kill to the end / the start of the line |
/// | Ctrl-W | kill the previous word up to white space |
/// | Alt-Backspace / Alt-D | kill the previous / next word |
/// | Ctrl-Y | insert the last killed text |
/// | Ctrl-T | swap the two characters around the cursor |
/// | Up, Ctrl-P / Down, Ctrl-N | older / newer history entry; past the newest, the draft |
/// | Ctrl-R | reverse incremental search of the history |
/// | Tab | complete the command word |
/// | Ctrl-L | clear the screen |
/// | Ctrl-C | drop the line; a fresh prompt follows |
///
/// In reverse search, characters extend the search string and the newest entry containing
/// it is shown; Ctrl-R finds the next older one, Backspace shortens the string, Enter
/// submits the entry found, Ctrl-G and Ctrl-C go back to the line as it was, Escape takes
/// the entry into the line for editing, and any other editing key takes it and then acts.
struct LineEditor {
  /// What a key did to the line.
  enum Outcome: Equatable, Sendable {
    /// The line or the cursor may have changed: redraw.
    case editing
    /// Enter: the line is done (and added to the history); the editor is empty again.
    case submit(String)
    /// Ctrl-D on an empty line.
    case endOfInput
    /// Ctrl-C: the line is dropped; the editor is empty again, for a fresh prompt.
    case interrupt
    /// Ctrl-L: clear the screen, then redraw.
    case clearScreen
    /// Tab with several commands starting with the word: list them (the word has been
    /// completed as far as they agree), then redraw.
    case listCompletions([String])
  }

  /// The state of a reverse incremental search.
  struct Search: Equatable, Sendable {
    /// The text searched for.
    var query = ""
    /// The index in the history of the entry shown; nil until something matched.
    var match: Int?
    /// Whether the last attempt found nothing (the last match stays shown).
    var failed = false
    fileprivate var savedLine: String
    fileprivate var savedCursor: Int
    fileprivate var savedHistoryIndex: Int?
  }

  /// The words Tab completes at the start of the line.
  let commands: [String]
  /// The line being edited (outside reverse search).
  private(set) var line = ""
  /// The cursor, in characters from the start of ``line``: 0...line.count.
  private(set) var cursor = 0
  /// The entries Up, Down and Ctrl-R walk; Enter adds to it.
  private(set) var history: LineHistory
  /// The reverse search in progress, if any.
  private(set) var search: Search?
  /// The candidates of the last Tab when there were several; cleared by any other key.
  private(set) var completions: [String] = []
  /// The text the last kill removed, for Ctrl-Y.
  private(set) var killed = ""

  /// The history entry shown; nil while editing the draft.
  private var historyIndex: Int?
  /// The line as it was before walking into the history.
  private var draft = ""
  /// The last search string, for Ctrl-R Ctrl-R.
  private var lastQuery = ""

  /// An empty line completing `commands`, with `history` to walk.
  init(commands: [String] = [], history: LineHistory = LineHistory()) {
    self.commands = commands
    self.history = history
  }

  // MARK: What to draw

  /// Whether a reverse search is in progress (its label then stands in for the prompt).
  var isSearching: Bool { search != nil }

  /// The text to draw after the prompt; in reverse search, instead of the prompt:
  /// `(reverse-i-search)'abc': the entry found`.
  var visibleText: String {
    guard let search else { return line }
    return searchLabel(search) + searchedLine(search)
  }

  /// The cursor's column in ``visibleText`` (terminal columns: a CJK character takes two).
  var cursorColumn: Int {
    guard let search else { return ColumnWidth.columns(of: line.prefix(cursor)) }
    let shown = searchedLine(search)
    let offset = searchCursor(search)
    return ColumnWidth.columns(of: searchLabel(search))
      + ColumnWidth.columns(of: shown.prefix(offset))
  }

  private func searchLabel(_ search: Search) -> String {
    (search.failed ? "(failed reverse-i-search)'" : "(reverse-i-search)'") + search.query + "': "
  }

  private func searchedLine(_ search: Search) -> String {
    guard let match = search.match else { return search.savedLine }
    return history.entries[match]
  }

  /// Where the cursor goes in the entry found: at the start of the match.
  private func searchCursor(_ search: Search) -> Int {
    guard let match = search.match else { return search.savedCursor }
    let entry = history.entries[match]
    guard !search.query.isEmpty, let range = entry.firstRange(of: search.query) else {
      return entry.count
    }
    return entry.distance(from: entry.startIndex, to: range.lowerBound)
  }

  // MARK: Keys

  /// Applies one key.
  mutating func handle(_ key: Key) -> Outcome {
    completions = []
    if search != nil { return handleSearch(key) }
    switch key {
    case .character(let character):
      if Self.isInsertable(character) { insert(String(character)) }
    case .paste(let text):
      insert(Self.flattened(text))
    case .enter:
      return submit()
    case .tab:
      return complete()
    case .backspace, .control("h"):
      if cursor > 0 { replace(cursor - 1..<cursor, with: "") }
    case .delete:
      if cursor < line.count { replace(cursor..<cursor + 1, with: "") }
    case .control("d"):
      if line.isEmpty { return .endOfInput }
      if cursor < line.count { replace(cursor..<cursor + 1, with: "") }
    case .left, .control("b"):
      cursor = max(cursor - 1, 0)
    case .right, .control("f"):
      cursor = min(cursor + 1, line.count)
    case .home, .control("a"):
      cursor = 0
    case .end, .control("e"):
      cursor = line.count
    case .alt("b"):
      cursor = wordStart(before: cursor, isWord: Self.isWordCharacter)
    case .alt("f"):
      cursor = wordEnd(after: cursor)
    case .control("k"):
      kill(cursor..<line.count)
    case .control("u"):
      kill(0..<cursor)
    case .control("w"):
      kill(wordStart(before: cursor) { !$0.isWhitespace }..<cursor)
    case .altBackspace:
      kill(wordStart(before: cursor, isWord: Self.isWordCharacter)..<cursor)
    case .alt("d"):
      kill(cursor..<wordEnd(after: cursor))
    case .control("y"):
      insert(killed)
    case .control("t"):
      transpose()
    case .control("l"):
      return .clearScreen
    case .up, .control("p"):
      walkHistory(older: true)
    case .down, .control("n"):
      walkHistory(older: false)
    case .control("r"):
      search = Search(savedLine: line, savedCursor: cursor, savedHistoryIndex: historyIndex)
    case .control("c"):
      reset()
      return .interrupt
    default:
      break
    }
    return .editing
  }

  /// A character typed is inserted unless it is a control character.
  private static func isInsertable(_ character: Character) -> Bool {
    guard let first = character.unicodeScalars.first else { return false }
    return first.properties.generalCategory != .control
  }

  /// A paste as one line: a line break (CR LF is one) or a tab becomes a space, other
  /// control characters are dropped.
  static func flattened(_ text: String) -> String {
    var result = ""
    for character in text {
      if character.isNewline || character == "\t" {
        result.append(" ")
      } else if isInsertable(character) {
        result.append(character)
      }
    }
    return result
  }

  private static func isWordCharacter(_ character: Character) -> Bool {
    character.isLetter || character.isNumber || character == "_"
  }

  // MARK: Editing

  /// Replaces the line with `text` (set elsewhere: a search bar cleared by cancel), the
  /// cursor at its end.
  mutating func load(_ text: String) {
    guard text != line else { return }
    line = text
    cursor = text.count
    search = nil
  }

  private mutating func insert(_ text: String) {
    replace(cursor..<cursor, with: text)
  }

  /// Replaces the characters in `range` with `text`; the cursor goes after `text`.
  private mutating func replace(_ range: Range<Int>, with text: String) {
    let characters = Array(line)
    let head = String(characters[..<range.lowerBound]) + text
    line = head + String(characters[range.upperBound...])
    // A combining mark joins the character before it: count what the head became.
    cursor = min(head.count, line.count)
  }

  private mutating func kill(_ range: Range<Int>) {
    guard !range.isEmpty else { return }
    let characters = Array(line)
    killed = String(characters[range])
    replace(range, with: "")
  }

  private mutating func transpose() {
    let characters = Array(line)
    guard characters.count >= 2, cursor > 0 else { return }
    // At the end of the line, the last two characters swap (as in readline).
    let right = min(cursor, characters.count - 1)
    let swapped = String(characters[right]) + String(characters[right - 1])
    replace(right - 1..<right + 1, with: swapped)
  }

  /// Where the word ending at or before `position` starts: non-word characters, then word
  /// characters, are skipped to the left.
  private func wordStart(before position: Int, isWord: (Character) -> Bool) -> Int {
    let characters = Array(line)
    var index = position
    while index > 0, !isWord(characters[index - 1]) { index -= 1 }
    while index > 0, isWord(characters[index - 1]) { index -= 1 }
    return index
  }

  /// Where the word starting at or after `position` ends.
  private func wordEnd(after position: Int) -> Int {
    let characters = Array(line)
    var index = position
    while index < characters.count, !Self.isWordCharacter(characters[index]) { index += 1 }
    while index < characters.count, Self.isWordCharacter(characters[index]) { index += 1 }
    return index
  }

  private mutating func submit() -> Outcome {
    let submitted = line
    history.add(submitted)
    reset()
    return .submit(submitted)
  }

  private mutating func reset() {
    line = ""
    cursor = 0
    historyIndex = nil
    draft = ""
    search = nil
  }

  // MARK: History

  private mutating func walkHistory(older: Bool) {
    let entries = history.entries
    if older {
      guard !entries.isEmpty else { return }
      if let index = historyIndex {
        guard index > 0 else { return }
        historyIndex = index - 1
      } else {
        draft = line
        historyIndex = entries.count - 1
      }
    } else {
      guard let index = historyIndex else { return }
      historyIndex = index + 1 < entries.count ? index + 1 : nil
    }
    line = historyIndex.map { entries[$0] } ?? draft
    cursor = line.count
  }

  // MARK: Reverse search

  private mutating func handleSearch(_ key: Key) -> Outcome {
    guard var search else { return .editing }
    switch key {
    case .character(let character):
      guard Self.isInsertable(character) else { return .editing }
      search.query.append(character)
      find(&search, from: search.match ?? history.entries.count - 1)
    case .paste(let text):
      search.query += Self.flattened(text)
      find(&search, from: search.match ?? history.entries.count - 1)
    case .control("r"):
      if search.query.isEmpty {
        guard !lastQuery.isEmpty else { return .editing }
        search.query = lastQuery
        find(&search, from: history.entries.count - 1)
      } else {
        let current = search.match.map { history.entries[$0] }
        let start = (search.match ?? history.entries.count) - 1
        find(&search, from: start, skipping: current)
      }
    case .backspace, .control("h"):
      guard !search.query.isEmpty else { return .editing }
      search.query.removeLast()
      search.match = nil
      search.failed = false
      find(&search, from: history.entries.count - 1)
    case .control("g"), .control("c"):
      line = search.savedLine
      cursor = search.savedCursor
      historyIndex = search.savedHistoryIndex
      self.search = nil
      return .editing
    case .escape:
      accept(search)
      return .editing
    case .enter:
      accept(search)
      return submit()
    default:
      accept(search)
      return handle(key)
    }
    if !search.query.isEmpty { lastQuery = search.query }
    self.search = search
    return .editing
  }

  /// Looks for `search.query` in the entries from `start` down to the oldest, passing over
  /// entries equal to `skipped`; keeps the last match and notes the failure if none.
  private func find(_ search: inout Search, from start: Int, skipping skipped: String? = nil) {
    guard !search.query.isEmpty else {
      search.match = nil
      search.failed = false
      return
    }
    let entries = history.entries
    var index = min(start, entries.count - 1)
    while index >= 0 {
      let entry = entries[index]
      if entry != skipped, entry.contains(search.query) {
        search.match = index
        search.failed = false
        return
      }
      index -= 1
    }
    search.failed = true
  }

  /// Takes the entry found into the line, the cursor at the match.
  private mutating func accept(_ search: Search) {
    self.search = nil
    guard let match = search.match else {
      line = search.savedLine
      cursor = search.savedCursor
      historyIndex = search.savedHistoryIndex
      return
    }
    cursor = searchCursor(search)
    line = history.entries[match]
    if search.savedHistoryIndex == nil { draft = search.savedLine }
    historyIndex = match
  }

  // MARK: Completion

  private mutating func complete() -> Outcome {
    let characters = Array(line)
    let start = characters.prefix { $0.isWhitespace }.count
    guard cursor >= start, !characters[start..<cursor].contains(where: \.isWhitespace),
      cursor == characters.count || characters[cursor].isWhitespace
    else { return .editing }
    let word = String(characters[start..<cursor])
    let candidates = Array(Set(commands.filter { $0.hasPrefix(word) })).sorted()
    guard let first = candidates.first else { return .editing }
    if candidates.count == 1 {
      let needsSpace = cursor == characters.count
      replace(start..<cursor, with: first + (needsSpace ? " " : ""))
      if !needsSpace { cursor += 1 }
      return .editing
    }
    let common = candidates.dropFirst().reduce(first) { common, candidate in
      String(common.commonPrefix(with: candidate))
    }
    if common.count > word.count { replace(start..<cursor, with: common) }
    completions = candidates
    return .listCompletions(candidates)
  }
}

extension String {
  /// The longest start this string and `other` share, compared character by character.
  fileprivate func commonPrefix(with other: String) -> Substring {
    var end = startIndex
    for (mine, theirs) in zip(indices, other) {
      guard self[mine] == theirs else { break }
      end = index(after: mine)
    }
    return self[..<end]
  }
}

// MARK: - The terminal driver

/// Reads lines from a terminal in raw mode with a ``LineEditor``, while other code keeps
/// printing: ``write(_:)`` clears the prompt, prints, and draws the prompt again.
///
/// Use it only when ``RawTerminal/isInteractive``. The first ``readLine(prompt:)`` switches
/// the terminal to raw mode and starts the one ``KeyReader`` of the process; ``close()``
/// puts the terminal back and saves the history. Raw mode stays on between lines, so keys
/// typed while a command runs wait for the next prompt (Ctrl-C included: it does not stop
/// a command). Output keeps working between lines: the terminal still turns "\n" into
/// CR LF.
@MainActor
final class InteractiveLineReader {
  private var editor: LineEditor
  /// The terminal's input, one stream for the life of the process.
  private var keys: AsyncStream<TerminalInput>.Iterator?
  private var inputEnded = false
  /// Whether a task is waiting for input (there is one iterator, so only one may).
  private var waiting = false
  private var raw = false
  /// The prompt while a ``readLine(prompt:)`` is in progress.
  private var prompt: String?
  /// The column of prompt-and-line shown at the left edge, when the line is too wide.
  private var scroll = 0
  private var columns = 80

  /// A reader completing `commands` with Tab, starting with `history`.
  init(commands: [String], history: LineHistory) {
    editor = LineEditor(commands: commands, history: history)
  }

  /// The history, with the lines entered so far.
  var history: LineHistory { editor.history }

  /// Shows `prompt` and reads a line: the line (its text, without a line break), or nil at
  /// the end of input (Ctrl-D on an empty line, or standard input closed).
  ///
  /// Ctrl-C drops the line and shows the prompt again on a new line. One call at a time.
  func readLine(prompt: String) async -> String? {
    if !raw {
      // Not a terminal: keys still arrive, only not one by one.
      try? RawTerminal.enter(fullScreen: false)
      raw = true
    }
    columns = RawTerminal.size.columns
    self.prompt = prompt
    scroll = 0
    Terminal.write(frame(), to: STDOUT_FILENO)
    defer { self.prompt = nil }
    while true {
      guard let input = await nextInput() else {
        Terminal.write("\r\n", to: STDOUT_FILENO)
        return nil
      }
      switch input {
      case .endOfInput:
        Terminal.write("\r\n", to: STDOUT_FILENO)
        return nil
      case .resize:
        columns = RawTerminal.size.columns
        Terminal.write(frame(), to: STDOUT_FILENO)
      case .key(let key):
        let shown = (text: editor.visibleText, isSearching: editor.isSearching)
        switch editor.handle(key) {
        case .editing:
          Terminal.write(frame(), to: STDOUT_FILENO)
        case .submit(let line):
          // The whole line, the cursor at its end, stays on the screen above the output.
          let last = Self.frame(
            prompt: prompt, text: line, cursorColumn: ColumnWidth.columns(of: line),
            width: columns - 1, scroll: &scroll)
          Terminal.write(last + "\r\n", to: STDOUT_FILENO)
          history.save()
          return line
        case .endOfInput:
          Terminal.write("\r\n", to: STDOUT_FILENO)
          return nil
        case .interrupt:
          let dropped = Self.frame(
            prompt: shown.isSearching ? "" : prompt, text: shown.text + "^C",
            cursorColumn: ColumnWidth.columns(of: shown.text) + 2, width: columns - 1,
            scroll: &scroll)
          scroll = 0
          Terminal.write(dropped + "\r\n" + frame(), to: STDOUT_FILENO)
        case .clearScreen:
          Terminal.write("\u{1B}[H\u{1B}[2J" + frame(), to: STDOUT_FILENO)
        case .listCompletions(let candidates):
          write(candidates.joined(separator: "  ") + "\n")
        }
      }
    }
  }

  /// The next input from the terminal, for code that takes the keyboard over between
  /// lines (the process has one ``KeyReader``; a second one would steal its bytes); nil
  /// once input has ended.
  ///
  /// The first call starts the ``KeyReader``, so it should follow a ``readLine(prompt:)`` or a
  /// ``RawTerminal/enter(fullScreen:)`` (which makes the pipe resizes arrive on).
  func nextInput() async -> TerminalInput? {
    guard !inputEnded else { return nil }
    guard !waiting else {
      assertionFailure("two tasks read the terminal at once")
      return nil
    }
    waiting = true
    defer { waiting = false }
    // The iterator is moved out while waiting, so no access overlaps the suspension.
    var iterator = keys ?? KeyReader.start().makeAsyncIterator()
    keys = nil
    let input = await iterator.next(isolation: #isolation)
    keys = iterator
    if input == nil || input == .endOfInput { inputEnded = true }
    return input
  }

  /// Prints `text` (which should end with a line break) above the prompt: the prompt line
  /// is cleared, `text` written and the prompt and line drawn again, in one write.
  ///
  /// Between lines it just writes `text`.
  func write(_ text: String) {
    Terminal.flushOutput()  // what `print` buffered goes first
    guard prompt != nil else {
      Terminal.write(text, to: STDOUT_FILENO)
      return
    }
    var output = "\r\u{1B}[K" + text
    if !text.isEmpty, !text.hasSuffix("\n") { output += "\n" }
    Terminal.write(output + frame(), to: STDOUT_FILENO)
  }

  /// Puts the terminal back as it was and saves the history.
  ///
  /// A later ``readLine(prompt:)`` switches to raw mode again, so this also hands the terminal to
  /// other code for a while.
  func close() {
    if raw {
      RawTerminal.leave()
      raw = false
    }
    history.save()
  }

  /// The prompt and the line as they stand.
  private func frame() -> String {
    let prompt = editor.isSearching ? "" : (prompt ?? "")
    return Self.frame(
      prompt: prompt, text: editor.visibleText, cursorColumn: editor.cursorColumn,
      width: columns - 1, scroll: &scroll)
  }

  /// What redraws the current terminal line: `prompt` (bold) and `text`, cut to `width`
  /// columns around the cursor, `cursorColumn` columns into `text`.
  ///
  /// `scroll` is the column shown at the left edge; it moves only as far as the cursor needs, so
  /// the line stays still while the cursor moves within it.
  ///
  /// The line is written over the old one and the rest erased, without clearing first, so
  /// it does not flicker.
  nonisolated static func frame(
    prompt: String, text: String, cursorColumn: Int, width: Int, scroll: inout Int
  ) -> String {
    let width = max(width, 1)
    let promptColumns = ColumnWidth.columns(of: prompt)
    let total = promptColumns + ColumnWidth.columns(of: text)
    let cursor = promptColumns + cursorColumn
    if cursor < scroll {
      scroll = max(cursor - width / 2, 0)
    } else if cursor >= scroll + width {
      scroll = cursor - width + 1
    }
    // No blank space past the end while there is more to show at the start.
    scroll = max(min(scroll, total - width + 1), 0)

    var output = "\r"
    var column = 0
    var bold = false
    func put(_ character: Character, inPrompt: Bool) -> Bool {
      let start = column
      let characterWidth = ColumnWidth.columns(of: character)
      column += characterWidth
      if start < scroll {
        // Half of a wide character at the left edge shows as a space.
        if column > scroll { output += String(repeating: " ", count: column - scroll) }
        return true
      }
      guard column - scroll <= width else { return false }
      if inPrompt != bold {
        output += inPrompt ? "\u{1B}[1m" : "\u{1B}[22m"
        bold = inPrompt
      }
      output.append(character)
      return true
    }
    var fits = true
    for character in prompt where fits { fits = put(character, inPrompt: true) }
    for character in text where fits { fits = put(character, inPrompt: false) }
    if bold { output += "\u{1B}[22m" }
    output += "\u{1B}[K\r"
    let screenColumn = cursor - scroll
    if screenColumn > 0 { output += "\u{1B}[\(screenColumn)C" }
    return output
  }
}
