import ArgumentParser

/// `--backend URL`, as `repl` and `live` take it: the PostgreSQL server whose table of the data
/// set answers the background searches.
struct BackendOption: ParsableArguments {
  @Option(
    help: ArgumentHelp(
      "Answer background searches from the data set's table on this PostgreSQL server (load it first).",
      valueName: "url"))
  var backend: String?
}
