import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// One run of an executable started with `posix_spawn` and reaped with `wait4`, so that its own
/// peak memory is known (Foundation's `Process` reaps its children itself, and `getrusage` of
/// all children would mix in the other tests' processes).
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

  /// Runs `executable` with `arguments`, standard input from `stdin`, standard output and
  /// error into files in `folder`; a process still running after `timeout` seconds is killed.
  static func run(
    _ executable: String, _ arguments: [String], stdin: String, folder: URL,
    timeout: TimeInterval = 300, keepOutput: Bool = true
  ) throws -> MeasuredRun {
    let outputPath = folder.appendingPathComponent("measured-stdout").path
    let errorPath = folder.appendingPathComponent("measured-stderr").path
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, stdin, O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    posix_spawn_file_actions_addopen(&actions, 2, errorPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    let argv = ([executable] + arguments).map { strdup($0) }
    defer { argv.forEach { free($0) } }
    var pid = pid_t()
    let spawned = posix_spawn(&pid, executable, &actions, nil, argv + [nil], environ)
    guard spawned == 0 else {
      throw BinaryRunnerError(
        description: "cannot start \(executable): \(String(cString: strerror(spawned)))")
    }
    let child = pid
    let watchdog = DispatchWorkItem { kill(child, SIGKILL) }
    DispatchQueue.global().asyncAfter(deadline: .now() + timeout, execute: watchdog)
    var waitStatus: Int32 = 0
    var usage = rusage()
    while wait4(child, &waitStatus, 0, &usage) < 0 && errno == EINTR {}
    watchdog.cancel()
    // Linux gives ru_maxrss in KiB.
    let peak = Int(usage.ru_maxrss) * 1024
    let exited = waitStatus & 0x7F == 0
    let size = (try? FileManager.default.attributesOfItem(atPath: outputPath)[.size] as? Int) ?? 0
    return MeasuredRun(
      status: exited ? (waitStatus >> 8) & 0xFF : nil, peakBytes: peak,
      stdout: keepOutput ? (FileManager.default.contents(atPath: outputPath) ?? Data()) : Data(),
      stdoutSize: size,
      stderr: String(
        decoding: FileManager.default.contents(atPath: errorPath) ?? Data(), as: UTF8.self))
  }
}
