#if PostgreSQL
  import PostgresNIO

  import SearchEngine
  /// What went wrong between this package and a PostgreSQL server, with what to do about it.
  public struct PostgresSearchError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What went wrong, to compare with `==` or branch on with `if`, or `switch` with a
    /// `default`; a release may add codes.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
      private let name: String
      private init(name: String) { self.name = name }

      /// A connection URL that cannot be read.
      public static let badAddress = Code(name: "badAddress")
      /// A table name that cannot be used.
      public static let badTableName = Code(name: "badTableName")
      /// The table name is the one the registry of data sets takes.
      public static let reservedTableName = Code(name: "reservedTableName")
      /// An item holds text PostgreSQL cannot store (a NUL character).
      public static let unstorableText = Code(name: "unstorableText")
      /// The server or the connection failed (see ``PostgresSearchError/backendFailure``).
      public static let backend = Code(name: "backend")

      /// The code's name, such as "badAddress".
      public var description: String { name }
    }

    /// What went wrong.
    public let code: Code
    /// The address or table name at fault.
    public let value: String?
    /// The item whose text cannot be stored, for ``Code/unstorableText``.
    public let item: Int?
    /// The field whose text cannot be stored, for ``Code/unstorableText``.
    public let field: String?
    /// The failure of the server or the connection, for ``Code/backend``: a
    /// ``/SearchEngine/SearchBackendError``, whose ``/SearchEngine/SearchBackendError/code`` says which.
    public let backendFailure: SearchBackendError?
    /// The error as one line: what happened, then what to do.
    public let description: String

    private init(
      _ code: Code, _ description: String, value: String? = nil, item: Int? = nil,
      field: String? = nil, backendFailure: SearchBackendError? = nil
    ) {
      self.code = code
      self.description = description
      self.value = value
      self.item = item
      self.field = field
      self.backendFailure = backendFailure
    }

    /// A connection URL that cannot be read.
    public static func badAddress(_ url: String, reason: String) -> Self {
      Self(.badAddress, "cannot read the address \"\(url)\": \(reason)", value: url)
    }
    /// A table name that cannot be used.
    public static func badTableName(_ name: String) -> Self {
      Self(
        .badTableName,
        "cannot use \"\(name)\" as a table name; use letters, digits and underscores, starting with a letter (at most 63)",
        value: name)
    }
    /// The table name is the one the registry of data sets takes.
    public static func reservedTableName(_ name: String) -> Self {
      Self(
        .reservedTableName,
        "cannot use \"\(name)\" as a table name: the server's list of loaded data sets has it; name the table otherwise (--table NAME)",
        value: name)
    }
    /// An item holds text PostgreSQL cannot store (a NUL character).
    public static func unstorableText(item: Int, field: String) -> Self {
      Self(
        .unstorableText,
        "item \(item) has a NUL character in field \"\(field)\", which PostgreSQL cannot store; remove it from the data set",
        item: item, field: field)
    }
    /// The server or the connection failed.
    public static func backend(_ error: SearchBackendError) -> Self {
      Self(.backend, error.description, backendFailure: error)
    }

    /// The failure as a backend error, for the controller's error event.
    var backendError: SearchBackendError {
      backendFailure
        ?? SearchBackendError(.rejected, description, advice: "correct it and try again")
    }
  }

  extension SearchBackendError {
    /// Whether the server stopped the statement: its time limit, or a cancel request.
    ///
    /// Read from the error's SQL state and message: `57014` (query_canceled), or `2201B`
    /// "invalid regular expression: operation cancelled". PostgreSQL's regular-expression
    /// library stops on a pending cancel and reports it so where the server cannot raise the
    /// cancel itself (seen on PostgreSQL 15 when the exact count's 25 ms budget ran out).
    static func serverStoppedTheStatement(state: String?, message: String?) -> Bool {
      switch state {
      case "57014": return true
      case "2201B": return message?.hasSuffix("operation cancelled") ?? false
      default: return false
      }
    }

    /// What a PostgresNIO error means for a search, said for a person at a search field.
    static func postgres(_ error: any Error, address: PostgresAddress, table: String? = nil)
      -> SearchBackendError
    {
      if let error = error as? SearchBackendError { return error }
      if let error = error as? PostgresSearchError { return error.backendError }
      if let error = error as? PostgresDecodingError {
        // The server sent a column of another type than the layout has: the table was
        // altered, or loaded by another version.
        return SearchBackendError(
          .mismatch,
          "the layout of \(table.map { "table \"\($0)\"" } ?? "the table") at \(address) changed: "
            + "a column holds \(error.postgresType), which this list does not read",
          advice: "load it again: SearchREPL load MANIFEST --into \(address)")
      }
      guard let error = error as? PSQLError else {
        return SearchBackendError(
          .unreachable, "cannot reach PostgreSQL at \(address): \(error)",
          advice: "check that the server runs and the address is right")
      }
      let server = error.serverInfo
      let state = server?[.sqlState]
      let message = server?[.message] ?? "\(error.code)"
      switch error.code {
      case .server:
        if Self.serverStoppedTheStatement(state: state, message: message) {
          return SearchBackendError(
            .timeout, "PostgreSQL stopped the search after its time limit",
            advice: "type more letters to narrow it, or raise the statement timeout")
        }
        switch state {
        case "42P01":
          return SearchBackendError(
            .rejected,
            "PostgreSQL at \(address) has no table \(table.map { "\"\($0)\"" } ?? ""): \(message)",
            advice: "load it first: SearchREPL load MANIFEST --into \(address)")
        case "42703", "42804", "42883":
          // An undefined column, a column of another type, no such operator for it: the table
          // is not laid out as this list reads it.
          return SearchBackendError(
            .mismatch,
            "the layout of \(table.map { "table \"\($0)\"" } ?? "the table") at \(address) changed: \(message)",
            advice: "load it again: SearchREPL load MANIFEST --into \(address)")
        case "53300":
          return SearchBackendError(
            .unreachable, "PostgreSQL at \(address) has no connection free: \(message)",
            advice:
              "it waited the connect timeout for one: close other clients, give each fewer (maximumConnections), or raise max_connections (or the role's limit)"
          )
        case "57P01":
          // pg_terminate_backend, or a server shutting down: the server says which.
          return SearchBackendError(
            .connectionLost, "PostgreSQL at \(address) ended the connection: \(message)",
            advice: "the next keystroke tries again; check the server if it keeps happening")
        case "57P02", "57P03":
          return SearchBackendError(
            .connectionLost, "PostgreSQL at \(address) is shutting down or starting: \(message)",
            advice: "try again when it is up; the results on screen are the last ones")
        case "28P01", "28000":
          return SearchBackendError(
            .unreachable, "PostgreSQL at \(address) refused the login: \(message)",
            advice: "check the user and password in the address")
        case "3D000":
          return SearchBackendError(
            .unreachable, "PostgreSQL at \(address) has no such database: \(message)",
            advice: "create it (createdb) or name another one in the address")
        default:
          return SearchBackendError(
            .rejected, "PostgreSQL refused the request (\(state ?? "no SQL state")): \(message)",
            advice: "see the server's log")
        }
      case .serverClosedConnection, .uncleanShutdown, .clientClosedConnection:
        return SearchBackendError(
          .connectionLost, "the connection to PostgreSQL at \(address) was lost during the request",
          advice: "the next keystroke tries again; check the server if it keeps happening")
      case .sslUnsupported:
        return SearchBackendError(
          .unreachable,
          "PostgreSQL at \(address) does not offer TLS, which sslmode=require asks for",
          advice: "turn on ssl in the server's configuration, or use sslmode=prefer or disable")
      case .failedToAddSSLHandler, .receivedUnencryptedDataAfterSSLRequest:
        return SearchBackendError(
          .unreachable, "the TLS handshake with PostgreSQL at \(address) failed: \(error.code)",
          advice: "check the server's TLS setup, or use sslmode=disable on a trusted network")
      case .connectionError, .poolClosed:
        return SearchBackendError(
          .unreachable, "cannot connect to PostgreSQL at \(address)",
          advice:
            "check that the server runs and listens there (pg_ctl status, the port in the address)")
      case .queryCancelled:
        return SearchBackendError(
          .timeout, "the search was cancelled on the server", advice: "type again to retry")
      default:
        return SearchBackendError(
          .rejected, "PostgreSQL request failed: \(error.code)", advice: "see the server's log")
      }
    }
  }
#endif
