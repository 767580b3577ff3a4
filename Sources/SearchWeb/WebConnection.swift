#if Web
  import HummingbirdWebSocket
  import NIOWebSocket
  import SearchCore
  import SearchEngine

  /// One WebSocket's life: a session, a reader that hands the client's messages to it, and a
  /// writer that sends what the session has when the socket takes it.
  enum WebConnection {
    static func serve(
      inbound: WebSocketInboundStream, outbound: WebSocketOutboundWriter, corpus: SearchCorpus,
      backend: (any SearchBackend)?, configuration: SearchWebServer.Configuration
    ) async throws {
      // A change marks the session dirty; the writer takes the newest state when it is ready.
      let (changes, changed) = AsyncStream.makeStream(
        of: Void.self, bufferingPolicy: .bufferingNewest(1))
      let session: WebSession
      do {
        session = try await MainActor.run {
          try WebSession(
            corpus: corpus, backend: backend, configuration: configuration.search,
            itemsName: configuration.itemsName, onChange: { changed.yield() })
        }
      } catch {
        try await outbound.close(.unexpectedServerError, reason: "no session: \(error)")
        return
      }
      changed.yield()
      try await withThrowingTaskGroup(of: Void.self) { group in
        group.addTask {
          for await _ in changes {
            while let message = await session.nextMessage() {
              try await outbound.write(.text(message.json))
            }
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

    /// Hands each message to the session until the client closes, or until a message is not
    /// of the protocol: then the close code and reason.
    private static func read(_ inbound: WebSocketInboundStream, into session: WebSession)
      async throws -> (WebSocketErrorCode, String)?
    {
      // A message up to a frame's size is read, so that a larger one than the protocol takes is
      // refused with its reason, as any other.
      for try await message in inbound.messages(maxSize: WebLimits.maxFrameBytes) {
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
#endif
