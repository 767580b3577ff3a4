/// Decimal numbers written as text, in the one canonical form that attributes store and
/// query words are compared in: "+007" and "7.00" are both "7", "-0.50" is "-0.5".
///
/// Comparing canonical texts compares the numbers exactly, with no binary rounding: "0.1"
/// equals "0.10" and nothing else.
public enum DecimalText {
  /// The canonical form of `text`, or nil when it is not a decimal number.
  ///
  /// A decimal number is an optional sign (`+` or `-`), decimal digits, and optionally a
  /// point followed by more digits, with at least one digit in all ("5", "-12", "499.99",
  /// "5.", ".5"); no exponent, no digit grouping, no spaces. The canonical form has no `+`,
  /// no leading zeros before the point (but "0"), no trailing zeros after it, no point when
  /// nothing follows it, and no sign on zero.
  public static func canonical<S: StringProtocol>(_ text: S) -> String? {
    var bytes = Substring(text).utf8[...]
    var isNegative = false
    if let sign = bytes.first, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") {
      isNegative = sign == UInt8(ascii: "-")
      bytes = bytes.dropFirst()
    }
    let point = bytes.firstIndex(of: UInt8(ascii: "."))
    let whole = bytes[..<(point ?? bytes.endIndex)]
    let fraction = point.map { bytes[bytes.index(after: $0)...] } ?? bytes[bytes.endIndex...]
    guard whole.count + fraction.count > 0,
      whole.allSatisfy(isDigit), fraction.allSatisfy(isDigit)
    else { return nil }
    let integerDigits = whole.drop { $0 == UInt8(ascii: "0") }
    var fractionDigits = fraction[...]
    while fractionDigits.last == UInt8(ascii: "0") { fractionDigits = fractionDigits.dropLast() }
    if integerDigits.isEmpty && fractionDigits.isEmpty { return "0" }
    var result: [UInt8] = isNegative ? [UInt8(ascii: "-")] : []
    result += integerDigits.isEmpty ? [UInt8(ascii: "0")] : Array(integerDigits)
    if !fractionDigits.isEmpty { result += [UInt8(ascii: ".")] + Array(fractionDigits) }
    return String(decoding: result, as: UTF8.self)
  }

  private static func isDigit(_ byte: UInt8) -> Bool {
    byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
  }
}
