import Foundation
import TestSupport
import Testing

/// `repl`'s tokens, suggestions and scope counts, end to end: what the binary prints is
/// checked against the data file read by the test itself.
@Suite struct REPLTokenTests {
  /// One line of `Corpus/products/products.tsv`.
  private struct Product {
    var name: String
    var type: String
    var year: Int
    var price: Double
    var display: String { "\(name) (\(year))" }
  }

  /// The products, in file order: the rows `--no-rank` shows, in that order.
  private static func products() throws -> [Product] {
    let path = corpusManifest("products", "products")
      .replacingOccurrences(of: "products.manifest.json", with: "products.tsv")
    let text = try String(contentsOfFile: path, encoding: .utf8)
    return try text.split(separator: "\n").dropFirst().map { line in
      let cells = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
      try #require(cells.count == 4, "\(line)")
      return Product(
        name: cells[0], type: cells[1], year: try #require(Int(cells[2])),
        price: try #require(Double(cells[3])))
    }
  }

  /// Every line of standard output as a JSON object.
  private func events(_ result: RunResult) throws -> [[String: Any]] {
    try String(decoding: result.stdout, as: UTF8.self).split(separator: "\n").map { line in
      try #require(
        try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "\(line)")
    }
  }

  /// The rows `show` printed (to standard error in JSON mode): "0.12  text" without its label.
  private func shownRows(_ text: String) -> [String] {
    text.split(separator: "\n").compactMap { line in
      guard let first = line.first, first.isNumber, let gap = line.range(of: "  ") else {
        return nil
      }
      // Labels of a page share one width: shorter ones are padded ("0.9   …", "0.10  …").
      return String(line[gap.upperBound...].drop { $0 == " " })
    }
  }

  /// Tokens alone and with text give exactly the products a plain filter of the file keeps,
  /// in file order.
  @Test(arguments: [
    (["type=Device|Portable", "year>=2005"], ""),
    (["price<=999.99"], ""),
    (["price=500..1500", "type=Desktop"], ""),
    (["year=2007"], "ipod"),
    (["price?"], ""),
  ])
  func tokensKeepWhatABruteForceFilterKeeps(tokens: [String], text: String) throws {
    let all = try Self.products()
    let expected = all.filter { product in
      tokens.allSatisfy { token in
        switch token {
        case "type=Device|Portable": ["Device", "Portable"].contains(product.type)
        case "year>=2005": product.year >= 2005
        case "price<=999.99": product.price <= 999.99
        case "price=500..1500": (500...1500).contains(product.price)
        case "type=Desktop": product.type == "Desktop"
        case "year=2007": product.year == 2007
        default: true  // price?: every product has a price
        }
      } && (text.isEmpty || product.name.lowercased().contains(text))
    }.map(\.display)
    #expect(!expected.isEmpty && expected.count < all.count || tokens == ["price?"])
    let pages = max(1, (expected.count + 19) / 20)
    var script = "begin\n" + tokens.map { "token add \($0)\n" }.joined()
    if !text.isEmpty { script += "paste \(text)\n" }
    script += (1...pages).map { "show results \($0)\n" }.joined()
    let result = try runREPL(
      ["--corpus", corpusManifest("products", "products"), "--json"], script)
    #expect(result.status == 0, "\(result.stderrText)")
    let last = try #require(try events(result).last { $0["rows"] != nil })
    #expect(last["rows"] as? Int == expected.count)
    #expect(shownRows(result.stderrText) == expected)
  }

