#if PostgreSQL
  import Foundation
  import Testing

  /// `SearchREPL load` and `filter --backend`: the server's answers print exactly as the
  /// in-memory search's, and a missing table or a bad address is an error that says what to do.
  @Suite struct CommandLineTests {
    static let manifest = DataSets.root + "/Corpus/cities/cities.manifest.json"

    static func searchREPL() throws -> String {
      let here = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
      var folder = URL(fileURLWithPath: here).deletingLastPathComponent()
      for _ in 0..<4 {
        let binary = folder.appendingPathComponent("SearchREPL").path
        if FileManager.default.isExecutableFile(atPath: binary) { return binary }
        folder = folder.deletingLastPathComponent()
      }
      throw ClusterError("no SearchREPL executable next to \(here); run swift build --build-tests")
    }

    @Test func filterPrintsTheSameFromTheServer() async throws {
      let binary = try Self.searchREPL()
      try await ThrowawayCluster.with { cluster in
        let url = try cluster.address.description
        let load = try ThrowawayCluster.runProgram(binary, ["load", Self.manifest, "--into", url])
        #expect(load.status == 0, "\(load.output)")
        #expect(load.output.contains("loaded 34006 items into table \"cities\""), "\(load.output)")
        let cases: [[String]] = [
          ["--rank", "ber"], ["--scope", "Europe", "^san !a"],
          ["--format", "jsonl", "'zrh | münchen"],
          ["%"],
        ]
        for arguments in cases {
          let memory = try ThrowawayCluster.runProgram(
            binary, ["filter", "--corpus", Self.manifest] + arguments)
          let server = try ThrowawayCluster.runProgram(
            binary, ["filter", "--corpus", Self.manifest, "--backend", url] + arguments)
          #expect(server.status == memory.status, "\(arguments): \(server.output)")
          #expect(server.output == memory.output, "\(arguments)")
        }
        // The same data set with fewer items (every 20th line, so that every scope keeps
        // some), under the same table name: the server's items beyond them are an error, not
        // lines printed from an empty template.
        try withTemporaryFolder { folder in
          let manifest = folder + "/cities.manifest.json"
          try FileManager.default.copyItem(atPath: Self.manifest, toPath: manifest)
          let lines = try String(
            contentsOfFile: DataSets.root + "/Corpus/cities/cities.tsv", encoding: .utf8
          ).split(separator: "\n")
          let kept = lines.indices.filter { $0 % 20 == 0 }.map { lines[$0] }
          try (kept.joined(separator: "\n") + "\n").write(
            toFile: folder + "/cities.tsv", atomically: true, encoding: .utf8)
          let shorter = try ThrowawayCluster.runProgram(
            binary, ["filter", "--corpus", manifest, "--backend", url, "a"])
          #expect(shorter.status == 2, "\(shorter.output)")
          #expect(
            shorter.output.contains("which the list does not have; load the same data set"),
            "\(shorter.output)")
          #expect(!shorter.output.contains(" ()"), "\(shorter.output)")
        }
        // The REPL asks the server for pages: five rows and the count, then five more.
        let script = "type ber\nwait\nmore\nwait\nquit\n"
        let repl = try ThrowawayCluster.runProgram(
          "/bin/sh",
          [
            "-c",
            "printf '\(script)' | SEARCHREPL_NO_TIMING=1 '\(binary)' repl --corpus '\(Self.manifest)' --backend '\(url)' --page-size 5 --mode background --json",
          ])
        #expect(repl.status == 0, "\(repl.output)")
        let reloads = repl.output.split(separator: "\n").filter {
          $0.contains("\"event\":\"reload\"") && $0.contains("\"more\":true")
        }
        let memory = try ThrowawayCluster.runProgram(
          binary, ["filter", "--corpus", Self.manifest, "ber"])
        let total = memory.output.split(separator: "\n").count
        #expect(total > 10)
        #expect(reloads.count == 2, "\(repl.output)")
        #expect(
          reloads.first?.contains("\"rows\":5,\"count\":\(total),\"countExact\":true") == true,
          "\(repl.output)")
        #expect(reloads.last?.contains("\"rows\":10,") == true, "\(repl.output)")
        let missing = try ThrowawayCluster.runProgram(
          binary,
          ["filter", "--corpus", Self.manifest, "--backend", url, "--table", "towns", "zur"])
        #expect(missing.status == 2)
        #expect(
          missing.output.contains(
            "no data set \"towns\"; load it first: SearchREPL load MANIFEST --into"))
        // A change reaches the server's table, then the lists: the search that follows finds
        // the new item there (before, insert answered with the library's "use apply(_:)").
        let change = try ThrowawayCluster.runProgram(
          "/bin/sh",
          [
            "-c",
            "printf 'insert name=Qwertzhausen\\ntype qwertz\\nwait\\nquit\\n' | SEARCHREPL_NO_TIMING=1 '\(binary)' repl --corpus '\(Self.manifest)' --backend '\(url)' --mode background --json",
          ])
        #expect(change.status == 0, "\(change.output)")
        #expect(!change.output.contains("apply(_:)"), "\(change.output)")
        #expect(change.output.contains(#""event":"insert""#), "\(change.output)")
        let found = change.output.split(separator: "\n").last {
          $0.contains(#""event":"reload""#)
        }
        #expect(found?.contains(#""rows":1,"#) == true, "\(change.output)")
      }
    }

    @Test func badAddressSaysWhatIsWrong() throws {
      let result = try ThrowawayCluster.runProgram(
        try Self.searchREPL(),
        ["filter", "--corpus", Self.manifest, "--backend", "mysql://x/y", "zur"])
      #expect(result.status == 2)
      #expect(
        result.output.contains(
          "cannot read the address \"mysql://x/y\": it must start with postgres://"))
    }

    /// `--page-size` asks the server of `--backend` for pages: alone, or of no rows, it is a
    /// usage error.
    @Test func aPageSizeNeedsAServer() throws {
      let binary = try Self.searchREPL()
      let alone = try ThrowawayCluster.runProgram(
        binary, ["repl", "--corpus", Self.manifest, "--page-size", "5"])
      #expect(alone.status == 2, "\(alone.output)")
      #expect(alone.output.contains("--page-size asks the server of --backend"), "\(alone.output)")
      let none = try ThrowawayCluster.runProgram(
        binary,
        [
          "live", "--corpus", Self.manifest, "--backend", "postgres://127.0.0.1:1/x", "--page-size",
          "0",
        ])
      #expect(none.status == 2, "\(none.output)")
      #expect(none.output.contains("--page-size must be 1 or more"), "\(none.output)")
      // 2^62 rows: a usage error, not an overflow (the library clamps what it is given too).
      let absurd = try ThrowawayCluster.runProgram(
        binary,
        [
          "repl", "--corpus", Self.manifest, "--backend", "postgres://127.0.0.1:1/x", "--page-size",
          "4611686018427387904",
        ])
      #expect(absurd.status == 2, "\(absurd.output)")
      #expect(absurd.output.contains("give at most 100000"), "\(absurd.output)")
    }

    /// `--replica` names a standby of `--backend`: alone, it is a usage error.
    @Test func aReplicaNeedsItsPrimary() throws {
      let result = try ThrowawayCluster.runProgram(
        try Self.searchREPL(),
        ["filter", "--corpus", Self.manifest, "--replica", "postgres://127.0.0.1:1/x", "zur"])
      #expect(result.status != 0)
      #expect(
        result.output.contains("--replica reads from a standby of --backend"), "\(result.output)")
    }

    /// An address that cannot be read is quoted with its password hidden, however it is
    /// malformed.
    @Test func aBadAddressNeverShowsItsPassword() throws {
      let binary = try Self.searchREPL()
      let cases = [
        ("postgres://search:secret@127.0.0.1:99999/db", "postgres://search:***@127.0.0.1:99999/db"),
        ("mysql://search:secret@host/db", "mysql://search:***@host/db"),
        ("postgres://search:sec/r@t@host/db?sslmode=x", "postgres://search:***@host/db?sslmode=x"),
        (
          "postgres://search:secret@host/db?sslmode=maybe",
          "postgres://search:***@host/db?sslmode=maybe"
        ),
        // Without "//": refused before any connection, not a database named after the rest.
        ("postgres:search:secret@127.0.0.1", "postgres:search:***@127.0.0.1"),
        ("postgresql:/search:secret@x", "postgresql:/search:***@x"),
      ]
      for (url, shown) in cases {
        let result = try ThrowawayCluster.runProgram(
          binary, ["filter", "--corpus", Self.manifest, "--backend", url, "zur"])
        #expect(result.status == 2, "\(url)")
        #expect(result.output.contains("cannot read the address \"\(shown)\""), "\(result.output)")
        #expect(!result.output.contains("secret") && !result.output.contains("cret"), "\(url)")
      }
      // An address that reads (Foundation takes the space) but leads nowhere: the message
      // names the address without its password.
      let unreachable = try ThrowawayCluster.runProgram(
        binary,
        [
          "filter", "--corpus", Self.manifest, "--backend",
          "postgres://search:se cret@127.0.0.1:1/db", "zur",
        ])
      #expect(unreachable.status == 2)
      #expect(!unreachable.output.contains("cret"), "\(unreachable.output)")
    }
  }
#endif
