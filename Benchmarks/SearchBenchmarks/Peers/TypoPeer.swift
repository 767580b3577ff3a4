import Foundation
import SearchCommandLine
import SearchCore
import SearchEngine

/// The peer `SearchBenchmarks --suite typos` types the same keystrokes into: tantivy's fuzzy term queries
/// (Scripts/typo-peer.py, in the virtual environment Scripts/typo-peer-venv.sh makes), a child
/// process spoken to over pipes, one line a query.
///
/// Every item's searched values are folded by SearchCore's normalizer before they reach it, and
/// so is every query: the peer is compared on matching with typos, not on folding. Its
/// figures are its own CPU time per query (`time.process_time()`), without the pipe's cost.
final class TypoPeer {
  /// One answer of the peer.
  struct Answer {
    /// How many items match.
    var count: Int
    /// The model positions of the first ten, best first.
    var positions: [Int]
    /// The peer's CPU time for the query, in milliseconds.
    var cpuMilliseconds: Double
  }

  private let process: Process
  private let input: FileHandle
  private let output: LineReader
  private let normalizer: Normalizer
  /// The peer's CPU time to build its index, in milliseconds.
  private(set) var buildMilliseconds = 0.0

  /// Starts `python script` and gives it every item of `model` (its searched values, folded by
  /// `normalizer`, joined by spaces) and the typo budget, then has it build its index.
  init(
    python: String, script: String, model: SearchModel, normalizer: Normalizer,
    oneTypoFrom: Int, twoTyposFrom: Int
  ) throws {
    self.normalizer = normalizer
    let process = Process()
    process.executableURL = URL(fileURLWithPath: python)
    process.arguments = [script]
    let toPeer = Pipe()
    let fromPeer = Pipe()
    process.standardInput = toPeer
    process.standardOutput = fromPeer
    do { try process.run() } catch {
      throw CommandError("the typo peer (\(python) \(script)) did not start: \(error)")
    }
    self.process = process
    input = toPeer.fileHandleForWriting
    output = LineReader(fromPeer.fileHandleForReading.fileDescriptor)

    let schema = model.schema
    let searched = schema.fields.indices.filter { schema.fields[$0].isSearched }
    var batch = "B\t\(oneTypoFrom)\t\(twoTyposFrom)\n"
    for position in 0..<model.count {
      let id = model.id(at: position)
      var text: [String] = []
      for field in searched {
        for value in model.values(of: id, field: field) {
          text.append(try normalizer.fold(value))
        }
      }
      batch += "D\t\(position)\t\(Self.oneLine(text.joined(separator: " ")))\n"
      if batch.utf8.count > 1 << 20 {
        try write(batch)
        batch = ""
      }
    }
    try write(batch + "C\n")
    let ready = try readLine()
    guard ready.hasPrefix("ready "), let milliseconds = Double(ready.dropFirst(6)) else {
      throw CommandError("the typo peer answered \"\(ready)\" to its build, not \"ready …\"")
    }
    buildMilliseconds = milliseconds
  }

  deinit {
    try? input.close()
    process.waitUntilExit()
  }

  /// The peer's answer to `text`, folded by the normalizer first (white space kept, so that a
  /// query ending in a space ends its last word).
  func search(_ text: String) throws -> Answer {
    try write("Q\t\(Self.oneLine(try normalizer.fold(text)))\n")
    let line = try readLine()
    guard
      let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
      let count = object["count"] as? Int, let ids = object["ids"] as? [Int],
      let cpu = object["cpu_ms"] as? Double
    else { throw CommandError("the typo peer answered \"\(line)\" to a query, not its JSON") }
    return Answer(count: count, positions: ids, cpuMilliseconds: cpu)
  }

  /// `text` with its tabs and line breaks made spaces: one field of one protocol line.
  private static func oneLine(_ text: String) -> String {
    String(text.map { $0 == "\t" || $0.isNewline ? " " : $0 })
  }

  private func write(_ text: String) throws {
    do { try input.write(contentsOf: Data(text.utf8)) } catch {
      throw CommandError("the typo peer stopped reading: \(error)")
    }
  }

  private func readLine() throws -> String {
    guard let line = output.next() else {
      throw CommandError(
        "the typo peer ended (status \(process.isRunning ? -1 : Int(process.terminationStatus)))")
    }
    return line
  }
}

/// Lines from a file descriptor, read a block at a time.
private final class LineReader {
  private let descriptor: Int32
  private var buffer: [UInt8] = []
  private var start = 0

  init(_ descriptor: Int32) { self.descriptor = descriptor }

  /// The next line without its newline, or nil at the end.
  func next() -> String? {
    while true {
      if let newline = buffer[start...].firstIndex(of: 0x0A) {
        let line = String(decoding: buffer[start..<newline], as: UTF8.self)
        start = newline + 1
        if start > 1 << 16 {
          buffer.removeFirst(start)
          start = 0
        }
        return line
      }
      var block = [UInt8](repeating: 0, count: 1 << 16)
      let count = block.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
      if count <= 0 { return nil }
      buffer.append(contentsOf: block[..<count])
    }
  }
}
