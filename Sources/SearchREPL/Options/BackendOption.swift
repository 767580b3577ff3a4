import ArgumentParser

/// `--backend URL`, as `repl` and `live` take it: the PostgreSQL server whose table of the data
/// set answers the background searches.
struct BackendOption: ParsableArguments {
  @Option(
    help: ArgumentHelp(
      "Answer background searches from the data set's table on this PostgreSQL server (load it first).",
      valueName: "url"))
  var backend: String?

  @Option(
    help: ArgumentHelp(
      "Read the searches from this streaming standby of --backend (its changes still go to --backend).",
      valueName: "url"))
  var replica: String?

  @Option(
    help: ArgumentHelp(
      "Ask the server of --backend for the first N rows (1 to 100000) of each search and a count (exact, or an estimate shown as \"about\"); more rows come a page at a time (repl: more; live: scrolling).",
      valueName: "n"))
  var pageSize: Int?

  /// Whether results are ranked: as `--rank`/`--no-rank` say, else unless pages are asked
  /// for (ranking needs every match, a page is the first rows in the data set's order).
  func ranks(_ rank: Bool?) throws -> Bool {
    if rank == true && pageSize != nil {
      throw ValidationError(
        "--rank orders every match, --page-size asks the server for the first rows in the data set's order: give one of them"
      )
    }
    return rank ?? (pageSize == nil)
  }

  /// The most rows `--page-size` asks for: more than any screen shows, few enough for the
  /// server to send and the client to hold at once.
  static let largestPageSize = 100_000

  /// Refuses `--replica` or `--page-size` without `--backend`, and a page of no rows or of
  /// more than ``largestPageSize``.
  func validate() throws {
    if replica != nil && backend == nil {
      throw ValidationError("--replica reads from a standby of --backend: give --backend URL too")
    }
    if let pageSize {
      guard backend != nil else {
        throw ValidationError(
          "--page-size asks the server of --backend for pages: give --backend URL too")
      }
      guard pageSize >= 1 else { throw ValidationError("--page-size must be 1 or more") }
      guard pageSize <= Self.largestPageSize else {
        throw ValidationError(
          "--page-size \(pageSize) is more rows than a screen can use: give at most \(Self.largestPageSize)"
        )
      }
    }
  }
}
