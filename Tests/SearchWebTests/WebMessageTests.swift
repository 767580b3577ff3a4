#if Web
  import SearchEngine
  import Testing

  @testable import SearchWeb

  /// Reading a client's messages: each kind, and a refusal that says what is wrong.
  @Suite struct WebMessageTests {
    @Test func eachKindReads() throws {
      #expect(try ClientMessage.decode(#"{"type":"begin"}"#) == .begin)
      #expect(try ClientMessage.decode(#"{"type":"cancel"}"#) == .cancel)
      #expect(try ClientMessage.decode(#"{"type":"text","text":"zür"}"#) == .text("zür"))
      #expect(try ClientMessage.decode(#"{"type":"scope","scope":2}"#) == .scope(2))
      #expect(
        try ClientMessage.decode(#"{"type":"visible","first":40,"count":20}"#)
          == .visible(first: 40, count: 20))
      #expect(
        try ClientMessage.decode(#"{"type":"visible","first":0,"count":100000}"#)
          == .visible(first: 0, count: WebLimits.maxVisibleRows))
      #expect(
        try ClientMessage.decode(
          #"{"type":"tokens","tokens":[{"attribute":"language","values":["de"]}]}"#)
          == .tokens([WebToken(attribute: "language", values: ["de"])]))
    }

    @Test(arguments: [
      ("{", "not a JSON message of this protocol"),
      (#"{"text":"a"}"#, "no \"type\""),
      (#"{"type":"jump"}"#, "unknown type \"jump\""),
      (#"{"type":"text"}"#, "text needs \"text\""),
      (#"{"type":"text","text":1}"#, "\"text\" has the wrong type"),
      (#"{"type":"scope"}"#, "scope needs \"scope\""),
      (#"{"type":"tokens"}"#, "tokens needs \"tokens\""),
      (#"{"type":"visible","first":0,"count":0}"#, "visible needs"),
      (#"{"type":"visible","first":-1,"count":5}"#, "visible needs"),
    ])
    func aRefusalSaysWhatIsWrong(message: String, reason: String) {
      #expect {
        _ = try ClientMessage.decode(message)
      } throws: { error in
        "\(error)".contains(reason)
      }
    }

    @Test func aTokenIsACondition() throws {
      let schema = SearchModel.Schema(
        fields: [.init(name: "name")], attributes: ["language", "population"])
      #expect(
        WebToken(attribute: "language", values: ["de", "fr"]).condition
          == .oneOf(attribute: "language", values: ["de", "fr"]))
      #expect(
        WebToken(attribute: "population", min: 1000).condition
          == .number(attribute: "population", in: 1000 ... .infinity))
      #expect(WebToken(attribute: "language").condition == .present(attribute: "language"))
      #expect(WebToken(attribute: "language").problem(in: schema) == nil)
      #expect(
        WebToken(attribute: "colour").problem(in: schema)
          == "no attribute \"colour\" (language, population)")
      #expect(WebToken(attribute: "population", min: 5, max: 1).problem(in: schema) != nil)
      #expect(
        WebToken(attribute: "population", values: ["1"], min: 1).problem(in: schema) != nil)
    }
  }
#endif
