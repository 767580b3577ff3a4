import ArgumentParser
import SearchCommandLine
import SearchCore
import SearchDataSets
import SearchEngine

/// `SearchREPL filter`: prints the items that match a query, like `fzf --filter`.
struct Filter: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Print the items that match a query, in input order (or by relevance).",
    discussion: """
      Items are the lines of standard input (or --input FILE), or the items of a data set \
      (--corpus MANIFEST). The query language is fzf's extended exact syntax: terms separated \
      by spaces must all match; ^term anchors at the start, term$ at the end, !term excludes, \
      a lone | between terms means OR, 'term matches fuzzily, "\\ " is a space. An empty \
      query (or one that folds to nothing, such as a lone soft hyphen) matches every item; a \
      scope still applies. With --typos RULE the query is read as words instead, without \
      operators, and a word may have typos: "calfornia" finds California (the last word, \
      unless followed by a space, as the prefix of a word being typed). With --rank the \
      matches come by the data set's ranking rules (its manifest's "ranking"): words, typos, \
      field order, exactness, its attributes (cities: population), position, length.
      Exit status: 0 when an item matched, 1 when none did, 2 on an error.
      """
  )

  @OptionGroup var folding: FoldingOptions

  @Option(help: "Read items from this file, one per line, instead of standard input.")
  var input: String?

  @Option(
    help:
      "Search the data set this manifest describes, or cities|products|chat|tweets|unicode|words|cities500|w1 (see Corpus/README.md)."
  )
  var corpus: String?

  @OptionGroup var dataFile: DataFileOption

  @OptionGroup var savedIndex: IndexOption

  @Option(
    help: ArgumentHelp(
      "Search the data set's table on this PostgreSQL server instead of memory (postgres://…; load it first with `load`).",
      valueName: "url"))
  var backend: String?

  @Option(
    help: ArgumentHelp(
      "Search a streaming standby of --backend instead (postgres://…).", valueName: "url"))
  var replica: String?

  @Option(help: "The data set's table on the server (default: the manifest's name).")
  var table: String?

  @Option(help: "The scope to search in, by title or number (0 is All).")
  var scope: String?

  @Flag(help: "Order by relevance, by the data set's ranking rules (see above).")
  var rank = false

  @Option(help: TypoOption.help)
  var typos: String?

  @Option(help: "Output: plain (the lines, unchanged) or jsonl (one object per match).")
  var format: OutputFormat = .plain

  @Argument(help: "The query.")
  var query: String

  enum OutputFormat: String, ExpressibleByArgument, CaseIterable {
    case plain
    case jsonl
  }

  func validate() throws {
    if input != nil && corpus != nil {
      throw ValidationError("--input and --corpus cannot be used together")
    }
    if replica != nil && backend == nil {
      throw ValidationError("--replica reads from a standby of --backend: give --backend URL too")
    }
    if backend != nil && corpus == nil {
      throw ValidationError("--backend searches a data set: give its --corpus MANIFEST too")
    }
    if let typos {
      _ = try TypoOption.tolerance(typos)
      if backend != nil, typos != "off" {
        throw ValidationError(
          "--typos \(typos) with --backend: a search server matches exactly only; leave --typos out"
        )
      }
    }
    if let scope, corpus == nil {
      throw ValidationError(
        "--scope \(scope) needs a data set with scopes (--corpus MANIFEST); plain lines have none")
    }
  }

  func run() async throws {
    let normalizer = try folding.normalizer()
    // With --typos the query is read as words, the syntax that has typos; else as fzf reads it.
    let tolerance = try typos.map { (text: String) throws(CommandError) in
      try TypoOption.tolerance(text)
    }
    let parsed =
      if let tolerance {
        try SearchQuery(query, syntax: .words, typos: tolerance, normalizer: normalizer)
      } else {
        try SearchQuery(query, normalizer: normalizer)
      }
    let corpus = try corpus.map { (name: String) throws(CommandError) in
      try CorpusPaths.manifest(name)
    }
    if input == nil, corpus == nil, Terminal.inputIsTerminal {
      throw CommandError(
        "filter reads its items from standard input, which is a terminal: pipe lines in"
          + " (… | SearchREPL filter QUERY), or give --input FILE or --corpus MANIFEST")
    }
    if corpus == nil && format == .plain && !rank && tolerance == nil {
      try filterLines(parsed, normalizer: normalizer)
      return
    }
    let source: DataSource
    let searchCorpus: SearchCorpus
    if let corpus {
      searchCorpus = try SavedIndex.loadCorpus(
        manifestPath: corpus, normalizer: normalizer,
        index: SavedIndex.Choice(savedIndex, corpus: corpus, folding: folding),
        allowsDataOutsideFolder: dataFile.allowsDataOutsideFolder)
      source = DataSource(model: searchCorpus.model, lines: nil)
    } else {
      source = try DataSource.load(
        input: input, corpus: nil, allowsDataOutsideFolder: dataFile.allowsDataOutsideFolder)
      searchCorpus = try SearchCorpus(model: source.model, normalizer: normalizer)
    }
    let scopeIndex = try resolveScope(in: searchCorpus.scopeBar)
    let found: [ItemID]
    // With typos, how many each item needed (those absent needed none).
    var typoCounts = TypoMatches()
    if let backend, let corpus {
      let server = try await Server.backend(
        url: backend, replica: replica, table: try table ?? Server.tableName(forManifest: corpus),
        schema: source.model.schema, normalizer: normalizer, what: "filter --backend")
      do {
        found = try await server.items(matching: parsed, scope: scopeIndex)
      } catch {
        await server.close()
        throw error
      }
      await server.close()
      // Items the data set lacks (the server's table holds another version of it): an error,
      // never lines printed from nothing.
      if let unknown = found.first(where: { !searchCorpus.model.contains($0) }) {
        throw SearchBackendError.unknownItem(unknown)
      }
    } else {
      var filter = IncrementalFilter()
      guard let result = filter.search(parsed, scope: scopeIndex, in: searchCorpus) else {
        throw CommandError("the search was cancelled")
      }
      // Exact matches first, then those with one typo, two …, each in the input's order.
      typoCounts = searchCorpus.typoCounts(of: result)
      found = rank ? result.items : TypoCounts.exactFirst(result.items, counts: typoCounts)
    }
    let items = rank ? searchCorpus.ranked(found, for: parsed, scope: scopeIndex) : found
    var output = OutputBuffer()
    for id in items {
      switch format {
      case .plain: source.writeItem(id, to: &output)
      case .jsonl:
        let line = try source.jsonLine(
          id, highlights: searchCorpus.highlights(of: id, for: parsed, scope: scopeIndex),
          typos: tolerance == nil ? nil : typoCounts.typos(of: id.rawValue) ?? 0)
        line.utf8.withContiguousStorageIfAvailable { output.append($0) }
        output.append(0x0A)
      }
    }
    output.flush()
    if items.isEmpty { throw ExitCode(Terminal.noMatch) }
  }

  /// Plain lines printed as they are: read in batches, folded and matched in chunks over all
  /// cores, with no model or index (``LineFilter``), the same answer for less time and memory;
  /// the matches of each batch are printed before the next is read.
  private func filterLines(_ query: SearchQuery, normalizer: Normalizer) throws {
    var output = OutputBuffer()
    let found = try LineFilter(query: query, normalizer: normalizer).filter(readingFile: input) {
      line in
      output.append(line)
      output.append(0x0A)
    }
    output.flush()
    if found == 0 { throw ExitCode(Terminal.noMatch) }
  }

  private func resolveScope(in bar: ScopeBar) throws -> Int {
    guard let scope else { return 0 }
    if let index = bar.index(of: scope) { return index }
    let titles = bar.titles.enumerated().map { "\($0.offset) \($0.element)" }
    throw CommandError(
      "no scope \"\(scope)\"; the scopes are: \(titles.joined(separator: ", "))")
  }
}
