import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// What a raw terminal sends a program: keys, a new size, or the end of input.
enum TerminalInput: Equatable, Sendable {
  case key(Key)
  case resize
  case endOfInput
}

/// Reads the terminal (``RawTerminal/input``) on a thread of its own and delivers it as ``TerminalInput``, with
/// the resizes ``RawTerminal`` notes, in the order they happen.
enum KeyReader {
  /// How long a lone Escape waits for the rest of a sequence before it counts as the key:
  /// terminals send a sequence in one write, so a few tens of milliseconds is plenty.
  static let escapeWait: Int32 = 40

  /// Starts reading; the stream ends at the end of input or a read error.
  static func start() -> AsyncStream<TerminalInput> {
    let (stream, continuation) = AsyncStream.makeStream(of: TerminalInput.self)
    let resize = RawTerminal.resizeDescriptor
    let input = RawTerminal.input
    Thread.detachNewThread {
      var decoder = KeyDecoder()
      var bytes = [UInt8](repeating: 0, count: 4096)
      var descriptors = [
        pollfd(fd: input, events: Int16(POLLIN), revents: 0),
        pollfd(fd: resize, events: Int16(POLLIN), revents: 0),
      ]
      while true {
        for index in descriptors.indices { descriptors[index].revents = 0 }
        let ready = poll(
          &descriptors, nfds_t(resize >= 0 ? 2 : 1), decoder.hasPending ? escapeWait : -1)
        if ready < 0 {
          if errno == EINTR { continue }
          break
        }
        if ready == 0 {
          for key in decoder.flush() { continuation.yield(.key(key)) }
          continue
        }
        if resize >= 0, descriptors[1].revents != 0 {
          // Several signals in a row are one redraw.
          while bytes.withUnsafeMutableBytes({ read(resize, $0.baseAddress, $0.count) }) > 0 {}
          continuation.yield(.resize)
        }
        guard descriptors[0].revents != 0 else { continue }
        let count = bytes.withUnsafeMutableBytes { read(input, $0.baseAddress, $0.count) }
        if count < 0 && errno == EINTR { continue }
        if count <= 0 { break }
        for key in decoder.decode(bytes[0..<count]) { continuation.yield(.key(key)) }
      }
      for key in decoder.flush() { continuation.yield(.key(key)) }
      continuation.yield(.endOfInput)
      continuation.finish()
    }
    return stream
  }
}
