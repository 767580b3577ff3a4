import Foundation

/// What one run of a built executable of the package produced.
package struct RunResult: Sendable {
  /// The exit status, or the signal number when `exitedNormally` is false.
  package var status: Int32
  /// False when the process was killed by a signal (a crash, or the runner's timeout).
  package var exitedNormally: Bool
  /// Everything written to standard output.
  package var stdout: Data
  /// Everything written to standard error.
  package var stderr: Data

  /// Standard output with every byte visible; see ``visible(_:)``.
  package var visibleStdout: String { visible(stdout) }
  /// Standard error decoded as UTF-8 (with replacement characters for bad bytes).
  package var stderrText: String { String(decoding: stderr, as: UTF8.self) }
}

/// Why the runner could not run the executable.
package struct BinaryRunnerError: Error, CustomStringConvertible {
  package var description: String

  package init(description: String) { self.description = description }
}

/// Runs an executable that `swift build --build-tests` puts next to the test bundle (`SearchREPL`
/// unless another is named), with standard input from a file and standard output and error read
/// from pipes.
package enum BinaryRunner {
  /// The name of the executable product run unless another is named.
  package static let executableName = "SearchREPL"

  /// The built executable: the file `name` in the directory of the running test executable (on
  /// macOS the test bundle is a directory, so its parents are searched too).
  package static func executableURL(named name: String = executableName) throws -> URL {
    var candidates: [URL] = []
    if let link = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
      candidates.append(URL(fileURLWithPath: link))
    }
    if let main = Bundle.main.executableURL { candidates.append(main) }
    if let first = CommandLine.arguments.first { candidates.append(URL(fileURLWithPath: first)) }
    var searched: [String] = []
    for candidate in candidates {
      var directory = candidate.deletingLastPathComponent()
      for _ in 0..<4 {
        let binary = directory.appendingPathComponent(name)
        searched.append(binary.path)
        if FileManager.default.isExecutableFile(atPath: binary.path) { return binary }
        directory = directory.deletingLastPathComponent()
      }
    }
    throw BinaryRunnerError(
      description: "no \(name) executable found (run `swift build --build-tests`); "
        + "looked at: \(searched.joined(separator: ", "))")
  }

  /// Runs the executable `program` with `arguments`; `stdin` is written to a temporary file
  /// that becomes its standard input (an empty `stdin` means /dev/null).
  package static func run(
    _ arguments: [String], stdin: Data = Data(), timeout: TimeInterval = 120,
    program: String = executableName
  ) throws -> RunResult {
    if stdin.isEmpty {
      return try run(
        arguments, stdinFile: URL(fileURLWithPath: "/dev/null"), timeout: timeout,
        program: program)
    }
    return try withTemporaryDirectory { directory in
      let file = directory.appendingPathComponent("stdin")
      try stdin.write(to: file)
      return try run(arguments, stdinFile: file, timeout: timeout, program: program)
    }
  }

  /// Runs the executable `program` with `arguments` and standard input read from `stdinFile`.
  ///
  /// A process still running after `timeout` seconds is terminated (and the result says so).
  package static func run(
    _ arguments: [String], stdinFile: URL, timeout: TimeInterval,
    program: String = executableName
  ) throws -> RunResult {
    try run(
      executable: executableURL(named: program), arguments, stdinFile: stdinFile,
      timeout: timeout)
  }

  /// Runs any executable with `arguments`, standard input read from `stdinFile`, and the
  /// test's environment (changed by `environment` when given).
  ///
  /// A process still running after `timeout` seconds is terminated (and the result says so).
  package static func run(
    executable: URL, _ arguments: [String], stdinFile: URL, timeout: TimeInterval,
    environment: [String: String]? = nil, folder: URL? = nil
  ) throws -> RunResult {
    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    if let folder { process.currentDirectoryURL = folder }
    if let environment { process.environment = environment }
    let input = try FileHandle(forReadingFrom: stdinFile)
    defer { try? input.close() }
    let output = Pipe()
    let error = Pipe()
    process.standardInput = input
    process.standardOutput = output
    process.standardError = error
    try process.run()

    let watchdog = DispatchWorkItem { [process] in
      if process.isRunning { process.terminate() }
    }
    DispatchQueue.global().asyncAfter(deadline: .now() + timeout, execute: watchdog)
    defer { watchdog.cancel() }

    // Both pipes are drained at the same time, so that a full one never blocks the child.
    let errorReader = BackgroundReader(error.fileHandleForReading)
    let outputData = output.fileHandleForReading.readDataToEndOfFile()
    let errorData = errorReader.wait()
    process.waitUntilExit()
    try? output.fileHandleForReading.close()
    try? error.fileHandleForReading.close()
    return RunResult(
      status: process.terminationStatus, exitedNormally: process.terminationReason == .exit,
      stdout: outputData, stderr: errorData)
  }
}

/// Reads a file handle to its end on another thread.
private final class BackgroundReader: @unchecked Sendable {
  private let done = DispatchSemaphore(value: 0)
  // Written once by the reading thread before `done` is signalled, read after the wait.
  private var data = Data()

  init(_ handle: FileHandle) {
    DispatchQueue.global().async { [self] in
      data = handle.readDataToEndOfFile()
      done.signal()
    }
  }

  /// Waits for the end of the file and returns everything read.
  func wait() -> Data {
    done.wait()
    return data
  }
}

/// The manifest of a committed data set, `Corpus/FOLDER/NAME.manifest.json`, as a path;
/// found from this file so that the tests run from any directory.
package func corpusManifest(_ folder: String, _ name: String) -> String {
  URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Corpus/\(folder)/\(name).manifest.json").path
}

/// Runs `body` with a new empty directory, removed with its contents afterwards.
package func withTemporaryDirectory<Result>(_ body: (URL) throws -> Result) throws -> Result {
  let directory = FileManager.default.temporaryDirectory
    .appendingPathComponent("SearchREPLTests-\(UUID().uuidString)", isDirectory: true)
  try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
  defer { try? FileManager.default.removeItem(at: directory) }
  return try body(directory)
}

/// Bytes as ASCII text in which every byte can be seen.
///
/// Printable ASCII stands for itself; a backslash is written "\\", and "\n", "\r", "\t"
/// and "\xHH" stand for the other bytes. Two byte sequences are equal exactly when their
/// visible forms are, so comparing these compares bytes (unlike comparing `String`s, which
/// treats "é" and "e" + U+0301 as equal).
package func visible(_ bytes: some Sequence<UInt8>) -> String {
  var text = ""
  for byte in bytes {
    switch byte {
    case UInt8(ascii: "\\"): text += "\\\\"
    case 0x0A: text += "\\n"
    case 0x0D: text += "\\r"
    case 0x09: text += "\\t"
    case 0x20...0x7E: text.unicodeScalars.append(Unicode.Scalar(byte))
    default:
      let hex = String(byte, radix: 16, uppercase: true)
      text += "\\x" + (hex.count == 1 ? "0" + hex : hex)
    }
  }
  return text
}
