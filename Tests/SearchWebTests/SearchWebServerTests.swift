#if Web
  import Foundation
  import HummingbirdWSClient
  import NIOWebSocket
  import SearchCore
  import SearchEngine
  import TestSupport
  import Testing

  @testable import SearchWeb

  /// The server as a browser tab meets it: a real server on a free port of 127.0.0.1, real
  /// WebSockets, the rows compared with the engine's own answer for the same query.
  @Suite(.tags(.concurrent), .serialized) struct SearchWebServerTests {
    /// The committed words sample (6,249 words, seven languages as scopes), shared by the
    /// server's sessions and the reference answers.
    static let corpus: SearchCorpus = {
      do { return try Fixtures.wordsSample() } catch {
        preconditionFailure("the words sample loads: \(error)")
      }
    }()

    /// Runs `body` with a server listening on a free port, stopped afterwards.
    ///
    /// Results are not ranked, so that the rows are in the order of the engine's unranked list.
    static func withServer(_ body: (Int) async throws -> Void) async throws {
      try await withServer { _, port in try await body(port) }
    }

    /// Runs `body` with a server of `configuration` (its port taken free), and the port.
    static func withServer(
      writeTimeout: Duration = .seconds(10),
      _ body: (SearchWebServer, Int) async throws -> Void
    ) async throws {
      let server = SearchWebServer(
        corpus: corpus,
        configuration: SearchWebServer.Configuration(
          port: 0, itemsName: "words",
          search: SearchConfiguration(mode: .background, completionLimit: 5),
          writeTimeout: writeTimeout))
      let (ports, listening) = AsyncStream.makeStream(of: Int.self)
      let running = Task { try await server.run { port in listening.yield(port) } }
      defer { running.cancel() }
      var iterator = ports.makeAsyncIterator()
      let port = try #require(await iterator.next())
      try #require(port > 0)
      try await body(server, port)
    }

    /// The rows the engine gives for `text` in `scope`, as the page shows them (unranked: exact
    /// matches first, then by typos).
    static func reference(_ text: String, scope: Int = 0) throws -> [WebRow] {
      let query = try SearchQuery(
        text, syntax: .extended, typos: .default, normalizer: corpus.normalizer)
      let result = try Fixtures.search(query, scope: scope, in: corpus)
      return try corpus.exactFirst(result).enumerated().map { position, item in
        let marked = try corpus.markedRow(of: item, for: query, scope: scope)
        let typos = corpus.typos(of: item, for: query, scope: scope)
        return WebRow(
          position: position, id: Int(item.rawValue), text: marked.text,
          marks: marked.utf16Marks.map { [$0.lowerBound, $0.upperBound] },
          typos: typos > 0 ? typos : nil)
      }
    }

    /// How long a test waits for a message before it fails: long, since CI runs these tests
    /// beside the rest of the suite on two cores.
    static let patience = Duration.seconds(120)

    /// Reads the tab's messages into `page` until an update meets `done`; fails after
    /// ``patience`` or when the connection ends first.
    static func read(
      _ tab: WebTab, into page: inout PageModel, until done: (WebUpdate) -> Bool
    ) async throws {
      let deadline = tab.deadline(after: patience)
      defer { deadline.cancel() }
      var iterator = tab.messages.makeAsyncIterator()
      while true {
        switch await iterator.next() {
        case .text(let text):
          if try page.receive(text), let last = page.last, done(last) { return }
        case .deadline:
          let last = page.last.map { "\($0.text) \($0.table) pending \($0.pending)" } ?? "none"
          throw PageError(message: "no such update within \(patience); the last: \(last)")
        case nil:
          let ending: String
          do { ending = "closed with \(String(describing: try await tab.closing.value))" } catch {
            ending = "\(error)"
          }
          throw PageError(message: "the connection ended before the update came: \(ending)")
        }
      }
    }

    /// The close frame that ended the tab's connection; fails after ``patience``.
    static func closeFrame(of tab: WebTab) async throws -> WebSocketCloseFrame? {
      try await withThrowingTaskGroup(of: WebSocketCloseFrame?.self) { group in
        group.addTask { try await tab.closing.value }
        group.addTask {
          try await Task.sleep(for: patience)
          // The client's task ends once cancelled, and with it the group.
          tab.closing.cancel()
          throw PageError(message: "the connection was not closed within \(patience)")
        }
        defer { group.cancelAll() }
        return try await group.next() ?? nil
      }
    }

    static func settled(text: String, scope: Int = 0) -> (WebUpdate) -> Bool {
      { $0.text == text && $0.scope == scope && !$0.pending && $0.table == "results" }
    }

    @Test func typingKeystrokeByKeystrokeShowsTheEnginesRows() async throws {
      try await Self.withServer { port in
        let tab = WebTab(port: port)
        defer { tab.close() }
        var page = PageModel()
        tab.send(#"{"type":"visible","first":0,"count":10}"#)
        tab.send(#"{"type":"begin"}"#)
        for prefix in ["ü", "üb", "übe", "über"] {
          tab.send(#"{"type":"text","text":"\#(prefix)"}"#)
        }
        try await Self.read(tab, into: &page, until: Self.settled(text: "über"))
        let expected = try Self.reference("über")
        let update = try #require(page.last)
        #expect(update.count == expected.count)
        #expect(update.state == "rows")
        // The visible page and the next (the page before the first is none): never the rest.
        #expect(update.start == 0 && update.end == min(20, expected.count))
        #expect(page.window == Array(expected.prefix(20)))
        // (Before the page says what it shows, the server assumes a first page of its own.)
        let results = page.updates.filter { $0.table == "results" }
        #expect(results.allSatisfy { $0.rows.allSatisfy { $0.position < 20 } })
        // Generations only grow on one socket.
        let generations = page.updates.map(\.generation)
        #expect(generations == generations.sorted())
        #expect(page.hello?["scopes"] as? [String] == Self.corpus.scopeBar.titles)
        // Scope counts are the engine's for the same text in each scope.
        let counts = try (0..<Self.corpus.scopeBar.scopes.count).map {
          try Self.reference("über", scope: $0).count
        }
        #expect(update.scopeCounts == counts.map { Optional($0) })
      }
    }

    @Test func aScopeShowsItsRowsAndAFurtherRangeOnlyThoseRows() async throws {
      try await Self.withServer { port in
        let tab = WebTab(port: port)
        defer { tab.close() }
        var page = PageModel()
        tab.send(#"{"type":"visible","first":0,"count":10}"#)
        tab.send(#"{"type":"text","text":"e"}"#)
        try await Self.read(tab, into: &page, until: Self.settled(text: "e"))
        let all = try Self.reference("e")
        #expect(page.window == Array(all.prefix(20)))
        try #require(all.count > 200)

        // Rows 100–109 on screen: their page and one on each side, each row sent once.
        tab.send(#"{"type":"visible","first":100,"count":10}"#)
        try await Self.read(tab, into: &page) { $0.start == 90 }
        let moved = try #require(page.last)
        #expect(moved.end == 120)
        #expect(moved.rows.map(\.position) == Array(90..<120))
        #expect(page.window == Array(all[90..<120]))

        // Ten rows further: only the ten rows the page lacks come.
        tab.send(#"{"type":"visible","first":110,"count":10}"#)
        try await Self.read(tab, into: &page) { $0.start == 100 }
        #expect(page.last?.end == 130)
        #expect(page.last?.rows.map(\.position) == Array(120..<130))
        #expect(page.window == Array(all[100..<130]))

        // A scope: its own rows, from the top.
        tab.send(#"{"type":"visible","first":0,"count":10}"#)
        tab.send(#"{"type":"scope","scope":2}"#)
        try await Self.read(tab, into: &page, until: Self.settled(text: "e", scope: 2))
        let scoped = try Self.reference("e", scope: 2)
        #expect(page.last?.count == scoped.count)
        #expect(page.window == Array(scoped.prefix(20)))
        #expect(scoped.count < all.count)
      }
    }

    @Test func aMessageOfNoProtocolClosesItsSessionAndTheOthersGoOn() async throws {
      try await Self.withServer { port in
        let other = WebTab(port: port)
        defer { other.close() }
        var otherPage = PageModel()
        try await Self.read(other, into: &otherPage) { $0.table == "original" }

        let cases: [(send: (WebTab) -> Void, code: WebSocketErrorCode)] = [
          ({ $0.send("{not json") }, .dataInconsistentWithMessage),
          ({ $0.send(#"{"type":"jump"}"#) }, .dataInconsistentWithMessage),
          ({ $0.send(#"{"type":"visible","first":-1,"count":10}"#) }, .dataInconsistentWithMessage),
          ({ $0.send(#"{"type":"text","text":3}"#) }, .dataInconsistentWithMessage),
          ({ $0.sendBinary([1, 2, 3]) }, .unacceptableData),
          (
            { $0.send(#"{"type":"text","text":"\#(String(repeating: "a", count: 5000))"}"#) },
            .messageTooLarge
          ),
          // Over the largest frame: refused as it is read, never held whole.
          (
            { $0.send(#"{"type":"text","text":"\#(String(repeating: "a", count: 2 << 20))"}"#) },
            .messageTooLarge
          ),
        ]
        for (send, code) in cases {
          let tab = WebTab(port: port)
          send(tab)
          let frame = try await Self.closeFrame(of: tab)
          #expect(frame?.closeCode == code, "\(String(describing: frame))")
          if code == .dataInconsistentWithMessage {
            #expect(frame?.reason?.isEmpty == false)
          }
        }

        // The other session still searches.
        other.send(#"{"type":"text","text":"über"}"#)
        try await Self.read(other, into: &otherPage, until: Self.settled(text: "über"))
        #expect(otherPage.window == Array(try Self.reference("über").prefix(100)))
      }
    }

    @Test func aRequestTheDataCannotMeetIsAnErrorAndTheSessionGoesOn() async throws {
      try await Self.withServer { port in
        let tab = WebTab(port: port)
        defer { tab.close() }
        var page = PageModel()
        tab.send(#"{"type":"scope","scope":99}"#)
        tab.send(#"{"type":"tokens","tokens":[{"attribute":"nothing","values":["x"]}]}"#)
        tab.send(#"{"type":"text","text":"über"}"#)
        try await Self.read(tab, into: &page, until: Self.settled(text: "über"))
        #expect(page.errors.count == 2)
        #expect(page.errors.last?.contains("no attribute \"nothing\"") == true)
      }
    }

    @Test func onlyTheServersOwnOriginOpensASession() async throws {
      try await Self.withServer { port in
        let foreign = WebTab(port: port, origin: "http://elsewhere.example")
        await #expect(throws: (any Error).self) { _ = try await foreign.closing.value }
        let own = WebTab(port: port, origin: "http://127.0.0.1:\(port)")
        defer { own.close() }
        var page = PageModel()
        try await Self.read(own, into: &page) { $0.table == "original" }
      }
    }

    /// The server searches the commonest first letters and pairs before the first session, as
    /// written and in lower case: a session's first keystrokes are then searches kept.
    @MainActor @Test func theCommonestFirstLettersAreSearchedBeforeTheFirstSession() async throws {
      let corpus = Self.corpus
      let shared = WebSession.Shared(corpus: corpus, backend: nil)
      let configuration = SearchWebServer.Configuration(
        port: 0, itemsName: "words", search: SearchConfiguration(mode: .background))
      await WebSession.warm(shared, configuration: configuration)
      // The reference: the first value's first letters and pairs, counted here.
      var counts: [String: Int] = [:]
      for id in corpus.model.ids {
        guard let first = corpus.model.values(of: id, field: 0).first else { continue }
        counts[String(first.prefix(1)), default: 0] += 1
        if first.count >= 2 { counts[String(first.prefix(2)), default: 0] += 1 }
      }
      let commonest = try #require(counts.filter { $0.key.count == 2 }.max { $0.value < $1.value })
      let warmed = shared.results.kept.searches
      let prefixes = SharedSearchResults.warmedPrefixes
      #expect(warmed > prefixes.letters && warmed <= 2 * (prefixes.letters + prefixes.pairs))
      let misses = shared.results.lookups.misses
      let session = try WebSession(
        shared: shared, configuration: configuration.search, itemsName: "words", onChange: {})
      for text in [commonest.key, commonest.key.lowercased(), commonest.key + "zzq"] {
        session.handle(.text(text))
        await session.controller.waitUntilIdle()
      }
      // The pair as written and in lower case were kept; the longer text was searched.
      #expect(shared.results.lookups.misses == misses + 1)
      #expect(shared.results.kept.searches == warmed + 1)
    }
  }
#endif
