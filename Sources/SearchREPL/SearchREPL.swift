import ArgumentParser
import SearchCore

/// The command-line front of the search engine. It holds no search logic: every command reads
/// its input, calls SearchCore and prints.
@main
struct SearchREPL: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "SearchREPL",
    abstract: "Search and filter text with Unicode-aware folding.",
    discussion: """
      Exit status: 0 when something matched, 1 when nothing did, 2 on an error.
      """,
    subcommands: [
      REPL.self, Live.self, Filter.self, Load.self, IndexCommand.self, Bench.self, Check.self,
    ],
    defaultSubcommand: REPL.self
  )

  /// Runs the command and turns every outcome into text and an exit status, in one place.
  static func main() async {
    Terminal.tuneMemory()
    do {
      let arguments = Array(CommandLine.arguments.dropFirst())
      if let error = CommandLineHints.unknownSubcommand(in: arguments) { throw error }
      var command = try parseAsRoot(arguments)
      if var command = command as? any AsyncParsableCommand {
        try await command.run()
      } else {
        try command.run()
      }
    } catch {
      Terminal.exit(reporting: error)
    }
  }
}
