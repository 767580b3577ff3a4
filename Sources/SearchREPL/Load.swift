import ArgumentParser
import Foundation
import SearchCore
import SearchDataSets
import SearchEngine

#if PostgreSQL
  import SearchPostgres
#endif

/// `SearchREPL load`: writes a data set to a PostgreSQL server, for `--backend`.
struct Load: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Create (or replace) a data set's table on a PostgreSQL server.",
    discussion: """
      Loads the data set the manifest describes, folds it as `filter` and `repl` fold (the \
      same --fold and --locale), copies it to the server with COPY and indexes it (pg_trgm). \
      The old table, if any, stays until the new one is complete. Then `filter --corpus \
      MANIFEST --backend URL QUERY` searches the server and prints what `filter --corpus \
      MANIFEST QUERY` prints.
      To try it on this machine: bash .ci/postgres-local (prints the URL to use).
      """
  )

  @Argument(
    help: "The data set's manifest, or cities|products|chat|tweets|unicode|words|cities500|w1.")
  var manifest: String

  @Option(help: ArgumentHelp("The server: postgres://USER@HOST:PORT/DATABASE.", valueName: "url"))
  var into: String

  @Option(help: "The table (default: the manifest's name, with letters, digits and _).")
  var table: String?

  @OptionGroup var folding: FoldingOptions

  @OptionGroup var dataFile: DataFileOption

  func run() async throws {
    #if PostgreSQL
      try await load()
    #else
      throw Server.unavailable("load")
    #endif
  }

  #if PostgreSQL
    private func load() async throws {
      let normalizer = try folding.normalizer()
      let manifest = try CorpusPaths.manifest(self.manifest)
      let source = try DataSource.load(
        input: nil, corpus: manifest, allowsDataOutsideFolder: dataFile.allowsDataOutsideFolder)
      let backend = try PostgresSearchBackend(
        address: try PostgresAddress(url: into),
        table: try table ?? Server.tableName(forManifest: manifest),
        schema: source.model.schema, normalizer: normalizer, statementTimeout: nil,
        connectTimeout: .seconds(10))
      let showsProgress = isatty(2) != 0
      let report: PostgresSearchBackend.LoadReport
      do {
        report = try await backend.load(source.model) { written, total in
          guard showsProgress else { return }
          let width = 30
          let filled = total == 0 ? width : written * width / total
          let bar =
            String(repeating: "█", count: filled) + String(repeating: "·", count: width - filled)
          Terminal.write("\r\u{1B}[2Kcopying \(bar) \(written)/\(total)", to: 2)
        }
      } catch {
        await backend.close()
        if showsProgress { Terminal.write("\r\u{1B}[2K", to: 2) }
        throw error
      }
      await backend.close()
      if showsProgress { Terminal.write("\r\u{1B}[2K", to: 2) }
      let seconds = { (duration: Duration) in
        String(
          format: "%.1f s",
          Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18)
      }
      print(
        "loaded \(report.items) items into table \"\(backend.table)\" at \(backend.address): copying \(seconds(report.copying)), indexing \(seconds(report.indexing))"
      )
    }
  #endif
}
