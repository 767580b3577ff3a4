import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// Input nobody should give `filter`, through the built executable: each gets the right answer
/// or a clear error that says where ("SearchREPL: error: FILE:LINE: …", exit status 2); nothing
/// hangs, nothing is dropped, and memory stays bounded.
///
/// The two large inputs (a 200 MB line, 5 million empty lines) run only in the plain pass: under
/// a sanitizer (`.ci/run` sets SANITIZER) they cost minutes and test no code the small inputs
/// do not.
@Suite struct HostileInputTests {
  private static let underSanitizer = ProcessInfo.processInfo.environment["SANITIZER"] != nil

  private func run(
    _ arguments: [String], stdin: String = "/dev/null", folder: URL, keepOutput: Bool = true
  ) throws -> MeasuredRun {
    try MeasuredRun.run(
      BinaryRunner.executableURL().path, ["filter"] + arguments, stdin: stdin, folder: folder,
      keepOutput: keepOutput)
  }

  /// A line of 200 MB (under the 256 MiB line limit) is one item: found, printed whole, and the
  /// lines after it are still read.
  ///
  /// Memory stays within 4 times the line (the input, the model's copy, the folder's buffer and the
  /// folded column) and what the runtime and ICU's data take anyway.
  @Test(.enabled(if: !underSanitizer)) func aLineOf200MBIsOneItem() throws {
    try withTemporaryDirectory { folder in
      let file = folder.appendingPathComponent("long.txt")
      let half = 100_000_000
      var bytes = Data("before\n".utf8)
      bytes.append(Data(repeating: UInt8(ascii: "x"), count: half))
      bytes.append(Data("needle".utf8))
      bytes.append(Data(repeating: UInt8(ascii: "y"), count: half))
      bytes.append(Data("\nafter\n".utf8))
      try bytes.write(to: file)
      bytes = Data()

      let found = try run(["needle", "--input", file.path], folder: folder, keepOutput: false)
      #expect(found.status == 0, "\(found.stderr)")
      #expect(found.stdoutSize == 2 * half + "needle\n".utf8.count)
      #expect(found.peakBytes < 4 * 2 * half + 64 << 20, "peak \(found.peakBytes) bytes")
      let output = try FileHandle(
        forReadingFrom: folder.appendingPathComponent("measured-stdout"))
      defer { try? output.close() }
      #expect(try output.read(upToCount: 4) == Data("xxxx".utf8))

      let after = try run(["after"], stdin: file.path, folder: folder)
      #expect(after.status == 0, "\(after.stderr)")
      #expect(after.stdout == Data("after\n".utf8))
    }
  }

