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
        let missing = try ThrowawayCluster.runProgram(
          binary,
          ["filter", "--corpus", Self.manifest, "--backend", url, "--table", "towns", "zur"])
        #expect(missing.status == 2)
        #expect(
          missing.output.contains(
            "no data set \"towns\"; load it first: SearchREPL load MANIFEST --into"))
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
  }
#endif
