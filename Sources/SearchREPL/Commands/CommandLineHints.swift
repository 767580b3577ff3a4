import ArgumentParser
import SearchCommandLine

/// What the command line most likely meant when the argument parser refuses it: a mistyped
/// subcommand, a query that starts with a dash, a query of several words left unquoted.
enum CommandLineHints {
  /// The subcommands, as typed.
  static let subcommands = [
    "repl", "live", "filter", "load", "index", "check", "serve", "help",
  ]

  /// A first argument that is no subcommand.
  ///
  /// `repl`, the default, takes no argument of its own, so a word there can only be a subcommand
  /// that does not exist.
  static func unknownSubcommand(in arguments: [String]) -> CommandError? {
    guard let first = arguments.first, !first.hasPrefix("-"), !subcommands.contains(first)
    else { return nil }
    if first == "bench" {
      return CommandError(
        "bench moved to its own executable: run `swift run -c release SearchBenchmarks …` or"
          + " `.build/release/SearchBenchmarks …` with the same options")
    }
    let nearest = subcommands.map { ($0, REPLCommand.editDistance(first, $0)) }.min { $0.1 < $1.1 }
    if let (name, edits) = nearest, edits <= 2 {
      return CommandError("unknown subcommand '\(first)'; did you mean '\(name)'?")
    }
    let list = subcommands.dropLast().joined(separator: ", ")
    return CommandError(
      "unknown subcommand '\(first)'; the subcommands are \(list) (SearchREPL help for more)")
  }

  /// A hint to add to the parser's message about `arguments`, when a likely slip is known.
  static func hint(for message: String, arguments: [String]) -> String? {
    guard arguments.first == "filter" else { return nil }
    let rest = arguments.dropFirst().prefix { $0 != "--" }
    if let dashed = rest.first(where: { $0.hasPrefix("-") && !$0.hasPrefix("--") && $0.count > 1 }),
      message.contains("<query>") || message.contains("Unknown option")
    {
      return "a query that starts with '-' goes after '--': SearchREPL filter -- \(dashed)"
    }
    if message.hasPrefix("Unexpected argument") || message.contains("unexpected arguments") {
      return
        "filter takes one query: quote a query of several words, as in SearchREPL filter 'new york'"
    }
    return nil
  }
}
