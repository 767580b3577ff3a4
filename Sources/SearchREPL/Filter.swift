import ArgumentParser
import SearchCore

/// `SearchREPL filter`: prints the lines of the input that match, like `fzf --filter`.
struct Filter: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Print the input lines that match a query, in input order.",
    discussion: """
      Reads items one per line from standard input (or --input), prints the matching lines \
      unchanged. The query is one substring, folded like the lines. An empty query (or one \
      that folds to nothing, such as a lone soft hyphen) matches every line.
      Exit status: 0 when a line matched, 1 when none did, 2 on an error.
      """
  )

  @Option(help: "What to ignore: a comma list of case,diacritics,compatibility,latin, or none.")
  var fold = Folding.default.description

  @Option(help: "Locale whose case rules apply, e.g. tr or az for the dotted and dotless i.")
  var locale: String?

  @Option(help: "Read items from this file instead of standard input.")
  var input: String?

  @Argument(help: "The text to search for.")
  var query: String

  func run() throws {
    let normalizer = try Normalizer(folding: try Folding(parsing: fold), locale: locale)
    let filter = try LineFilter(query: query, normalizer: normalizer)
    let lines = try LineInput(bytes: try Terminal.readAll(path: input), source: input ?? "<stdin>")
    let matches = try filter.matchingLines(in: lines)
    var output = OutputBuffer()
    lines.bytes.withUnsafeBufferPointer { bytes in
      for index in matches {
        output.append(UnsafeBufferPointer(rebasing: bytes[lines.printedRange(ofLine: index)]))
        output.append(0x0A)
      }
    }
    output.flush()
    if matches.isEmpty { throw ExitCode(Terminal.noMatch) }
  }
}
