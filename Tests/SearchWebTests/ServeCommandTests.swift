#if Web
  import Foundation
  import TestSupport
  import Testing

  @testable import SearchWeb

  /// `SearchREPL serve` as a user runs it: the built executable, on a free port of the loopback
  /// address, searched by a tab.
  @Suite struct ServeCommandTests {
    @Test func serveSaysWhereItListensAndATabSearchesThere() async throws {
      let process = Process()
      process.executableURL = try BinaryRunner.executableURL()
      process.arguments = ["serve", "--corpus", corpusManifest("words", "sample"), "--port", "0"]
      let output = Pipe()
      process.standardOutput = output
      process.standardError = FileHandle.nullDevice
      try process.run()
      defer {
        // SIGKILL: a child of the test runner inherits its blocked SIGTERM.
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
      }
      // Its first line names the address. A process that says nothing is killed, which ends
      // the read.
      let watchdog = DispatchWorkItem { kill(process.processIdentifier, SIGKILL) }
      DispatchQueue.global().asyncAfter(deadline: .now() + 120, execute: watchdog)
      let text = await Self.firstLine(of: output.fileHandleForReading)
      watchdog.cancel()
      let prefix = "serving 6249 words-sample at http://127.0.0.1:"
      try #require(text.hasPrefix(prefix), "\(text)")
      let port = try #require(Int(text.dropFirst(prefix.count).prefix { $0.isNumber }))

      let tab = WebTab(port: port)
      defer { tab.close() }
      var page = PageModel()
      tab.send(#"{"type":"visible","first":0,"count":10}"#)
      tab.send(#"{"type":"text","text":"über"}"#)
      try await SearchWebServerTests.read(
        tab, into: &page, until: SearchWebServerTests.settled(text: "über"))
      // Ranked by default: the same rows as the engine's, in the ranking's order.
      let expected = try SearchWebServerTests.reference("über")
      #expect(page.last?.count == expected.count)
      #expect(Set(page.window.map(\.id)).isSubset(of: Set(expected.map(\.id))))
      #expect(page.hello?["placeholder"] as? String == "Search 6249 words-sample")
    }

    /// The first line `handle` gives, or what it gave before it ended; read on a thread of
    /// Dispatch's, since a blocking read on one of the cooperative pool's (two, on CI's two
    /// cores) stalls every other test's task behind it.
    static func firstLine(of handle: FileHandle) async -> String {
      await withCheckedContinuation { continuation in
        DispatchQueue.global().async {
          var line = Data()
          while !line.contains(0x0A) {
            let chunk = handle.availableData
            if chunk.isEmpty { break }
            line.append(chunk)
          }
          continuation.resume(returning: String(decoding: line, as: UTF8.self))
        }
      }
    }
  }
#endif
