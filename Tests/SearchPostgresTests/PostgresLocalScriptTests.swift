#if PostgreSQL
  import Foundation
  import Testing

  /// `.ci/postgres-local`, the server the README's PostgreSQL section starts: a busy port is
  /// named, or passed over for the next free one; its options are in its help.
  @Suite(.serialized) struct PostgresLocalScriptTests {
    private static let script = DataSets.root + "/.ci/postgres-local"

    private static func run(_ environment: [String], _ arguments: [String] = []) throws
      -> (status: Int32, output: String)
    {
      try ThrowawayCluster.runProgram(
        "/usr/bin/env", environment + ["/bin/bash", script] + arguments)
    }

    private static func folder() -> String {
      FileManager.default.temporaryDirectory
        .appendingPathComponent("postgres-local-\(UUID().uuidString.prefix(8))").path
    }

    @Test func aBusyPortIsNamedAndNothingIsMade() throws {
      let listener = try PortListener()
      defer { listener.close() }
      let folder = Self.folder()
      let (status, output) = try Self.run(["FOLDER=\(folder)", "PORT=\(listener.port)"])
      #expect(status == 1)
      #expect(output.contains("port \(listener.port) of 127.0.0.1 is in use"), "\(output)")
      #expect(!FileManager.default.fileExists(atPath: folder))
    }

    @Test func withoutAPortTheFirstFreeOneIsTaken() throws {
      // 54329, the first, is busy: with this test's listener, or with a server of someone's.
      let listener = try? PortListener(port: 54329)
      defer { listener?.close() }
      let folder = Self.folder()
      defer {
        _ = try? Self.run(["FOLDER=\(folder)"], ["stop"])
        try? FileManager.default.removeItem(atPath: folder)
      }
      // The URL is standard output's last line; standard error is empty, even as root from
      // a folder the server's user cannot enter (the script runs its programs from /).
      let (status, output, errors) = try ThrowawayCluster.runProgramApart(
        "/usr/bin/env", ["FOLDER=\(folder)", "/bin/bash", Self.script])
      try #require(status == 0, "\(output)\(errors)")
      #expect(errors.isEmpty, "\(errors)")
      let url = try #require(output.split(separator: "\n").last.map(String.init))
      let port = try #require(
        url.split(separator: ":").last?.split(separator: "/").first.flatMap { Int($0) })
      #expect((54330...54348).contains(port), "\(url)")
      // Asked again while it runs: the same server.
      #expect(try Self.run(["FOLDER=\(folder)"]).output.contains(url))
    }

    @Test func theHelpNamesItsOptions() throws {
      let (status, output) = try Self.run([], ["--help"])
      #expect(status == 0)
      for word in ["start", "stop", "FOLDER", "PORT", "54329-54348"] {
        #expect(output.contains(word), "\(word): \(output)")
      }
      #expect(try Self.run([], ["begin"]).status == 2)
    }
  }
#endif
