import ArgumentParser
import Foundation

extension Terminal {
  /// Runs the command `Root` parses from the process's arguments, and turns every outcome into
  /// text and an exit status, in one place (``exit(reporting:root:hint:)``).
  ///
  /// An asynchronous command runs with the main actor on the process's main thread, as in an
  /// app: the main thread turns the main run loop, which serves Dispatch's main queue, where
  /// main-actor jobs go. (An `async` main on Linux runs main-actor jobs on Dispatch's worker
  /// threads after its first suspension, and so does `dispatchMain()`, which ends the main
  /// thread: what a benchmark measures there is not an app's main thread.)
  ///
  /// - Parameters:
  ///   - refusal: An error for arguments the parser would misread, checked first.
  ///   - hint: A hint to add to the parser's message about the arguments, where one fits.
  package static func runMain<Root: ParsableCommand>(
    _ root: Root.Type,
    refusing refusal: ([String]) -> CommandError? = { _ in nil },
    hint: @escaping @Sendable (_ message: String, _ arguments: [String]) -> String? = { _, _ in
      nil
    }
  ) {
    tuneMemory()
    do {
      let arguments = Array(CommandLine.arguments.dropFirst())
      if let error = refusal(arguments) { throw error }
      var command = try Root.parseAsRoot(arguments)
      guard let asynchronous = command as? any AsyncParsableCommand else {
        try command.run()
        return
      }
      nonisolated(unsafe) var running = asynchronous
      Task { @MainActor in
        do {
          try await running.run()
          exitSucceeding()
        } catch {
          exit(reporting: error, root: Root.self, hint: hint)
        }
      }
      while true { RunLoop.main.run() }
    } catch {
      exit(reporting: error, root: root, hint: hint)
    }
  }
}
