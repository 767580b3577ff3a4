import Foundation
import Testing

@testable import SearchEngine

/// The limits checked while a file is read: the longest line, the most bytes.
@Suite struct FileBytesTests {
  private func withFile<Result>(_ bytes: [UInt8], _ body: (String) throws -> Result) throws
    -> Result
  {
    let path = FileManager.default.temporaryDirectory
      .appendingPathComponent("FileBytesTests-\(UUID().uuidString)").path
    try Data(bytes).write(to: URL(fileURLWithPath: path))
    defer { try? FileManager.default.removeItem(atPath: path) }
    return try body(path)
  }

  private func read(_ bytes: [UInt8], line: Int, size: Int = .max) throws -> Result<
    [UInt8], FileBytes.Failure
  > {
    try withFile(bytes) { FileBytes.contents(of: $0, maximumLineLength: line, maximumSize: size) }
  }

  @Test func aLineAsLongAsTheLimitIsRead() throws {
    // A "\r" counts; the "\n" does not; nor does a final line without one.
    let bytes = Array("0123456789\n012345678\r\n0123456789".utf8)
    #expect(try read(bytes, line: 10).get() == bytes)
  }

  @Test(arguments: [
    ("0123456789A\nb\n", 1), ("a\n0123456789A", 2), ("a\nb\n\n0123456789\r\n", 4),
  ])
  func aLongerLineStopsTheReadingAndIsNamed(text: String, line: Int) throws {
    guard case .failure(.lineTooLong(let at, let limit)) = try read(Array(text.utf8), line: 10)
    else {
      Issue.record("\(text.debugDescription) was read")
      return
    }
    #expect(at == line)
    #expect(limit == 10)
  }

  /// The lines before a long one fill more than one read (a chunk): the line is still counted
  /// right, and the reading stops within a chunk of the limit.
  @Test func theLineIsCountedAcrossReads() throws {
    let short = Array(repeating: Array("abcd\n".utf8), count: 300_000).joined()
    let bytes = Array(short) + Array(repeating: UInt8(ascii: "x"), count: 3 * FileBytes.chunkSize)
    guard case .failure(.lineTooLong(let line, _)) = try read(bytes, line: 100) else {
      Issue.record("the long line was read")
      return
    }
    #expect(line == 300_001)
  }

  @Test func theSizeLimitNamesTheLineItPassesIn() throws {
    let bytes = Array("aaaa\nbbbb\ncccc\n".utf8)
    #expect(try read(bytes, line: 100, size: bytes.count).get() == bytes)
    guard case .failure(.tooLarge(let line, let limit)) = try read(bytes, line: 100, size: 7)
    else {
      Issue.record("15 bytes were read under a limit of 7")
      return
    }
    // Byte 8 (offset 7) is in line 2.
    #expect(line == 2)
    #expect(limit == 7)
  }

  @Test func failuresSayWhatHappened() throws {
    guard case .failure(let failure) = FileBytes.contents(of: "/nonexistent/file") else {
      Issue.record("a file that does not exist was read")
      return
    }
    #expect(failure.message == "No such file or directory")
    #expect(failure.line == nil)
    #expect(
      FileBytes.Failure.lineTooLong(line: 3, limit: 256 << 20).message
        == "the line is longer than 256 MiB, the longest line read")
    #expect(
      FileBytes.Failure.tooLarge(line: 9, limit: Int(Int32.max)).message
        == "the input passes 2 GiB in this line, the most read")
  }
}
