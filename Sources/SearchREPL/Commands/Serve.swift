import ArgumentParser
import Foundation
import SearchCommandLine
import SearchCore
import SearchDataSets
import SearchEngine

#if Web
  import SearchWeb
#endif

/// `SearchREPL serve`: the search in a browser, one session per tab over a data set every
/// session shares (SearchWeb).
struct Serve: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Serve the search to browsers: a page, and a search session per tab.",
    discussion: """
      Loads the data set (or the lines of --input FILE) once and serves the search page at \
      http://HOST:PORT/ (127.0.0.1:8080 by default); each tab that opens it has its own search \
      over the shared items, through a WebSocket at /search whose JSON messages SearchWeb's \
      protocol article specifies. Keys as in live: Up and Down move, Enter chooses, Esc \
      cancels, Tab completes or selects the next scope, Ctrl-T makes a token. Only pages of the \
      server's own origin (or --allow-origin) may open a session. Ctrl-C stops the server.
      """
  )

  @Option(
    help:
      "A manifest path, or cities|products|chat|tweets|unicode|words|cities500|w1 (the repository's Corpus folder)."
  )
  var corpus: String?

  @Option(
    help: ArgumentHelp(
      "Search the lines of this file instead of a data set.", valueName: "file"))
  var input: String?

  @Option(help: "The address to listen on: the loopback address unless you mean otherwise.")
  var host = "127.0.0.1"

  @Option(help: "The port to listen on (0: a free one, printed).")
  var port = 8080

  @Option(
    help: ArgumentHelp(
      "Let pages of this origin open sessions too (http://NAME:PORT; repeatable).",
      valueName: "origin"))
  var allowOrigin: [String] = []

  @OptionGroup var session: SessionOptions

  func validate() throws {
    if input != nil && corpus != nil {
      throw ValidationError("give --input or --corpus, not both")
    }
    if session.postgres.backend != nil && input != nil {
      throw ValidationError("--backend searches a data set's table: give its --corpus MANIFEST")
    }
    guard (0...65535).contains(port) else { throw ValidationError("--port takes 0 to 65535") }
  }

  func run() async throws {
    #if Web
      try await serve()
    #else
      let program = ProcessInfo.processInfo.processName
      throw CommandError(
        "serve is built with the Web trait, and this \(program) was built without it: build it"
          + " with `swift build -c release --traits Web --product \(program)` (or `swift run -c"
          + " release --traits Web \(program) serve`)")
    #endif
  }

  #if Web
    private func serve() async throws {
      let normalizer = try session.folding.normalizer()
      let loaded: SearchCorpus
      let itemsName: String
      var manifestPath: String?
      if let input {
        let source = try DataSource.load(input: input, corpus: nil)
        loaded = try SearchCorpus(model: source.model, normalizer: normalizer)
        itemsName = "lines"
      } else {
        let path = try CorpusPaths.manifest(corpus ?? "cities")
        manifestPath = path
        itemsName = try Manifest.load(from: path).name
        loaded = try SavedIndex.loadCorpus(
          manifestPath: path, normalizer: normalizer,
          index: session.savedIndexChoice(corpus: corpus ?? "cities"),
          allowsDataOutsideFolder: session.dataFile.allowsDataOutsideFolder)
      }
      var backend: (any ServerBackend)?
      if let url = session.postgres.backend, let manifestPath {
        backend = try await Server.backend(
          url: url, replica: session.postgres.replica, manifestPath: manifestPath, corpus: loaded,
          what: "serve --backend")
      }
      let search = try session.configuration(
        mode: .background, completionLimit: backend == nil ? 5 : 0)
      let server = SearchWebServer(
        corpus: loaded, backend: backend,
        configuration: SearchWebServer.Configuration(
          host: host, port: port, itemsName: itemsName, search: search,
          allowedOrigins: Set(allowOrigin)))
      let host = self.host
      defer { if let backend { Task { await backend.close() } } }
      try await server.run { port in
        let shown = host.contains(":") ? "[\(host)]" : host
        Terminal.write(
          "serving \(loaded.model.count) \(itemsName) at http://\(shown):\(port)/\n", to: 1)
      }
    }
  #endif
}
