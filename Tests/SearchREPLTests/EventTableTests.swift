import Foundation
import TestSupport
import Testing

/// The rows of the event table in the guide `SearchBehavior.md` ("Events and decisions"), one group of tests
/// each, run end to end through `SearchREPL repl --json` over the products data set.
///
/// Every expected value was worked out from `Corpus/products/products.tsv` (45 products in
/// file order, item ids from 0; only the `name` field is searched as text, and the display is
/// "{name} ({year})"), not copied from the binary's output:
///
/// - scopes: Device 22, Desktop 13, Portable 10 rows;
/// - names containing "i" 34 (all but Newton MessagePad, eMate 300, Power Mac G4 Cube,
///   PowerBook G4, Power Mac G5, MacBook, MacBook Pro, Mac Pro, Apple TV, Apple Watch,
///   HomePod), "ip" 15 (6 iPods, 5 iPhones, 4 iPads), "ipa"/"ipad" 4, "ipo"/"ipod" 6,
///   "ma" 18, "mac" 17;
/// - in Portable: "m" and "ma" 8 (eMate 300 has "ma"), "mac" 7;
/// - ids: iPod 12, iPod shuffle 16, iPad 28, iPad mini 31, Macintosh Portable 5,
///   MacBook Air (M1) 42, Apple Vision Pro 44.
///
/// Events are compared as whole sequences of compact lines: the event's name, then its keys
/// in a fixed order (`ms` is off through `SEARCHREPL_NO_TIMING=1`; any other key shows up).
@Suite struct EventTableTests {
  private static let products = corpusManifest("products", "products")

  /// The keys written after the event's name, in this order.
  private static let keyOrder = [
    "item", "text", "scope", "scopeTitle", "reload", "generation", "rows", "state", "message",
  ]
  /// Keys whose values are free text, written in quotes.
  private static let quotedKeys: Set<String> = ["text", "scopeTitle", "message"]

  /// What one session wrote: its events as compact lines, and standard error.
  private struct Session {
    var events: [String]
    var stderr: String
  }

  /// Runs `repl --json --corpus products` with `script` on standard input, timing off.
  private func run(_ script: String, failures: String? = nil) throws -> Session {
    let result = try runREPL(["--json", "--corpus", Self.products], script)
    if let failures {
      expectFailures(result, failures)
    } else {
      #expect(result.exitedNormally && result.status == 0, "\(result.stderrText)")
    }
    let text = String(decoding: result.stdout, as: UTF8.self)
    let events = try text.split(separator: "\n").map { line in
      let object = try JSONSerialization.jsonObject(with: Data(line.utf8))
      let event = try #require(object as? [String: Any], "not an object: \(line)")
      return Self.compact(event)
    }
    return Session(events: events, stderr: result.stderrText)
  }

  /// One event as a line: `text text="ip" reload=now generation=2 rows=15 state=rows`.
  private static func compact(_ event: [String: Any]) -> String {
    var parts = [event["event"].map { "\($0)" } ?? "(no event key)"]
    for key in keyOrder {
      guard let value = event[key] else { continue }
      parts.append("\(key)=\(format(value, quoted: quotedKeys.contains(key)))")
    }
    for key in event.keys.sorted() where key != "event" && key != "ms" && !keyOrder.contains(key) {
      parts.append("unexpected \(key)=\(event[key].map { format($0, quoted: true) } ?? "")")
    }
    return parts.joined(separator: " ")
  }

  private static func format(_ value: Any, quoted: Bool) -> String {
    if let string = value as? String { return quoted ? "\"\(string)\"" : string }
    if let number = value as? Int { return String(number) }
    return "\(value)"
  }

  // MARK: begin

