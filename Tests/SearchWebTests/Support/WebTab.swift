#if Web
  import Foundation
  import HummingbirdWSClient
  import Logging
  import HTTPTypes
  import NIOCore
  @testable import SearchWeb

  /// A browser tab as the tests play it: a WebSocket client that sends JSON messages and keeps
  /// the window of rows the way the page's script does (by position, the newest generation only).
  final class WebTab: Sendable {
    /// The server's messages, and the deadlines of ``SearchWebServerTests/read(_:into:until:)``
    /// as they pass.
    let messages: AsyncStream<Incoming>
    private let incoming: AsyncStream<Incoming>.Continuation
    private let outgoing: AsyncStream<Outgoing>.Continuation
    /// The close frame the server sent, once the connection has ended.
    let closing: Task<WebSocketCloseFrame?, any Error>

    enum Incoming: Sendable {
      case text(String)
      /// A reader's time is up.
      case deadline
    }

    enum Outgoing: Sendable {
      case text(String)
      case binary([UInt8])
    }

    /// Opens a session at `port`, with an Origin header when `origin` is given.
    init(port: Int, origin: String? = nil) {
      let (messages, incoming) = AsyncStream.makeStream(of: Incoming.self)
      let (outgoingMessages, outgoing) = AsyncStream.makeStream(of: Outgoing.self)
      self.messages = messages
      self.incoming = incoming
      self.outgoing = outgoing
      var headers = HTTPFields()
      if let origin { headers[.origin] = origin }
      var logger = Logger(label: "WebTab")
      logger.logLevel = .warning
      closing = Task {
        defer { incoming.finish() }
        return try await WebSocketClient.connect(
          url: "ws://127.0.0.1:\(port)/search",
          configuration: WebSocketClientConfiguration(
            maxFrameSize: 1 << 22, additionalHeaders: headers),
          logger: logger
        ) { inbound, outbound, _ in
          let writer = Task {
            for await message in outgoingMessages {
              switch message {
              case .text(let text): try await outbound.write(.text(text))
              case .binary(let bytes): try await outbound.write(.binary(ByteBuffer(bytes: bytes)))
              }
            }
            try? await outbound.close(.normalClosure, reason: nil)
          }
          defer { writer.cancel() }
          for try await message in inbound.messages(maxSize: 1 << 22) {
            if case .text(let text) = message { incoming.yield(.text(text)) }
          }
        }
      }
    }

    func send(_ json: String) { outgoing.yield(.text(json)) }

    func sendBinary(_ bytes: [UInt8]) { outgoing.yield(.binary(bytes)) }

    /// Tells the reader its time is up, after `limit`; cancel the task when done reading.
    func deadline(after limit: Duration) -> Task<Void, Never> {
      Task { [incoming] in
        guard (try? await Task.sleep(for: limit)) != nil else { return }
        incoming.yield(.deadline)
      }
    }

    /// Closes the tab's side of the connection.
    func close() { outgoing.finish() }

    deinit { outgoing.finish() }
  }

  /// The page's model of a session: what the script keeps, for the tests to compare.
  struct PageModel {
    var newest = -1
    var rows: [Int: WebRow] = [:]
    var last: WebUpdate?
    var updates: [WebUpdate] = []
    var errors: [String] = []
    var hello: [String: Any]?

    /// Applies a server message as the page's `apply` does; false when it was dropped as stale.
    @discardableResult
    mutating func receive(_ text: String) throws -> Bool {
      let object = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
      switch object?["type"] as? String {
      case "hello":
        hello = object
      case "error":
        errors.append(object?["message"] as? String ?? "")
      case "update":
        let update = try JSONDecoder().decode(WebUpdate.self, from: Data(text.utf8))
        updates.append(update)
        guard update.generation >= newest else { return false }
        newest = update.generation
        rows = rows.filter { (update.start..<update.end).contains($0.key) && $0.key < update.count }
        for row in update.rows { rows[row.position] = row }
        last = update
      default:
        throw PageError(message: "an unknown message: \(text)")
      }
      return true
    }

    /// The rows of the window in order.
    var window: [WebRow] { rows.keys.sorted().compactMap { rows[$0] } }
  }

  struct PageError: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
  }
#endif
