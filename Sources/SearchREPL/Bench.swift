import ArgumentParser
import Foundation
import SearchCore

/// `SearchREPL bench`: measures the engine on a real corpus, against a baseline measured in
/// the same run (the machines are shared and noisy, so ratios say more than seconds).
struct Bench: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Measure folding on the W1 word lists against Foundation's folding.",
    discussion: """
      W1 is every line of seven Debian word lists (1,562,133 lines), built by \
      Corpus/words/build.sh. Each figure is the median of --runs runs; build with -c release.
      """
  )

  @Option(help: "The word list to fold, one item per line.")
  var words = "Corpus/words/W1.txt"

  @Option(help: "How many times to run each measurement; the median is reported.")
  var runs = 5

  @Option(help: "What to ignore, as for filter.")
  var fold = Folding.default.description

  func run() throws {
    guard runs > 0 else { throw ValidationError("--runs must be at least 1") }
    let bytes: [UInt8]
    do { bytes = try Terminal.readAll(path: words) } catch {
      throw CommandError("\(error); build W1 first with: bash Corpus/words/build.sh")
    }
    let input = try LineInput(bytes: bytes, source: words)
    let lines = (0..<input.count).map { input.line($0) }
    let normalizer = try Normalizer(folding: try Folding(parsing: fold))
    print(
      "corpus: \(words), \(lines.count) lines, \(bytes.count) bytes; folding: \(normalizer.folding)"
    )

    var foldedBytes = 0
    let ours = try measure {
      let folder = try normalizer.makeFolder()
      var column: [UInt8] = []
      column.reserveCapacity(bytes.count + bytes.count / 8)
      for line in lines { try folder.fold(line, appendingTo: &column) }
      foldedBytes = column.count
    }
    let parallel = try measure {
      let column = try normalizer.foldColumn(lines)
      foldedBytes = column.bytes.count
    }
    let foundation = try measure {
      var count = 0
      for line in lines {
        count +=
          line.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil).utf8.count
      }
      if count < 0 { print(count) }
    }
    print("folded bytes: \(foldedBytes)")
    report("SearchCore fold, one thread", ours, baseline: foundation)
    report(
      "SearchCore fold, all cores (\(ProcessInfo.processInfo.activeProcessorCount))", parallel,
      baseline: foundation)
    report(
      "Foundation folding(.caseInsensitive, .diacriticInsensitive)", foundation,
      baseline: foundation)
  }

  private func measure(_ body: () throws -> Void) throws -> Duration {
    var times: [Duration] = []
    for _ in 0..<runs {
      let clock = ContinuousClock()
      let start = clock.now
      try body()
      times.append(clock.now - start)
    }
    return times.sorted()[times.count / 2]
  }

  private func report(_ name: String, _ time: Duration, baseline: Duration) {
    let seconds = Double(time.components.seconds) + Double(time.components.attoseconds) / 1e18
    let base =
      Double(baseline.components.seconds) + Double(baseline.components.attoseconds) / 1e18
    let ratio = base > 0 ? seconds / base : 0
    print(
      "\(name): \(String(format: "%.3f", seconds)) s (\(String(format: "%.2f", ratio))x Foundation)"
    )
  }
}
