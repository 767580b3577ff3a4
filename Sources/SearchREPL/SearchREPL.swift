import ArgumentParser
import Foundation
import SearchCommandLine
import SearchCore
import SearchEngine

/// The command-line front of the search engine.
///
/// It holds no search logic: every command reads its input, calls SearchCore and prints.
struct SearchREPL: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "SearchREPL",
    abstract: "Search and filter text with Unicode-aware folding.",
    discussion: """
      Exit status: 0 when something matched, 1 when nothing did, 2 on an error.
      """,
    subcommands: [
      REPL.self, Live.self, Filter.self, Load.self, IndexCommand.self, Check.self, Serve.self,
    ],
    defaultSubcommand: REPL.self
  )

  /// Runs the command and turns every outcome into text and an exit status, in one place,
  /// with the main actor on the main thread (see `Terminal.runMain`).
  static func main() {
    Terminal.runMain(
      SearchREPL.self, refusing: CommandLineHints.unknownSubcommand, hint: CommandLineHints.hint)
  }
}
