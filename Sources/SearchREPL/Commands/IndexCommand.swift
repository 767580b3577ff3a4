import ArgumentParser
import SearchCommandLine
import SearchCore
import SearchEngine

/// `SearchREPL index`: saves a data set's model and folded columns, which `repl`, `live` and
/// `filter --corpus` then read instead of loading the data and folding it again.
struct IndexCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "index",
    abstract: "Save a data set's index, so that later starts read it instead of rebuilding.",
    discussion: """
      Loads the data set, folds it as `repl` folds it (the same --fold and --locale) and \
      writes the model and folded columns to NAME.index beside the manifest (or --output). \
      `repl`, `live` and `filter --corpus` read that file when it is fresh: made from the \
      same data file (size, time, sampled hash) and manifest, with the same folding options, \
      rules and file format. When it is stale they say so on standard error and build from \
      the data; run this command again to refresh it.
      """
  )

  @Option(help: "A manifest path, or \(CorpusPaths.names) (the repository's Corpus folder).")
  var corpus: String

  @Option(
    help: ArgumentHelp(
      "Where to write the index (default: NAME.index beside the manifest).", valueName: "path"))
  var output: String?

  @OptionGroup var folding: FoldingOptions

  @OptionGroup var dataFile: DataFileOption

  func run() throws {
    let clock = ContinuousClock()
    let start = clock.now
    let manifestPath = try CorpusPaths.manifest(corpus)
    let normalizer = try folding.normalizer()
    let source = try SavedIndex.sourceIdentity(manifestPath: manifestPath)
    let data = try DataSource.load(
      input: nil, corpus: manifestPath, allowsDataOutsideFolder: dataFile.allowsDataOutsideFolder)
    let corpus = try SearchCorpus(model: data.model, normalizer: normalizer)
    let path = output ?? SavedIndex.defaultPath(forManifest: manifestPath)
    try corpus.save(toFile: path, source: source)
    let elapsed = clock.now - start
    print("wrote \(path): \(corpus.model.count) items in \(elapsed)")
  }
}
