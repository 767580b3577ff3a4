import Foundation
import TestSupport

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// One run of an executable under GNU time (`/usr/bin/time -f %M`), so that its own peak memory
/// is known.
///
/// The test process cannot measure it itself: `posix_spawn` starts a child in the test
/// process's memory (`CLONE_VM`) until it runs the executable, and Linux then counts the test
/// process's own peak (the other suites', running beside) in the child's (`ru_maxrss` from
/// `wait4`). GNU time, a small process, forks the executable and reads its peak alone.
struct MeasuredRun {
  /// The exit status, or nil when a signal ended the process (the watchdog's too).
  var status: Int32?
  /// The most memory the process had resident at once, in bytes.
  var peakBytes: Int
  /// Standard output, or its size only when `keepOutput` was false.
  var stdout: Data
  var stdoutSize: Int
  /// Standard error as text.
  var stderr: String

  /// Where GNU time is (Debian's package `time`, which `.ci/install-deps` installs).
  static let timePath = "/usr/bin/time"

  /// Runs `executable` with `arguments`, standard input from `stdin`, standard output and
  /// error into files in `folder`; a process still running after `timeout` seconds is killed.
  static func run(
    _ executable: String, _ arguments: [String], stdin: String, folder: URL,
    timeout: TimeInterval = 300, keepOutput: Bool = true
  ) throws -> MeasuredRun {
    let outputPath = folder.appendingPathComponent("measured-stdout").path
    let errorPath = folder.appendingPathComponent("measured-stderr").path
    let peakPath = folder.appendingPathComponent("measured-peak").path
    guard FileManager.default.isExecutableFile(atPath: timePath) else {
      throw BinaryRunnerError(
        description: "\(timePath) is missing: install Debian's package time (GNU time)")
    }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, stdin, O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    posix_spawn_file_actions_addopen(&actions, 2, errorPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    // A process group of their own, so that the watchdog ends the executable with GNU time.
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP))
    posix_spawnattr_setpgroup(&attributes, 0)
    let argv = ([timePath, "-f", "%M", "-o", peakPath, executable] + arguments).map { strdup($0) }
    defer { argv.forEach { free($0) } }
    var pid = pid_t()
    let spawned = posix_spawn(&pid, timePath, &actions, &attributes, argv + [nil], environ)
    guard spawned == 0 else {
      throw BinaryRunnerError(
        description: "cannot start \(executable): \(String(cString: strerror(spawned)))")
    }
    let child = pid
    let watchdog = DispatchWorkItem { kill(-child, SIGKILL) }
    DispatchQueue.global().asyncAfter(deadline: .now() + timeout, execute: watchdog)
    var waitStatus: Int32 = 0
    while waitpid(child, &waitStatus, 0) < 0 && errno == EINTR {}
    watchdog.cancel()
    // GNU time's report: "Command terminated by signal N" or "Command exited with non-zero
    // status N" when so, then the peak in KiB.
    let report = (try? String(contentsOfFile: peakPath, encoding: .utf8)) ?? ""
    let lines = report.split(separator: "\n")
    let kibibytes = lines.last.flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }
    // GNU time itself ended by the watchdog reports nothing.
    let timeExited = waitStatus & 0x7F == 0
    guard kibibytes != nil || !timeExited else {
      throw BinaryRunnerError(description: "GNU time reported no peak for \(executable): \(report)")
    }
    let peak = (kibibytes ?? 0) * 1024
    let exited = timeExited && !lines.contains { $0.hasPrefix("Command terminated by signal") }
    let size = (try? FileManager.default.attributesOfItem(atPath: outputPath)[.size] as? Int) ?? 0
    return MeasuredRun(
      status: exited ? (waitStatus >> 8) & 0xFF : nil, peakBytes: peak,
      stdout: keepOutput ? (FileManager.default.contents(atPath: outputPath) ?? Data()) : Data(),
      stdoutSize: size,
      stderr: String(
        decoding: FileManager.default.contents(atPath: errorPath) ?? Data(), as: UTF8.self))
  }
}
