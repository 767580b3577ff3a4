import Foundation
import TestSupport
import Testing

/// End-to-end tests of `SearchREPL index` and of the commands that read its file: a fresh
/// index answers as the data does, a stale one is refused with a warning (found beside the
/// manifest) or an error (named with --index), each saying how to rebuild it.
@Suite struct SavedIndexCommandTests {
  /// A copy of the products data set in `folder`, so that its data can be changed.
  private func copyProducts(to folder: URL) throws -> (manifest: String, data: URL) {
    let manifest = URL(fileURLWithPath: corpusManifest("products", "products"))
    let data = manifest.deletingLastPathComponent().appendingPathComponent("products.tsv")
    let manifestCopy = folder.appendingPathComponent("products.manifest.json")
    let dataCopy = folder.appendingPathComponent("products.tsv")
    try FileManager.default.copyItem(at: manifest, to: manifestCopy)
    try FileManager.default.copyItem(at: data, to: dataCopy)
    return (manifestCopy.path, dataCopy)
  }

  @Test func aFreshIndexAnswersAsTheData() throws {
    try withTemporaryDirectory { folder in
      let (manifest, _) = try copyProducts(to: folder)
      let written = try BinaryRunner.run(["index", "--corpus", manifest])
      #expect(written.status == 0, "\(written.stderrText)")
      let index = folder.appendingPathComponent("products.index").path
      #expect(FileManager.default.fileExists(atPath: index))
      for query in ["mac", "i !pod", "2007", "'air"] {
        let fromIndex = try BinaryRunner.run(["filter", "--corpus", manifest, query])
        let fromData = try BinaryRunner.run(["filter", "--corpus", manifest, "--no-index", query])
        #expect(fromIndex.stdout == fromData.stdout, "\(query)")
        #expect(fromIndex.stderr.isEmpty, "\(query): \(fromIndex.stderrText)")
        let named = try BinaryRunner.run(["filter", "--corpus", manifest, "--index", index, query])
        #expect(named.stdout == fromData.stdout, "\(query)")
      }
      let repl = try runREPL(["--corpus", manifest], "type mac\nshow\n")
      let replData = try runREPL(["--corpus", manifest, "--no-index"], "type mac\nshow\n")
      #expect(repl.status == 0)
      #expect(repl.stdout == replData.stdout)
      #expect(repl.stderr.isEmpty, "\(repl.stderrText)")
    }
  }

  @Test func aStaleIndexIsWarnedAboutOrRefused() throws {
    try withTemporaryDirectory { folder in
      let (manifest, data) = try copyProducts(to: folder)
      _ = try BinaryRunner.run(["index", "--corpus", manifest])
      // A new product: the data file changes size and time.
      var text = try String(contentsOf: data, encoding: .utf8)
      text += "Macintosh Zebra\tDesktop\t2030\t1.00\n"
      try text.write(to: data, atomically: true, encoding: .utf8)
      let warned = try BinaryRunner.run(["filter", "--corpus", manifest, "zebra"])
      #expect(warned.status == 0)
      #expect(warned.visibleStdout.contains("Macintosh Zebra"))
      #expect(warned.stderrText.hasPrefix("warning: "))
      #expect(warned.stderrText.contains("stale"))
      #expect(warned.stderrText.contains("made from other data"))
      #expect(warned.stderrText.contains("SearchREPL index --corpus \(manifest)"))
      #expect(warned.stderrText.split(separator: "\n").count == 1)
      let index = folder.appendingPathComponent("products.index").path
      let refused = try BinaryRunner.run([
        "filter", "--corpus", manifest, "--index", index, "zebra",
      ])
      #expect(refused.status == 2)
      #expect(refused.stdout.isEmpty)
      #expect(refused.stderrText.contains("stale"))
      #expect(
        refused.stderrText.contains("SearchREPL index --corpus \(manifest) --output \(index)"))
      // Other folding options make it stale too.
      _ = try BinaryRunner.run(["index", "--corpus", manifest])
      let folded = try BinaryRunner.run(["filter", "--corpus", manifest, "--fold", "-case", "mac"])
      #expect(folded.stderrText.contains("folded with options"))
      #expect(folded.stderrText.contains("--fold -case"))
      // Refreshed, it is used again without a word.
      let fresh = try BinaryRunner.run(["filter", "--corpus", manifest, "zebra"])
      #expect(fresh.stderr.isEmpty, "\(fresh.stderrText)")
      #expect(fresh.visibleStdout.contains("Macintosh Zebra"))
    }
  }

  @Test func aDamagedIndexIsAnErrorNamingTheFile() throws {
    try withTemporaryDirectory { folder in
      let (manifest, _) = try copyProducts(to: folder)
      _ = try BinaryRunner.run(["index", "--corpus", manifest])
      let index = folder.appendingPathComponent("products.index")
      let bytes = try Data(contentsOf: index)
      try bytes.prefix(bytes.count / 2).write(to: index)
      let refused = try BinaryRunner.run(
        ["filter", "--corpus", manifest, "--index", index.path, "mac"])
      #expect(refused.exitedNormally)
      #expect(refused.status == 2)
      #expect(refused.stderrText.contains(index.path))
      #expect(refused.stderrText.contains("damaged"))
      #expect(refused.stderrText.contains("SearchREPL index"))
    }
  }
}
