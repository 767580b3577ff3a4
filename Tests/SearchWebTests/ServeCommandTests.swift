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
      // Its first line names the address (a process that dies first ends the read).
      var line = Data()
      while !line.contains(0x0A) {
        let chunk = output.fileHandleForReading.availableData
        if chunk.isEmpty { break }
        line.append(chunk)
      }
      let text = String(decoding: line, as: UTF8.self)
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
  }
#endif
