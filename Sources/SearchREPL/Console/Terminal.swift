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
enum Terminal {
  /// Exit status when something matched, nothing matched, or something went wrong (as grep).
  static let matched: Int32 = 0
  static let noMatch: Int32 = 1
  static let failure: Int32 = 2

  /// Gives blocks of 16 MiB and more (columns, the largest result lists) their own mappings, so
  /// that they go back to the system when freed instead of staying in the heap of whichever
  /// worker thread freed them; smaller ones are reused from the heap without new page faults.
  ///
  /// Measured on W1 (`SearchREPL bench`): 256 KiB keeps the peak at 112 MB but costs a page
  /// fault per 4 KiB of every new result list (keystroke p99 +50%); glibc's default lets the
  /// peak grow past 140 MB; 16 MiB gives about 115 MB without the faults.
  static func tuneMemory() {
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
  static func flushOutput() { fflush(stdout) }

  /// Whether standard input is a terminal (a person, not a pipe).
  static var inputIsTerminal: Bool { isatty(STDIN_FILENO) == 1 }

  /// Exits with status 0, once a command has run to its end.
  static func exitSucceeding() -> Never { terminate(matched) }

  /// Writes text to a file descriptor.
  static func write(_ text: String, to descriptor: Int32) {
    var text = text
    text.withUTF8 { write($0, to: descriptor) }
  }

  /// Writes all of `bytes` to a file descriptor, retrying short writes.
  static func write(_ bytes: UnsafeBufferPointer<UInt8>, to descriptor: Int32) {
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
struct OutputBuffer: ~Copyable {
  private var bytes: [UInt8] = []
  private static let blockSize = 1 << 16

  init() { bytes.reserveCapacity(Self.blockSize * 2) }

  mutating func append(_ chunk: UnsafeBufferPointer<UInt8>) {
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

  mutating func append(_ byte: UInt8) {
    bytes.append(byte)
    if bytes.count >= Self.blockSize { flush() }
  }

  mutating func flush() {
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
func terminate(_ status: Int32) -> Never { exit(status) }

private func systemWrite(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
  write(descriptor, bytes, count)
}

/// A failure of the command line itself (a file that cannot be read, a missing data set).
struct CommandError: Error, CustomStringConvertible {
  var description: String
  init(_ description: String) { self.description = description }
}
