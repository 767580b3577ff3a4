#if Web
  import Hummingbird
  import HummingbirdWebSocket
  import NIOCore
  import Synchronization
  import SearchCore
  import SearchEngine

  /// The search served to a browser: a page at `/`, and at `/search` one WebSocket per tab,
  /// each its own search session over one corpus that every session shares.
  ///
  /// The messages are small JSON documents (the SearchWeb catalogue's protocol article). A
  /// message that is not one of them closes its own session with a WebSocket close code; the
  /// other sessions go on.
  public struct SearchWebServer: Sendable {
    /// Where the server listens, what it calls the items, and how each session searches.
    public struct Configuration: Sendable {
      /// The host to bind: the loopback address unless a front says otherwise.
      public var host: String
      /// The port; 0 takes a free one (the `onListening` of ``run(onListening:)`` names it).
      public var port: Int
      /// What the items are called on the page ("cities").
      public var itemsName: String
      /// How each session's controller searches.
      public var search: SearchConfiguration
      /// Origins a page may open a session from besides the server's own
      /// (`http://HOST:PORT` as the browser sends it in the Origin header).
      public var allowedOrigins: Set<String>
      /// How long an update may wait for its client to take it before the session is closed:
      /// a client that stopped reading (a frozen tab, a dead network path) holds the socket
      /// full, and after this long its connection is closed and its session freed.
      public var writeTimeout: Duration

      /// A configuration; by default on 127.0.0.1:8080, searching in the background and
      /// ranking results, with completions.
      public init(
        host: String = "127.0.0.1", port: Int = 8080, itemsName: String = "items",
        search: SearchConfiguration = SearchConfiguration(
          mode: .background, ranksResults: true, completionLimit: 5),
        allowedOrigins: Set<String> = [], writeTimeout: Duration = .seconds(10)
      ) {
        self.host = host
        self.port = port
        self.itemsName = itemsName
        self.search = search
        self.allowedOrigins = allowedOrigins
        self.writeTimeout = writeTimeout
      }
    }

    private let corpus: SearchCorpus
    private let backend: (any SearchBackend)?
    private let configuration: Configuration
    /// The sessions open now, over every copy of the server.
    let sessions = SessionCount()

    /// A server over `corpus`, which every session searches; with a `backend`, the sessions'
    /// background searches are answered by it (as a `SearchController`'s are).
    public init(
      corpus: SearchCorpus, backend: (any SearchBackend)? = nil,
      configuration: Configuration = Configuration()
    ) {
      self.corpus = corpus
      self.backend = backend
      self.configuration = configuration
    }

    /// Serves until the task is cancelled; `onListening` gets the port once it listens.
    ///
    /// In memory, before it listens, it builds the indexes the sessions' searches would build
    /// on first use, and searches the commonest first letters and pairs of letters of the
    /// first field as a session would (about 350 searches, 3 s on 234,908 cities): the
    /// sessions share what every server's first keystrokes ask for.
    public func run(onListening: @escaping @Sendable (Int) async -> Void = { _ in })
      async throws
    {
      let router = Router()
      for (path, page) in WebPage.files {
        router.get(RouterPath(path)) { _, _ in
          Response(
            status: .ok,
            headers: [.contentType: page.contentType, .cacheControl: "no-cache"],
            body: ResponseBody(byteBuffer: ByteBuffer(string: page.text)))
        }
      }
      let shared = WebSession.Shared(corpus: corpus, backend: backend)
      // What the sessions' searches would build on first use is built before the first
      // session, which would otherwise wait for it.
      if backend == nil {
        let search = configuration.search
        if search.completionLimit > 0 { corpus.buildCompletions() }
        if search.querySyntax == .words, search.typos.isOn { corpus.prepareWordIndex() }
        // So are the searches every session starts with: the first letters.
        await WebSession.warm(shared, configuration: configuration)
      }
      let webSocketRouter = Router(context: WebRequestContext.self)
      let (configuration, sessions) = (configuration, sessions)
      webSocketRouter.ws(
        "/search",
        shouldUpgrade: { request, _ in
          try Self.checkOrigin(of: request, allowed: configuration.allowedOrigins)
          return .upgrade([:])
        },
        onUpgrade: { inbound, outbound, context in
          try await WebConnection.serve(
            inbound: inbound, outbound: outbound, channel: context.requestContext.channel,
            shared: shared, configuration: configuration, sessions: sessions)
        })
      let app = Application(
        router: router,
        server: .http1WebSocketUpgrade(
          webSocketRouter: webSocketRouter,
          configuration: .init(
            ws: WebSocketServerConfiguration(maxFrameSize: WebLimits.maxFrameBytes))),
        configuration: ApplicationConfiguration(
          address: .hostname(configuration.host, port: configuration.port),
          serverName: "SearchWeb"),
        onServerRunning: { channel in await onListening(channel.localAddress?.port ?? 0) })
      try await app.runService(gracefulShutdownSignals: [])
    }

    /// A request's context that keeps its channel, so that a session whose client stopped
    /// reading can close the connection under a write that waits for it.
    struct WebRequestContext: RequestContext, WebSocketRequestContext {
      var coreContext: CoreRequestContextStorage
      let webSocket: WebSocketHandlerReference<Self>
      let channel: any Channel

      init(source: ApplicationRequestContextSource) {
        coreContext = CoreRequestContextStorage(source: source)
        webSocket = WebSocketHandlerReference()
        channel = source.channel
      }
    }

    /// Counts the sessions open, and those closed because their client took no update.
    final class SessionCount: Sendable {
      private let counts = Mutex((open: 0, stalled: 0))

      var current: Int { counts.withLock { $0.open } }

      var stalled: Int { counts.withLock { $0.stalled } }

      func opened() { counts.withLock { $0.open += 1 } }

      func closed() { counts.withLock { $0.open -= 1 } }

      func closedStalled() { counts.withLock { $0.stalled += 1 } }
    }

    /// Refuses an upgrade with an Origin header that is neither the server's own nor allowed:
    /// a page of another site may not search here through its visitor's browser.
    ///
    /// A browser sends its page's origin, `http://HOST:PORT`, which must be the request's own
    /// Host (or listed in `allowed`). A client that is no browser may send what it likes, so
    /// its header protects nothing; hummingbird-websocket's sends `ws://HOST` without the port,
    /// which passes when its host is the Host header's. Every Origin header of the request
    /// must pass.
    static func checkOrigin(of request: Request, allowed: Set<String>) throws {
      let authority = request.head.authority ?? ""
      // The host without its port: `[::1]:8080` gives `[::1]`, `127.0.0.1:8080` `127.0.0.1`.
      let host =
        authority.hasPrefix("[")
        ? String(authority.prefix { $0 != "]" }) + "]"
        : String(authority.prefix { $0 != ":" })
      for origin in request.headers[values: .origin] {
        let passes =
          allowed.contains(origin) || origin == "http://\(authority)"
          || origin == "https://\(authority)" || origin == "ws://\(host)"
          || origin == "wss://\(host)"
        guard passes else {
          throw HTTPError(.forbidden, message: "origin \(origin) may not open a search session")
        }
      }
    }
  }
#endif
