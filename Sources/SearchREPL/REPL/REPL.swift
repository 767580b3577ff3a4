import ArgumentParser
import Foundation
import SearchCommandLine
import SearchCore
import SearchEngine

/// `SearchREPL repl`: drives a ``SearchController`` with commands read from standard input,
/// one per line, and prints every event it fires (as text, or as JSON lines).
struct REPL: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "repl",
    abstract: "Drive a search controller with commands and watch its events.",
    discussion: """
      Commands are read one per line from standard input until quit or the end of input: \
      type TEXT, paste TEXT, back [N], clear, scope NAME|INDEX, \
      token add CONDITION|remove CONDITION|INDEX|list|clear, suggest, search, cancel, more, \
      begin, end, \
      show [original|results] [PAGE], next, prev, select ROW|SECTION.ROW, \
      delete ROW|SECTION.ROW, insert NAME=VALUE; …, update ROW|SECTION.ROW NAME=VALUE; …, \
      set minlen|mode|coalesce|rank|syntax|typos|sections|fold|locale VALUE, wait, stats, \
      help [COMMAND], quit. Errors are reported and the session goes on; a script (standard \
      input not a terminal) that had any exits with status 2, else 0.
      With --json, standard output holds one JSON object per event (keys: event, text, \
      scope, scopeTitle, tokens, reload, generation, rows, scopeCounts, count, countExact, \
      more, state, ms, item, message; count and more only for a server's first page; \
      scopeCounts with --count-scopes, null for a scope that restricts the fields; suggest \
      writes an event with tokens and completions); tables, details and help go to standard \
      error. SEARCHREPL_NO_TIMING=1 leaves out ms. \
      --updates adds one event per update, the stream a list front follows (keys: cause, \
      generation, text, scope, tokens, scopeCounts, state, table, rows, and the counts \
      deletedSections, insertedSections, deleted, inserted, moved, reloaded).
      """
  )

  /// The mode option's values (SearchCore's type stays free of ArgumentParser).
  enum ModeOption: String, ExpressibleByArgument, CaseIterable {
    case immediate
    case background
    case submit
  }

  @Option(
    help:
      "A manifest path, or cities|products|chat|tweets|unicode|words|cities500|w1 (the repository's Corpus folder)."
  )
  var corpus = "cities"

  @Flag(help: "Print every event as one JSON object per line, and nothing else on stdout.")
  var json = false

  @Flag(
    help:
      "Also print each update: what a list front redraws (cause, generation, text, state, table, rows, and the change set's counts)."
  )
  var updates = false

  @Option(help: "When searches run: immediate, background or submit.")
  var mode: ModeOption = .immediate

  @Option(help: "The fewest characters a search needs.")
  var minlen = 0

  @Option(help: "Section both tables: none, an attribute's name, or letter:FIELD.")
  var sections = "none"

  @Flag(
    help:
      "Count every scope's results in each search (reload and update events carry scopeCounts; text mode prints a scopes line); off by default, so that transcripts stay as they were. Not with --backend."
  )
  var countScopes = false

  @OptionGroup var session: SessionOptions

  func validate() throws {
    guard minlen >= 0 else { throw ValidationError("--minlen must be 0 or more") }
    guard REPLCommand.sectioning(sections) != nil else {
      throw ValidationError("--sections takes none, an attribute's name, or letter:FIELD")
    }
  }

  func run() async throws {
    let options = REPLOptions(
      manifestPath: try CorpusPaths.manifest(corpus), json: json, updates: updates,
      mode: SearchConfiguration.Mode(rawValue: mode.rawValue) ?? .immediate,
      minimumLength: minlen, ranks: try session.ranks,
      sectioning: REPLCommand.sectioning(sections) ?? .none,
      folding: try session.folding.folding(), locale: try session.folding.checkedLocale(),
      timing: ProcessInfo.processInfo.environment["SEARCHREPL_NO_TIMING"] != "1",
      backend: session.postgres.backend, replica: session.postgres.replica,
      pageSize: session.postgres.pageSize,
      allowsDataOutsideFolder: session.dataFile.allowsDataOutsideFolder,
      countsScopes: countScopes, savedIndex: session.savedIndexChoice(corpus: corpus),
      syntax: session.syntax.syntax, typos: try session.syntax.tolerance())
    try await REPLSession.run(options)
  }
}

/// What a session starts from: the command line, resolved.
struct REPLOptions: Sendable {
  var manifestPath: String
  var json: Bool
  /// Whether updates are printed too.
  var updates: Bool = false
  var mode: SearchConfiguration.Mode
  var minimumLength: Int
  /// Whether results are ordered by relevance.
  var ranks: Bool
  var sectioning: SectionedTable.Sectioning
  var folding: Folding
  /// The normaliser's and the collation's locale; nil for the root locale.
  var locale: String?
  var timing: Bool
  /// The PostgreSQL server whose table of the data set answers background searches.
  var backend: String? = nil
  /// A streaming standby of `backend` that answers the searches.
  var replica: String? = nil
  /// The rows a server search asks for first (`--page-size`); nil asks for every result.
  var pageSize: Int? = nil
  /// Whether the manifest's data file may lie outside its folder (`--allow-data-outside`).
  var allowsDataOutsideFolder = false
  /// Whether each search counts every scope's results (`--count-scopes`).
  var countsScopes = false
  /// Which saved index the data set is read from.
  var savedIndex = SavedIndex.Choice.off
  /// How the search text is read (`--syntax`).
  var syntax = SearchQuery.Syntax.extended
  /// The typos of words (`--typos`); nil: the default in memory, none on a server.
  var typos: TypoTolerance? = nil
}
