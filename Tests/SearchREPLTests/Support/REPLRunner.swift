import Foundation
import TestSupport

/// Runs `SearchREPL repl ARGUMENTS` with `script` as standard input and timing turned off
/// (`SEARCHREPL_NO_TIMING=1`), so that transcripts can be compared.
///
/// Results are in the data set's order (`--no-rank`) unless the arguments ask for ranking: the
/// transcripts follow the controller's events, which do not depend on the order.
func runREPL(_ arguments: [String], _ script: String) throws -> RunResult {
  let arguments =
    arguments.contains("--rank") || arguments.contains("--no-rank")
    ? arguments : ["--no-rank"] + arguments
  var environment = ProcessInfo.processInfo.environment
  environment["SEARCHREPL_NO_TIMING"] = "1"
  return try withTemporaryDirectory { directory in
    let file = directory.appendingPathComponent("stdin")
    try Data(script.utf8).write(to: file)
    return try BinaryRunner.run(
      executable: BinaryRunner.executableURL(), ["repl"] + arguments, stdinFile: file,
      timeout: 120, environment: environment)
  }
}
