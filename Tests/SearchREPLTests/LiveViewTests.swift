import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// End-to-end tests of `SearchREPL live`: the real binary in a tmux pane, driven with
/// `send-keys` and read back with `capture-pane`.
///
/// Every expected row was worked out from `Corpus/products/products.tsv` (45 products,
/// display "{name} ({year})", in file order): `grep -i ipod` gives the six iPods, all of
/// type Device; 22 products are Devices; none of the iPods is a Desktop. At 80×24 the table
/// has 20 lines (24 less the search bar, scope bar, status and help), at 100×30 it has 26:
/// the 26th product is "Apple TV (2007)".
///
/// Nothing waits for a time: each step polls the pane until the expected screen appears, or
/// fails with the last screen after a generous timeout.
@Suite(.enabled(if: LivePane.tmux != nil, "tmux is not installed"), .tags(.tmux))
struct LiveViewTests {
  /// The help line at 80 columns with an empty bar (Esc quits) and with text (Esc cancels);
  /// "PgUp/PgDn page", the least needed item, does not fit (it shows at 100 columns).
  private static let help =
    "Tab scope · ↑↓ move · Enter choose · Ctrl-O detail · Esc quit · Ctrl-C quit"
  private static let helpWithText =
    "Tab scope · ↑↓ move · Enter choose · Ctrl-O detail · Esc cancel · Ctrl-C quit"
  private static let wideHelp =
    "Tab scope · ↑↓ move · PgUp/PgDn page · Enter choose · Ctrl-O detail · Esc quit · Ctrl-C quit"
  /// The six iPods ranked for "ipod", as `live` ranks by default: "iPod" is the whole name;
  /// the others start with the word, and the products' manifest ranks them by year, newest
  /// first, then shorter name first ("iPod touch" before "iPod classic", both of 2007).
  private static let iPods = [
    "iPod (2001)", "iPod touch (2007)", "iPod classic (2007)", "iPod nano (2005)",
    "iPod shuffle (2005)", "iPod mini (2004)",
  ]

  /// With --completions, the words and values that complete the text show under it once the
  /// index behind them is built (after the first search), the typed part in bold; Tab takes
  /// the first.
  ///
  /// In products.tsv, "ipo" completes to "ipod", which six names hold (the six iPods), before any
  /// other word; Tab makes it the text, which finds those six.
  @Test func completionsShowUnderTheTextAndTabTakesTheFirst() throws {
    let pane = try LivePane.start(command: "live --completions")
    defer { pane.close() }
    _ = try pane.waitFor("the first screen") { $0.last == Self.help }
    // The index is built after the first search: type, and type again until it shows.
    var screen: [String] = []
    for attempt in 0..<20 {
      try pane.type(attempt == 0 ? "ipo" : "o")
      if attempt > 0 { try pane.send("BSpace") }
      if let shown = try? pane.waitFor(
        "completions", within: 3, { $0.count > 1 && $0[1].hasPrefix("Tab: ") })
      {
        screen = shown
        break
      }
    }
    #expect(screen.count > 1 && screen[1].hasPrefix("Tab: iPod 6"), "\(screen)")
    #expect(screen.last?.hasPrefix("Tab complete") == true, "\(screen)")
    try pane.send("Tab")
    screen = try pane.waitFor("the completion taken") {
      $0.first?.hasPrefix("Search: iPod") == true && $0.contains { $0.hasPrefix("6 results") }
    }
    #expect(screen.contains(" iPod (2001)"), "\(screen)")
  }

  @Test func firstScreenFits() throws {
    let pane = try LivePane.start()
    defer { pane.close() }
    let screen = try pane.waitFor("the first screen") { $0.last == Self.help }
    #expect(screen.count == 24)
    #expect(screen[0] == "Search:  Search 45 products")
    // The scopes are counted (the default with scopes): the 22 devices, 13 desktops and
    // 10 portables of products.tsv, 45 in all.
    #expect(screen[1] == " All 45   Device 22   Desktop 13   Portable 10")
    // The status says where the rows on screen are: 20 table lines of 45 rows.
    #expect(screen[2] == "45 products · 1–20 of 45")
    #expect(
      Array(screen[3...5]) == [" Apple I (1976)", " Apple II (1977)", " Lisa (1983)"])
    // 20 table lines: the 20th product is the last row before the help.
    #expect(screen[22] == " MacBook (2006)")
    for line in screen { #expect(line.count <= 80, "too long: \(line)") }
    // The placeholder is dim, "All" is selected, and so is the first row.
    let styled = try pane.capture(attributes: true)
    #expect(LivePane.isDim("Search 45 products", in: styled[0]))
    #expect(!LivePane.isDim("Search:", in: styled[0]))
    #expect(LivePane.isInverse("All", in: styled[1]))
    #expect(!LivePane.isInverse("Device", in: styled[1]))
    #expect(LivePane.isInverse("Apple I (1976)", in: styled[3]))
  }

