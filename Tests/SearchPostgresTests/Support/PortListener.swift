#if PostgreSQL
  #if canImport(Glibc)
    import Glibc
  #endif

  /// A TCP socket of this process bound to a port of 127.0.0.1 and listening on it, so that the
  /// port is busy until ``close()``.
  final class PortListener {
    let port: Int
    private let descriptor: Int32

    /// Binds `port`, or a port the kernel picks when it is 0, and listens on it unless
    /// `listening` is false: then a connection to the port is refused, and no one else can
    /// take the port while this holds it.
    init(port: Int = 0, listening: Bool = true) throws {
      let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
      guard descriptor >= 0 else { throw ClusterError("socket() failed") }
      var address = sockaddr_in()
      address.sin_family = sa_family_t(AF_INET)
      address.sin_port = UInt16(port).bigEndian
      address.sin_addr.s_addr = inet_addr("127.0.0.1")
      let bound = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
          bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
        }
      }
      guard bound == 0, !listening || listen(descriptor, 1) == 0 else {
        Glibc.close(descriptor)
        throw ClusterError("cannot listen on 127.0.0.1:\(port)")
      }
      var length = socklen_t(MemoryLayout<sockaddr_in>.size)
      let named = withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
          getsockname(descriptor, $0, &length)
        }
      }
      guard named == 0 else {
        Glibc.close(descriptor)
        throw ClusterError("getsockname() failed")
      }
      self.descriptor = descriptor
      self.port = Int(UInt16(bigEndian: address.sin_port))
    }

    /// Frees the port.
    func close() { Glibc.close(descriptor) }
  }
#endif
