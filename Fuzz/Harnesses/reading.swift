// Reading under limits (FileBytes, the reader of filter, the loaders, manifests and cases
// files): any bytes through a pipe, with small limits and small reads, give the bytes back when
// no line and not the whole passes its limit, and otherwise the error about the first line at
// fault, with its number; whatever the size of the reads.

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// One input: the line limit (0–31), the size limit (0–255, or none), the size of a read
/// (1–16 bytes), then the bytes read.
func fuzzReading(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
  var input = FuzzInput(data, size)
  let lineLimit = input.below(32)
  let sizeChoice = input.byte()
  let sizeLimit = sizeChoice >= 0xF0 ? Int.max : Int(sizeChoice)
  let chunkSize = 1 + input.below(16)
  let bytes = input.rest()

  // libFuzzer's inputs (4 KiB here) fit a pipe's buffer: written whole, then read.
  var ends: [Int32] = [0, 0]
  guard pipe(&ends) == 0 else {
    require(false, "no pipe: \(String(cString: strerror(errno)))")
    return 0
  }
  bytes.withUnsafeBytes { buffer in
    var offset = 0
    while offset < buffer.count, let base = buffer.baseAddress {
      let written = write(ends[1], base + offset, buffer.count - offset)
      guard written > 0 else { break }
      offset += written
    }
  }
  close(ends[1])
  let result = FileBytes.read(
    ends[0], maximumLineLength: lineLimit, maximumSize: sizeLimit, chunkSize: chunkSize)
  close(ends[0])

  // The oracle: the lines' lengths (before their "\n"), and where each starts.
  let lines = bytes.split(separator: 0x0A, omittingEmptySubsequences: false)
  var starts: [Int] = []
  var offset = 0
  for line in lines {
    starts.append(offset)
    offset += line.count + 1
  }
  let firstLong = lines.firstIndex { $0.count > lineLimit }
  let tooLarge = bytes.count > sizeLimit
  switch result {
  case .success(let read):
    require(read == bytes, "\(read.count) bytes read of \(bytes.count)")
    require(
      firstLong == nil, "line \((firstLong ?? 0) + 1) passes the limit \(lineLimit) but was read")
    require(!tooLarge, "\(bytes.count) bytes pass the limit \(sizeLimit) but were read")
  case .failure(.lineTooLong(let line, let limit)):
    require(limit == lineLimit, "the limit is \(limit), not \(lineLimit)")
    require(
      line - 1 == firstLong,
      "line \(line) is said to be too long; the first too long is \((firstLong ?? -1) + 1)")
  case .failure(.tooLarge(let line, let limit)):
    require(limit == sizeLimit && tooLarge, "\(bytes.count) bytes said to pass \(limit)")
    // The line with byte `limit` (from 0) in it.
    let expected = starts.lastIndex { $0 <= limit }.map { $0 + 1 } ?? 1
    require(line == expected, "the size limit is said to pass in line \(line), not \(expected)")
    // A line found too long before byte `limit` arrived (its byte `lineLimit` is before it)
    // is reported first.
    if let firstLong {
      require(
        starts[firstLong] + lineLimit > limit,
        "line \(firstLong + 1), too long before the size limit passed, was not reported")
    }
  case .failure(.system(let message)):
    require(false, "a pipe could not be read: \(message)")
  case .failure(.notRegular(let kind)):
    require(false, "a descriptor already open is read, never refused as \(kind)")
  }
  return 0
}
