// fuzz-sources: Sources/SearchREPL/REPL/REPLCommand.swift
// fuzz-sources: Sources/SearchREPL/Options/TypoRuleText.swift
//
// The REPL's command parser: any line is a command, nothing (blank or a comment), or one of
// the three errors with a message; never a trap. Spaces and tabs before the command word do
// not change what a line means (a column an error names moves with them).

// REPLCommand.swift reaches Foundation's string methods through the executable's imports.
import Foundation

/// One input: the line.
func fuzzCommands(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
  var input = FuzzInput(data, size)
  let line = input.restAsText()
  let result = Result { () throws(REPLCommandError) in try REPLCommand.parse(line) }
  if case .failure(let error) = result {
    require(!error.description.isEmpty, "an error without a message for \(line.debugDescription)")
  }
  // The same command, or the same error; a column an error names moves with the indentation.
  let indented = Result { () throws(REPLCommandError) in try REPLCommand.parse(" \t " + line) }
  let same: Bool
  switch (result, indented) {
  case (.failure(.invalid(let message)), .failure(.invalid(let moved))):
    same = shifted(message, by: 3) == moved
  default:
    same = indented == result
  }
  require(same, "\(line.debugDescription) parses as \(result), indented as \(indented)")
  return 0
}

/// The message with every "column N" made "column N+offset".
private func shifted(_ message: String, by offset: Int) -> String {
  message.replacing(/column (\d+)/) { match in
    "column \((Int(match.output.1) ?? 0) + offset)"
  }
}
