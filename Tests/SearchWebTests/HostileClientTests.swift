#if Web
  import Foundation
  import Testing

  @testable import SearchWeb

  /// Clients that are no well-behaved page.
  ///
  /// A flood of keystrokes, one that stops reading, one that reads slowly, one that resets its
  /// connection in the middle of an update: each is throttled or closed, its session freed, and
  /// the other sessions go on.
  @Suite(.tags(.concurrent), .serialized) struct HostileClientTests {
    typealias Server = SearchWebServerTests

    /// Waits until `condition` holds; fails after the tests' patience.
    static func waitUntil(_ what: String, _ condition: () -> Bool) async throws {
      let clock = ContinuousClock()
      let start = clock.now
      while !condition() {
        guard clock.now - start < Server.patience else {
          throw PageError(message: "not within \(Server.patience): \(what)")
        }
        try await Task.sleep(for: .milliseconds(20))
      }
    }

    @Test func aFloodIsReadAtTheBudgetsPaceAndTheOtherSessionsAreServed() async throws {
      try await Server.withServer { server, port in
        let flooder = WebTab(port: port)
        defer { flooder.close() }
        let other = WebTab(port: port)
        defer { other.close() }
        var otherPage = PageModel()
        try await Server.read(other, into: &otherPage) { $0.table == "original" }

        let clock = ContinuousClock()
        let start = clock.now
        let keys = 480
        flooder.send(#"{"type":"visible","first":0,"count":10}"#)
        for index in 0..<keys - 2 {
          flooder.send(#"{"type":"text","text":"\#(index % 2 == 0 ? "a" : "ab")"}"#)
        }
        flooder.send(#"{"type":"text","text":"über"}"#)

        // Another session searches while the flood is read at the budget's pace.
        other.send(#"{"type":"text","text":"e"}"#)
        try await Server.read(other, into: &otherPage, until: Server.settled(text: "e"))
        let otherDone = clock.now
        #expect(otherPage.window == Array(try Server.reference("e").prefix(100)))

        var flooded = PageModel()
        try await Server.read(flooder, into: &flooded, until: Server.settled(text: "über"))
        let floodDone = clock.now
        #expect(flooded.window == Array(try Server.reference("über").prefix(20)))
        // The budget's burst at once, the rest at its rate: a lower bound, whatever the load.
        let paced = (Double(keys) - WebLimits.messageBurst) / WebLimits.messagesPerSecond
        #expect(floodDone - start >= .seconds(paced * 0.9), "\(floodDone - start)")
        #expect(otherDone < floodDone)
        #expect(server.sessions.current == 2)
      }
    }

    @Test func aClientThatStopsReadingIsClosedAndItsSessionFreed() async throws {
      try await Server.withServer(writeTimeout: .seconds(1)) { server, port in
        let all = try Server.reference("e")
        try #require(all.count > 1000)
        // A small receive buffer, never read. Each scroll is an update of 1,000 rows or more
        // (about 100 KB), until the socket's buffers (a few MB) are full and an update waits
        // the write timeout: then the server closes the connection, and sends fail.
        let sessions = server.sessions
        let stalled = try await RawWebSocket.blocking {
          let socket = try RawWebSocket(port: port, receiveBuffer: 4096)
          try socket.send(#"{"type":"visible","first":0,"count":500}"#)
          try socket.send(#"{"type":"text","text":"e"}"#)
          let clock = ContinuousClock()
          let start = clock.now
          var step = 0
          while sessions.stalled == 0, clock.now - start < Server.patience {
            Thread.sleep(forTimeInterval: 0.02)
            let first = step % 2 == 0 ? 1000 : 0
            step += 1
            guard (try? socket.send(#"{"type":"visible","first":\#(first),"count":500}"#)) != nil
            else { break }
          }
          return socket
        }
        try await Self.waitUntil("the stalled session is closed") { server.sessions.current == 0 }
        // Closed by the write timeout, not by the WebSocket's ping (which takes a minute).
        #expect(server.sessions.stalled == 1)
        #expect(try await RawWebSocket.blocking { try stalled.readsToTheEnd(within: .seconds(30)) })

        // The server still serves.
        let tab = WebTab(port: port)
        defer { tab.close() }
        var page = PageModel()
        tab.send(#"{"type":"text","text":"über"}"#)
        try await Server.read(tab, into: &page, until: Server.settled(text: "über"))
        #expect(page.window == Array(try Server.reference("über").prefix(100)))
      }
    }

    @Test func aSlowReaderGetsFewerNewerUpdatesAndEndsOnItsLastWindow() async throws {
      try await Server.withServer { _, port in
        let all = try Server.reference("e")
        try #require(all.count > 1000)
        let scrolls = 100
        let received = try await RawWebSocket.blocking { () throws -> [String] in
          let socket = try RawWebSocket(port: port, receiveBuffer: 8192)
          try socket.send(#"{"type":"visible","first":0,"count":300}"#)
          try socket.send(#"{"type":"text","text":"e"}"#)
          for step in 1...scrolls {
            try socket.send(#"{"type":"visible","first":\#(step % 2 == 0 ? 0 : 600),"count":300}"#)
          }
          // The last scroll (first 0) has its window as the session's last state: read slowly
          // until its update, which every earlier one may have been folded into.
          var messages: [String] = []
          var page = PageModel()
          do {
            while let message = try socket.receive(chunk: 4096, pause: .milliseconds(1)) {
              messages.append(message)
              try page.receive(message)
              // Page 0 and its neighbour: rows 0 ..< 600.
              if let last = page.last, last.text == "e", !last.pending, last.start == 0,
                last.end == 600
              {
                break
              }
            }
          } catch {
            // What the page holds says where the server stopped.
            let last = page.last.map {
              "text \($0.text), pending \($0.pending), rows \($0.start)..<\($0.end)"
            }
            throw PageError(
              message: "\(error) after \(page.updates.count) updates (the last: \(last ?? "none"))"
                + " and errors \(page.errors)")
          }
          return messages
        }
        var page = PageModel()
        for message in received { try page.receive(message) }
        #expect(page.window == Array(all.prefix(600)))
        // Fewer updates than scrolls: those the socket could not take were folded together.
        let updates = page.updates.count
        #expect(updates < scrolls, "\(updates) updates for \(scrolls) scrolls")
      }
    }

    @Test func aConnectionResetInTheMiddleOfAnUpdateEndsOnlyItsSession() async throws {
      try await Server.withServer { server, port in
        let other = WebTab(port: port)
        defer { other.close() }
        var otherPage = PageModel()
        try await Server.read(other, into: &otherPage) { $0.table == "original" }
        for round in 0..<20 {
          try await RawWebSocket.blocking {
            let socket = try RawWebSocket(port: port)
            try socket.send(#"{"type":"visible","first":\#(round * 10),"count":500}"#)
            try socket.send(#"{"type":"text","text":"e"}"#)
            // The update of 1,500 rows is being rendered or written.
            Thread.sleep(forTimeInterval: Double(round % 5) * 0.002)
            socket.reset()
          }
        }
        try await Self.waitUntil("every reset session is closed") { server.sessions.current == 1 }
        other.send(#"{"type":"text","text":"über"}"#)
        try await Server.read(other, into: &otherPage, until: Server.settled(text: "über"))
        #expect(otherPage.window == Array(try Server.reference("über").prefix(100)))
      }
    }
  }
#endif
