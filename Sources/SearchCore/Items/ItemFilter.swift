import SearchEngine

/// A condition on the app's items that a search token stands for: a value, one of a set of
/// values, a number range or presence, named by key path.
///
/// The engine reads the key path of every item once, when the item is indexed, and tests a token's
/// condition on what it read: no closure runs per item when a token is added.
///
/// ```swift
/// .equals(\Contact.group, .work)            // one value
/// .isOneOf(\Contact.group, [.work, .family]) // any of several
/// .range(\Contact.age, 18...)                // a number range (integers or floating point)
/// .isPresent(\Contact.birthday)              // an optional that holds a value
/// ```
public struct ItemFilter<Item>: Sendable {
  let attribute: TokenAttribute<Item>
  let test: Test

  enum Test: Sendable {
    /// The values, as the attribute's codes.
    case values(@Sendable (ValueCodes) -> Set<String>)
    case range(ClosedRange<Double>)
    case present
  }

  /// The items whose value at `keyPath` equals `value`.
  public static func equals<Value: Hashable & Sendable>(
    _ keyPath: KeyPath<Item, Value> & Sendable, _ value: Value
  ) -> ItemFilter {
    isOneOf(keyPath, [value])
  }

  /// The items whose value at `keyPath` is one of `values` (none: no item).
  public static func isOneOf<Value: Hashable & Sendable>(
    _ keyPath: KeyPath<Item, Value> & Sendable, _ values: Set<Value>
  ) -> ItemFilter {
    ItemFilter(
      attribute: .values(keyPath),
      test: .values { codes in Set(values.map { codes.code(of: $0) }) })
  }

  /// The items whose number at `keyPath` lies in `range`, bounds included.
  ///
  /// An absent number (an optional's nil) or one that is not a number (NaN) lies in no range.
  public static func range<Value: SearchableNumber>(
    _ keyPath: KeyPath<Item, Value> & Sendable, _ range: ClosedRange<Double>
  ) -> ItemFilter {
    ItemFilter(attribute: .number(keyPath), test: .range(range))
  }

  /// The items whose number at `keyPath` lies in `range`, bounds included.
  public static func range<Value: SearchableNumber & Comparable>(
    _ keyPath: KeyPath<Item, Value> & Sendable, _ range: ClosedRange<Value>
  ) -> ItemFilter {
    Self.range(
      keyPath,
      (range.lowerBound.searchNumber ?? -.infinity)...(range.upperBound.searchNumber ?? .infinity))
  }

  /// The items whose number at `keyPath` is at least the range's lower bound.
  public static func range<Value: SearchableNumber & Comparable>(
    _ keyPath: KeyPath<Item, Value> & Sendable, _ range: PartialRangeFrom<Value>
  ) -> ItemFilter {
    Self.range(keyPath, (range.lowerBound.searchNumber ?? -.infinity)...Double.infinity)
  }

  /// The items whose number at `keyPath` is at most the range's upper bound.
  public static func range<Value: SearchableNumber & Comparable>(
    _ keyPath: KeyPath<Item, Value> & Sendable, _ range: PartialRangeThrough<Value>
  ) -> ItemFilter {
    Self.range(keyPath, -Double.infinity...(range.upperBound.searchNumber ?? .infinity))
  }

  /// The items whose optional at `keyPath` holds a value.
  public static func isPresent<Value: Sendable>(_ keyPath: KeyPath<Item, Value?> & Sendable)
    -> ItemFilter
  {
    ItemFilter(attribute: .presence(keyPath), test: .present)
  }

  /// The engine's condition, on the attribute named `name`.
  func condition(attribute name: String, codes: ValueCodes) -> AttributeFilter.Condition {
    switch test {
    case .values(let values): .oneOf(attribute: name, values: values(codes))
    case .range(let range): .number(attribute: name, in: range)
    case .present: .present(attribute: name)
    }
  }
}

/// A number a token's range can test: the standard integer and floating-point types, and
/// optionals of them (nil is no number).
public protocol SearchableNumber: Sendable {
  /// The value as a `Double`, or nil for no number.
  var searchNumber: Double? { get }
}

extension SearchableNumber where Self: BinaryInteger {
  /// The integer as a `Double`.
  public var searchNumber: Double? { Double(self) }
}

extension SearchableNumber where Self: BinaryFloatingPoint {
  /// The number as a `Double`; nil for NaN.
  public var searchNumber: Double? { isNaN ? nil : Double(self) }
}

extension Int: SearchableNumber {}
extension Int8: SearchableNumber {}
extension Int16: SearchableNumber {}
extension Int32: SearchableNumber {}
extension Int64: SearchableNumber {}
extension UInt: SearchableNumber {}
extension UInt8: SearchableNumber {}
extension UInt16: SearchableNumber {}
extension UInt32: SearchableNumber {}
extension UInt64: SearchableNumber {}
extension Double: SearchableNumber {}
extension Float: SearchableNumber {}
extension Optional: SearchableNumber where Wrapped: SearchableNumber {
  /// The wrapped value's number, or nil.
  public var searchNumber: Double? { self?.searchNumber }
}

/// One attribute that tokens test: a key path and how its value is stored.
///
/// Two filters on one key path and kind share the attribute.
///
/// `@unchecked Sendable` only because `AnyKeyPath` erases the `Sendable` of the key path it
/// keeps: every one came in as `KeyPath & Sendable`, and the closure is `@Sendable`.
struct TokenAttribute<Item>: @unchecked Sendable {
  enum Kind: Hashable { case values, number, presence }
  struct Key: Hashable {
    var keyPath: AnyKeyPath
    var kind: Kind
  }

  let key: Key
  /// The stored text of an item's value: its code, its number, or "1" / "" for presence.
  let read: @Sendable (Item, ValueCodes) -> String

  static func values<Value: Hashable & Sendable>(_ keyPath: KeyPath<Item, Value> & Sendable)
    -> Self
  {
    Self(key: Key(keyPath: keyPath, kind: .values)) { item, codes in
      codes.code(of: item[keyPath: keyPath])
    }
  }

  static func number<Value: SearchableNumber>(_ keyPath: KeyPath<Item, Value> & Sendable) -> Self {
    Self(key: Key(keyPath: keyPath, kind: .number)) { item, _ in
      item[keyPath: keyPath].searchNumber.map { "\($0)" } ?? ""
    }
  }

  static func presence<Value>(_ keyPath: KeyPath<Item, Value?> & Sendable) -> Self {
    Self(key: Key(keyPath: keyPath, kind: .presence)) { item, _ in
      item[keyPath: keyPath] == nil ? "" : "1"
    }
  }
}

/// The codes of the values of the app's own types that tokens compare: the engine stores text,
/// so each distinct value gets a number, the first time an item or a token names it.
///
/// Equal values get one code, however they print.
final class ValueCodes: Sendable {
  private let codes = LockedValue<[AnyHashable: Int]>([:])

  /// The code of `value`, made when new.
  func code<Value: Hashable & Sendable>(of value: Value) -> String {
    codes.withLock { codes in
      let key = AnyHashable(value)
      if let code = codes[key] { return String(code) }
      let code = codes.count
      codes[key] = code
      return String(code)
    }
  }
}