  @Test func beginWithEmptyTextIsDimmedAndOnlyOnce() throws {
    // Empty text, scope All: the dimmed state, so the results table is neither loaded nor
    // shown. A second begin while active does nothing, and no request took a generation.
    let session = try run("begin\nbegin\nstats\n")
    #expect(session.events == ["begin"])
    #expect(
      session.stderr.contains(
        "stats: 45 items, generation 0, state Dimmed, 0 discarded searches, 0 results"))
  }

  @Test func beginWithTextAlreadySetSearchesAtOnce() throws {
    // Set while inactive: text-did-change only (reload none). Begin asks the string question
    // for "ipod" at once, as a new request: the 6 iPods.
    let session = try run("paste ipod\nbegin\nbegin\n")
    #expect(
      session.events == [
        #"text text="ipod" reload=none generation=1"#,
        "begin",
        "reload reload=now generation=2 rows=6 state=rows",
        "load",
        "show",
      ])
  }

  @Test func typingIntoAnIdleBarBeginsFirst() throws {
    // A keystroke needs focus: the bar begins (dimmed: its text is still empty), then each
    // character is a text change that searches.
    let session = try run("type ip\nstats\n")
    #expect(
      session.events == [
        "begin",
        #"text text="i" reload=now generation=1 rows=34 state=rows"#,
        "load",
        "show",
        #"text text="ip" reload=now generation=2 rows=15 state=rows"#,
      ])
  }

  // MARK: text change

  @Test func everyKeystrokePasteAndBackspaceIsOneTextChange() throws {
    let session = try run(
      "begin\ntype ipad\nback 5\npaste mac\npaste ipod\npaste zzz\nclear\n")
    #expect(
      session.events == [
        "begin",
        #"text text="i" reload=now generation=1 rows=34 state=rows"#,
        "load",
        "show",
        #"text text="ip" reload=now generation=2 rows=15 state=rows"#,
        #"text text="ipa" reload=now generation=3 rows=4 state=rows"#,
        #"text text="ipad" reload=now generation=4 rows=4 state=rows"#,
        // back 5 on four characters: four changes, the last one to empty text (dimmed).
        #"text text="ipa" reload=now generation=5 rows=4 state=rows"#,
        #"text text="ip" reload=now generation=6 rows=15 state=rows"#,
        #"text text="i" reload=now generation=7 rows=34 state=rows"#,
        #"text text="" reload=none generation=8"#,
        "hide",
        // A paste is one change, whatever its length; the table was loaded already.
        #"text text="mac" reload=now generation=9 rows=17 state=rows"#,
        "show",
        #"text text="ipod" reload=now generation=10 rows=6 state=rows"#,
        #"text text="zzz" reload=now generation=11 rows=0 state=noResults"#,
        #"text text="" reload=none generation=12"#,
        "hide",
      ])
  }

  @Test func belowTheMinimumLengthNothingReloads() throws {
    // minlen 3: "i" and "ip" answer no (the table shows its hint), "ipa" searches; white
    // space at the ends does not count, so "ip " is still below.
    let session = try run("set minlen 3\nbegin\ntype ipad\nback 2\npaste \"ip \"\n")
    #expect(
      session.events == [
        "begin",
        #"text text="i" reload=none generation=1"#,
        "load",
        "show",
        #"text text="ip" reload=none generation=2"#,
        #"text text="ipa" reload=now generation=3 rows=4 state=rows"#,
        #"text text="ipad" reload=now generation=4 rows=4 state=rows"#,
        #"text text="ipa" reload=now generation=5 rows=4 state=rows"#,
        #"text text="ip" reload=none generation=6"#,
        #"text text="ip " reload=none generation=7"#,
      ])
  }

  @Test func backgroundDefersAndReloadsOnlyTheNewestGeneration() throws {
    // Coalesced in the background: every keystroke answers deferred; only the last of the
    // burst searches, and its reload is the only one (the 4 iPads).
    let session = try run(
      "set mode background\nset coalesce 200\nbegin\ntype ipad\nwait\nstats\n")
    #expect(
      session.events == [
        "begin",
        #"text text="i" reload=deferred generation=1"#,
        #"text text="ip" reload=deferred generation=2"#,
        #"text text="ipa" reload=deferred generation=3"#,
        #"text text="ipad" reload=deferred generation=4"#,
        "load",
        "show",
        "reload reload=deferred generation=4 rows=4 state=rows",
      ])
    #expect(
      session.stderr.contains(
        "stats: 45 items, generation 4, state 4 results, 0 discarded searches, 4 results"))
  }

  // MARK: scope change

  @Test func aScopeFiltersEvenWithEmptyText() throws {
    let session = try run(
      """
      begin
      scope Device
      scope desktop
      scope 3
      type mac
      clear
      scope All
      paste mac
      scope device

      """)
    #expect(
      session.events == [
        "begin",
        #"scope scope=1 scopeTitle="Device" reload=now generation=1 rows=22 state=rows"#,
        "load",
        "show",
        #"scope scope=2 scopeTitle="Desktop" reload=now generation=2 rows=13 state=rows"#,
        #"scope scope=3 scopeTitle="Portable" reload=now generation=3 rows=10 state=rows"#,
        #"text text="m" reload=now generation=4 rows=8 state=rows"#,
        #"text text="ma" reload=now generation=5 rows=8 state=rows"#,
        #"text text="mac" reload=now generation=6 rows=7 state=rows"#,
        // Empty text in a scope other than All still filters: all of Portable.
        #"text text="" reload=now generation=7 rows=10 state=rows"#,
        // Empty text in All is the dimmed state: nothing to search for.
        #"scope scope=0 scopeTitle="All" reload=none generation=8"#,
        "hide",
        #"text text="mac" reload=now generation=9 rows=17 state=rows"#,
        "show",
        // No Device product has "mac" in its name.
        #"scope scope=1 scopeTitle="Device" reload=now generation=10 rows=0 state=noResults"#,
      ])
  }

  @Test func aScopeSetBeforeBeginFiltersOnBegin() throws {
    let session = try run("scope Portable\nbegin\n")
    #expect(
      session.events == [
        #"scope scope=3 scopeTitle="Portable" reload=none generation=1"#,
        "begin",
        "reload reload=now generation=2 rows=10 state=rows",
        "load",
        "show",
      ])
  }

  // MARK: search button

  @Test func inSubmitModeOnlyTheSearchButtonSearches() throws {
    let session = try run("set mode submit\nbegin\ntype mac\nsearch\nback\nsearch\nclear\nsearch\n")
    #expect(
      session.events == [
        "begin",
        #"text text="m" reload=none generation=1"#,
        #"text text="ma" reload=none generation=2"#,
        #"text text="mac" reload=none generation=3"#,
        "search reload=now generation=4 rows=17 state=rows",
        "load",
        "show",
        #"text text="ma" reload=none generation=5"#,
        "search reload=now generation=6 rows=18 state=rows",
        #"text text="" reload=none generation=7"#,
        "hide",
        // Nothing to search for: the button answers no, and the table stays dimmed.
        "search reload=none generation=8",
      ])
  }

  @Test func inSubmitModeTheButtonRespectsTheMinimumLength() throws {
    let session = try run("set mode submit\nset minlen 3\nbegin\ntype ip\nsearch\n")
    #expect(
      session.events == [
        "begin",
        #"text text="i" reload=none generation=1"#,
        "load",
        "show",
        #"text text="ip" reload=none generation=2"#,
        "search reload=none generation=3",
      ])
  }

  @Test func inImmediateModeTheButtonOnlyClicks() throws {
    // The results are already up to date: the button is only search-button-clicked.
    let session = try run("begin\ntype ipad\nsearch\n")
    #expect(
      session.events == [
        "begin",
        #"text text="i" reload=now generation=1 rows=34 state=rows"#,
        "load",
        "show",
        #"text text="ip" reload=now generation=2 rows=15 state=rows"#,
        #"text text="ipa" reload=now generation=3 rows=4 state=rows"#,
        #"text text="ipad" reload=now generation=4 rows=4 state=rows"#,
        "search reload=none",
      ])
  }

  // MARK: cancel

  @Test func cancelDropsThePendingSearchForever() throws {
    // "ipa" is shown; then "ipad" waits 5 s in the background mode's quiet interval. Cancel
    // ends the search (generation 5), hides and unloads the results table, clears the text;
    // the search of generation 4 never runs and nothing of it arrives, not even after wait.
    let session = try run(
      """
      begin
      type ipa
      set mode background
      set coalesce 5000
      type d
      cancel
      wait
      stats
      begin
      wait

      """)
    #expect(
      session.events == [
        "begin",
        #"text text="i" reload=now generation=1 rows=34 state=rows"#,
        "load",
        "show",
        #"text text="ip" reload=now generation=2 rows=15 state=rows"#,
        #"text text="ipa" reload=now generation=3 rows=4 state=rows"#,
        #"text text="ipad" reload=deferred generation=4"#,
        "cancel",
        "hide",
        "unload",
        "end",
        // The text was cleared: beginning again is dimmed.
        "begin",
      ])
    #expect(
      session.stderr.contains(
        "stats: 45 items, generation 5, state Hidden, 0 discarded searches, 0 results"))
  }

  @Test func cancelWhileInactiveOnlyClicks() throws {
    let session = try run("cancel\n")
    #expect(session.events == ["cancel"])
  }

  // MARK: model change while searching

  @Test func deletingAResultRowUpdatesBothTablesWithoutAReload() throws {
    // "ipod" shows the 6 iPods; row 2 is iPod shuffle (item 16). The model change takes
    // generation 5 and refreshes the results to 5 rows without a reload event; the next
    // keystroke searches the model without it.
    let session = try run(
      """
      begin
      type ipod
      delete 2
      show
      stats
      back
      cancel
      show

      """)
    #expect(
      session.events == [
        "begin",
        #"text text="i" reload=now generation=1 rows=34 state=rows"#,
        "load",
        "show",
        #"text text="ip" reload=now generation=2 rows=15 state=rows"#,
        #"text text="ipo" reload=now generation=3 rows=6 state=rows"#,
        #"text text="ipod" reload=now generation=4 rows=6 state=rows"#,
        #"delete item=16 text="iPod shuffle (2005)""#,
        #"text text="ipo" reload=now generation=6 rows=5 state=rows"#,
        "cancel",
        "hide",
        "unload",
        "end",
      ])
    #expect(
      session.stderr.contains(
        """
        results table, page 1 of 1 (5 rows)
        0.0  iPod (2001)
        0.1  iPod mini (2004)
        0.2  iPod nano (2005)
        0.3  iPod touch (2007)
        0.4  iPod classic (2007)

        """))
    #expect(
      session.stderr.contains(
        "stats: 44 items, generation 5, state 5 results, 0 discarded searches, 5 results"))
    // Page 1 has labels 0.0 to 0.19: the short ones are padded to the same width.
    #expect(session.stderr.contains("original table, page 1 of 3 (44 rows)\n0.0   Apple I (1976)"))
  }

  @Test func aModelChangeRestartsTheWaitingSearchOnTheNewModel() throws {
    // "ip" shows 15 rows; "ipa" waits in the background. Deleting row 0 (iPod, item 12)
    // refreshes the shown "ip" results to 14 rows (no reload event) as generation 4, and
    // restarts the waiting search as generation 5 on the new model (a generation names one
    // set of rows): its deferred reload has the 4 iPads.
    let session = try run(
      """
      begin
      type ip
      set mode background
      set coalesce 5000
      type a
      delete 0
      wait
      stats

      """)
    #expect(
      session.events == [
        "begin",
        #"text text="i" reload=now generation=1 rows=34 state=rows"#,
        "load",
        "show",
        #"text text="ip" reload=now generation=2 rows=15 state=rows"#,
        #"text text="ipa" reload=deferred generation=3"#,
        #"delete item=12 text="iPod (2001)""#,
        "reload reload=deferred generation=5 rows=4 state=rows",
      ])
    #expect(
      session.stderr.contains(
        "stats: 44 items, generation 5, state 4 results, 0 discarded searches, 4 results"))
  }

  @Test func deletingAnOriginalRowShiftsTheRowsAfterIt() throws {
    // Inactive: the original table is on screen. Row 0 is Apple I (item 0); once it is
    // deleted, row 0 is Apple II (item 1). No search is active, so nothing else happens; the
    // change takes a generation all the same, as the original table's rows are others.
    let session = try run("delete 0\nselect 0\nstats\n")
    #expect(
      session.events == [
        #"delete item=0 text="Apple I (1976)""#,
        #"select item=1 text="Apple II (1977)""#,
      ])
    #expect(
      session.stderr.contains(
        "stats: 44 items, generation 1, state Hidden, 0 discarded searches, 0 results"))
  }

  // MARK: select

  @Test func selectingARowMapsToItsModelItem() throws {
    let session = try run(
      """
      select 44
      begin
      type ipad
      select 1
      select 4
      clear
      scope Portable
      select 0
      select 9

      """, failures: "1 command")
    #expect(
      session.events == [
        // Inactive: the original table's last row.
        #"select item=44 text="Apple Vision Pro (2024)""#,
        "begin",
        #"text text="i" reload=now generation=1 rows=34 state=rows"#,
        "load",
        "show",
        #"text text="ip" reload=now generation=2 rows=15 state=rows"#,
        #"text text="ipa" reload=now generation=3 rows=4 state=rows"#,
        #"text text="ipad" reload=now generation=4 rows=4 state=rows"#,
        // iPad, iPad mini, iPad Air, iPad Pro: row 1 is iPad mini; there is no row 4.
        #"select item=31 text="iPad mini (2012)""#,
        #"error message="the results table has no row 0.4; rows are SECTION.ROW from 0.0""#,
        #"text text="" reload=none generation=5"#,
        "hide",
        #"scope scope=3 scopeTitle="Portable" reload=now generation=6 rows=10 state=rows"#,
        "show",
        #"select item=5 text="Macintosh Portable (1989)""#,
        #"select item=42 text="MacBook Air (M1) (2020)""#,
      ])
    #expect(session.stderr.contains("  name: iPad mini\n  type: Device\n  year: 2012\n"))
  }
}

