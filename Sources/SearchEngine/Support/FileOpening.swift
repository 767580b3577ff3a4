#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Opening a file for reading, as a stream or as a regular file only.
package enum FileOpening {
  /// Why a file was not opened.
  package enum Failure: Error, Sendable {
    /// The system refused: its message, such as "No such file or directory".
    case system(String)
    /// The path names what a reader that needs a regular file refuses, rather than wait on
    /// it: "a FIFO (named pipe)", "a folder", a device.
    case notRegular(String)

    /// The reason, for an error message that names the file.
    package var message: String {
      switch self {
      case .system(let message): message
      case .notRegular(let kind): "it is \(kind), not a regular file"
      }
    }
  }

  /// Opens `path` for reading.
  ///
  /// A stream (`regularOnly` false) may be a pipe or a FIFO, which the open waits on until it
  /// has a writer, as `cat` does. With `regularOnly`, a FIFO, a folder or a device is refused at
  /// once: the open does not wait for a FIFO's writer.
  package static func open(_ path: String, regularOnly: Bool) -> Result<Int32, Failure> {
    let descriptor = systemOpen(path, O_RDONLY | O_CLOEXEC | (regularOnly ? O_NONBLOCK : 0))
    if descriptor < 0 { return .failure(.system(String(cString: strerror(errno)))) }
    guard regularOnly else { return .success(descriptor) }
    var status = stat()
    guard fstat(descriptor, &status) == 0 else {
      let message = String(cString: strerror(errno))
      close(descriptor)
      return .failure(.system(message))
    }
    let kind: String? =
      switch status.st_mode & S_IFMT {
      case S_IFREG: nil
      case S_IFIFO: "a FIFO (named pipe)"
      case S_IFDIR: "a folder"
      case S_IFCHR: "a character device"
      case S_IFBLK: "a block device"
      case S_IFSOCK: "a socket"
      default: "not a file"
      }
    if let kind {
      close(descriptor)
      return .failure(.notRegular(kind))
    }
    // Reads of a regular file wait for the disk as usual.
    _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) & ~O_NONBLOCK)
    return .success(descriptor)
  }
}

/// open(2), at file scope where `open` is the C function.
private func systemOpen(_ path: String, _ flags: Int32) -> Int32 { open(path, flags) }
