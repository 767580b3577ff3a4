#if Web
  import HummingbirdWebSocket
  import NIOCore
  import NIOWebSocket
  import SearchCore
  import SearchEngine

  /// One WebSocket's life: a session, a reader that hands the client's messages to it, and a
  /// writer that sends what the session has when the socket takes it.
  ///
  /// What a client can do to the server is bounded: its messages are read at most
  /// ``WebLimits/messagesPerSecond`` (a flood waits in its own socket), the session keeps one
  /// state and no queue of updates (a slow reader gets fewer, newer ones), and a client that
  /// takes no update for the configuration's write timeout has its connection closed.
  enum WebConnection {
    static func serve(
      inbound: WebSocketInboundStream, outbound: WebSocketOutboundWriter, channel: any Channel,
      shared: WebSession.Shared, configuration: SearchWebServer.Configuration,
      sessions: SearchWebServer.SessionCount
    ) async throws {
      sessions.opened()
      defer { sessions.closed() }
      // A change marks the session dirty; the writer takes the newest state when it is ready.
      let (changes, changed) = AsyncStream.makeStream(
        of: Void.self, bufferingPolicy: .bufferingNewest(1))
      let session: WebSession
      do {
        session = try await MainActor.run {
          try WebSession(
            shared: shared, configuration: configuration.search,
            itemsName: configuration.itemsName, onChange: { changed.yield() })
        }
      } catch {
        try await outbound.close(.unexpectedServerError, reason: "no session: \(error)")
        return
      }
      changed.yield()
      let writeTimeout = configuration.writeTimeout
      try await withThrowingTaskGroup(of: Void.self) { group in
        group.addTask {
          // A writer that fails closes the connection: a session whose updates stopped must
          // not look alive to its page.
          do {
            try await writeUpdates(
              on: changes, of: session, to: outbound, within: writeTimeout, on: channel,
              sessions: sessions)
          } catch {
            channel.close(mode: .all, promise: nil)
            throw error
          }
        }
        let closing: (WebSocketErrorCode, String)?
        do {
          closing = try await read(inbound, into: session)
        } catch {
          changed.finish()
          group.cancelAll()
          throw error
        }
        changed.finish()
        group.cancelAll()
        if let (code, reason) = closing {
          try? await outbound.write(.text(ServerMessage.error(reason).json))
          try await outbound.close(code, reason: reason)
        }
      }
    }

    /// Sends the session's messages and updates, each when the socket took the one before;
    /// returns when the session ends, or when the client took none for `timeout` (the
    /// connection is then closed).
    private static func writeUpdates(
      on changes: AsyncStream<Void>, of session: WebSession, to outbound: WebSocketOutboundWriter,
      within timeout: Duration, on channel: any Channel, sessions: SearchWebServer.SessionCount
    ) async throws {
      // What the page holds: the rows are drawn here, off the main actor.
      var window = WebWindow()
      for await _ in changes {
        while let outgoing = await session.next() {
          let message: ServerMessage
          switch outgoing {
          case .message(let ready): message = ready
          case .screen(let screen):
            guard let update = window.message(for: screen) else { continue }
            message = update
          }
          let written = try await write(message.json, to: outbound, within: timeout, on: channel)
          if !written {
            sessions.closedStalled()
            return
          }
        }
      }
    }

    /// Writes `text`; false when the client has not taken it after `timeout`, and the
    /// connection is closed (which ends the session).
    private static func write(
      _ text: String, to outbound: WebSocketOutboundWriter, within timeout: Duration,
      on channel: any Channel
    ) async throws -> Bool {
      try await withThrowingTaskGroup(of: Bool.self) { group in
        group.addTask {
          // A write the closing fails is no error of this session's.
          do { try await outbound.write(.text(text)) } catch  where Task.isCancelled {}
          return true
        }
        group.addTask {
          try await Task.sleep(for: timeout)
          return false
        }
        let written = try await group.next() ?? false
        if !written {
          // The write waits on a socket the client does not read: only closing it ends that.
          channel.close(mode: .all, promise: nil)
        }
        group.cancelAll()
        return written
      }
    }

    /// Hands each message to the session until the client closes, or until a message is not
    /// of the protocol: then the close code and reason.
    ///
    /// Messages are read within a budget of ``WebLimits/messagesPerSecond``, with bursts of
    /// ``WebLimits/messageBurst``: over it, the reader waits.
    private static func read(_ inbound: WebSocketInboundStream, into session: WebSession)
      async throws -> (WebSocketErrorCode, String)?
    {
      var budget = MessageBudget(
        perSecond: WebLimits.messagesPerSecond, burst: WebLimits.messageBurst)
      // A message up to a frame's size is read, so that a larger one than the protocol takes is
      // refused with its reason, as any other.
      for try await message in inbound.messages(maxSize: WebLimits.maxFrameBytes) {
        if let wait = budget.take() { try await Task.sleep(for: wait) }
        switch message {
        case .text(let text) where text.utf8.count > WebLimits.maxClientMessageBytes:
          return (
            .messageTooLarge,
            "a message of \(text.utf8.count) bytes: at most \(WebLimits.maxClientMessageBytes)"
          )
        case .text(let text):
          do {
            let decoded = try ClientMessage.decode(text)
            await session.handle(decoded)
          } catch {
            return (.dataInconsistentWithMessage, error.description)
          }
        case .binary:
          return (.unacceptableData, "binary messages are not of this protocol: send JSON text")
        }
      }
      return nil
    }
  }

  /// A token bucket: `burst` messages at once, refilled at `perSecond`.
  struct MessageBudget {
    let perSecond: Double
    let burst: Double
    private var tokens: Double
    private var last: ContinuousClock.Instant
    private let clock = ContinuousClock()

    init(perSecond: Double, burst: Double) {
      self.perSecond = perSecond
      self.burst = burst
      tokens = burst
      last = clock.now
    }

    /// Takes one message's token: nil when there is one, or how long to wait until there is
    /// (the token is then spent in advance).
    mutating func take() -> Duration? {
      let now = clock.now
      tokens = min(burst, tokens + (now - last) / .seconds(1) * perSecond) - 1
      last = now
      guard tokens < 0 else { return nil }
      return .seconds(-tokens / perSecond)
    }
  }
#endif