/// `repl --updates`: the update stream a list front follows, one line per visible change.
@Suite(.tags(.plainSwift)) struct UpdateEventTests {
  /// Every visible change is one update.
  ///
  /// Products with minimum length 3 (see EventTableTests for the counts): begin dims the 45
  /// rows of the original table; "m" and "ma" are below the threshold, an empty results
  /// table (the switch to it deletes the 45 rows); "mac" inserts its 17; back to "ma" deletes
  /// them; cancel shows the original again, its 45 rows inserted.
  ///
  /// "ma" after "m" changes only the hint: an update with no row change. No token is in the field:
  /// every update says so (`"tokens":[]`); the scopes are not counted (no `--count-scopes`), so no
  /// update has `scopeCounts`.
  @Test func everyVisibleChangeIsOneUpdate() throws {
    let result = try runREPL(
      ["--json", "--updates", "--corpus", corpusManifest("products", "products")],
      "set minlen 3\nbegin\ntype mac\nback\ncancel\n")
    #expect(result.exitedNormally && result.status == 0, "\(result.stderrText)")
    let updates = String(decoding: result.stdout, as: UTF8.self).split(separator: "\n")
      .filter { $0.hasPrefix(#"{"event":"update""#) }
      .map { $0.replacingOccurrences(of: #"{"event":"update","cause":"#, with: "") }
    let zero = #""deletedSections":0,"insertedSections":0"#
    #expect(
      updates == [
        #""began","generation":0,"text":"","scope":0,"tokens":[],"state":"dimmed","table":"original","rows":45,"#
          + zero + #","deleted":0,"inserted":0,"moved":0,"reloaded":0}"#,
        #""textChanged","generation":1,"text":"m","scope":0,"tokens":[],"state":"belowThreshold","table":"results","rows":0,"#
          + zero + #","deleted":45,"inserted":0,"moved":0,"reloaded":0}"#,
        #""textChanged","generation":2,"text":"ma","scope":0,"tokens":[],"state":"belowThreshold","table":"results","rows":0,"#
          + zero + #","deleted":0,"inserted":0,"moved":0,"reloaded":0}"#,
        #""textChanged","generation":3,"text":"mac","scope":0,"tokens":[],"state":"rows","table":"results","rows":17,"#
          + zero + #","deleted":0,"inserted":17,"moved":0,"reloaded":0}"#,
        #""textChanged","generation":4,"text":"ma","scope":0,"tokens":[],"state":"belowThreshold","table":"results","rows":0,"#
          + zero + #","deleted":17,"inserted":0,"moved":0,"reloaded":0}"#,
        #""ended","generation":5,"text":"","scope":0,"tokens":[],"state":"hidden","table":"original","rows":45,"#
          + zero + #","deleted":0,"inserted":45,"moved":0,"reloaded":0}"#,
      ])
  }
}
