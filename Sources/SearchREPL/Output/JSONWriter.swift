/// Builds one JSON object as text, keys in the order they are added.
struct JSONObject {
  private var text = "{"
  private var isEmpty = true

  private mutating func key(_ name: String) {
    if !isEmpty { text += "," }
    isEmpty = false
    text += JSONObject.quoted(name) + ":"
  }

  mutating func add(_ name: String, _ value: String) {
    key(name)
    text += JSONObject.quoted(value)
  }

  mutating func add(_ name: String, _ value: Int) {
    key(name)
    text += String(value)
  }

  mutating func add(_ name: String, _ value: Double) {
    key(name)
    text += value.isFinite ? String(value) : "null"
  }

  mutating func add(_ name: String, _ value: Bool) {
    key(name)
    text += value ? "true" : "false"
  }

  /// Adds a value that is already JSON text (an array or object).
  mutating func add(_ name: String, raw value: String) {
    key(name)
    text += value
  }

  /// The object's text.
  var json: String { text + "}" }

  /// A JSON array of JSON texts.
  static func array(_ elements: [String]) -> String { "[" + elements.joined(separator: ",") + "]" }

  /// A JSON array of `[lower, upper]` pairs.
  static func ranges(_ ranges: [Range<Int>]) -> String {
    array(ranges.map { "[\($0.lowerBound),\($0.upperBound)]" })
  }

  /// A JSON string literal.
  static func quoted(_ value: String) -> String {
    var result = "\""
    for scalar in value.unicodeScalars {
      switch scalar {
      case "\"": result += "\\\""
      case "\\": result += "\\\\"
      case "\n": result += "\\n"
      case "\r": result += "\\r"
      case "\t": result += "\\t"
      default:
        if scalar.value < 0x20 {
          let hex = String(scalar.value, radix: 16)
          result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
        } else {
          result.unicodeScalars.append(scalar)
        }
      }
    }
    return result + "\""
  }
}
