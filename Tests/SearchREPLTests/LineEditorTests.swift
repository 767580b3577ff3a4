import Foundation
import TestSupport
import Testing

@testable import SearchREPL

/// The line editor of the interactive REPL, key by key, without a terminal.
@Suite(.tags(.plainSwift)) struct LineEditorTests {
  private static let commands = [
    "type", "paste", "back", "clear", "scope", "search", "select", "set", "show", "stats",
  ]

  private func editor(history: [String] = []) -> LineEditor {
    LineEditor(commands: Self.commands, history: LineHistory(entries: history))
  }

  /// Sends each key; returns the last outcome.
  @discardableResult
  private func send(_ editor: inout LineEditor, _ keys: [Key]) -> LineEditor.Outcome {
    var outcome = LineEditor.Outcome.editing
    for key in keys { outcome = editor.handle(key) }
    return outcome
  }

  /// Types `text` one scalar at a time, as the key decoder delivers it.
  private func type(_ editor: inout LineEditor, _ text: String) {
    for scalar in text.unicodeScalars { _ = editor.handle(.character(Character(scalar))) }
  }

  // MARK: Editing

  @Test func typingInsertsAtTheCursor() {
    var editor = editor()
    type(&editor, "hllo")
    #expect(editor.line == "hllo")
    #expect(editor.cursor == 4)
    send(&editor, [.home, .right])
    type(&editor, "e")
    #expect(editor.line == "hello")
    #expect(editor.cursor == 2)
    #expect(editor.visibleText == "hello")
    #expect(editor.cursorColumn == 2)
  }

  @Test func controlCharactersAreNotInserted() {
    var editor = editor()
    send(&editor, [.character("a"), .character("\u{7}"), .character("\u{85}")])
    #expect(editor.line == "a")
  }

  @Test func backspaceAndDelete() {
    var editor = editor()
    type(&editor, "abcd")
    send(&editor, [.backspace])
    #expect(editor.line == "abc")
    send(&editor, [.left, .left, .delete])
    #expect(editor.line == "ac")
    #expect(editor.cursor == 1)
    send(&editor, [.control("h")])
    #expect(editor.line == "c")
    #expect(editor.cursor == 0)
    send(&editor, [.backspace])  // at the start: nothing
    #expect(editor.line == "c")
    send(&editor, [.end, .delete])  // at the end: nothing
    #expect(editor.line == "c")
  }

  @Test func cursorMovement() {
    var editor = editor()
    type(&editor, "abc")
    send(&editor, [.control("a")])
    #expect(editor.cursor == 0)
    send(&editor, [.left])
    #expect(editor.cursor == 0)
    send(&editor, [.control("f"), .right])
    #expect(editor.cursor == 2)
    send(&editor, [.control("b")])
    #expect(editor.cursor == 1)
    send(&editor, [.control("e")])
    #expect(editor.cursor == 3)
    send(&editor, [.right])
    #expect(editor.cursor == 3)
    send(&editor, [.home])
    #expect(editor.cursor == 0)
    send(&editor, [.end])
    #expect(editor.cursor == 3)
  }

  @Test func combiningMarkJoinsTheCharacterBeforeIt() {
    var editor = editor()
    type(&editor, "cafe\u{301}")
    #expect(editor.line == "caf\u{E9}")  // canonically equivalent
    #expect(editor.line.count == 4)
    #expect(editor.cursor == 4)
    #expect(editor.cursorColumn == 4)
    send(&editor, [.left])
    #expect(editor.cursorColumn == 3)
    send(&editor, [.backspace])
    #expect(editor.line == "ca\u{65}\u{301}")
    #expect(editor.cursor == 2)
    send(&editor, [.end, .backspace])  // the whole é goes at once
    #expect(editor.line == "ca")
  }

  @Test func wideCharactersTakeTwoColumns() {
    var editor = editor()
    type(&editor, "東京 tower")
    #expect(editor.cursor == 8)
    #expect(editor.cursorColumn == 10)
    send(&editor, [.home, .right])
    #expect(editor.cursorColumn == 2)
    send(&editor, [.right])
    #expect(editor.cursorColumn == 4)
  }

  @Test func killsAndYank() {
    var editor = editor()
    type(&editor, "type hello world")
    send(&editor, [.left, .left, .left, .left, .left, .control("k")])
    #expect(editor.line == "type hello ")
    #expect(editor.killed == "world")
    send(&editor, [.control("u")])
    #expect(editor.line == "")
    #expect(editor.killed == "type hello ")
    send(&editor, [.control("y")])
    #expect(editor.line == "type hello ")
    #expect(editor.cursor == 11)
  }

  @Test func controlWKillsBackToWhiteSpace() {
    var editor = editor()
    type(&editor, "type foo-bar  ")
    send(&editor, [.control("w")])
    #expect(editor.line == "type ")
    #expect(editor.killed == "foo-bar  ")
    send(&editor, [.control("w")])
    #expect(editor.line == "")
  }

  @Test func altBackspaceKillsAWordOfLettersAndDigits() {
    var editor = editor()
    type(&editor, "type foo-bar2 ")
    send(&editor, [.altBackspace])
    #expect(editor.line == "type foo-")
    send(&editor, [.altBackspace])
    #expect(editor.line == "type ")
    send(&editor, [.altBackspace])
    #expect(editor.line == "")
  }

  @Test func altBAndAltFMoveByWords() {
    var editor = editor()
    type(&editor, "show results 2")
    send(&editor, [.alt("b")])
    #expect(editor.cursor == 13)
    send(&editor, [.alt("b")])
    #expect(editor.cursor == 5)
    send(&editor, [.alt("b"), .alt("b")])
    #expect(editor.cursor == 0)
    send(&editor, [.alt("f")])
    #expect(editor.cursor == 4)
    send(&editor, [.alt("f")])
    #expect(editor.cursor == 12)
    send(&editor, [.alt("d")])  // kills the space and the last word
    #expect(editor.line == "show results")
    send(&editor, [.home, .alt("d")])
    #expect(editor.line == " results")
  }

  @Test func controlTSwapsCharacters() {
    var editor = editor()
    type(&editor, "abc")
    send(&editor, [.control("t")])
    #expect(editor.line == "acb")
    send(&editor, [.home, .right, .control("t")])
    #expect(editor.line == "cab")
    #expect(editor.cursor == 2)
  }

  @Test func pasteFlattensLineBreaksAndNeverSubmits() {
    var editor = editor()
    type(&editor, "type ")
    let outcome = send(&editor, [.paste("one\r\ntwo\nthree\tfour\u{1B}\n")])
    #expect(outcome == .editing)
    #expect(editor.line == "type one two three four ")
    #expect(editor.cursor == editor.line.count)
    #expect(editor.history.entries.isEmpty)
  }

  @Test func pasteInsertsAtTheCursor() {
    var editor = editor()
    type(&editor, "ab")
    send(&editor, [.left, .paste("日本")])
    #expect(editor.line == "a日本b")
    #expect(editor.cursor == 3)
    #expect(editor.cursorColumn == 5)
  }

  @Test func enterSubmitsAndEmptiesTheLine() {
    var editor = editor()
    type(&editor, "show")
    #expect(send(&editor, [.enter]) == .submit("show"))
    #expect(editor.line == "")
    #expect(editor.cursor == 0)
    #expect(editor.history.entries == ["show"])
  }

  @Test func historySkipsBlankLinesAndRepeats() {
    var editor = editor()
    #expect(send(&editor, [.enter]) == .submit(""))
    type(&editor, "   ")
    #expect(send(&editor, [.enter]) == .submit("   "))
    type(&editor, "next")
    send(&editor, [.enter])
    type(&editor, "next")
    send(&editor, [.enter])
    type(&editor, "prev")
    send(&editor, [.enter])
    type(&editor, "next")
    send(&editor, [.enter])
    #expect(editor.history.entries == ["next", "prev", "next"])
  }

  @Test func controlDEndsInputOnlyOnAnEmptyLine() {
    var editor = editor()
    #expect(send(&editor, [.control("d")]) == .endOfInput)
    type(&editor, "abc")
    send(&editor, [.home])
    #expect(send(&editor, [.control("d")]) == .editing)
    #expect(editor.line == "bc")
    send(&editor, [.end])
    #expect(send(&editor, [.control("d")]) == .editing)  // at the end: nothing to delete
    #expect(editor.line == "bc")
  }

  @Test func controlCDropsTheLine() {
    var editor = editor(history: ["one"])
    type(&editor, "abc")
    #expect(send(&editor, [.control("c")]) == .interrupt)
    #expect(editor.line == "")
    #expect(editor.cursor == 0)
    #expect(editor.history.entries == ["one"])
    send(&editor, [.up])
    #expect(editor.line == "one")
  }

  @Test func controlLAsksForAClearScreen() {
    var editor = editor()
    type(&editor, "abc")
    #expect(send(&editor, [.control("l")]) == .clearScreen)
    #expect(editor.line == "abc")
  }

  // MARK: History

  @Test func historyWalkKeepsTheDraft() {
    var editor = editor(history: ["one", "two", "three"])
    type(&editor, "dra")
    send(&editor, [.left])
    send(&editor, [.up])
    #expect(editor.line == "three")
    #expect(editor.cursor == 5)
    send(&editor, [.control("p")])
    #expect(editor.line == "two")
    send(&editor, [.up, .up])  // the oldest stays
    #expect(editor.line == "one")
    send(&editor, [.down])
    #expect(editor.line == "two")
    send(&editor, [.control("n"), .down])
    #expect(editor.line == "dra")
    #expect(editor.cursor == 3)
    send(&editor, [.down])  // past the draft: nothing
    #expect(editor.line == "dra")
  }

  @Test func historyWalkOnAnEmptyHistoryDoesNothing() {
    var editor = editor()
    type(&editor, "x")
    send(&editor, [.up, .down])
    #expect(editor.line == "x")
  }

  @Test func editedHistoryEntryIsSubmittedAndAdded() {
    var editor = editor(history: ["show 1"])
    send(&editor, [.up, .backspace])
    type(&editor, "2")
    #expect(send(&editor, [.enter]) == .submit("show 2"))
    #expect(editor.history.entries == ["show 1", "show 2"])
    send(&editor, [.up])
    #expect(editor.line == "show 2")
  }

  // MARK: Reverse search

  private static let searchHistory = [
    "type apple", "show results", "type banana", "select 3", "type cherry",
  ]

  @Test func reverseSearchFindsTheNewestMatch() {
    var editor = editor(history: Self.searchHistory)
    type(&editor, "draft")
    send(&editor, [.control("r")])
    #expect(editor.isSearching)
    #expect(editor.visibleText == "(reverse-i-search)'': draft")
    type(&editor, "ty")
    #expect(editor.visibleText == "(reverse-i-search)'ty': type cherry")
    #expect(editor.cursorColumn == "(reverse-i-search)'ty': ".count)
    type(&editor, "pe b")
    #expect(editor.visibleText == "(reverse-i-search)'type b': type banana")
  }

  @Test func reverseSearchControlRFindsOlderMatches() {
    var editor = editor(history: Self.searchHistory)
    send(&editor, [.control("r")])
    type(&editor, "type")
    #expect(editor.search?.match == 4)
    send(&editor, [.control("r")])
    #expect(editor.search?.match == 2)
    send(&editor, [.control("r")])
    #expect(editor.search?.match == 0)
    send(&editor, [.control("r")])  // no older one: failed, the last match stays
    #expect(editor.search?.match == 0)
    #expect(editor.search?.failed == true)
    #expect(editor.visibleText == "(failed reverse-i-search)'type': type apple")
  }

  @Test func reverseSearchCursorIsAtTheMatch() {
    var editor = editor(history: Self.searchHistory)
    send(&editor, [.control("r")])
    type(&editor, "res")
    let label = "(reverse-i-search)'res': "
    #expect(editor.visibleText == label + "show results")
    #expect(editor.cursorColumn == label.count + 5)
  }

  @Test func reverseSearchFailsOnNoMatch() {
    var editor = editor(history: Self.searchHistory)
    send(&editor, [.control("r")])
    type(&editor, "sel")
    #expect(editor.search?.match == 3)
    type(&editor, "x")
    #expect(editor.search?.failed == true)
    #expect(editor.visibleText == "(failed reverse-i-search)'selx': select 3")
  }

  @Test func reverseSearchBackspaceShortensTheSearch() {
    var editor = editor(history: Self.searchHistory)
    send(&editor, [.control("r")])
    type(&editor, "ap")
    #expect(editor.search?.match == 0)
    send(&editor, [.backspace])
    // "a" again, from the newest entry.
    #expect(editor.search?.query == "a")
    #expect(editor.search?.match == 2)
    #expect(editor.search?.failed == false)
    send(&editor, [.backspace])
    #expect(editor.search?.query == "")
    #expect(editor.search?.match == nil)
    send(&editor, [.backspace])  // nothing left to shorten
    #expect(editor.isSearching)
  }

  @Test func reverseSearchEnterSubmitsTheMatch() {
    var editor = editor(history: Self.searchHistory)
    type(&editor, "draft")
    send(&editor, [.control("r")])
    type(&editor, "show")
    #expect(send(&editor, [.enter]) == .submit("show results"))
    #expect(!editor.isSearching)
    #expect(editor.line == "")
    #expect(editor.history.entries.last == "show results")
  }

  @Test func reverseSearchEscapeAcceptsIntoTheLine() {
    var editor = editor(history: Self.searchHistory)
    type(&editor, "draft")
    send(&editor, [.control("r")])
    type(&editor, "banana")
    #expect(send(&editor, [.escape]) == .editing)
    #expect(!editor.isSearching)
    #expect(editor.line == "type banana")
    #expect(editor.cursor == 5)
    #expect(editor.visibleText == "type banana")
    // The history walk goes on from the entry found, and down to the draft.
    send(&editor, [.up])
    #expect(editor.line == "show results")
    send(&editor, [.down, .down])
    #expect(editor.line == "select 3")
    send(&editor, [.down, .down])
    #expect(editor.line == "draft")
  }

  @Test func reverseSearchMovementKeysAcceptAndMove() {
    var editor = editor(history: Self.searchHistory)
    send(&editor, [.control("r")])
    type(&editor, "cherry")
    send(&editor, [.control("e")])
    #expect(!editor.isSearching)
    #expect(editor.line == "type cherry")
    #expect(editor.cursor == 11)

    var other = self.editor(history: Self.searchHistory)
    send(&other, [.control("r")])
    type(&other, "cherry")
    send(&other, [.right])
    #expect(other.line == "type cherry")
    #expect(other.cursor == 6)

    var third = self.editor(history: Self.searchHistory)
    send(&third, [.control("r")])
    type(&third, "cherry")
    send(&third, [.left])
    #expect(third.cursor == 4)
  }

  @Test func reverseSearchControlGRestoresTheLine() {
    var editor = editor(history: Self.searchHistory)
    type(&editor, "draft")
    send(&editor, [.left, .left, .control("r")])
    type(&editor, "apple")
    send(&editor, [.control("g")])
    #expect(!editor.isSearching)
    #expect(editor.line == "draft")
    #expect(editor.cursor == 3)

    send(&editor, [.control("r")])
    type(&editor, "apple")
    #expect(send(&editor, [.control("c")]) == .editing)
    #expect(editor.line == "draft")
  }

  @Test func reverseSearchControlRTwiceRepeatsTheLastSearch() {
    var editor = editor(history: Self.searchHistory)
    send(&editor, [.control("r")])
    type(&editor, "select")
    send(&editor, [.control("g"), .control("r"), .control("r")])
    #expect(editor.search?.query == "select")
    #expect(editor.search?.match == 3)
  }

  @Test func reverseSearchPassesOverRepeatedEntries() {
    var editor = editor(history: ["show 1", "next", "show 1", "next"])
    send(&editor, [.control("r")])
    type(&editor, "show")
    #expect(editor.search?.match == 2)
    send(&editor, [.control("r")])
    #expect(editor.search?.failed == true)
    #expect(editor.search?.match == 2)
  }

  // MARK: Completion

  @Test func tabCompletesAUniqueCommand() {
    var editor = editor()
    type(&editor, "ty")
    #expect(send(&editor, [.tab]) == .editing)
    #expect(editor.line == "type ")
    #expect(editor.cursor == 5)
    #expect(editor.completions.isEmpty)
  }

  @Test func tabCompletesToTheCommonPrefix() {
    var editor = editor()
    type(&editor, "sc")
    #expect(send(&editor, [.tab]) == .editing)
    #expect(editor.line == "scope ")
    editor = self.editor()
    type(&editor, "s")
    let outcome = send(&editor, [.tab])
    #expect(outcome == .listCompletions(["scope", "search", "select", "set", "show", "stats"]))
    #expect(editor.line == "s")
    type(&editor, "e")
    #expect(send(&editor, [.tab]) == .listCompletions(["search", "select", "set"]))
    #expect(editor.completions == ["search", "select", "set"])
    type(&editor, "l")
    send(&editor, [.tab])
    #expect(editor.line == "select ")
    #expect(editor.completions.isEmpty)
  }

  @Test func tabExtendsToTheLongestCommonPrefix() {
    var editor = LineEditor(commands: ["status", "statistics", "stats"])
    type(&editor, "s")
    #expect(send(&editor, [.tab]) == .listCompletions(["statistics", "stats", "status"]))
    #expect(editor.line == "stat")
    #expect(editor.cursor == 4)
  }

  @Test func tabWithNoCandidateDoesNothing() {
    var editor = editor()
    type(&editor, "xyz")
    #expect(send(&editor, [.tab]) == .editing)
    #expect(editor.line == "xyz")
    #expect(editor.completions.isEmpty)
  }

  @Test func tabCompletesOnlyTheCommandWord() {
    var editor = editor()
    type(&editor, "type st")
    send(&editor, [.tab])
    #expect(editor.line == "type st")
    editor = self.editor()
    type(&editor, "  pa")
    send(&editor, [.tab])
    #expect(editor.line == "  paste ")
    editor = self.editor()
    type(&editor, "pa x")
    send(&editor, [.left, .left, .tab])
    #expect(editor.line == "paste x")
    #expect(editor.cursor == 6)
  }

  @Test func completionsAreClearedByTheNextKey() {
    var editor = editor()
    type(&editor, "s")
    send(&editor, [.tab])
    #expect(!editor.completions.isEmpty)
    send(&editor, [.left])
    #expect(editor.completions.isEmpty)
  }

  // MARK: Drawing

  @Test func frameFitsTheLine() {
    var scroll = 0
    let frame = InteractiveLineReader.frame(
      prompt: "> ", text: "abc", cursorColumn: 1, width: 79, scroll: &scroll)
    #expect(frame == "\r\u{1B}[1m> \u{1B}[22mabc\u{1B}[K\r\u{1B}[3C")
    #expect(scroll == 0)
  }

  @Test func frameScrollsToKeepTheCursorVisible() {
    var scroll = 0
    let text = String(repeating: "x", count: 20) + "END"
    var frame = InteractiveLineReader.frame(
      prompt: "> ", text: text, cursorColumn: 23, width: 10, scroll: &scroll)
    #expect(scroll == 16)
    #expect(frame == "\rxxxxxxEND\u{1B}[K\r\u{1B}[9C")
    // Moving left inside the window does not scroll.
    frame = InteractiveLineReader.frame(
      prompt: "> ", text: text, cursorColumn: 18, width: 10, scroll: &scroll)
    #expect(scroll == 16)
    // Past its left edge, it scrolls back half a window.
    frame = InteractiveLineReader.frame(
      prompt: "> ", text: text, cursorColumn: 5, width: 10, scroll: &scroll)
    #expect(scroll == 2)
    #expect(frame == "\rxxxxxxxxxx\u{1B}[K\r\u{1B}[5C")
  }

  @Test func frameCutsWideCharactersWhole() {
    var scroll = 1
    let frame = InteractiveLineReader.frame(
      prompt: "", text: "東京都", cursorColumn: 6, width: 5, scroll: &scroll)
    // Columns 2...6 show: 京 都, the cursor after them.
    #expect(scroll == 2)
    #expect(frame == "\r京都\u{1B}[K\r\u{1B}[4C")
    var half = 1
    let straddling = InteractiveLineReader.frame(
      prompt: "", text: "東京", cursorColumn: 4, width: 4, scroll: &half)
    #expect(half == 1)
    #expect(straddling == "\r 京\u{1B}[K\r\u{1B}[3C")
  }

  // MARK: History file

  @Test func historyFileRoundTrip() throws {
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("LineEditorTests-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: directory) }
    let path = directory.appendingPathComponent("state/searchrepl/history").path

    var history = LineHistory.load(path: path)
    #expect(history.entries.isEmpty)
    for number in 0..<1100 { history.add("show \(number)") }
    history.add("show 1099")
    history.add("")
    history.add("type a\nb")
    #expect(history.entries.count == LineHistory.capacity)
    #expect(history.entries.first == "show 101")
    #expect(history.entries.last == "type a b")
    #expect(history.save())

    let loaded = LineHistory.load(path: path)
    #expect(loaded == history)
    let text = try String(contentsOfFile: path, encoding: .utf8)
    #expect(text.hasSuffix("show 1099\ntype a b\n"))
  }

  @Test func historyFileLoadDropsBlankAndRepeatedLines() throws {
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("LineEditorTests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let path = directory.appendingPathComponent("history").path
    try Data("a\n\nb\r\nb\nb\n  \nc\nc\u{FF}".utf8).write(to: URL(fileURLWithPath: path))
    #expect(LineHistory.load(path: path).entries == ["a", "b", "c", "c\u{FF}"])
    // Bytes that are not UTF-8 are read as replacement characters, not a failure.
    try Data([0x61, 0xFF, 0x0A, 0x62]).write(to: URL(fileURLWithPath: path))
    #expect(LineHistory.load(path: path).entries == ["a\u{FFFD}", "b"])
  }

  @Test func historyFileFailuresAreQuiet() {
    let missing = LineHistory.load(path: "/nonexistent-directory/history")
    #expect(missing.entries.isEmpty)
    var history = LineHistory(entries: ["a"], path: "/proc/version/history")
    history.add("b")
    #expect(!history.save())
    #expect(!LineHistory(entries: ["a"]).save())
  }

  @Test func historyDefaultPath() {
    #expect(
      LineHistory.defaultPath(environment: ["SEARCHREPL_HISTORY": "/tmp/h", "HOME": "/home/u"])
        == "/tmp/h")
    #expect(LineHistory.defaultPath(environment: ["SEARCHREPL_HISTORY": ""]) == nil)
    #expect(
      LineHistory.defaultPath(environment: ["XDG_STATE_HOME": "/state", "HOME": "/home/u"])
        == "/state/searchrepl/history")
    #expect(
      LineHistory.defaultPath(environment: ["XDG_STATE_HOME": "relative", "HOME": "/home/u"])
        == "/home/u/.local/state/searchrepl/history")
    #expect(LineHistory.defaultPath(environment: [:]) == nil)
  }
}
