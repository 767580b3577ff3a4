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
    /// - Throws: ``PostgresSearchError/badAddress(_:reason:)`` saying what is wrong with it,
    ///   quoting the URL with its password hidden.
    public init(url: String) throws(PostgresSearchError) {
      let shown = Self.hidingPassword(url)
      guard let components = URLComponents(string: url),
        components.scheme == "postgres" || components.scheme == "postgresql"
      else {
        throw .badAddress(
          shown, reason: "it must start with postgres:// (postgres://USER@HOST:PORT/DATABASE)")
      }
      let login = ProcessInfo.processInfo.environment["USER"].flatMap { $0.isEmpty ? nil : $0 }
      user = components.user.flatMap { $0.isEmpty ? nil : $0 } ?? login ?? "postgres"
      password = components.password
      port = components.port ?? 5432
      guard (1...65535).contains(port) else {
        throw .badAddress(shown, reason: "port \(port) is out of range")
      }
      let path =
        components.path.hasPrefix("/") ? String(components.path.dropFirst()) : components.path
      database = path.isEmpty ? user : path
      var tls = TLSMode.prefer
      var socketFolder: String?
      for item in components.queryItems ?? [] {
        switch item.name {
        case "sslmode":
          guard let value = item.value, let mode = TLSMode(rawValue: value) else {
            throw .badAddress(shown, reason: "sslmode must be disable, prefer or require")
          }
          tls = mode
        case "host":
          socketFolder = item.value
        default:
          throw .badAddress(
            shown, reason: "unknown parameter \"\(item.name)\"; known: sslmode, host")
        }
      }
      self.tls = tls
      self.socketFolder = socketFolder
      host =
        socketFolder == nil
        ? (components.host.flatMap { $0.isEmpty ? nil : $0 } ?? "127.0.0.1") : nil
    }

    /// `url` with its password, if it has one, as `***`: what an error may quote. The URL may be
    /// malformed, so it is read as text: the login is what comes before the last `@` (after the
    /// scheme), and the password is its part after the first `:`. Hiding too much is safe.
    static func hidingPassword(_ url: String) -> String {
      let afterScheme = url.range(of: "://")?.upperBound ?? url.startIndex
      guard let at = url[afterScheme...].lastIndex(of: "@"),
        let colon = url[afterScheme..<at].firstIndex(of: ":")
      else { return url }
      return url[..<url.index(after: colon)] + "***" + url[at...]
    }

    /// The address as a URL, without the password.
    public var description: String {
      var text = "postgres://\(user)@\(host ?? "")\(host != nil ? ":\(port)" : "")/\(database)"
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
