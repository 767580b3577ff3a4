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

  /// Refuses `--replica` without `--backend`.
  func validate() throws {
    if replica != nil && backend == nil {
      throw ValidationError("--replica reads from a standby of --backend: give --backend URL too")
    }
  }
}
