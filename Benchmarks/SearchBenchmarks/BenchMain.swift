import SearchCommandLine

/// The entry point: the main thread serves the main actor (see `Terminal.runMain`), as in an
/// app, so that what the suites measure on the main actor is an app's main thread.
///
/// (An `@main` type rather than a main.swift, so that every file name of the package stays
/// unique: the fuzz build compiles sources as one module.)
@main
enum BenchMain {
  static func main() {
    Terminal.runMain(Bench.self)
  }
}