  /// Endless input without a line break stops at the documented line limit with an error that
  /// names the source and the line, long before memory runs out: from a file and from standard
  /// input.
  ///
  /// A data set's data file and its manifest must be regular files: the device is refused before it
  /// is read.
  @Test func devZeroStopsAtTheLineLimit() throws {
    try withTemporaryDirectory { folder in
      let hint =
        "the line is longer than 256 MiB, the longest line read; is this a text file? Text"
        + " without line breaks (a binary file, /dev/zero) cannot be read as lines\n"
      let file = try run(["x", "--input", "/dev/zero"], folder: folder)
      #expect(file.status == 2)
      #expect(file.stderr == "SearchREPL: error: /dev/zero:1: " + hint)
      #expect(file.stdout.isEmpty)
      // The line limit, one chunk past it, with the array's room to grow (a sanitizer's
      // allocator keeps more).
      if !Self.underSanitizer {
        #expect(file.peakBytes < 3 * 256 << 20, "peak \(file.peakBytes) bytes")
      }

      let standardInput = try run(["x"], stdin: "/dev/zero", folder: folder)
      #expect(standardInput.status == 2)
      #expect(standardInput.stderr == "SearchREPL: error: <stdin>:1: " + hint)

      let manifest = folder.appendingPathComponent("zero.manifest.json")
      try Data(
        #"{"name": "zero", "data": "/dev/zero", "format": "tsv", "fields": [{"name": "a", "source": 1}]}"#
          .utf8
      ).write(to: manifest)
      let data = try run(["x", "--corpus", manifest.path, "--allow-data-outside"], folder: folder)
      let device =
        "it is a character device, not a regular file; name a regular file (write what it holds"
        + " to one first); a stream is read from standard input\n"
      #expect(data.status == 2)
      #expect(data.stderr == "SearchREPL: error: /dev/zero: cannot read the data file: " + device)

      let notAManifest = try run(["x", "--corpus", "/dev/zero"], folder: folder)
      #expect(notAManifest.status == 2)
      #expect(
        notAManifest.stderr == "SearchREPL: error: /dev/zero: cannot read the manifest: " + device)
    }
  }

  /// A manifest whose data file is endless random bytes is refused at once, instead of being
  /// read into rejected lines for ever: it is a device, not a regular file; without
  /// `--allow-data-outside`, before it is opened, since it is not in the manifest's folder.
  @Test func randomBytesAsADataFileAreRefusedAtOnce() throws {
    try withTemporaryDirectory { folder in
      let manifest = folder.appendingPathComponent("random.manifest.json")
      try Data(
        #"{"name": "random", "data": "/dev/urandom", "format": "tsv", "fields": [{"name": "a", "source": 1}]}"#
          .utf8
      ).write(to: manifest)
      let result = try MeasuredRun.run(
        BinaryRunner.executableURL().path,
        ["filter", "x", "--corpus", manifest.path, "--allow-data-outside"],
        stdin: "/dev/null", folder: folder, timeout: 60)
      #expect(result.status == 2)
      #expect(
        result.stderr.hasPrefix(
          "SearchREPL: error: /dev/urandom: cannot read the data file: it is a character device,"
            + " not a regular file"), "\(result.stderr)")
      #expect(result.stdout.isEmpty)
      let refused = try MeasuredRun.run(
        BinaryRunner.executableURL().path, ["filter", "x", "--corpus", manifest.path],
        stdin: "/dev/null", folder: folder, timeout: 60)
      #expect(refused.status == 2)
      #expect(
        refused.stderr.contains(
          "the data file \"/dev/urandom\" is /dev/urandom, outside the manifest's folder"),
        "\(refused.stderr)")
    }
  }

  /// NUL bytes are text like any other: searched, and printed back byte for byte.
  @Test func nulBytesAreText() throws {
    try withTemporaryDirectory { folder in
      let file = folder.appendingPathComponent("nul.txt")
      try Data([0x61, 0x00, 0x62, 0x0A, 0x00, 0x00, 0x0A, 0x63, 0x0A]).write(to: file)
      let result = try run(["b"], stdin: file.path, folder: folder)
      #expect(result.status == 0, "\(result.stderr)")
      #expect(result.stdout == Data([0x61, 0x00, 0x62, 0x0A]))
      let all = try run([""], stdin: file.path, folder: folder)
      #expect(all.stdout == Data([0x61, 0x00, 0x62, 0x0A, 0x00, 0x00, 0x0A, 0x63, 0x0A]))
    }
  }

  /// A carriage return alone does not end a line (as in fzf): text with only CR line ends is
  /// one line, printed back as it came.
  @Test func carriageReturnsAloneDoNotEndLines() throws {
    try withTemporaryDirectory { folder in
      let file = folder.appendingPathComponent("cr.txt")
      try Data("one\rtwo\rthree\r".utf8).write(to: file)
      let result = try run(["two"], stdin: file.path, folder: folder)
      #expect(result.status == 0, "\(result.stderr)")
      #expect(result.stdout == Data("one\rtwo\rthree\r\n".utf8))
      // One line, and it starts with "one".
      #expect(try run(["^two"], stdin: file.path, folder: folder).status == 1)
      #expect(try run(["^one"], stdin: file.path, folder: folder).status == 0)
    }
  }

  /// Five million empty lines are five million items: none matches a term, all match the empty
  /// query, and a line after them is found.
  @Test(.enabled(if: !underSanitizer)) func fiveMillionEmptyLines() throws {
    try withTemporaryDirectory { folder in
      let file = folder.appendingPathComponent("empty.txt")
      var bytes = Data(repeating: 0x0A, count: 5_000_000)
      bytes.append(Data("last\n".utf8))
      try bytes.write(to: file)
      let none = try run(["x"], stdin: file.path, folder: folder)
      #expect(none.status == 1, "\(none.stderr)")
      #expect(none.stdout.isEmpty)
      let last = try run(["last"], stdin: file.path, folder: folder)
      #expect(last.stdout == Data("last\n".utf8))
      let all = try run([""], stdin: file.path, folder: folder, keepOutput: false)
      #expect(all.status == 0)
      #expect(all.stdoutSize == bytes.count)
    }
  }

  /// A FIFO is read to its end, however the writer splits its writes.
  @Test func aFIFOIsReadToItsEnd() throws {
    try withTemporaryDirectory { folder in
      let fifo = folder.appendingPathComponent("fifo").path
      #expect(mkfifo(fifo, 0o600) == 0)
      let writer = Thread {
        let descriptor = open(fifo, O_WRONLY)
        guard descriptor >= 0 else { return }
        defer { close(descriptor) }
        // Lines split across writes, with pauses between them.
        for piece in ["pear\nap", "ple\nplu", "m\napricot", "\n"] {
          var piece = piece
          piece.withUTF8 { _ = write(descriptor, $0.baseAddress, $0.count) }
          usleep(20_000)
        }
      }
      writer.start()
      let result = try run(["ap", "--input", fifo], folder: folder)
      #expect(result.status == 0, "\(result.stderr)")
      #expect(result.stdout == Data("apple\napricot\n".utf8))
    }
  }

  /// A FIFO where a data set's file belongs, as its data file, its manifest or its saved
  /// index, is refused at once, with no writer to wait for: these are read more than once
  /// (hashed for the saved index, then loaded).
  ///
  /// Standard input and `--input` read a stream.
  ///
  /// An executable that waited for a writer would be killed by its run's watchdog (30 s) and
  /// have no exit status. The test has no time limit of its own: Swift Testing's counts from
  /// the test's start, including the time its body waits for a thread while the other suites'
  /// blocking runs hold them, and a full run under load exceeded one minute that way.
  @Test func aFIFOInADataSetIsRefusedAtOnce() throws {
    try withTemporaryDirectory { folder in
      let advice =
        "it is a FIFO (named pipe), not a regular file; name a regular file (write what it holds"
        + " to one first); a stream is read from standard input\n"
      func file(_ name: String, _ text: String) throws -> String {
        let url = folder.appendingPathComponent(name)
        try Data(text.utf8).write(to: url)
        return url.path
      }
      func fifo(_ name: String) -> String {
        let path = folder.appendingPathComponent(name).path
        #expect(mkfifo(path, 0o600) == 0)
        return path
      }
      let dataFIFO = fifo("fifo.tsv")
      let manifest = try file(
        "fifo.manifest.json",
        #"{"name": "fifo", "data": "fifo.tsv", "format": "tsv", "fields": [{"name": "a", "source": 1}]}"#
      )
      let data = try MeasuredRun.run(
        BinaryRunner.executableURL().path, ["filter", "x", "--corpus", manifest],
        stdin: "/dev/null", folder: folder, timeout: 30)
      #expect(data.status == 2)
      #expect(data.stderr == "SearchREPL: error: \(dataFIFO): cannot read the data file: " + advice)

      let manifestFIFO = fifo("pipe.manifest.json")
      let manifestRun = try MeasuredRun.run(
        BinaryRunner.executableURL().path, ["filter", "x", "--corpus", manifestFIFO],
        stdin: "/dev/null", folder: folder, timeout: 30)
      #expect(manifestRun.status == 2)
      #expect(
        manifestRun.stderr == "SearchREPL: error: \(manifestFIFO): cannot read the manifest: "
          + advice)

      _ = try file("words.tsv", "pear\napple\n")
      let words = try file(
        "words.manifest.json",
        #"{"name": "words", "data": "words.tsv", "format": "tsv", "fields": [{"name": "a", "source": 1}]}"#
      )
      let indexFIFO = fifo("words.index")
      let index = try MeasuredRun.run(
        BinaryRunner.executableURL().path,
        ["filter", "ap", "--corpus", words, "--index", indexFIFO],
        stdin: "/dev/null", folder: folder, timeout: 30)
      #expect(index.status == 2)
      #expect(
        index.stderr.contains("cannot open it: it is a FIFO (named pipe), not a regular file"),
        "\(index.stderr)")
    }
  }

  /// A file the user may not read, and a folder, are named with the system's reason.
  @Test func anUnreadableFileAndAFolderAreNamed() throws {
    try withTemporaryDirectory { folder in
      let folderRun = try run(["x", "--input", folder.path], folder: folder)
      #expect(folderRun.status == 2)
      #expect(
        folderRun.stderr
          == "SearchREPL: error: \(folder.path): cannot read the file: Is a directory; check the"
          + " path\n")

      let file = folder.appendingPathComponent("secret.txt")
      try Data("x\n".utf8).write(to: file)
      #expect(chmod(file.path, 0) == 0)
      // Root reads any file, so as root the executable runs as nobody (as setpriv makes it).
      let executable = try BinaryRunner.executableURL().path
      let arguments = ["filter", "x", "--input", file.path]
      let result =
        getuid() == 0
        ? try MeasuredRun.run(
          "/usr/bin/setpriv",
          ["--reuid=65534", "--regid=65534", "--clear-groups", executable] + arguments,
          stdin: "/dev/null", folder: folder)
        : try MeasuredRun.run(executable, arguments, stdin: "/dev/null", folder: folder)
      #expect(result.status == 2, "\(result.stderr)")
      #expect(
        result.stderr
          == "SearchREPL: error: \(file.path): cannot read the file: Permission denied; check the"
          + " path\n")
    }
  }

  /// Manifests with JSON nested too deep, a number no column has, a key given twice, and the
  /// start of the error each must get (the file, line and column at fault).
  static let hostileManifests: [(manifest: String, error: String)] = {
    let start = #"{"name": "n", "data": "d.tsv", "format": "tsv", "fields": [{"name": "a"}],"#
    let deep = String(repeating: "[", count: 600) + String(repeating: "]", count: 600)
    let head = #"{"name": "n", "data": "d.tsv", "format": "tsv","#
    return [
      // The object is the first level, so the 512th "[" (column 6 + 512 of line 2) is too deep.
      (
        start + "\n \"x\": " + deep + "}",
        "m.json:2:518: invalid JSON: arrays and objects nest deeper than 512 levels"
      ),
      (
        head + "\n" + #" "fields": [{"name": "a", "source": 1e400}]}"#,
        "m.json:2:37: fields[0].source is 1e400, not a column number"
      ),
      (
        head + "\n" + #" "fields": [{"name": "a", "source": 100000000000000000000000000}]}"#,
        "m.json:2:37: fields[0].source is 100000000000000000000000000, not a column number"
      ),
      (
        start + "\n" + #"  "format": "jsonl"}"#,
        "m.json:2:3: the key \"format\" appears twice in the manifest"
      ),
    ]
  }()

  /// Hostile manifests are refused at the file, line and column at fault.
  @Test(arguments: hostileManifests)
  func hostileManifestsAreRefusedWhereTheyGoWrong(manifest: String, error: String) throws {
    try withTemporaryDirectory { folder in
      try Data(manifest.utf8).write(to: folder.appendingPathComponent("m.json"))
      try Data("a\nParis\n".utf8).write(to: folder.appendingPathComponent("d.tsv"))
      let result = try BinaryRunner.run(
        executable: BinaryRunner.executableURL(), ["filter", "--corpus", "m.json", "x"],
        stdinFile: URL(fileURLWithPath: "/dev/null"), timeout: 120, folder: folder)
      #expect(result.status == 2)
      #expect(
        result.stderrText.hasPrefix("SearchREPL: error: " + error + "; "), "\(result.stderrText)")
    }
  }
}
