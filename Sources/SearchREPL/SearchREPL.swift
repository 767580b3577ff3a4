import ArgumentParser
import SearchCore

/// The command-line front of the search engine. It holds no search logic: every command reads
/// its input, calls SearchCore and prints.
@main
struct SearchREPL: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "SearchREPL",
    abstract: "Search and filter text with Unicode-aware folding.",
    discussion: """
      Exit status: 0 when something matched, 1 when nothing did, 2 on an error.
      """,
    subcommands: [Filter.self, Bench.self, Check.self]
  )

  /// Runs the command and turns every outcome into text and an exit status, in one place.
  static func main() {
    Terminal.tuneMemory()
    do {
      var command = try parseAsRoot()
      try command.run()
    } catch {
      Terminal.exit(reporting: error)
    }
  }
}
