#if Web
  import Foundation

  #if canImport(Glibc)
    import Glibc
  #endif

  /// A WebSocket client on a bare TCP socket, for the clients a browser never is: one that
  /// stops reading, reads slowly through a small receive buffer, or resets the connection in
  /// the middle of an update.
  ///
  /// Its calls block their thread: run them with ``RawWebSocket/blocking(_:)``, off the
  /// cooperative pool.
  final class RawWebSocket: @unchecked Sendable {
    // Used by one thread at a time: each test drives its socket from one blocking call after
    // another.
    private let descriptor: Int32
    /// Bytes read past the last frame returned.
    private var buffered: [UInt8] = []

    struct Failure: Error, CustomStringConvertible {
      var description: String
    }

    /// How long a read waits for the server's next bytes before it fails: a server that goes
    /// quiet fails the test instead of holding its thread (and the whole run) for ever.
    private let patience: Duration

    /// Connects to the server's `/search` on 127.0.0.1 and upgrades.
    ///
    /// `receiveBuffer` sets the socket's receive buffer first (the kernel then does not grow
    /// it). A read that waits longer than `patience` for the server's next bytes throws.
    init(port: Int, receiveBuffer: Int? = nil, patience: Duration = .seconds(120)) throws {
      descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
      guard descriptor >= 0 else { throw Failure(description: "socket: errno \(errno)") }
      self.patience = patience
      setReceiveTimeout(patience)
      if var size = receiveBuffer.map(Int32.init) {
        setsockopt(
          descriptor, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
      }
      var address = sockaddr_in()
      address.sin_family = sa_family_t(AF_INET)
      address.sin_port = in_port_t(UInt16(port).bigEndian)
      address.sin_addr.s_addr = inet_addr("127.0.0.1")
      let connected = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
          connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
        }
      }
      guard connected == 0 else {
        Glibc.close(descriptor)
        throw Failure(description: "connect to port \(port): errno \(errno)")
      }
      try write(
        Array(
          ("GET /search HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nUpgrade: websocket\r\n"
            + "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
            + "Sec-WebSocket-Version: 13\r\n\r\n").utf8))
      let end = Array("\r\n\r\n".utf8)
      var headers = buffered.firstRange(of: end)
      while headers == nil {
        guard try fill() else { throw Failure(description: "the server closed the upgrade") }
        headers = buffered.firstRange(of: end)
      }
      guard let headers else { throw Failure(description: "no upgrade response") }
      let head = String(decoding: buffered[..<headers.lowerBound], as: UTF8.self)
      buffered.removeSubrange(..<headers.upperBound)
      guard head.hasPrefix("HTTP/1.1 101") else {
        throw Failure(description: "the upgrade was refused: \(head)")
      }
    }

    deinit { Glibc.close(descriptor) }

    /// Runs `body` on a thread of Dispatch's, not of the cooperative pool.
    static func blocking<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws
      -> T
    {
      try await withCheckedThrowingContinuation { continuation in
        DispatchQueue.global().async { continuation.resume(with: Result { try body() }) }
      }
    }

    /// Sends a text message, masked as a client must.
    func send(_ text: String) throws {
      let payload = Array(text.utf8)
      var frame: [UInt8] = [0x81]
      switch payload.count {
      case ..<126: frame.append(0x80 | UInt8(payload.count))
      case ..<65536: frame += [0x80 | 126, UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)]
      default:
        frame.append(0x80 | 127)
        frame += (0..<8).reversed().map { UInt8((payload.count >> ($0 * 8)) & 0xFF) }
      }
      let mask: [UInt8] = [0x37, 0xFA, 0x21, 0x3D]
      frame += mask
      frame += payload.enumerated().map { $0.element ^ mask[$0.offset % 4] }
      try write(frame)
    }

    /// The next text message, reading at most `chunk` bytes at a time with `pause` between
    /// reads; nil once the server closed the connection (a close frame, or the end).
    func receive(chunk: Int = 65536, pause: Duration = .zero) throws -> String? {
      var message: [UInt8] = []
      while true {
        guard let (final, opcode, payload) = try frame(chunk: chunk, pause: pause) else {
          return nil
        }
        switch opcode {
        case 0x8: return nil
        case 0x9, 0xA: continue  // ping, pong: not messages
        default: message += payload
        }
        if final { return String(decoding: message, as: UTF8.self) }
      }
    }

    /// Reads until the server ends the connection; false when it is still open after `limit`.
    func readsToTheEnd(within limit: Duration) throws -> Bool {
      setReceiveTimeout(limit)
      var bytes = [UInt8](repeating: 0, count: 65536)
      while true {
        let count = read(descriptor, &bytes, bytes.count)
        if count == 0 || (count < 0 && errno == ECONNRESET) { return true }
        if count < 0 { return false }  // EAGAIN: the time is up
      }
    }

    /// Resets the connection (SO_LINGER 0): the server's next write fails at once.
    func reset() {
      var linger = Glibc.linger(l_onoff: 1, l_linger: 0)
      setsockopt(
        descriptor, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<Glibc.linger>.size))
      shutdown(descriptor, Int32(SHUT_RDWR))
    }

    private func frame(chunk: Int, pause: Duration) throws -> (Bool, UInt8, [UInt8])? {
      func need(_ count: Int) throws -> Bool {
        while buffered.count < count {
          if pause > .zero { Thread.sleep(forTimeInterval: pause / .seconds(1)) }
          guard try fill(chunk: chunk) else { return false }
        }
        return true
      }
      guard try need(2) else { return nil }
      var length = Int(buffered[1] & 0x7F)
      var header = 2
      if length == 126 {
        guard try need(4) else { return nil }
        length = Int(buffered[2]) << 8 | Int(buffered[3])
        header = 4
      } else if length == 127 {
        guard try need(10) else { return nil }
        length = buffered[2..<10].reduce(0) { $0 << 8 | Int($1) }
        header = 10
      }
      guard try need(header + length) else { return nil }
      let result = (
        buffered[0] & 0x80 != 0, buffered[0] & 0x0F, Array(buffered[header..<header + length])
      )
      buffered.removeFirst(header + length)
      return result
    }

    /// A read waits at most `limit` for bytes (SO_RCVTIMEO), then fails with EAGAIN.
    private func setReceiveTimeout(_ limit: Duration) {
      var timeout = timeval(
        tv_sec: Int(limit.components.seconds),
        tv_usec: Int(limit.components.attoseconds / 1_000_000_000_000))
      setsockopt(
        descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    /// Reads what has come; false at the end of the connection.
    private func fill(chunk: Int = 65536) throws -> Bool {
      var bytes = [UInt8](repeating: 0, count: chunk)
      let count = read(descriptor, &bytes, chunk)
      if count == 0 || (count < 0 && errno == ECONNRESET) { return false }
      if count < 0, errno == EAGAIN || errno == EWOULDBLOCK {
        throw Failure(description: "the server sent nothing for \(patience)")
      }
      guard count > 0 else { throw Failure(description: "read: errno \(errno)") }
      buffered += bytes[..<count]
      return true
    }

    private func write(_ bytes: [UInt8]) throws {
      var sent = 0
      while sent < bytes.count {
        let count = bytes[sent...].withUnsafeBytes {
          Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
        }
        guard count > 0 else { throw Failure(description: "send: errno \(errno)") }
        sent += count
      }
    }
  }
#endif
