#if PostgreSQL
  import PostgresNIO
  import SearchCore

  import SearchEngine
  /// What went wrong between this package and a PostgreSQL server, with what to do about it.
  public enum PostgresSearchError: Error, Hashable, Sendable, CustomStringConvertible {
    /// A connection URL that cannot be read.
    case badAddress(String, reason: String)
    /// A table name that cannot be used.
    case badTableName(String)
    /// The table name is the one the registry of data sets takes.
    case reservedTableName(String)
    /// An item holds text PostgreSQL cannot store (a NUL character).
    case unstorableText(item: Int, field: String)
    /// The server or the connection failed (see `SearchBackendError.kind`).
    case backend(SearchBackendError)

    /// The error as one line: what happened, then what to do.
    public var description: String {
      switch self {
      case .badAddress(let url, let reason):
        return "cannot read the address \"\(url)\": \(reason)"
      case .badTableName(let name):
        return
          "cannot use \"\(name)\" as a table name; use letters, digits and underscores, starting with a letter (at most 63)"
      case .reservedTableName(let name):
        return
          "cannot use \"\(name)\" as a table name: the server's list of loaded data sets has it; name the table otherwise (--table NAME)"
      case .unstorableText(let item, let field):
        return
          "item \(item) has a NUL character in field \"\(field)\", which PostgreSQL cannot store; remove it from the data set"
      case .backend(let error):
        return error.description
      }
    }

    /// The failure as a backend error, for the controller's error event.
    var backendError: SearchBackendError {
      if case .backend(let error) = self { return error }
      return SearchBackendError(.rejected, description, advice: "correct it and try again")
    }
  }

  extension SearchBackendError {
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
        switch state {
        case "57014":
          return SearchBackendError(
            .timeout, "PostgreSQL stopped the search after its time limit",
            advice: "type more letters to narrow it, or raise the statement timeout")
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
