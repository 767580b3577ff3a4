/// How many items a search finds, as a backend can tell it cheaply: exactly, or an estimate
/// that a front must label as one ("about 12,000").
///
/// A backend that sends only the first rows of a large answer counts the rest only when that
/// costs little; otherwise it estimates from a sample of its rows.
public enum ResultCount: Hashable, Sendable, CustomStringConvertible {
  /// The exact number of items.
  case exact(Int)
  /// An estimate of the number of items, never below the number of rows already sent.
  case estimate(Int)

  /// `count`, raised to `floor` if below it: an estimate of more rows than the backend sent
  /// cannot be fewer than those rows and one more.
  package init(atLeast floor: Int, _ count: ResultCount) {
    switch count {
    case .exact(let value): self = .exact(max(value, floor))
    case .estimate(let value): self = .estimate(max(value, floor))
    }
  }

  /// The number, exact or estimated.
  public var value: Int {
    switch self {
    case .exact(let count), .estimate(let count): count
    }
  }

  /// Whether the number is exact.
  public var isExact: Bool {
    if case .exact = self { true } else { false }
  }

  /// The number as a front shows it: `12,345`, or `about 12,000` for an estimate (two
  /// significant digits, since a sample cannot tell more).
  public var description: String {
    switch self {
    case .exact(let count): Self.grouped(count)
    case .estimate(let count): "about " + Self.grouped(Self.rounded(count))
    }
  }

  /// `count` rounded to two significant digits.
  static func rounded(_ count: Int) -> Int {
    guard count >= 100 else { return count }
    var unit = 1
    while count / unit >= 100 { unit *= 10 }
    return (count + unit / 2) / unit * unit
  }

  private static func grouped(_ count: Int) -> String {
    let digits = String(count.magnitude)
    var result = ""
    for (offset, digit) in digits.enumerated() {
      if offset > 0 && (digits.count - offset) % 3 == 0 { result.append(",") }
      result.append(digit)
    }
    return count < 0 ? "-" + result : result
  }
}
