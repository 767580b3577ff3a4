#if PostgreSQL
  import Foundation
  import NIOSSL
  import PostgresNIO

  /// Where a PostgreSQL server is and how to log in: read from a connection URL, as `psql`
  /// takes it.
  ///
  /// `postgres://USER:PASSWORD@HOST:PORT/DATABASE?sslmode=disable`; every part may be left
  /// out (user: the login name, host: 127.0.0.1, port: 5432, database: the user's name).
  /// `?host=/run/postgresql` connects through the Unix socket in that folder. `sslmode` is
  /// `disable`, `prefer` (the default) or `require`.
  public struct PostgresAddress: Hashable, Sendable, CustomStringConvertible {
    /// The host name or address; nil with a Unix socket.
    public var host: String?
    /// The folder of the server's Unix socket, when it is reached that way.
    public var socketFolder: String?
    /// The port (also names the socket file).
    public var port: Int
    /// The user to log in as.
    public var user: String
    /// The password, if any.
    public var password: String?
    /// The database.
    public var database: String
    /// Whether TLS is used.
    public var tls: TLSMode

    /// Whether to talk to the server over TLS.
    public enum TLSMode: String, Hashable, Sendable {
      case disable, prefer, require
    }

    /// Reads a connection URL.
    ///
    /// A user, password or database with a character the URL reserves (`/`, `?`, `#`, `%`, `@` in a
    /// user) writes it percent-encoded (`/` as `%2F`).
    ///
    /// - Throws: ``PostgresSearchError/badAddress(_:reason:)`` saying what is wrong with it and
    ///   where, quoting the URL with its password hidden; no connection is tried.
    public init(url: String) throws(PostgresSearchError) {
      let shown = Self.hidingPassword(url)
      func bad(_ reason: String) -> PostgresSearchError { .badAddress(shown, reason: reason) }
      let form = "postgres://USER:PASSWORD@HOST:PORT/DATABASE"
      guard let colon = url.firstIndex(of: ":"),
        Self.schemes.contains(url[..<colon].lowercased())
      else { throw bad("it must start with postgres:// or postgresql:// (\(form))") }
      let scheme = url[...colon]
      guard url[url.index(after: colon)...].hasPrefix("//") else {
        throw bad("\"//\" must follow \"\(scheme)\" (\(form))")
      }
      var rest = url[url.index(colon, offsetBy: 3)...]
      // The login ends at the last "@": a password may hold one, not "/", "?" or "#", which
      // would end the server's part of the URL early.
      var login: (user: String?, password: String?) = (nil, nil)
      if let at = rest.lastIndex(of: "@") {
        let text = rest[..<at]
        let split = text.firstIndex(of: ":")
        let userText = text[..<(split ?? text.endIndex)]
        let passwordText = split.map { text[text.index(after: $0)...] }
        for (part, value) in [("user", userText), ("password", passwordText ?? "")] {
          let reserved = Self.reserved.filter { value.contains($0.character) }
          if !reserved.isEmpty {
            throw bad(
              "the \(part) holds "
                + reserved.map { "\"\($0.character)\"" }.joined(separator: " and ")
                + ", which a URL reserves: write "
                + reserved.map { "\($0.character) as \($0.escape)" }.joined(separator: ", ")
                + " in it")
          }
        }
        login.user = try Self.decoded(userText, "the user", bad)
        if let passwordText { login.password = try Self.decoded(passwordText, "the password", bad) }
        rest = rest[rest.index(after: at)...]
      }
      if rest.contains("#") {
        throw bad("\"#\" has no place in it: write # as %23 in a database name or parameter")
      }
      let serverEnd = rest.firstIndex { $0 == "/" || $0 == "?" } ?? rest.endIndex
      let server = rest[..<serverEnd]
      // The host, an IPv6 address in brackets, then ":PORT".
      var hostText = server
      var portText: Substring?
      if server.hasPrefix("[") {
        guard let close = server.firstIndex(of: "]") else {
          throw bad("the host \"\(server)\" opens \"[\" without closing it")
        }
        hostText = server[server.index(after: server.startIndex)..<close]
        let after = server[server.index(after: close)...]
        if !after.isEmpty {
          guard after.hasPrefix(":") else { throw bad("\":PORT\" must follow \"[\(hostText)]\"") }
          portText = after.dropFirst()
        }
      } else if let split = server.firstIndex(of: ":") {
        hostText = server[..<split]
        portText = server[server.index(after: split)...]
      }
      if let portText, !portText.isEmpty {
        let digits = portText.allSatisfy { $0.isASCII && $0.isNumber }
        guard digits, let number = Int(portText), (1...65535).contains(number) else {
          throw bad(
            "the port after \"\(hostText):\" is "
              + (digits ? "\(portText), out of range" : "not a number")
              + ": give one from 1 to 65535, or none for 5432")
        }
        port = number
      } else {
        port = 5432
      }
      let path = rest[serverEnd...].prefix { $0 != "?" }
      let query = rest[serverEnd...].drop { $0 != "?" }.dropFirst()
      let environment = ProcessInfo.processInfo.environment
      let name = environment["USER"].flatMap { $0.isEmpty ? nil : $0 } ?? "postgres"
      user = login.user.flatMap { $0.isEmpty ? nil : $0 } ?? name
      password = login.password
      let databaseText = try Self.decoded(path.drop { $0 == "/" }, "the database", bad)
      database = databaseText.isEmpty ? user : databaseText
      var tls = TLSMode.prefer
      var socketFolder: String?
      for item in query.split(separator: "&") {
        let parts = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
        let key = try Self.decoded(parts[0], "a parameter", bad)
        let value = try Self.decoded(parts.count > 1 ? parts[1] : "", "parameter \(key)", bad)
        switch key {
        case "sslmode":
          guard let mode = TLSMode(rawValue: value) else {
            throw bad("sslmode must be disable, prefer or require")
          }
          tls = mode
        case "host":
          socketFolder = value
        default:
          throw bad("unknown parameter \"\(key)\"; known: sslmode, host")
        }
      }
      self.tls = tls
      self.socketFolder = socketFolder
      host = socketFolder == nil ? (hostText.isEmpty ? "127.0.0.1" : String(hostText)) : nil
    }

    private static let schemes: Set<String> = ["postgres", "postgresql"]

    /// The characters a login cannot hold as they are, with how to write them.
    private static let reserved: [(character: Character, escape: String)] = [
      ("#", "%23"), ("/", "%2F"), ("?", "%3F"),
    ]

    /// `text` with its percent escapes decoded, or the error of a `%` that starts none.
    private static func decoded(
      _ text: Substring, _ what: String, _ bad: (String) -> PostgresSearchError
    ) throws(PostgresSearchError) -> String {
      guard let value = String(text).removingPercentEncoding else {
        throw bad("\(what) has a % without two hex digits after it: write % itself as %25")
      }
      return value
    }

    /// `url` with its password, if it has one, as `***`: how every message quotes an address
    /// it was given.
    ///
    /// The URL may be malformed, so it is read as text: after the scheme (and its slashes, if any)
    /// comes the login, up to the last `@`, and its password is what follows its first `:`. Without
    /// an `@`, what follows a host's `:` is hidden unless it is a port (a password whose host was
    /// left out). Without a scheme of PostgreSQL's or `://`, all from the first `:` is the login's.
    /// Hiding too much is safe.
    static func hidingPassword(_ url: String) -> String {
      var start = url.startIndex
      if let colon = url.firstIndex(of: ":"),
        schemes.contains(url[..<colon].lowercased()) || url[colon...].hasPrefix("://")
      {
        start = url[url.index(after: colon)...].firstIndex { $0 != "/" } ?? url.endIndex
      }
      let rest = url[start...]
      if let at = rest.lastIndex(of: "@") {
        guard let colon = rest[..<at].firstIndex(of: ":") else { return url }
        return url[...colon] + "***" + url[at...]
      }
      let server = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
      let afterHost = server.hasPrefix("[") ? server.drop { $0 != "]" } : server
      guard let colon = afterHost.firstIndex(of: ":"),
        !afterHost[afterHost.index(after: colon)...].allSatisfy({ $0.isASCII && $0.isNumber })
      else { return url }
      return url[...colon] + "***" + url[server.endIndex...]
    }

    /// The address as a URL, without the password.
    public var description: String {
      let shownHost = host.map { $0.contains(":") ? "[\($0)]:\(port)" : "\($0):\(port)" } ?? ""
      var text = "postgres://\(user)@\(shownHost)/\(database)"
      var parameters: [String] = []
      if let socketFolder { parameters.append("host=\(socketFolder)") }
      if tls != .prefer { parameters.append("sslmode=\(tls.rawValue)") }
      if !parameters.isEmpty { text += "?" + parameters.joined(separator: "&") }
      return text
    }

    /// The connection configuration for this address.
    func connectionConfiguration(statementTimeout: Duration?, connectTimeout: Duration)
      throws(PostgresSearchError) -> PostgresConnection.Configuration
    {
      var configuration: PostgresConnection.Configuration
      if let socketFolder {
        configuration = PostgresConnection.Configuration(
          unixSocketPath: "\(socketFolder)/.s.PGSQL.\(port)", username: user, password: password,
          database: database)
      } else {
        let mode: PostgresConnection.Configuration.TLS
        do {
          switch tls {
          case .disable: mode = .disable
          case .prefer: mode = .prefer(try NIOSSLContext(configuration: .makeClientConfiguration()))
          case .require:
            mode = .require(try NIOSSLContext(configuration: .makeClientConfiguration()))
          }
        } catch {
          throw .badAddress(
            description, reason: "TLS cannot be set up (\(error)); try sslmode=disable")
        }
        configuration = PostgresConnection.Configuration(
          host: host ?? "127.0.0.1", port: port, username: user, password: password,
          database: database, tls: mode)
      }
      configuration.options.connectTimeout = .nanoseconds(Self.nanoseconds(connectTimeout))
      if let statementTimeout {
        configuration.options.additionalStartupParameters = [
          ("statement_timeout", "\(max(Self.nanoseconds(statementTimeout) / 1_000_000, 1))")
        ]
      }
      return configuration
    }

    private static func nanoseconds(_ duration: Duration) -> Int64 {
      duration.components.seconds * 1_000_000_000 + duration.components.attoseconds / 1_000_000_000
    }
  }
#endif
