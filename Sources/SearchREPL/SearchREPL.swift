import ArgumentParser
import Foundation
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
      REPL.self, Live.self, Filter.self, Load.self, IndexCommand.self, Bench.self, Check.self,
    ],
    defaultSubcommand: REPL.self
  )

  /// Runs the command and turns every outcome into text and an exit status, in one place.
  ///
  /// An asynchronous command runs with the main actor on the process's main thread, as in an
  /// app: the main thread turns the main run loop, which serves Dispatch's main queue, where
  /// main-actor jobs go. (An `async` main on Linux runs main-actor jobs on Dispatch's worker
  /// threads after its first suspension, and so does `dispatchMain()`, which ends the main
  /// thread: what a benchmark measures there is not an app's main thread.)
  static func main() {
    Terminal.tuneMemory()
    do {
      let arguments = Array(CommandLine.arguments.dropFirst())
      if let error = CommandLineHints.unknownSubcommand(in: arguments) { throw error }
      var command = try parseAsRoot(arguments)
      guard let asynchronous = command as? any AsyncParsableCommand else {
        try command.run()
        return
      }
      nonisolated(unsafe) var running = asynchronous
      Task { @MainActor in
        do {
          try await running.run()
          Terminal.exitSucceeding()
        } catch {
          Terminal.exit(reporting: error)
        }
      }
      while true { RunLoop.main.run() }
    } catch {
      Terminal.exit(reporting: error)
    }
  }
}

/// How the command line ends on an error: the entry's business, above the console's folders.
extension Terminal {
  /// Prints what `error` means and exits with its status.
  static func exit(reporting error: any Error) -> Never {
    if let code = error as? ExitCode { terminate(code.rawValue) }
    guard isOwn(error) else {
      // ArgumentParser's: a usage mistake, `--help` or `--version`, in its words, with a hint
      // of ours where one fits.
      let code = SearchREPL.exitCode(for: error)
      let text = SearchREPL.fullMessage(for: error)
      if code == .success {
        write(text + "\n", to: STDOUT_FILENO)
        terminate(0)
      }
      let arguments = Array(CommandLine.arguments.dropFirst())
      write(CommandLineHints.errorText(text, arguments: arguments) + "\n", to: STDERR_FILENO)
      terminate(failure)
    }
    write("SearchREPL: error: \(error)\n", to: STDERR_FILENO)
    terminate(failure)
  }

  /// Whether `error` is one of the project's, whose description says what went wrong (and,
  /// for a ``LocatedError``, where, as "file:line:column: reason; hint"), rather than one of
  /// ArgumentParser's, which it prints with the usage.
  static func isOwn(_ error: any Error) -> Bool {
    if error is any LocatedError { return true }
    let module = String(reflecting: type(of: error)).prefix { $0 != "." }
    return ownModules.contains(String(module))
  }

  /// The modules whose errors are the project's.
  private static let ownModules: Set = [
    "SearchEngine", "SearchCore", "SearchDataSets", "SearchPostgres", "SearchREPL",
  ]
}
