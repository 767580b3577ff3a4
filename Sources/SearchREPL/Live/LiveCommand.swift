import ArgumentParser
import Foundation
import SearchCommandLine
import SearchCore
import SearchDataSets
import SearchEngine

/// `SearchREPL live`: a full-screen search as you type, the search display controller of
/// UIKit on a character grid: a search bar, a scope bar, the original table or the results,
/// and an item's detail.
struct Live: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "live",
    abstract: "Search as you type, full screen, in a terminal.",
    discussion: """
      Type to search; the bar edits as the REPL's prompt (Left, Right, Home, End, Ctrl-A, \
      Ctrl-E, Ctrl-W, Ctrl-K, Ctrl-U, Alt-B, Alt-F); a paste is one change. Tab and \
      Shift-Tab select the next and previous scope; Up, Down, PgUp and PgDn move the \
      selection; Enter chooses the selected row, printed once the screen is given back; \
      Ctrl-O shows its detail (Esc, Enter or q close it); Esc cancels the search, or on an \
      empty bar quits; Ctrl-C quits. In the submit mode, Enter after a change presses the \
      search button. It draws on the terminal, /dev/tty when standard input or output is \
      not one, so it works in a pipeline (`SearchREPL live | cut -f1`): standard output \
      gets only the chosen row. As fzf, it searches the lines of standard input when that \
      is not a terminal and no --corpus is given (`ls | SearchREPL live`), or of --input FILE. To script the controller, use repl. The frame comes at once; what is typed while the data set \
      loads is searched when it is loaded. Results are ranked unless --no-rank or \
      --page-size. \
      Ctrl-T turns the text into a token: a condition as the REPL's token add writes it \
      (country=CH, population>=1000000), else the first token suggest offers for it (an \
      attribute's value with a word that starts with the text); Backspace on an empty bar \
      removes the last token. The scope bar counts each scope's results ("Europe 310") when \
      the data set has scopes, unless --no-count-scopes. \
      Exit status (as fzf): 0 when a row was chosen (or at the end of input), 1 when Enter \
      found no row to choose, 130 after Esc on an empty bar or Ctrl-C.
      """
  )

  @Option(
    help:
      "A manifest path, or cities|products|chat|tweets|unicode|words|cities500|w1 (the repository's Corpus folder)."
  )
  var corpus: String?

  @Option(
    help: ArgumentHelp(
      "Search the lines of this file instead of a data set (- for standard input, the default when it is not a terminal and no --corpus is given).",
      valueName: "file"))
  var input: String?

  @Option(help: "When searches run: immediate, background or submit.")
  var mode: REPL.ModeOption = .background

  @Option(help: "The fewest characters a search needs.")
  var minlen = 0

  @Option(help: "Section both tables: none, an attribute's name, or letter:FIELD.")
  var sections = "none"

  @Flag(
    inversion: .prefixedNo,
    help:
      "Count every scope's results and show them on the scope bar (the default when the data set has scopes; not with --backend)."
  )
  var countScopes: Bool?

  @Flag(
    help:
      "Show completions of the text under it, from the items' own words and values (those most items hold first, within the scope and tokens); Tab takes the first. The index behind them is built in the background after the first search (not with --backend)."
  )
  var completions = false

  @OptionGroup var session: SessionOptions

  func validate() throws {
    guard minlen >= 0 else { throw ValidationError("--minlen must be 0 or more") }
    guard REPLCommand.sectioning(sections) != nil else {
      throw ValidationError("--sections takes none, an attribute's name, or letter:FIELD")
    }
    if input != nil && corpus != nil {
      throw ValidationError("give --input or --corpus, not both")
    }
  }

  /// What is searched: a data set's manifest, or lines of a file or of standard input (nil).
  private enum Items {
    case dataSet(path: String)
    case lines(path: String?)
  }

  private var items: Items {
    get throws {
      if let input { return .lines(path: input == "-" ? nil : input) }
      if corpus == nil && isatty(STDIN_FILENO) == 0 { return .lines(path: nil) }
      return .dataSet(path: try CorpusPaths.manifest(corpus ?? "cities"))
    }
  }

  func run() async throws {
    guard RawTerminal.isAvailable(.controlling) else {
      throw CommandError(
        "live draws on a terminal, and there is none (standard input and output are not"
          + " terminals, and the process has no controlling terminal): run it in a terminal,"
          + " or use `SearchREPL repl` to drive the search with commands")
    }
    // What can be refused at once is refused before the screen is taken.
    let items = try self.items
    let itemsName: String
    var attributes: [ConditionSyntax.Attribute] = []
    switch items {
    case .dataSet(let path):
      let manifest = try Manifest.load(from: path)
      itemsName = manifest.name
      attributes = manifest.attributes.map {
        ConditionSyntax.Attribute(name: $0.name, isNumber: $0.type != .string)
      }
    case .lines(let path):
      if session.postgres.backend != nil {
        throw ValidationError("--backend searches a data set's table: give its --corpus MANIFEST")
      }
      itemsName = path.map { "lines of \($0)" } ?? "lines of standard input"
    }
    let normalizer = try session.folding.normalizer()
    let sectioning = REPLCommand.sectioning(sections) ?? .none
    let choice = session.savedIndexChoice(corpus: corpus ?? "cities")
    let (backend, replica) = (session.postgres.backend, session.postgres.replica)
    let configuration = try session.configuration(
      mode: SearchConfiguration.Mode(rawValue: mode.rawValue) ?? .background,
      minimumLength: minlen, completionLimit: completions ? 5 : 0)
    let ending = try await LiveView.run(
      itemsName: itemsName, attributes: attributes, countsScopes: countScopes,
      configuration: configuration,
      tableOptions: SearchController.TableOptions(
        sectioning: sectioning, resultsUseOriginalSections: sectioning != .none,
        locale: normalizer.locale ?? "")
    ) { progress in
      let corpus: SearchCorpus
      switch items {
      case .dataSet(let path):
        corpus = try SavedIndex.loadCorpus(
          manifestPath: path, normalizer: normalizer, index: choice,
          allowsDataOutsideFolder: session.dataFile.allowsDataOutsideFolder, progress: progress)
      case .lines(let path):
        let source = try DataSource.load(input: path, corpus: nil)
        corpus = try SearchCorpus(model: source.model, normalizer: normalizer, progress: progress)
      }
      guard let backend, case .dataSet(let path) = items else {
        return LiveView.Loaded(corpus: corpus)
      }
      let server = try await Server.backend(
        url: backend, replica: replica, manifestPath: path, corpus: corpus,
        what: "live --backend")
      return LiveView.Loaded(corpus: corpus, backend: server)
    }
    // The chosen item goes to standard output once the screen is given back, as fzf's.
    if case .accepted(let text) = ending { print(text) }
    if ending.status != 0 { throw ExitCode(ending.status) }
  }
}