  /// Ctrl-T turns the text into the token it suggests ("desk" is the type Desktop's word),
  /// shown on its own line under the bar with the counts it leaves; Backspace on the empty
  /// bar removes it again.
  @Test func ctrlTMakesATokenAndBackspaceRemovesIt() throws {
    let pane = try LivePane.start()
    defer { pane.close() }
    _ = try pane.waitFor("the first screen") { $0.last == Self.help }
    try pane.type("desk")
    _ = try pane.waitFor("the text") { $0.first == "Search: desk" }
    try pane.send("C-t")
    let screen = try pane.waitFor("the token") {
      $0.count > 3 && $0[1] == "Tokens: [type=Desktop]" && $0[3].hasPrefix("13 results")
    }
    #expect(screen[0] == "Search:  Search 45 products")
    #expect(screen[2] == " All 13   Device 0   Desktop 13   Portable 0")
    // The table has a line less: 19 rows of 13 fit, the first desktop first.
    #expect(screen[4] == " Apple I (1976)")
    try pane.send("BSpace")
    _ = try pane.waitFor("no token") {
      $0.count > 2 && $0[1] == " All 45   Device 22   Desktop 13   Portable 10"
        && $0[2].hasPrefix("45 products")
    }
  }

  /// Ctrl-T reads a condition's value as the REPL does: "desktop" takes the type Desktop,
  /// which it folds as, and the status says so; "desk" folds as no type, and is refused with
  /// the nearest types.
  @Test func ctrlTFoldsAConditionsValue() throws {
    let pane = try LivePane.start()
    defer { pane.close() }
    _ = try pane.waitFor("the first screen") { $0.last == Self.help }
    try pane.type("type=desk")
    _ = try pane.waitFor("the text") { $0.first == "Search: type=desk" }
    try pane.send("C-t")
    var screen = try pane.waitFor("the refusal") {
      $0.count > 2 && $0[2].contains(#"no item has type "desk""#)
    }
    // The status line is cut at the screen's edge.
    #expect(screen[2].contains("at column 6; the nearest are Desktop, Dev"), "\(screen)")
    try pane.send("C-u")
    try pane.type("type=desktop")
    _ = try pane.waitFor("the text") { $0.first == "Search: type=desktop" }
    try pane.send("C-t")
    screen = try pane.waitFor("the token") {
      $0.count > 3 && $0[1] == "Tokens: [type=Desktop]" && $0[3].hasPrefix("13 results")
    }
    #expect(
      screen[3].hasSuffix(#"no item has type "desktop": took Desktop"#),
      "\(screen)")
  }

  /// The frame comes at once, with the load's progress, and what is typed while the data set
  /// loads is searched once it is loaded.
  ///
  /// Cities take seconds to load in a debug build, so the loading frame is on screen when the test
  /// looks.
  @Test func keysTypedWhileLoadingAreKept() throws {
    let pane = try LivePane.start(corpus: corpusManifest("cities", "cities"))
    defer { pane.close() }
    let loading = try pane.waitFor("the loading frame") { $0.first?.hasPrefix("Search:") == true }
    #expect(loading[1].hasPrefix("Loading cities · "), "\(loading)")
    #expect(loading.last == "Ctrl-C quit")
    try pane.type("zurich")
    // Loading cities takes seconds in a debug build, more under the thread sanitizer.
    let screen = try pane.waitFor("Zürich first", within: LivePane.loadTimeout) {
      $0.first == "Search: zurich" && $0.contains(" Zürich (CH)")
    }
    // Ranked: the city named exactly "Zürich" comes first.
    #expect(screen[3] == " Zürich (CH)", "\(screen)")
  }

  /// The REPL on a terminal: its prompt shows the placeholder with the item count, which
  /// follows a deletion; the start-up text wraps between words at the width.
  @Test func theREPLPromptCountsTheItems() throws {
    let pane = try LivePane.start(columns: 60, command: "repl")
    defer { pane.close() }
    var screen = try pane.waitFor("the prompt") { $0.contains("[Search 45 products] >") }
    for line in screen { #expect(line.count <= 60, "\(line)") }
    #expect(screen.contains { $0.hasPrefix("Loaded 45 products") }, "\(screen)")
    try pane.type("delete 1")
    try pane.send("Enter")
    screen = try pane.waitFor("the new count") { $0.contains("[Search 44 products] >") }
    // Rows count from 0, as index paths do: row 1 is the second product.
    #expect(screen.contains { $0.contains("delete #1 Apple II (1977)") }, "\(screen)")
  }

  /// The detail wraps a long value between words under the screen's width: Zürich's
  /// alternate names take several lines, each within 80 columns, none cut.
  @Test func theDetailWrapsLongValues() throws {
    let pane = try LivePane.start(corpus: corpusManifest("cities", "cities"))
    defer { pane.close() }
    try pane.type("zurich")
    _ = try pane.waitFor("Zürich first", within: LivePane.loadTimeout) {
      $0.count > 3 && $0[3] == " Zürich (CH)"
    }
    try pane.send("C-o")
    let detail = try pane.waitFor("the detail of Zürich") {
      $0.contains { $0.hasPrefix("  alternate names: Cirihe, Cirikh,") }
    }
    for line in detail { #expect(line.count <= 80, "cut or too long: \(line)") }
    let first = try #require(detail.firstIndex { $0.hasPrefix("  alternate names:") })
    #expect(detail[first + 1].hasPrefix("    "), "continued under the value: \(detail)")
    // The names at the end of the list are on screen too.
    let words = detail.joined(separator: " ").split(separator: " ").joined(separator: " ")
    #expect(words.contains("Zürigh, Zürih, churihh"), "\(detail)")
  }

  /// Wrapped at 120 columns, the names in other scripts stay whole: the detail cuts between
  /// words and counts columns as the terminal does (Tamil "சூ" is two, a letter and a spacing
  /// vowel sign), so no line runs past the edge, where the terminal would wrap it again and
  /// the next line would overwrite it in the middle of a character.
  @Test func theDetailWrapsOtherScriptsWhole() throws {
    let pane = try LivePane.start(
      columns: 120, rows: 40, corpus: corpusManifest("cities", "cities"))
    defer { pane.close() }
    try pane.type("zurich")
    _ = try pane.waitFor("Zürich first", within: LivePane.loadTimeout) {
      $0.count > 3 && $0[3] == " Zürich (CH)"
    }
    try pane.send("C-o")
    let detail = try pane.waitFor("the detail of Zürich") {
      $0.contains { $0.hasPrefix("  geonameid: ") }
    }
    #expect(!detail.contains { $0.contains("\u{FFFD}") }, "\(detail)")
    let words = Set(detail.flatMap { $0.split(separator: " ").map(String.init) })
    for name in ["زيورخ,", "ܙܝܘܪܚ,", "ज़्यूरिख़,", "சூரிக்கு,", "ဇူးရစ်ချ်မြို့,", "취리히"] {
      #expect(words.contains(name), "\(name) is cut: \(detail)")
    }
  }

  @Test func typingNarrowsToTheIPods() throws {
    let pane = try LivePane.start()
    defer { pane.close() }
    _ = try pane.waitFor("the first screen") { $0.last == Self.help }
    try pane.type("ipod")
    let screen = try pane.waitFor("the six iPods") {
      LivePane.isIdle($0, text: "ipod", status: "6 results")
    }
    #expect(Array(screen[3...8]) == Self.iPods.map { " " + $0 })
    #expect(screen[9].isEmpty)
    #expect(screen.last == Self.helpWithText)
    // The matched "iPod" of each row is bold and underlined.
    let styled = try pane.capture(attributes: true)
    for line in styled[3...8] {
      #expect(LivePane.attributes(of: "iPod", in: line)?.isSuperset(of: [1, 4]) == true, "\(line)")
      #expect(LivePane.attributes(of: " (", in: line)?.isDisjoint(with: [1, 4]) == true, "\(line)")
    }
  }

  /// With --syntax words, "macbok" finds the six MacBooks (products.tsv has six names with
  /// "MacBook") with one typo each, and each row says so after its text, unmarked.
  @Test func rowsFoundWithTyposSaySo() throws {
    let pane = try LivePane.start(command: "live --syntax words")
    defer { pane.close() }
    _ = try pane.waitFor("the first screen") { $0.last == Self.help }
    try pane.type("macbok")
    let screen = try pane.waitFor("the six MacBooks") {
      LivePane.isIdle($0, text: "macbok", status: "6 results")
    }
    let rows = Array(screen[3...8])
    #expect(rows.allSatisfy { $0.contains("MacBook") && $0.hasSuffix(")  (1 typo)") }, "\(rows)")
    #expect(screen[9].isEmpty)
    let styled = try pane.capture(attributes: true)
    for line in styled[3...8] {
      #expect(
        LivePane.attributes(of: "MacBo", in: line)?.isSuperset(of: [1, 4]) == true, "\(line)")
      #expect(LivePane.attributes(of: "(1 typo)", in: line)?.isDisjoint(with: [1, 4]) == true)
    }
  }

  @Test func tabSelectsTheNextScope() throws {
    let pane = try LivePane.start()
    defer { pane.close() }
    _ = try pane.waitFor("the first screen") { $0.last == Self.help }
    // Tab on the empty bar: the search begins in Device, which holds 22 products.
    try pane.send("Tab")
    var screen = try pane.waitFor("Device's 22 products") {
      LivePane.isIdle($0, text: "", status: "22 results")
    }
    #expect(screen[3] == " Newton MessagePad (1993)")
    #expect(LivePane.isInverse("Device", in: try pane.capture(attributes: true)[1]))
    // With "ipod": Device keeps the six iPods; Desktop has none; Shift-Tab goes back.
    try pane.type("ipod")
    // "ipo" has the same six iPods, ranked otherwise (no word equals it): a loaded machine may
    // show them under "ipod" before its own search returns, so the rows settle the wait.
    screen = try pane.waitFor("the iPods in Device, ranked for \"ipod\"") {
      LivePane.isIdle($0, text: "ipod", status: "6 results") && $0.count > 8
        && Array($0[3...8]) == Self.iPods.map { " " + $0 }
    }
    try pane.send("Tab")
    screen = try pane.waitFor("no iPod in Desktop") {
      LivePane.isIdle($0, text: "ipod", status: "No Results")
    }
    #expect(LivePane.isInverse("Desktop", in: try pane.capture(attributes: true)[1]))
    try pane.send("BTab", "BTab")
    _ = try pane.waitFor("all six iPods again, in All") {
      LivePane.isIdle($0, text: "ipod", status: "6 results")
        && (try? pane.capture(attributes: true)).map { LivePane.isInverse("All", in: $0[1]) }
          == true
    }
    // Tab wraps from the last scope to the first, Shift-Tab from the first to the last.
    try pane.send("BTab")
    _ = try pane.waitFor("Portable selected") {
      LivePane.isIdle($0, text: "ipod", status: "No Results")
        && (try? pane.capture(attributes: true)).map { LivePane.isInverse("Portable", in: $0[1]) }
          == true
    }
    // Esc shows every product again, and the bar agrees: All, which the next keystroke
    // searches (not Portable, where no iPod is).
    try pane.send("Escape")
    _ = try pane.waitFor("the original table, All selected") {
      $0.count > 2 && $0[2] == "45 products · 1–20 of 45"
        && (try? pane.capture(attributes: true)).map { LivePane.isInverse("All", in: $0[1]) }
          == true
    }
    try pane.type("ipod")
    _ = try pane.waitFor("the six iPods, in All") {
      LivePane.isIdle($0, text: "ipod", status: "6 results")
    }
  }

  @Test func detailOpensAndEscapeCancels() throws {
    let pane = try LivePane.start()
    defer { pane.close() }
    _ = try pane.waitFor("the first screen") { $0.last == Self.help }
    try pane.type("ipod")
    _ = try pane.waitFor("the six iPods") { LivePane.isIdle($0, text: "ipod", status: "6 results") }
    // The last of the six, the iPod mini.
    try pane.send("Down", "Down", "Down", "Down", "Down")
    _ = try pane.waitFor("the sixth row selected") { _ in
      (try? pane.capture(attributes: true)).map { LivePane.isInverse("iPod", in: $0[8]) } == true
    }
    try pane.send("C-o")
    let detail = try pane.waitFor("the detail of the iPod mini") {
      $0.contains("  name: iPod mini")
    }
    #expect(detail[0] == "iPod mini (2004)")
    for entry in ["  type: Device", "  year: 2004", "  price: 249"] {
      #expect(detail.contains(entry), "missing \(entry)")
    }
    #expect(detail.last == "Esc/Enter/q close · Ctrl-C quit")
    // What "ipod" matched is marked in the name, bold and underlined; the rest is plain.
    let styled = try pane.capture(attributes: true)
    let nameLine = try #require(detail.firstIndex(of: "  name: iPod mini"))
    #expect(LivePane.attributes(of: "iPod", in: styled[nameLine]) == [1, 4])
    #expect(LivePane.attributes(of: " mini", in: styled[nameLine])?.contains(4) == false)
    // Esc closes the detail: the results again, the same row selected.
    try pane.send("Escape")
    let results = try pane.waitFor("the results again") {
      LivePane.isIdle($0, text: "ipod", status: "6 results")
    }
    #expect(Array(results[3...8]) == Self.iPods.map { " " + $0 })
    #expect(LivePane.isInverse("iPod", in: try pane.capture(attributes: true)[8]))
    // Esc again cancels: the original table of 45, the text gone, the placeholder back.
    try pane.send("Escape")
    let original = try pane.waitFor("the original table") {
      $0.count > 2 && $0[2] == "45 products · 1–20 of 45"
    }
    #expect(original[0] == "Search:  Search 45 products")
    #expect(original[3] == " Apple I (1976)")
    #expect(original[22] == " MacBook (2006)")
  }

  /// The bar edits as the REPL's prompt does: ← moves the cursor, Ctrl-W deletes the word
  /// before it, Ctrl-A goes home; Enter chooses the selected row, which is printed once the
  /// screen is given back, with status 0.
  @Test func editingKeysAndEnterChoosesARow() throws {
    let pane = try LivePane.start()
    defer { pane.close() }
    _ = try pane.waitFor("the first screen") { $0.last == Self.help }
    try pane.type("pro ipad")
    _ = try pane.waitFor("iPad Pro") { LivePane.isIdle($0, text: "pro ipad", status: "1 result") }
    // Ctrl-A, then typing at the start: "mac pro ipad" finds nothing; Ctrl-W after the
    // first word deletes it again.
    try pane.send("C-a")
    try pane.type("mac ")
    _ = try pane.waitFor("no results") {
      LivePane.isIdle($0, text: "mac pro ipad", status: "No Results")
    }
    try pane.send("C-w")
    _ = try pane.waitFor("iPad Pro again") {
      LivePane.isIdle($0, text: "pro ipad", status: "1 result")
    }
    try pane.send("Enter")
    #expect(try pane.waitForStatus() == "0")
    try pane.expectRestored()
    // Printed on the terminal's main screen, once the full screen is gone.
    let mainScreen = try pane.capture()
    #expect(mainScreen.contains("iPad Pro (2015)"), "\(mainScreen)")
  }

  /// The text and Enter in one write (a paste, a fast typist, a script driving the pty): Enter
  /// waits for the text's answer and chooses from it, never from the rows on screen before
  /// it (the original table's first row, "Apple I (1976)").
  ///
  /// The first ranked iPod is chosen; "ipood" needs a typo and chooses the same.
  @Test(arguments: ["ipod", "ipood"])
  func enterWithTheTextChoosesFromItsAnswer(text: String) throws {
    let pane = try LivePane.start(
      command: "live --syntax words", redirections: { "> \($0.file("chosen"))" })
    defer { pane.close() }
    _ = try pane.waitFor("the first screen") { $0.last == Self.help }
    try pane.type(text + "\r")
    #expect(try pane.waitForStatus() == "0")
    #expect(try pane.contents(of: "chosen") == "iPod (2001)\n")
  }

  /// In a pipeline, as fzf: standard input and output are not the terminal, so the view
  /// draws on /dev/tty, and standard output gets only the chosen row.
  @Test func worksInAPipeline() throws {
    let pane = try LivePane.start(redirections: { "< /dev/null > \($0.file("chosen"))" })
    defer { pane.close() }
    _ = try pane.waitFor("the first screen") { $0.last == Self.help }
    try pane.type("ipod")
    _ = try pane.waitFor("the six iPods") { LivePane.isIdle($0, text: "ipod", status: "6 results") }
    try pane.send("Down", "Enter")
    #expect(try pane.waitForStatus() == "0")
    try pane.expectRestored()
    // The second of the ranked iPods; nothing of the screen went to the file.
    #expect(try pane.contents(of: "chosen") == "iPod touch (2007)\n")
  }

  /// As fzf: with standard input not a terminal and no --corpus, its lines are the items (the
  /// keys come from the terminal), and the chosen line goes to standard output.
  ///
  /// "ban" is in two of the four lines; ranked, the line that is the word and more ("banana", 6
  /// characters) comes before the longer one.
  @Test func searchesTheLinesOfStandardInput() throws {
    let pane = try LivePane.start(
      corpus: nil, input: "apple\ncherry\nBanana split\nbanana\n",
      redirections: { "> \($0.file("chosen"))" })
    defer { pane.close() }
    _ = try pane.waitFor("the first screen") { $0.last == Self.help }
    try pane.type("ban")
    let screen = try pane.waitFor("the two lines") {
      LivePane.isIdle($0, text: "ban", status: "2 results")
    }
    #expect(screen.contains { $0.trimmingCharacters(in: .whitespaces) == "banana" })
    #expect(screen.contains { $0.trimmingCharacters(in: .whitespaces) == "Banana split" })
    try pane.send("Enter")
    #expect(try pane.waitForStatus() == "0")
    try pane.expectRestored()
    #expect(try pane.contents(of: "chosen") == "banana\n")
  }

  /// Esc on an empty bar gives up, as Ctrl-C does: status 130, as fzf's Esc.
  @Test func escapeOnAnEmptyBarExitsAsFzfDoes() throws {
    let pane = try LivePane.start()
    defer { pane.close() }
    _ = try pane.waitFor("the first screen") { $0.last == Self.help }
    try pane.send("Escape")
    #expect(try pane.waitForStatus() == "130")
    try pane.expectRestored()
  }

  /// Enter with no row to choose leaves with status 1, as fzf does when nothing matched.
  @Test func enterOnNoRowExitsWithOne() throws {
    let pane = try LivePane.start()
    defer { pane.close() }
    _ = try pane.waitFor("the first screen") { $0.last == Self.help }
    try pane.type("zzzz")
    _ = try pane.waitFor("no results") { $0.contains { $0.contains("No Results") } }
    try pane.send("Enter")
    #expect(try pane.waitForStatus() == "1")
    try pane.expectRestored()
  }

  /// Down scrolls line by line: the 21st row (MacBook Pro) moves the screen one row.
  ///
  /// PgDn moves the screen and the selection by a page (20 lines); the last page is a full one,
  /// rows 26–45, never the last five rows on an empty page. PgUp moves both back a page.
  /// Each wait is for the frame's status line and its last row, both: tmux may capture a
  /// frame half drawn (the status line, drawn first, new; the rows below it not yet).
  @Test func scrollsLineByLineAndPagesStayFull() throws {
    let pane = try LivePane.start()
    defer { pane.close() }
    _ = try pane.waitFor("the first screen") { $0.last == Self.help }
    try pane.tmux(["send-keys", "-t", LivePane.session] + Array(repeating: "Down", count: 20))
    let scrolled = try pane.waitFor("one row scrolled") {
      $0.count > 22 && $0[2] == "45 products · 2–21 of 45" && $0[22] == " MacBook Pro (2006)"
    }
    #expect(scrolled[3] == " Apple II (1977)")
    #expect(LivePane.isInverse("MacBook Pro (2006)", in: try pane.capture(attributes: true)[22]))
    try pane.send("PageDown")
    let paged = try pane.waitFor("a page down") {
      $0.count > 22 && $0[2] == "45 products · 22–41 of 45" && $0[22] == " iMac Pro (2017)"
    }
    #expect(paged[3] == " Mac Pro (2006)")
    #expect(LivePane.isInverse("iMac Pro (2017)", in: try pane.capture(attributes: true)[22]))
    try pane.send("PageDown")
    let last = try pane.waitFor("the last page") {
      $0.count > 22 && $0[2] == "45 products · 26–45 of 45" && $0[22] == " Apple Vision Pro (2024)"
    }
    #expect(last[3] == " Apple TV (2007)")
    #expect(
      LivePane.isInverse("Apple Vision Pro (2024)", in: try pane.capture(attributes: true)[22]))
    try pane.send("PageUp")
    let back = try pane.waitFor("a page up") {
      $0.count > 22 && $0[2] == "45 products · 6–25 of 45" && $0[22] == " iPod classic (2007)"
    }
    #expect(back[3] == " Macintosh Portable (1989)")
    // The selection went up a page too: from row 45 to row 25, iPod classic.
    #expect(LivePane.isInverse("iPod classic (2007)", in: try pane.capture(attributes: true)[22]))
  }

  @Test func resizeRedrawsToTheNewSize() throws {
    let pane = try LivePane.start()
    defer { pane.close() }
    _ = try pane.waitFor("the first screen") { $0.last == Self.help }
    try pane.tmux(["resize-window", "-t", LivePane.session, "-x", "100", "-y", "30"])
    let large = try pane.waitFor("a 100×30 screen") {
      $0.count == 30 && $0.last == Self.wideHelp && $0[28] == " Apple TV (2007)"
    }
    #expect(large[0] == "Search:  Search 45 products")
    #expect(large[3] == " Apple I (1976)")
    // Smaller and smaller: lines cut to the width, the top lines kept, never a crash.
    try pane.tmux(["resize-window", "-t", LivePane.session, "-x", "40", "-y", "10"])
    let small = try pane.waitFor("a 40×10 screen") {
      $0.count == 10 && $0[0] == "Search:  Search 45 products"
        && $0[8] == " Macintosh Portable (1989)"
    }
    for line in small { #expect(line.count <= 40, "too long: \(line)") }
    #expect(small[9].hasSuffix("Ctrl-C quit"))
    try pane.tmux(["resize-window", "-t", LivePane.session, "-x", "12", "-y", "2"])
    _ = try pane.waitFor("a 12×2 screen") {
      // " All 45 " takes 8 of the 10 columns left of " ›"; " Device 22 " does not fit.
      $0.count == 2 && $0[0] == "Search:  Sea" && $0[1] == " All 45    ›"
    }
    try pane.tmux(["resize-window", "-t", LivePane.session, "-x", "80", "-y", "24"])
    _ = try pane.waitFor("the first screen again") {
      $0.count == 24 && $0.last == Self.help && $0[22] == " MacBook (2006)"
    }
  }

  @Test func controlCQuitsAndRestoresTheTerminal() throws {
    let pane = try LivePane.start()
    defer { pane.close() }
    _ = try pane.waitFor("the first screen") { $0.last == Self.help }
    #expect(try pane.alternateScreen())
    try pane.send("C-c")
    let status = try pane.waitForStatus()
    #expect(status == "130", "Ctrl-C exits as fzf does")
    try pane.expectRestored()
  }

  @Test func sigtermRestoresTheTerminal() throws {
    let pane = try LivePane.start()
    defer { pane.close() }
    _ = try pane.waitFor("the first screen") { $0.last == Self.help }
    try pane.type("ipod")
    _ = try pane.waitFor("the six iPods") { LivePane.isIdle($0, text: "ipod", status: "6 results") }
    let shell = try pane.tmux(["display", "-p", "-t", LivePane.session, "#{pane_pid}"])
    let children = try LivePane.run(
      "/usr/bin/env", ["pgrep", "-P", shell.trimmingCharacters(in: .whitespacesAndNewlines)])
    let pids = children.split(whereSeparator: \.isNewline).compactMap { Int32($0) }
    try #require(pids.count == 1, "the pane's shell should have one child: \(children)")
    #expect(kill(pids[0], SIGTERM) == 0)
    let status = try pane.waitForStatus()
    #expect(status == "\(128 + SIGTERM)")
    try pane.expectRestored()
  }
}

/// `live` refuses to run without a terminal, whether or not tmux is installed.
@Suite(.tags(.tmux)) struct LiveCommandTests {
  /// No terminal at all: standard input and output are not terminals, and `setsid` starts the
  /// process in a session of its own, without a controlling terminal (a test run from a
  /// terminal has one, and `live` would draw on it).
  @Test func refusesWithoutATerminal() throws {
    let result = try BinaryRunner.run(
      executable: URL(fileURLWithPath: "/usr/bin/setsid"),
      ["--wait", try BinaryRunner.executableURL().path, "live", "--corpus", LivePane.products],
      stdinFile: URL(fileURLWithPath: "/dev/null"), timeout: 60)
    #expect(result.exitedNormally)
    #expect(result.status == 2)
    #expect(result.stderrText.contains("run it in a terminal"))
    #expect(result.stderrText.contains("repl"))
    #expect(result.stdout.isEmpty)
  }
}

/// A detached tmux session on a private server, running `SearchREPL live` over the products
/// inside a shell that records the terminal's settings before and after, and the exit status.
final class LivePane {
  /// tmux's path, or nil when it is not installed.
  static let tmux: String? = {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    for directory in path.split(separator: ":") + ["/usr/bin", "/usr/local/bin"] {
      let candidate = "\(directory)/tmux"
      if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
    }
    return nil
  }()

  /// The session's name (each pane has a server of its own).
  static let session = "live"

  static let products = corpusManifest("products", "products")

  /// How long any one screen may take to appear.
  static let timeout: TimeInterval = 20
  /// How long a test waits for cities to load: a bound for a slow build, not a speed.
  static let loadTimeout: TimeInterval = 180

  /// The private server's socket name.
  private let server = "searchrepl-live-\(UUID().uuidString)"
  /// Where the shell writes `before`, `after` and `status`.
  private let directory: URL

  private init(directory: URL) { self.directory = directory }

  /// Starts the session at 80×24 (or the size given), on `corpus` (none: no --corpus).
  ///
  /// `input`, if given, is written to a file that becomes the command's standard input.
  /// `redirections` follow the command as they are (`"< /dev/null > out"`); ``file(_:)``
  /// gives the path of a file in the pane's folder for them.
  static func start(
    columns: Int = 80, rows: Int = 24, corpus: String? = products, input: String? = nil,
    command: String = "live", redirections: (LivePane) -> String = { _ in "" }
  ) throws -> LivePane {
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("LiveViewTests-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let pane = LivePane(directory: directory)
    let binary = try BinaryRunner.executableURL().path
    func file(_ name: String) -> String { pane.file(name) }
    var arguments = corpus.map { "--corpus \(quoted($0))" } ?? ""
    if input != nil { arguments += " < \(file("input"))" }
    let script = """
      stty -g > \(file("before")); \(quoted(binary)) \(command) \(arguments) \
      \(redirections(pane)); \
      s=$?; stty -g > \(file("after")); echo $s > \(file("status.tmp")); \
      mv \(file("status.tmp")) \(file("status")); sleep 60
      """
    do {
      if let input { try Data(input.utf8).write(to: directory.appendingPathComponent("input")) }
      try pane.tmux([
        "new-session", "-d", "-s", session, "-x", "\(columns)", "-y", "\(rows)",
        "-e", "TERM=xterm-256color", "--", "sh", "-c", script,
      ])
    } catch {
      pane.close()
      throw error
    }
    return pane
  }

  /// The path of a file in the pane's folder, quoted for the shell.
  func file(_ name: String) -> String { quoted(directory.appendingPathComponent(name).path) }

  /// The text of a file in the pane's folder.
  func contents(of name: String) throws -> String {
    try String(contentsOf: directory.appendingPathComponent(name), encoding: .utf8)
  }

  /// Kills the server and removes its socket and the files.
  func close() {
    let socket = try? tmux(["display", "-p", "#{socket_path}"])
      .trimmingCharacters(in: .whitespacesAndNewlines)
    _ = try? tmux(["kill-server"])
    if let socket, !socket.isEmpty { try? FileManager.default.removeItem(atPath: socket) }
    try? FileManager.default.removeItem(at: directory)
  }

  /// Runs a tmux command on this pane's server; its standard output.
  @discardableResult
  func tmux(_ arguments: [String]) throws -> String {
    guard let tmux = Self.tmux else { throw LivePaneError("tmux is not installed") }
    return try Self.run(tmux, ["-L", server, "-f", "/dev/null"] + arguments)
  }

  /// Types text as it is (no key names).
  func type(_ text: String) throws {
    try tmux(["send-keys", "-t", Self.session, "-l", text])
  }

  /// Presses keys by tmux's names: "Tab", "BTab", "Down", "Enter", "Escape", "C-c".
  func send(_ keys: String...) throws {
    try tmux(["send-keys", "-t", Self.session] + keys)
  }

  /// The pane's lines, without trailing spaces; with `attributes`, with SGR sequences.
  func capture(attributes: Bool = false) throws -> [String] {
    let text = try tmux(
      ["capture-pane", "-p", "-t", Self.session] + (attributes ? ["-e"] : []))
    var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    if lines.last == "" { lines.removeLast() }
    return lines.map { line in
      var line = line
      while line.last == " " { line.removeLast() }
      return line
    }
  }

  /// Polls the pane until `done` holds for its lines; throws with the last screen when it
  /// does not within the timeout.
  @discardableResult
  func waitFor(
    _ what: String, within limit: TimeInterval = LivePane.timeout, _ done: ([String]) -> Bool
  ) throws -> [String] {
    let deadline = Date().addingTimeInterval(limit)
    var screen: [String] = []
    while Date() < deadline {
      screen = try capture()
      if done(screen) { return screen }
      Thread.sleep(forTimeInterval: 0.05)
    }
    throw LivePaneError(
      "timed out waiting for \(what); the screen:\n" + screen.joined(separator: "\n"))
  }

  /// The live process's exit status, once the shell has written it.
  func waitForStatus() throws -> String {
    let file = directory.appendingPathComponent("status")
    let deadline = Date().addingTimeInterval(Self.timeout)
    while Date() < deadline {
      if let text = try? String(contentsOf: file, encoding: .utf8) {
        return text.trimmingCharacters(in: .whitespacesAndNewlines)
      }
      Thread.sleep(forTimeInterval: 0.05)
    }
    throw LivePaneError(
      "timed out waiting for the exit status; the screen:\n"
        + ((try? capture())?.joined(separator: "\n") ?? ""))
  }

  /// Whether the pane shows the alternate screen.
  func alternateScreen() throws -> Bool {
    try tmux(["display", "-p", "-t", Self.session, "#{alternate_on}"])
      .trimmingCharacters(in: .whitespacesAndNewlines) == "1"
  }

  /// Expects the terminal as it was before `live`: the same settings (`stty -g`), the normal
  /// screen, the cursor shown.
  func expectRestored() throws {
    let before = try String(
      contentsOf: directory.appendingPathComponent("before"), encoding: .utf8)
    let after = try String(contentsOf: directory.appendingPathComponent("after"), encoding: .utf8)
    #expect(!before.isEmpty)
    #expect(before == after)
    #expect(try !alternateScreen())
    let cursor = try tmux(["display", "-p", "-t", Self.session, "#{cursor_flag}"])
    #expect(cursor.trimmingCharacters(in: .whitespacesAndNewlines) == "1")
  }

  /// Whether the screen shows `text` in the bar, `status` on the status line, and no search
  /// under way.
  static func isIdle(_ screen: [String], text: String, status: String) -> Bool {
    guard screen.count > 2 else { return false }
    let bar = text.isEmpty ? "Search:  Search 45 products" : "Search: \(text)"
    // The status, then where the rows on screen are ("6 results · 1–6 of 6"), and no
    // "searching…" at its end: the rows of the text before may still show that status while
    // the text's own search runs.
    return screen[0] == bar && (screen[2] == status || screen[2].hasPrefix(status + " · "))
      && !screen[2].hasSuffix("searching…")
  }

  /// Whether `text` is drawn in inverse video on a line captured with attributes.
  static func isInverse(_ text: String, in line: String) -> Bool {
    attributes(of: text, in: line)?.contains(7) == true
  }

  /// Whether `text` is drawn dim on a line captured with attributes.
  static func isDim(_ text: String, in line: String) -> Bool {
    attributes(of: text, in: line)?.contains(2) == true
  }

  /// The SGR attributes (1 bold, 2 dim, 4 underline, 7 inverse) in force where `text`
  /// starts on a line captured with attributes: tmux writes only what changes, so every
  /// sequence before it counts.
  ///
  /// Nil when the line does not hold `text`.
  static func attributes(of text: String, in line: String) -> Set<Int>? {
    guard let range = line.range(of: text) else { return nil }
    var attributes: Set<Int> = []
    var rest = line[..<range.lowerBound]
    while let escape = rest.range(of: "\u{1B}[") {
      rest = rest[escape.upperBound...]
      guard let end = rest.firstIndex(where: { $0.isLetter }) else { break }
      if rest[end] == "m" {
        for parameter in rest[..<end].split(separator: ";", omittingEmptySubsequences: false) {
          switch Int(parameter) ?? 0 {
          case 0: attributes = []
          case 22: attributes.subtract([1, 2])
          case 24: attributes.remove(4)
          case 27: attributes.remove(7)
          case let code: attributes.insert(code)
          }
        }
      }
      rest = rest[rest.index(after: end)...]
    }
    return attributes
  }

  /// Runs a program; its standard output, or an error with its standard error when it
  /// fails.
  ///
  /// It is spawned with no signal blocked and every handler at its default: the test's
  /// threads block signals, and a tmux server that inherited that mask would never see the
  /// SIGTERM that `kill-server` sends it. Output goes to files, not pipes, so that the
  /// server tmux forks cannot hold a pipe open.
  static func run(_ executable: String, _ arguments: [String]) throws -> String {
    let directory = FileManager.default.temporaryDirectory
    let name = "LivePane-\(UUID().uuidString)"
    let outputPath = directory.appendingPathComponent(name + ".out").path
    let errorPath = directory.appendingPathComponent(name + ".err").path
    defer {
      try? FileManager.default.removeItem(atPath: outputPath)
      try? FileManager.default.removeItem(atPath: errorPath)
    }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    posix_spawn_file_actions_addopen(&actions, 2, errorPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var none = sigset_t()
    sigemptyset(&none)
    posix_spawnattr_setsigmask(&attributes, &none)
    var all = sigset_t()
    sigfillset(&all)
    posix_spawnattr_setsigdefault(&attributes, &all)
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

    var environment = ProcessInfo.processInfo.environment
    environment["TERM"] = "xterm-256color"
    let argv = ([executable] + arguments).map { strdup($0) } + [nil]
    let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer {
      for pointer in argv { free(pointer) }
      for pointer in envp { free(pointer) }
    }
    var pid: pid_t = 0
    let spawned = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
    guard spawned == 0 else {
      throw LivePaneError("cannot run \(executable): \(String(cString: strerror(spawned)))")
    }
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 {
      guard errno == EINTR else {
        throw LivePaneError("cannot wait for \(executable): \(String(cString: strerror(errno)))")
      }
    }
    let output = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
    guard status == 0 else {
      let error = (try? String(contentsOfFile: errorPath, encoding: .utf8)) ?? ""
      throw LivePaneError(
        "\(executable) \(arguments.joined(separator: " ")) failed (wait status \(status)): \(error)"
      )
    }
    return output
  }
}

/// A step of a tmux test that could not be done.
struct LivePaneError: Error, CustomStringConvertible {
  var description: String
  init(_ description: String) { self.description = description }
}

/// A word for `sh`, in single quotes.
private func quoted(_ text: String) -> String {
  "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
}
