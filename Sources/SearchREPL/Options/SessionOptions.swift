import ArgumentParser
import SearchCommandLine
import SearchCore

/// The options of every command that runs a search session (`repl`, `live`, `serve`): the
/// order of results, the query syntax, the folding, a PostgreSQL backend, where a data set's
/// file may lie, and its saved index.
struct SessionOptions: ParsableArguments {
  @Flag(
    inversion: .prefixedNo,
    help:
      "Order results by relevance (the default, except with --page-size, which shows the server's first rows in the data set's order); --no-rank keeps the data set's order."
  )
  var rank: Bool?

  @OptionGroup var syntax: SyntaxOptions

  @OptionGroup var folding: FoldingOptions

  @OptionGroup var postgres: BackendOption

  @OptionGroup var dataFile: DataFileOption

  @OptionGroup var savedIndex: IndexOption

  /// Refuses `--rank` with `--page-size`, and a syntax a backend cannot search.
  func validate() throws {
    _ = try ranks
    try syntax.check(backend: postgres.backend)
  }

  /// Whether results are ordered by relevance.
  var ranks: Bool {
    get throws { try postgres.ranks(rank) }
  }

  /// A controller's configuration of `mode`, ranked, paged and parsed as these options say.
  func configuration(
    mode: SearchConfiguration.Mode, minimumLength: Int = 0, completionLimit: Int = 0
  ) throws -> SearchConfiguration {
    var configuration = SearchConfiguration(
      mode: mode, minimumLength: minimumLength, ranksResults: try ranks,
      backendPageSize: postgres.pageSize, completionLimit: completionLimit)
    try syntax.configure(&configuration)
    return configuration
  }

  /// Which saved index the data set `corpus` (a name or a manifest's path) is loaded with.
  func savedIndexChoice(corpus: String) -> SavedIndex.Choice {
    SavedIndex.Choice(savedIndex, corpus: corpus, folding: folding)
  }
}
