import ArgumentParser
import SearchCore
import SearchDataSets
import SearchEngine

#if canImport(Glibc)
  @preconcurrency import Glibc
#elseif canImport(Musl)
  @preconcurrency import Musl
#elseif canImport(Darwin)
  @preconcurrency import Darwin
#endif

/// Standard input and output, and the one place that turns errors into messages and exit
/// statuses.
package enum Terminal {
  /// Exit status when something matched, nothing matched, or something went wrong (as grep).
  package static let matched: Int32 = 0
  package static let noMatch: Int32 = 1
  package static let failure: Int32 = 2

  /// Gives blocks of 16 MiB and more (columns, the largest result lists) their own mappings, so
  /// that they go back to the system when freed instead of staying in the heap of whichever
  /// worker thread freed them; smaller ones are reused from the heap without new page faults.
  ///
  /// Measured on W1 (`SearchBenchmarks`): 256 KiB keeps the peak at 112 MB but costs a page
  /// fault per 4 KiB of every new result list (keystroke p99 +50%); glibc's default lets the
  /// peak grow past 140 MB; 16 MiB gives about 115 MB without the faults.
  package static func tuneMemory() {
    #if canImport(Glibc)
      let mmapThreshold: Int32 = -3  // M_MMAP_THRESHOLD in glibc's <malloc.h>
      _ = glibcMallopt(mmapThreshold, 16 * 1024 * 1024)
    #endif
  }

  /// Writes what `print` buffered for standard output.
  ///
  /// Only standard output: flushing every stream (`fflush(nil)`) waits for standard input's lock,
  /// which a thread blocked reading the next line holds, so an event would wait for the next line
  /// of input.
  package static func flushOutput() { fflush(stdout) }

  /// Whether standard input is a terminal (a person, not a pipe).
  package static var inputIsTerminal: Bool { isatty(STDIN_FILENO) == 1 }

  /// Exits with status 0, once a command has run to its end.
  package static func exitSucceeding() -> Never { terminate(matched) }

  /// Prints what `error` means and exits with its status: the project's errors as
  /// "PROGRAM: error: …" (PROGRAM is `Root`'s command name), ArgumentParser's (a usage mistake,
  /// `--help` or `--version`) in its words for `Root`, with the hint `hint` gives for the
  /// message and the arguments, where one fits.
  package static func exit<Root: ParsableCommand>(
    reporting error: any Error, root: Root.Type,
    hint: (_ message: String, _ arguments: [String]) -> String? = { _, _ in nil }
  ) -> Never {
    if let code = error as? ExitCode { terminate(code.rawValue) }
    let program = programName(of: root)
    guard isOwn(error) else {
      let code = Root.exitCode(for: error)
      let text = Root.fullMessage(for: error)
      if code == .success {
        write(text + "\n", to: STDOUT_FILENO)
        terminate(0)
      }
      let arguments = Array(CommandLine.arguments.dropFirst())
      let message = errorText(text, program: program) { hint($0, arguments) }
      write(message + "\n", to: STDERR_FILENO)
      terminate(failure)
    }
    write("\(program): error: \(error)\n", to: STDERR_FILENO)
    terminate(failure)
  }

  /// The name `Root` is run by, as its errors begin.
  package static func programName<Root: ParsableCommand>(of root: Root.Type) -> String {
    Root.configuration.commandName ?? String(describing: root)
  }

  /// The parser's full text (message, help line, usage) as the program's one error form:
  /// "PROGRAM: error: …", the hint after the message.
  package static func errorText(
    _ text: String, program: String, hint: (_ message: String) -> String? = { _ in nil }
  ) -> String {
    var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    guard let first = lines.first else { return text }
    var message = first.hasPrefix("Error: ") ? String(first.dropFirst(7)) : first
    if let hint = hint(message) { message += "; " + hint }
    lines[0] = "\(program): error: " + message
    return lines.joined(separator: "\n")
  }

  /// Whether `error` is one of the project's, whose description says what went wrong (and,
  /// for a ``LocatedError``, where, as "file:line:column: reason; hint"), rather than one of
  /// ArgumentParser's, which it prints with the usage.
  package static func isOwn(_ error: any Error) -> Bool {
    if error is any LocatedError { return true }
    let module = String(reflecting: type(of: error)).prefix { $0 != "." }
    return ownModules.contains(String(module))
  }

  /// The modules whose errors are the project's.
  private static let ownModules: Set = [
    "SearchEngine", "SearchCore", "SearchDataSets", "SearchPostgres", "SearchCommandLine",
    "SearchREPL", "SearchBenchmarks",
  ]

  /// Writes text to a file descriptor.
  package static func write(_ text: String, to descriptor: Int32) {
    var text = text
    text.withUTF8 { write($0, to: descriptor) }
  }

  /// Writes all of `bytes` to a file descriptor, retrying short writes.
  package static func write(_ bytes: UnsafeBufferPointer<UInt8>, to descriptor: Int32) {
    guard var pointer = bytes.baseAddress else { return }
    var remaining = bytes.count
    while remaining > 0 {
      let written = systemWrite(descriptor, pointer, remaining)
      if written < 0 {
        if errno == EINTR { continue }
        return  // a closed pipe: nobody is reading any more
      }
      pointer += written
      remaining -= written
    }
  }
}

/// Standard output collected in large blocks, so that printing a million lines costs a few
/// hundred system calls.
package struct OutputBuffer: ~Copyable {
  private var bytes: [UInt8] = []
  private static let blockSize = 1 << 16

  package init() { bytes.reserveCapacity(Self.blockSize * 2) }

  package mutating func append(_ chunk: UnsafeBufferPointer<UInt8>) {
    // A chunk as large as a block goes out as it is, not through a copy (a line of 200 MB
    // would double the peak).
    if chunk.count >= Self.blockSize {
      flush()
      Terminal.write(chunk, to: STDOUT_FILENO)
      return
    }
    bytes.append(contentsOf: chunk)
    if bytes.count >= Self.blockSize { flush() }
  }

  package mutating func append(_ byte: UInt8) {
    bytes.append(byte)
    if bytes.count >= Self.blockSize { flush() }
  }

  package mutating func flush() {
    bytes.withUnsafeBufferPointer { Terminal.write($0, to: STDOUT_FILENO) }
    bytes.removeAll(keepingCapacity: true)
  }

  deinit { bytes.withUnsafeBufferPointer { Terminal.write($0, to: STDOUT_FILENO) } }
}

#if canImport(Glibc)
  // glibc's mallopt(3); its header <malloc.h> is not part of the Glibc module.
  @_silgen_name("mallopt")
  private func glibcMallopt(_ parameter: Int32, _ value: Int32) -> Int32
#endif

/// Ends the process; at file scope, where `exit` and `write` are the C functions.
private func terminate(_ status: Int32) -> Never { exit(status) }

private func systemWrite(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
  write(descriptor, bytes, count)
}

/// A failure of the command line itself (a file that cannot be read, a missing data set).
package struct CommandError: Error, CustomStringConvertible {
  package var description: String
  package init(_ description: String) { self.description = description }
}
