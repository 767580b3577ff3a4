import Foundation
import TestSupport
import Testing

/// End-to-end tests of `SearchREPL filter`: they run the built executable and check its
/// standard output (byte for byte), standard error and exit status.
@Suite struct FilterCommandTests {
  /// Runs `SearchREPL filter` with `arguments` and `input` as standard input.
  private func filter(_ arguments: [String], input: String) throws -> RunResult {
    try BinaryRunner.run(["filter"] + arguments, stdin: Data(input.utf8))
  }

  /// Runs `SearchREPL filter` with `arguments` and raw `input` bytes as standard input.
  private func filter(_ arguments: [String], bytes input: [UInt8]) throws -> RunResult {
    try BinaryRunner.run(["filter"] + arguments, stdin: Data(input))
  }

  // MARK: Exit status

  @Test func matchExitsZeroAndPrintsTheMatch() throws {
    let result = try filter(["apple"], input: "pear\napple\nplum\n")
    #expect(result.exitedNormally)
    #expect(result.status == 0)
    #expect(result.visibleStdout == visible("apple\n".utf8))
    #expect(result.stderr.isEmpty)
  }

  /// `--typos`: the exact matches of "lemon" first, then those one typo away, each in input
  /// order; "Melon" is two typos away, more than five letters allow.
  ///
  /// Off, only the exact ones; a rule out of order is refused with what to give.
  @Test func typosListExactMatchesFirst() throws {
    let input = "Lemin Bar\nLemon Tart\nMelon Stand\nLemons & Limes\nLeman Lake\n"
    let tolerant = try filter(["--typos", "default", "lemon"], input: input)
    #expect(tolerant.status == 0, "\(tolerant.stderrText)")
    #expect(
      tolerant.visibleStdout == visible("Lemon Tart\nLemons & Limes\nLemin Bar\nLeman Lake\n".utf8))
    let ranked = try filter(["--typos", "default", "--rank", "lemon"], input: input)
    #expect(
      String(decoding: ranked.stdout, as: UTF8.self).split(separator: "\n").suffix(2).sorted()
        == ["Leman Lake", "Lemin Bar"])
    let strict = try filter(["--typos", "off", "lemon"], input: input)
    #expect(strict.visibleStdout == visible("Lemon Tart\nLemons & Limes\n".utf8))
    let wrong = try filter(["--typos", "9,5", "lemon"], input: input)
    #expect(wrong.status != 0 && wrong.status != 1)
    #expect(wrong.stderrText.contains("--typos 9,5"), "\(wrong.stderrText)")
  }

  /// `--typos --format jsonl`: each line says how many typos its item needed, and marks the
  /// word found with them; without `--typos` the lines have no count.
  @Test func typosInJSONLinesSayHowMany() throws {
    let input = "Lemin Bar\nLemon Tart\nMelon Stand\n"
    let result = try filter(["--typos", "default", "--format", "jsonl", "lemon"], input: input)
    #expect(result.status == 0, "\(result.stderrText)")
    let objects = try String(decoding: result.stdout, as: UTF8.self).split(separator: "\n").map {
      try #require(
        try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any], "\($0)")
    }
    #expect(objects.map { $0["line"] as? Int } == [2, 1])
    #expect(objects.map { $0["typos"] as? Int } == [0, 1])
    #expect(objects.map { $0["ranges"] as? [[Int]] } == [[[0, 5]], [[0, 5]]])
    let exact = try filter(["--format", "jsonl", "lemon"], input: input)
    #expect(!exact.stdoutText.contains("typos"), "\(exact.stdoutText)")
  }

  @Test func noMatchExitsOneWithNoOutput() throws {
    let result = try filter(["kiwi"], input: "pear\napple\nplum\n")
    #expect(result.exitedNormally)
    #expect(result.status == 1)
    #expect(result.stdout.isEmpty)
    #expect(result.stderr.isEmpty)
  }

  @Test func emptyInputExitsOneWithNoOutput() throws {
    for query in ["apple", ""] {
      let result = try filter([query], input: "")
      #expect(result.status == 1, "query \"\(query)\"")
      #expect(result.stdout.isEmpty, "query \"\(query)\"")
      #expect(result.stderr.isEmpty, "query \"\(query)\"")
    }
  }

  @Test func unknownFoldingWordIsAnError() throws {
    for list in ["umlauts", "case,umlauts", "diacritics,umlauts,latin"] {
      let result = try filter(["--fold", list, "apple"], input: "apple\n")
      #expect(result.exitedNormally)
      #expect(result.status == 2, "--fold \(list)")
      #expect(result.stdout.isEmpty, "--fold \(list)")
      #expect(result.stderrText.contains("umlauts"), "--fold \(list): \(result.stderrText)")
    }
  }

  @Test func everyFoldingWordIsAccepted() throws {
    let lists = [
      "none", "case", "diacritics", "compatibility", "latin", "dotless-i",
      "case,diacritics,compatibility,latin", "case,diacritics,compatibility,dotless-i",
    ]
    for list in lists {
      let result = try filter(["--fold", list, "apple"], input: "apple\n")
      #expect(result.status == 0, "--fold \(list): \(result.stderrText)")
      #expect(result.visibleStdout == visible("apple\n".utf8), "--fold \(list)")
    }
  }

  @Test func missingInputFileIsAnErrorNamingThePath() throws {
    try withTemporaryDirectory { directory in
      let path = directory.appendingPathComponent("no-such-file.txt").path
      let result = try BinaryRunner.run(["filter", "--input", path, "apple"])
      #expect(result.exitedNormally)
      #expect(result.status == 2)
      #expect(result.stdout.isEmpty)
      #expect(result.stderrText.contains(path), "\(result.stderrText)")
    }
  }

  @Test func missingQueryIsAnError() throws {
    let result = try filter([], input: "apple\n")
    #expect(result.exitedNormally)
    #expect(result.status == 2)
    #expect(result.stdout.isEmpty)
    #expect(result.stderrText.contains("query"), "\(result.stderrText)")
  }

  // MARK: Output

  @Test func matchingLinesArePrintedUnchangedInInputOrder() throws {
    let input =
      "zeta apple\n"
      + "alpha\r\n"
      + "beta APPLE\r\n"
      + "  Apple\tpie  \n"
      + "\n"
      + "Cafe\u{301} apple\n"
      + "no\n"
      + "gamma apple"  // no final newline
    let result = try filter(["apple"], input: input)
    #expect(result.status == 0)
    let expected =
      "zeta apple\n"
      + "beta APPLE\r\n"
      + "  Apple\tpie  \n"
      + "Cafe\u{301} apple\n"
      + "gamma apple\n"
    #expect(result.visibleStdout == visible(expected.utf8))
    #expect(result.stderr.isEmpty)
  }

  @Test func finalCarriageReturnIsPrintedButNotSearched() throws {
    let input = "one apple\r\ntwo apple\n"
    let plain = try filter(["apple"], input: input)
    #expect(plain.visibleStdout == visible("one apple\r\ntwo apple\n".utf8))
    // If the "\r" were searched, this query would find the first line.
    let withReturn = try filter(["apple\r"], input: input)
    #expect(withReturn.status == 1)
    #expect(withReturn.stdout.isEmpty)
  }

  @Test func orderIsKeptOverManyLines() throws {
    // Enough lines for the filter to split the input over several chunks.
    let count = 60_000
    var input = ""
    var expected = ""
    for index in 0..<count {
      let line = index % 7 == 3 ? "\(index) needle" : "\(index) hay"
      input += line + "\n"
      if index % 7 == 3 { expected += line + "\n" }
    }
    let result = try filter(["NEEDLE"], input: input)
    #expect(result.status == 0)
    #expect(result.stdout == Data(expected.utf8))
    #expect(result.stdout.count == expected.utf8.count)
  }

  @Test func queryThatFoldsToNothingPrintsEveryLine() throws {
    let input = "a\nb\r\n\n\u{AD}\nc"
    for query in ["\u{AD}", ""] {
      let result = try filter([query], input: input)
      #expect(result.status == 0, "query \(visible(query.utf8))")
      #expect(
        result.visibleStdout == visible("a\nb\r\n\n\u{AD}\nc\n".utf8),
        "query \(visible(query.utf8))")
    }
  }

  // MARK: Folding

  @Test func defaultFoldingIgnoresDiacriticsAndNormalization() throws {
    let input = "café\ncafe\u{301}\nCAFÉ\ncoffee\ncafeteria\n"
    let result = try filter(["cafe"], input: input)
    #expect(result.status == 0)
    #expect(
      result.visibleStdout == visible("café\ncafe\u{301}\nCAFÉ\ncafeteria\n".utf8))
  }

  @Test func defaultFoldingUsesFullCaseFolding() throws {
    let result = try filter(["STRASSE"], input: "Straße\nStrasse\nStrase\nstraẞe\n")
    #expect(result.status == 0)
    #expect(result.visibleStdout == visible("Straße\nStrasse\nstraẞe\n".utf8))
  }

  @Test func foldNoneKeepsCaseAndDiacritics() throws {
    let result = try filter(["--fold", "none", "cafe"], input: "Café\ncafé\n")
    #expect(result.status == 1)
    #expect(result.stdout.isEmpty)
    let exact = try filter(["--fold", "none", "cafe"], input: "Café\ncafe\n")
    #expect(exact.visibleStdout == visible("cafe\n".utf8))
  }

  @Test func foldNoneStillIgnoresCanonicalEquivalence() throws {
    let composed = try filter(["--fold", "none", "café"], input: "Café\ncafe\u{301}\ncafe\n")
    #expect(composed.status == 0)
    #expect(composed.visibleStdout == visible("cafe\u{301}\n".utf8))
    let decomposed = try filter(["--fold", "none", "cafe\u{301}"], input: "Café\ncafé\ncafe\n")
    #expect(decomposed.status == 0)
    #expect(decomposed.visibleStdout == visible("café\n".utf8))
  }

  @Test func turkishLocaleFoldsDottedAndDotlessI() throws {
    let input = "diyarbakır\ndiyarbakir\n"
    let turkish = try filter(["--locale", "tr", "DİYARBAKIR"], input: input)
    #expect(turkish.status == 0, "\(turkish.stderrText)")
    #expect(turkish.visibleStdout == visible("diyarbakır\n".utf8))
    // Without the locale, "I" folds to "i", and so does "ı" (Folding.diacritics): both lines.
    let root = try filter(["DİYARBAKIR"], input: input)
    #expect(root.status == 0, "\(root.stderrText)")
    #expect(root.visibleStdout == visible(input.utf8))
    // The Turkish locale keeps "ı" under diacritic folding: "diyarbakir" misses it.
    let dotted = try filter(["--locale", "tr", "diyarbakir"], input: input)
    #expect(dotted.visibleStdout == visible("diyarbakir\n".utf8))
  }

  @Test func dotlessIFoldsEveryIAlikeEvenInTurkish() throws {
    let input = "Isparta\nışık\nIBM\nİstanbul\nDiyarbakır\nParis\n"
    let fold = ["--fold", "case,diacritics,compatibility,dotless-i"]
    for (query, expected) in [
      ("isik", "ışık\n"), ("ibm", "IBM\n"), ("isparta", "Isparta\n"), ("ist", "İstanbul\n"),
      ("kir", "Diyarbakır\n"),
    ] {
      for locale in [[], ["--locale", "tr"]] {
        let result = try filter(fold + locale + [query], input: input)
        #expect(result.status == 0, "\(query) \(locale): \(result.stderrText)")
        #expect(result.visibleStdout == visible(expected.utf8), "\(query) \(locale)")
      }
    }
    // The Turkish rules alone miss "IBM" for "ibm".
    let turkish = try filter(["--locale", "tr", "ibm"], input: input)
    #expect(turkish.status == 1)
  }

  @Test func latinFoldingTransliterates() throws {
    let input = "Москва\nрека Москва\nПетербург\n"
    let latin = try filter(
      ["--fold", "case,diacritics,compatibility,latin", "moskva"], input: input)
    #expect(latin.status == 0, "\(latin.stderrText)")
    #expect(latin.visibleStdout == visible("Москва\nрека Москва\n".utf8))
    // Transliteration is off by default.
    let plain = try filter(["moskva"], input: input)
    #expect(plain.status == 1)
    #expect(plain.stdout.isEmpty)
  }

  // MARK: Invalid input

  @Test func invalidUTF8OnStandardInputIsAnErrorWithItsPosition() throws {
    let input = Array("one\ntwo\n".utf8) + [0x66, 0xC3, 0x28] + Array("\nfour\n".utf8)
    let result = try filter(["o"], bytes: input)
    #expect(result.exitedNormally)
    #expect(result.status == 2)
    #expect(result.stdout.isEmpty)
    #expect(result.stderrText.contains("<stdin>:3:2:"), "\(result.stderrText)")
  }

  @Test func invalidUTF8InInputFileNamesTheFile() throws {
    try withTemporaryDirectory { directory in
      let file = directory.appendingPathComponent("bad.txt")
      let bytes = Array("one\ntwo\n".utf8) + [0x66, 0xC3, 0x28] + Array("\nfour\n".utf8)
      try Data(bytes).write(to: file)
      let result = try BinaryRunner.run(["filter", "--input", file.path, "o"])
      #expect(result.status == 2)
      #expect(result.stdout.isEmpty)
      #expect(result.stderrText.contains("\(file.path):3:2:"), "\(result.stderrText)")
      #expect(!result.stderrText.contains("<stdin>"), "\(result.stderrText)")
    }
  }

  // MARK: Large input

  @Test func hundredMegabyteLineIsFound() throws {
    try withTemporaryDirectory { directory in
      let file = directory.appendingPathComponent("long-line.txt")
      let blockSize = 1_000_000
      let blocks = 100
      let block = Data(String(repeating: "abcdefghij", count: blockSize / 10).utf8)
      var middle = block
      middle.replaceSubrange(blockSize / 2..<blockSize / 2 + 6, with: Data("needle".utf8))
      #expect(FileManager.default.createFile(atPath: file.path, contents: nil))
      let handle = try FileHandle(forWritingTo: file)
      for index in 0..<blocks {
        try handle.write(contentsOf: index == blocks / 2 ? middle : block)
      }
      try handle.close()
      let length = blockSize * blocks

      let result = try BinaryRunner.run(["filter", "--input", file.path, "needle"], timeout: 300)
      #expect(result.exitedNormally)
      #expect(result.status == 0, "\(result.stderrText)")
      #expect(result.stdout.count == length + 1)
      #expect(result.stdout.last == 0x0A)
      let contents = try Data(contentsOf: file)
      #expect(contents.count == length)
      #expect(result.stdout.prefix(length) == contents)
    }
  }
}
