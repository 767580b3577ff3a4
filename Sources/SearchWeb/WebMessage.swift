#if Web
  import Foundation
  import SearchCore
  import SearchEngine

  /// What a page sends over its WebSocket: one JSON object per message, its kind in `type`
  /// (SearchWeb.docc's protocol article lists them).
  enum ClientMessage: Equatable {
    /// The search field took focus.
    case begin
    /// The field's text is now `text`.
    case text(String)
    /// The scope bar's selected scope, by index ("All" is 0).
    case scope(Int)
    /// The tokens in the field, in order; they replace those sent before.
    case tokens([WebToken])
    /// The field's cancel (Esc): back to the whole list.
    case cancel
    /// The rows the page shows: `count` rows from flat position `first`.
    case visible(first: Int, count: Int)
    /// How the list is sectioned: `none`, `letter:FIELD` (by the first letter of a field, with
    /// an index A–Z) or an attribute's name (a section per value).
    case sections(SectionedTable.Sectioning)
    /// The page lost track of the rows it holds (an update came out of order): the next update
    /// sends every row of the window.
    case resync

    /// Why a client's message is refused.
    struct Refusal: Error, Equatable, CustomStringConvertible {
      var description: String
    }

    private struct Envelope: Decodable {
      var type: String
      var text: String?
      var scope: Int?
      var tokens: [WebToken]?
      var first: Int?
      var count: Int?
      var sections: String?
    }

    /// Reads one message, or says what is wrong with it.
    static func decode(_ text: String) throws(Refusal) -> ClientMessage {
      let envelope: Envelope
      do {
        envelope = try JSONDecoder().decode(Envelope.self, from: Data(text.utf8))
      } catch {
        throw Refusal(description: "not a JSON message of this protocol: \(Self.reason(error))")
      }
      switch envelope.type {
      case "begin": return .begin
      case "resync": return .resync
      case "cancel": return .cancel
      case "text":
        guard let text = envelope.text else { throw Refusal(description: "text needs \"text\"") }
        return .text(text)
      case "scope":
        guard let scope = envelope.scope else {
          throw Refusal(description: "scope needs \"scope\", an index of the scope bar")
        }
        return .scope(scope)
      case "tokens":
        guard let tokens = envelope.tokens else {
          throw Refusal(description: "tokens needs \"tokens\", a list")
        }
        return .tokens(tokens)
      case "visible":
        guard let first = envelope.first, let count = envelope.count, first >= 0, count >= 1
        else {
          throw Refusal(
            description: "visible needs \"first\" (0 or more) and \"count\" (1 or more)")
        }
        return .visible(first: first, count: min(count, WebLimits.maxVisibleRows))
      case "sections":
        guard let text = envelope.sections, let sectioning = WebSectioning.read(text) else {
          throw Refusal(
            description: "sections needs \"sections\": none, letter:FIELD or an attribute")
        }
        return .sections(sectioning)
      default:
        throw Refusal(
          description:
            "unknown type \"\(envelope.type)\" (begin, text, scope, tokens, cancel, visible,"
            + " sections, resync)")
      }
    }

    private static func reason(_ error: any Error) -> String {
      switch error {
      case DecodingError.dataCorrupted(let context): context.debugDescription
      case DecodingError.keyNotFound(let key, _): "no \"\(key.stringValue)\""
      case DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context):
        "\"\(context.codingPath.map(\.stringValue).joined(separator: "."))\" has the wrong type"
      default: "\(error)"
      }
    }
  }

  /// A token of the search field as JSON: an attribute's condition.
  ///
  /// `{"attribute": "country", "values": ["CH"]}` is one of the values;
  /// `{"attribute": "population", "min": 1000000}` a number range (either end may be left
  /// out); `{"attribute": "elevation"}` alone, that it has a value.
  struct WebToken: Codable, Equatable {
    var attribute: String
    var values: [String]?
    var min: Double?
    var max: Double?

    /// The condition it stands for.
    var condition: AttributeFilter.Condition {
      if let values { return .oneOf(attribute: attribute, values: Set(values)) }
      if min != nil || max != nil {
        return .number(attribute: attribute, in: (min ?? -.infinity)...(max ?? .infinity))
      }
      return .present(attribute: attribute)
    }

    /// What is wrong with it for a model, or nil.
    func problem(in schema: SearchModel.Schema) -> String? {
      guard schema.attributeIndex(named: attribute) != nil else {
        return "no attribute \"\(attribute)\" (\(schema.attributes.joined(separator: ", ")))"
      }
      if values != nil && (min != nil || max != nil) {
        return "a token has values or a range, not both"
      }
      if let min, let max, !(min <= max) { return "a token's min is above its max" }
      if min?.isNaN == true || max?.isNaN == true { return "a token's bound is not a number" }
      return nil
    }
  }

  /// What the server sends: the session's start, an update, or an error.
  enum ServerMessage: Encodable {
    case hello(Hello)
    case update(WebUpdate)
    case error(String)

    /// The first message of a session: what the page draws before the first update.
    struct Hello: Encodable {
      var placeholder: String
      var scopes: [String]
      /// The searched fields' names: what `letter:FIELD` sections may name.
      var fields: [String]
      var attributes: [String]
      var itemCount: Int
      var maxMessageBytes: Int
    }

    private enum Keys: String, CodingKey { case type, message }

    func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: Keys.self)
      switch self {
      case .hello(let hello):
        try container.encode("hello", forKey: .type)
        try hello.encode(to: encoder)
      case .update(let update):
        try container.encode("update", forKey: .type)
        try update.encode(to: encoder)
      case .error(let message):
        try container.encode("error", forKey: .type)
        try container.encode(message, forKey: .message)
      }
    }

    /// The message as the text of a WebSocket message.
    var json: String {
      let encoder = JSONEncoder()
      encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
      // Every value here encodes (strings, numbers, lists of them): a failure is a broken
      // invariant.
      guard let data = try? encoder.encode(self) else {
        preconditionFailure("a server message always encodes")
      }
      return String(decoding: data, as: UTF8.self)
    }
  }

  /// One row of the client's window.
  struct WebRow: Codable, Equatable {
    /// The row's flat position in the table (section 0's rows first).
    var position: Int
    /// The item's identity in the model.
    var id: Int
    /// The row's text.
    var text: String
    /// What the query matched, as UTF-16 offsets `[start, end)` into `text`.
    var marks: [[Int]]
    /// How many typos the item needed to match, when any.
    var typos: Int?
    /// The title of the row's section, when the table has sections.
    var section: String?
  }

  /// A completion of the text, as the page shows it under the field.
  struct WebCompletion: Codable, Equatable {
    var text: String
    var count: Int
  }

  /// An update: the generation of the rows, their counts, and the change set of the client's
  /// window.
  struct WebUpdate: Codable, Equatable {
    /// The generation of the request the rows answer (`SearchController.Update.generation`):
    /// a page drops an update older than one it applied.
    var generation: Int
    /// Counts the session's updates from 1: an update is the change from the one before, so a
    /// page that missed one (or got it late) asks for the whole window again (`resync`).
    var sequence = 0
    /// The text, scope and tokens the rows answer.
    var text: String
    var scope: Int
    /// The results table's state: hidden, dimmed, rows, noResults, belowThreshold.
    var state: String
    /// The table on screen: original or results.
    var table: String
    /// Rows in the table on screen.
    var count: Int
    /// A search still runs for a newer text, scope or tokens.
    var pending: Bool
    /// Results per scope, "All" first; nil when not counted.
    var scopeCounts: [Int?]?
    var completions: [WebCompletion]
    /// The client's window after this update: flat positions `start ..< end`; rows outside
    /// it are dropped.
    var start: Int
    var end: Int
    /// The rows of the window that are new or changed since the last update, by position.
    var rows: [WebRow]
    /// The offered tokens the field's text suggests, most items first (empty while the
    /// search is not under way).
    var suggestions: [WebSuggestion] = []
    /// How the list is sectioned, as the `sections` message spells it.
    var sections = "none"
    /// The section index down the side: its titles and the flat position each jumps to; nil
    /// when the table has no index (no sections, or no rows).
    var sectionIndex: [WebIndexEntry]? = nil
  }

  /// A token suggested for the field's text: its title, how many items hold it, and the token
  /// to send back in a `tokens` message when it is chosen.
  struct WebSuggestion: Codable, Equatable {
    var title: String
    var count: Int
    var token: WebToken
  }

  /// A title of the section index and the flat position of the row it jumps to: the first row
  /// of the section with that title, or of the section after it (a letter without rows).
  struct WebIndexEntry: Codable, Equatable {
    var title: String
    var position: Int
  }

  /// The spelling of a sectioning in messages: `none`, `letter:FIELD` or an attribute's name.
  enum WebSectioning {
    /// The sectioning `text` names, or nil for the empty text or `letter:` without a field.
    static func read(_ text: String) -> SectionedTable.Sectioning? {
      if text.lowercased() == "none" { return SectionedTable.Sectioning.none }
      if text.lowercased().hasPrefix("letter:") {
        let field = String(text.dropFirst("letter:".count))
        return field.isEmpty ? nil : .firstLetter(field: field)
      }
      return text.isEmpty ? nil : .attribute(text)
    }

    /// How `sectioning` is spelled.
    static func spell(_ sectioning: SectionedTable.Sectioning) -> String {
      switch sectioning {
      case .none: "none"
      case .firstLetter(let field): "letter:\(field)"
      case .attribute(let attribute): attribute
      }
    }
  }
#endif