  /// Each search's counts are the rows each scope shows when it is selected, in a session
  /// that does not count; the scope "Name" restricts the fields, so it is counted only while
  /// it is selected.
  @Test func scopeCountsAreEachScopesRows() throws {
    let manifest = corpusManifest("cities", "cities")
    let steps = "begin\ntoken add population>=100000\npaste san\n"
    let scopes = (1...6).map { "scope \($0)\n" }.joined()
    let counted = try runREPL(["--corpus", manifest, "--json", "--count-scopes"], steps + scopes)
    let plain = try runREPL(["--corpus", manifest, "--json"], steps + scopes)
    #expect(counted.status == 0 && plain.status == 0, "\(counted.stderrText)")
    let countedEvents = try events(counted).filter { $0["rows"] != nil }
    let plainEvents = try events(plain).filter { $0["rows"] != nil }
    // The token, the text, then six scopes.
    #expect(countedEvents.count == 8 && plainEvents.count == 8)
    let rowsByScope = plainEvents.suffix(7).map { $0["rows"] as? Int }
    #expect(!plainEvents.contains { $0["scopeCounts"] != nil })
    for (offset, event) in countedEvents.suffix(7).enumerated() {
      let counts = try #require(event["scopeCounts"] as? [Any], "\(event)")
      #expect(counts.count == 7)
      for scope in 0..<6 { #expect(counts[scope] as? Int == rowsByScope[scope], "scope \(scope)") }
      // "Name" (6) restricts the fields searched: a count only in the event that selects it.
      if offset == 6 {
        #expect(counts[6] as? Int == rowsByScope[6])
      } else {
        #expect(counts[6] is NSNull, "\(event)")
      }
    }
    // Both sessions show the same rows.
    #expect(countedEvents.map { $0["rows"] as? Int } == plainEvents.map { $0["rows"] as? Int })
  }

  /// Update events carry the tokens and, with --count-scopes, the counts; a tokens event
  /// lists the tokens in one order whatever order they were added in.
  @Test func eventsCarryTokensAndCounts() throws {
    let result = try runREPL(
      [
        "--corpus", corpusManifest("products", "products"), "--json", "--updates", "--count-scopes",
      ],
      "begin\ntoken add year>=2007\ntoken add type=Device\ntoken remove 0\n")
    #expect(result.status == 0, "\(result.stderrText)")
    let all = try events(result)
    let tokens = all.filter { $0["event"] as? String == "tokens" }
    #expect(
      tokens.map { $0["tokens"] as? [String] } == [
        ["year>=2007"], ["type=Device", "year>=2007"], ["type=Device"],
      ])
    let updates = all.filter { $0["event"] as? String == "update" }
    #expect(
      updates.map { $0["tokens"] as? [String] } == [
        [], ["year>=2007"], ["type=Device", "year>=2007"], ["type=Device"],
      ])
    // type=Device: the 22 devices, all in "Device".
    #expect(updates.last?["scopeCounts"] as? [Int] == [22, 22, 0, 0])
    #expect(tokens.last?["scopeCounts"] as? [Int] == [22, 22, 0, 0])
  }

  /// Mistakes in tokens say where and what; the session goes on.
  ///
  /// `suggest` offers the values with a word that starts with the text, most items first.
  @Test func tokenTranscript() throws {
    let result = try runREPL(
      ["--corpus", corpusManifest("products", "products")],
      """
      begin
      token add kind=Device
      token add type=Desktop
      token add type=Desktop
      token list
      token remove 3
      token remove year?
      paste 19
      suggest
      token clear
      token list

      """)
    expectFailures(result, "3 commands")
    let lines = String(decoding: result.stdout, as: UTF8.self).split(separator: "\n")
      .dropFirst().map(String.init)
    // "19" starts the words of six prices (199.00 and 1999.00, three products each) and of
    // every 1970s–1990s year (1997 twice, the others once; products.tsv): more items first,
    // then the attribute's order (year before price), then the value; ten at most, so 1998
    // and 1999 are left out. The Desktop token stays in the field while the text changes.
    #expect(
      lines == [
        "begin",
        "state: Dimmed",
        "token add: no attribute \"kind\" at column 1; the attributes are type, year, price",
        "  kind=Device",
        "  ^^^^",
        "tokens type=Desktop → reload now (generation 1): 13 rows",
        "load results table",
        "show results table",
        "token type=Desktop is already in the field",
        "the tokens are 0 type=Desktop",
        "token remove: there is no token 3; the tokens are 0 type=Desktop",
        "token remove: no token year? in the field; the tokens are 0 type=Desktop",
        "text \"19\" → reload now (generation 2): no results",
        "suggested tokens for \"19\":",
        "  price=199   3 items",
        "  price=1999  3 items",
        "  year=1997   2 items",
        "  year=1976   1 item",
        "  year=1977   1 item",
        "  year=1983   1 item",
        "  year=1984   1 item",
        "  year=1986   1 item",
        "  year=1989   1 item",
        "  year=1993   1 item",
        "completions: none (no word or value of the items starts with the text)",
        "tokens none → reload now (generation 3): no results",
        "the field has no tokens",
      ])
  }

  /// In cities.tsv the countries are upper case ("CH"): `country=ch` finds the same rows as
  /// `country=CH` and says which value it took; a value that folds as none is refused with
  /// the nearest values, and the session goes on.
  @Test func tokenValuesFoldAsTheText() throws {
    let manifest = corpusManifest("cities", "cities")
    func rows(_ condition: String) throws -> (rows: [String], info: String) {
      let result = try runREPL(
        ["--corpus", manifest, "--json"],
        "begin\ntoken add \(condition)\nshow results 1\nshow results 2\n")
      #expect(result.status == 0, "\(result.stderrText)")
      let last = try #require(try events(result).last { $0["rows"] != nil })
      #expect(last["rows"] as? Int ?? 0 > 20, "\(condition): \(last)")
      return (shownRows(result.stderrText), result.stderrText)
    }
    let (canonical, _) = try rows("country=CH")
    let (folded, info) = try rows("country=ch")
    #expect(folded == canonical)
    #expect(info.contains(#"token add: no item has country "ch": took CH"#))
    let refused = try runREPL(["--corpus", manifest], "begin\ntoken add country=ch|xx\n")
    expectFailures(refused, "1 command")
    let transcript = String(decoding: refused.stdout, as: UTF8.self)
    #expect(
      transcript.contains(
        """
        token add: no item has country "xx" at column 12; the nearest are XK, AX, CX, MX, SX
          country=ch|xx
                     ^^
        """), "\(transcript)")
  }

  /// `suggest` completes the text from the items' own words and values: in products.tsv,
  /// "ip" starts the word "iPod" of six names (the six iPods) and "iPhone" of the iPhones;
  /// most items first.
  ///
  /// With the Desktop token, no desktop's name has such a word.
  @Test func suggestCompletesTheTextWithinTheTokens() throws {
    let result = try runREPL(
      ["--corpus", corpusManifest("products", "products"), "--json"],
      """
      begin
      paste ip
      suggest
      token add type=Desktop
      suggest

      """)
    #expect(result.status == 0, "\(result.stderrText)")
    let events = String(decoding: result.stdout, as: UTF8.self).split(separator: "\n")
      .filter { $0.contains("\"event\":\"suggest\"") }
    #expect(events.count == 2)
    let first = events.first.map(String.init) ?? ""
    #expect(
      first.contains(#""completions":[{"text":"iPod","items":6,"marked":[[0,2]]}"#), "\(first)")
    #expect(events.last?.contains(#""completions":[]"#) == true, "\(events)")
  }
}
