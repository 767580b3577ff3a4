import Foundation
import SearchCore
import SearchDataSets
import SearchEngine

#if PostgreSQL
  import SearchPostgres
#endif

/// The PostgreSQL server of `--backend`, `load` and `SearchBenchmarks --suite backend`, as the commands
/// reach it.
///
/// The server path is compiled with the package's PostgreSQL trait only (it brings SwiftNIO, its
/// TLS and swift-crypto); without it, each of those commands says how to build it.
package enum Server {
  /// Whether this build can reach a server.
  package static var isAvailable: Bool {
    #if PostgreSQL
      return true
    #else
      return false
    #endif
  }

  /// The error of `what` in a build without the server path, naming the executable that runs
  /// (SearchREPL or SearchBenchmarks) in its advice.
  package static func unavailable(_ what: String) -> CommandError {
    let program = ProcessInfo.processInfo.processName
    return CommandError(
      "\(what) needs a PostgreSQL server, and this \(program) was built without the PostgreSQL"
        + " trait: build it with `swift build -c release --traits PostgreSQL --product \(program)`"
        + " (or `swift run -c release --traits PostgreSQL \(program) …`)")
  }

  /// The table of a data set on the server at `url`, checked before it answers: it exists and
  /// was folded as `normalizer` folds, with the columns of `schema`; or an error that says how
  /// to load it.
  ///
  /// `what` names the command line's part in the error of a build without it.
  package static func backend(
    url: String, replica: String? = nil, table: String, schema: SearchModel.Schema,
    normalizer: Normalizer,
    what: String
  ) async throws -> any ServerBackend {
    #if PostgreSQL
      let backend = try PostgresSearchBackend(
        address: try PostgresAddress(url: url), replica: try replica.map(PostgresAddress.init),
        table: table, schema: schema, normalizer: normalizer)
      do { try await backend.checkTable() } catch {
        await backend.close()
        throw error
      }
      return backend
    #else
      throw unavailable(what)
    #endif
  }

  /// The table of the data set of the manifest at `manifestPath`, checked as
  /// ``backend(url:replica:table:schema:normalizer:what:)`` checks it.
  package static func backend(
    url: String, replica: String? = nil, manifestPath: String, corpus: SearchCorpus, what: String
  ) async throws -> any ServerBackend {
    try await backend(
      url: url, replica: replica, table: try tableName(forManifest: manifestPath),
      schema: corpus.model.schema, normalizer: corpus.normalizer, what: what)
  }

  /// The default table of a manifest: its data set's name, with every character that is not
  /// a letter, digit or underscore made an underscore ("words-sample" → "words_sample").
  package static func tableName(forManifest path: String) throws -> String {
    let name = try Manifest.load(from: path).name
    var result = String(
      name.unicodeScalars.map { scalar -> Character in
        scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar))
          ? Character(scalar) : "_"
      })
    if result.first.map({ $0.isNumber }) ?? true { result = "t_" + result }
    return String(result.prefix(63))
  }
}

/// A server's search backend as a command holds it: searched, then closed.
package protocol ServerBackend: SearchBackend {
  /// Closes the backend's connections.
  func close() async
}

#if PostgreSQL
  extension PostgresSearchBackend: ServerBackend {}
#endif
