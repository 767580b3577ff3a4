import ArgumentParser

/// `--index PATH` and `--no-index`: which saved index a command that loads a data set reads
/// (see ``SavedIndex``).
struct IndexOption: ParsableArguments {
  @Option(
    help: ArgumentHelp(
      "Read the data set from this saved index (made by `SearchREPL index`); an error when it"
        + " is stale. Default: the manifest's NAME.index beside it, when present and fresh.",
      valueName: "path"))
  var index: String?

  @Flag(help: "Build the index from the data file, ignoring any saved index.")
  var noIndex = false

  func validate() throws {
    if index != nil && noIndex {
      throw ValidationError("give --index PATH or --no-index, not both")
    }
  }
}
