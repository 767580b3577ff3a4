#if Web
  import SearchCore
  import SearchEngine
  import TestSupport
  import Testing

  @testable import SearchWeb

  /// Many tabs typing at once into one server, each its own search over the shared corpus: what
  /// each tab ends up showing, never how fast (the web suite of SearchBenchmarks times it).
  @Suite(.tags(.concurrent)) struct ManySessionsTests {
    /// How many tabs type at once.
    static let sessions = 20

    /// Real queries of the words sample, one per tab, all different: words of the sample taken
    /// at an even stride, each with its own results.
    static func queries() -> [String] {
      let model = SearchWebServerTests.corpus.model
      let stride = model.count / (sessions * 2)
      var chosen: [String] = []
      var position = 0
      while chosen.count < sessions, position < model.count {
        let word = model.values(of: model.id(at: position), field: 0).first ?? ""
        // Words of three characters or more, letters only: typed, each prefix is a query.
        if word.count >= 3, word.allSatisfy(\.isLetter), !chosen.contains(word) {
          chosen.append(word)
        }
        position += stride
      }
      return chosen
    }

    @Test func everyTabTypingAtOnceEndsOnTheEnginesRowsForItsOwnText() async throws {
      let queries = Self.queries()
      try #require(queries.count == Self.sessions)
      try await SearchWebServerTests.withServer { port in
        try await withThrowingTaskGroup(of: Void.self) { group in
          for (index, query) in queries.enumerated() {
            group.addTask {
              try await Self.type(query, port: port, session: index)
            }
          }
          try await group.waitForAll()
        }
      }
    }

    /// One tab: shows ten rows, types `query` a character at a time (the tabs' keystrokes
    /// interleave), and checks what it shows once its last keystroke is answered.
    static func type(_ query: String, port: Int, session: Int) async throws {
      let tab = WebTab(port: port)
      defer { tab.close() }
      var page = PageModel()
      tab.send(#"{"type":"visible","first":0,"count":10}"#)
      tab.send(#"{"type":"begin"}"#)
      let prefixes = query.indices.map { String(query[...$0]) }
      for prefix in prefixes {
        tab.send(#"{"type":"text","text":"\#(prefix)"}"#)
        // A pause between keystrokes, different per tab, so that the tabs' keystrokes interleave
        // at the server rather than arrive in one burst each.
        try await Task.sleep(for: .milliseconds(5 + session % 7))
      }
      try await SearchWebServerTests.read(
        tab, into: &page, until: SearchWebServerTests.settled(text: query))
      let expected = try SearchWebServerTests.reference(query)
      let update = try #require(page.last)
      // The engine's rows for this tab's own text: their count, and the visible page and the
      // next, row for row.
      #expect(update.count == expected.count, "\(query)")
      #expect(update.state == (expected.isEmpty ? "noResults" : "rows"), "\(query)")
      #expect(page.window == Array(expected.prefix(20)), "\(query)")
      // Generations only grow on one socket.
      let generations = page.updates.map(\.generation)
      #expect(generations == generations.sorted(), "\(query): \(generations)")
      // Every update answers this tab's own text (or the whole list before it), never another
      // tab's.
      let own = Set(prefixes + [""])
      let foreign = page.updates.map(\.text).filter { !own.contains($0) }
      #expect(foreign.isEmpty, "\(query) was shown \(foreign)")
      #expect(page.errors.isEmpty, "\(query): \(page.errors)")
    }
  }
#endif
