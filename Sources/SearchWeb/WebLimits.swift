#if Web
  /// The web front's tunables, each with its reason, in one place.
  enum WebLimits {
    /// The largest message a client may send, in bytes.
    ///
    /// The longest a page sends is a text of a search field or a list of tokens: 4 KiB holds a
    /// paragraph pasted into the field; more is not a search, and a larger message closes the
    /// session (1009, message too big).
    static let maxClientMessageBytes = 4096
    /// The most rows a client may ask to see at once (a visible range's count): a tall
    /// browser window shows about a hundred rows; a page of 500 keeps an update under about
    /// 200 KB with its neighbours even for long rows.
    static let maxVisibleRows = 500
    /// The largest WebSocket frame the server sends or takes.
    ///
    /// The server's updates are one frame each: three pages of `maxVisibleRows` rows fit; what
    /// a client sends is read up to this and then held to `maxClientMessageBytes`.
    static let maxFrameBytes = 1 << 20
    /// The visible rows a session assumes until its client says: a window's worth of rows in
    /// a browser tab.
    static let initialVisibleRows = 50
    /// The most completions an update carries: those a search field shows under it.
    static let completionLimit = 5
    /// The messages a client may send a second, on average.
    ///
    /// A fast typist sends 10 or so, a page scrolled hard one `visible` a frame (60). Past it the session reads no further
    /// until the budget allows (the client's sends back up in its socket): a flood of
    /// keystrokes costs the server this many searches a second, not as many as the client
    /// can write.
    static let messagesPerSecond = 60.0
    /// The messages a client may send at once, over the rate: a pasted text's keystrokes, or
    /// the burst of a page's start.
    static let messageBurst = 120.0
  }
#endif
