import SearchCommandLine

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The controlling terminal switched to raw input (keys arrive one by one, unechoed, Ctrl-C
/// as a key) for the line editor and the live view, and put back on every way out: a normal
/// return, an error, `exit`, SIGTERM, SIGHUP, SIGINT, SIGQUIT, and a crash (the signal is
/// raised again once the terminal is back, so the process still ends as it would have).
///
/// SIGWINCH is turned into a byte on a pipe that ``KeyReader`` waits on with standard
/// input, so a resize reaches the same stream as the keys.
///
/// The state lives in globals because a signal handler can reach nothing else; it is
/// written only by ``enter(fullScreen:)`` and ``leave()``, on one thread, before the
/// handlers can run and after they stop mattering.
enum RawTerminal {
  /// Whether standard input and standard output are both terminals.
  static var isInteractive: Bool { isatty(STDIN_FILENO) != 0 && isatty(STDOUT_FILENO) != 0 }

  /// Which terminal a program reads keys from and draws on.
  enum Device: Sendable {
    /// Standard input and standard output (the REPL's prompt).
    case standard
    /// Standard input and output when both are terminals, else the process's controlling
    /// terminal, `/dev/tty`: so a full-screen view works in a pipeline, as fzf does, and its
    /// standard output carries only what it prints at the end.
    case controlling
  }

  /// Whether ``enter(fullScreen:device:)`` can take `device`: standard input and output are
  /// terminals, or (for ``Device/controlling``) the process has a controlling terminal.
  static func isAvailable(_ device: Device) -> Bool {
    if isInteractive { return true }
    guard device == .controlling else { return false }
    let descriptor = open("/dev/tty", O_RDWR | O_CLOEXEC)
    guard descriptor >= 0 else { return false }
    close(descriptor)
    return true
  }

  /// The descriptor keys are read from: standard input, or the controlling terminal.
  static var input: Int32 { terminalInput }
  /// The descriptor frames are written to: standard output, or the controlling terminal.
  static var output: Int32 { terminalOutput }

  /// Switches to raw input; with `fullScreen`, to the alternate screen with the cursor
  /// hidden as well.
  ///
  /// Bracketed paste is turned on, so a paste arrives as one ``Key/paste(_:)``.
  ///
  /// - Throws: When the device is not a terminal (standard input is not one, or there is no
  ///   controlling terminal).
  static func enter(fullScreen: Bool, device: Device = .standard) throws(CommandError) {
    guard !terminalIsRaw else { return }
    if device == .controlling && !isInteractive {
      let descriptor = open("/dev/tty", O_RDWR | O_CLOEXEC)
      guard descriptor >= 0 else {
        throw CommandError(
          "there is no terminal to draw on (/dev/tty: \(String(cString: strerror(errno))))")
      }
      terminalInput = descriptor
      terminalOutput = descriptor
    } else {
      terminalInput = STDIN_FILENO
      terminalOutput = STDOUT_FILENO
    }
    guard tcgetattr(terminalInput, savedAttributes) == 0 else {
      let reason = String(cString: strerror(errno))
      closeControllingTerminal()
      throw CommandError("standard input is not a terminal: \(reason)")
    }
    rawAttributes.pointee = savedAttributes.pointee
    let raw = rawAttributes
    raw.pointee.c_lflag &= ~tcflag_t(ECHO | ICANON | ISIG | IEXTEN)
    raw.pointee.c_iflag &= ~tcflag_t(IXON | ICRNL | BRKINT | INPCK | ISTRIP)
    withUnsafeMutableBytes(of: &raw.pointee.c_cc) { characters in
      characters[Int(VMIN)] = 1
      characters[Int(VTIME)] = 0
    }
    if !handlersInstalled { installHandlers() }
    leaveSequenceLength = 0
    appendLeaveSequence(
      fullScreen ? "\u{1B}[?2004l\u{1B}[0m\u{1B}[?25h\u{1B}[?1049l" : "\u{1B}[?2004l")
    terminalIsRaw = true
    _ = tcsetattr(terminalInput, TCSADRAIN, raw)
    Terminal.write(
      fullScreen ? "\u{1B}[?1049h\u{1B}[?25l\u{1B}[?2004h" : "\u{1B}[?2004h", to: terminalOutput)
  }

  /// Puts the terminal back as it was before ``enter(fullScreen:device:)``, and closes the
  /// controlling terminal if it was opened; does nothing if it is not raw, so every exit path
  /// may call it.
  static func leave() {
    restoreTerminal()
    closeControllingTerminal()
  }

  private static func closeControllingTerminal() {
    if terminalInput != STDIN_FILENO { close(terminalInput) }
    terminalInput = STDIN_FILENO
    terminalOutput = STDOUT_FILENO
  }

  /// The terminal's size in columns and rows; 80×24 when it cannot be read.
  static var size: (columns: Int, rows: Int) {
    var window = winsize()
    guard ioctl(terminalOutput, UInt(TIOCGWINSZ), &window) == 0, window.ws_col > 0,
      window.ws_row > 0
    else { return (80, 24) }
    return (Int(window.ws_col), Int(window.ws_row))
  }

  /// The read end of the pipe that gets a byte on every SIGWINCH; -1 before the first
  /// ``enter(fullScreen:)``.
  static var resizeDescriptor: Int32 { resizePipe.read }

  private static func installHandlers() {
    handlersInstalled = true
    var descriptors: [Int32] = [-1, -1]
    if pipe(&descriptors) == 0 {
      for descriptor in descriptors {
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
        _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
      }
      resizePipe = (descriptors[0], descriptors[1])
    }
    for number in [SIGTERM, SIGHUP, SIGINT, SIGQUIT, SIGABRT, SIGSEGV, SIGBUS, SIGILL, SIGTRAP] {
      _ = signal(number, restoreAndReraise)
    }
    _ = signal(SIGWINCH, noteResize)
    atexit(restoreAtExit)
  }

  private static func appendLeaveSequence(_ text: String) {
    for byte in text.utf8 where leaveSequenceLength < leaveSequenceCapacity {
      leaveSequence[leaveSequenceLength] = byte
      leaveSequenceLength += 1
    }
  }
}

// MARK: State a signal handler can reach

/// The terminal's attributes before ``RawTerminal/enter(fullScreen:device:)``, and the raw
/// ones: C's `struct termios` is 60 bytes where Swift's `termios` is 57 (Swift leaves out the
/// tail padding), and `tcgetattr` may write all 60, so they live in memory allocated by
/// stride, not in Swift variables (AddressSanitizer found the overflow).
nonisolated(unsafe) private let savedAttributes = newAttributes()
nonisolated(unsafe) private let rawAttributes = newAttributes()

private func newAttributes() -> UnsafeMutablePointer<termios> {
  let attributes = UnsafeMutablePointer<termios>.allocate(capacity: 1)
  attributes.initialize(to: termios())
  return attributes
}
nonisolated(unsafe) private var terminalIsRaw = false
nonisolated(unsafe) private var terminalInput = STDIN_FILENO
nonisolated(unsafe) private var terminalOutput = STDOUT_FILENO
nonisolated(unsafe) private var handlersInstalled = false
nonisolated(unsafe) private var resizePipe: (read: Int32, write: Int32) = (-1, -1)
private let leaveSequenceCapacity = 64
/// What undoes the screen modes; a fixed buffer, so the handler neither allocates nor locks.
nonisolated(unsafe) private let leaveSequence = UnsafeMutablePointer<UInt8>.allocate(
  capacity: leaveSequenceCapacity)
nonisolated(unsafe) private var leaveSequenceLength = 0

/// Async-signal-safe: `write` and `tcsetattr` only.
private func restoreTerminal() {
  guard terminalIsRaw else { return }
  terminalIsRaw = false
  _ = write(terminalOutput, leaveSequence, leaveSequenceLength)
  _ = tcsetattr(terminalInput, TCSADRAIN, savedAttributes)
}

private let restoreAndReraise: @convention(c) (Int32) -> Void = { number in
  restoreTerminal()
  _ = signal(number, SIG_DFL)
  _ = raise(number)
}

private let noteResize: @convention(c) (Int32) -> Void = { _ in
  let savedErrno = errno
  var byte: UInt8 = 1
  _ = write(resizePipe.write, &byte, 1)
  errno = savedErrno
}

private let restoreAtExit: @convention(c) () -> Void = { restoreTerminal() }
