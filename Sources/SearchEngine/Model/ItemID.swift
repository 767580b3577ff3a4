/// The stable identity of an item: it survives updates, inserts and deletes of other items.
public struct ItemID: Hashable, Comparable, Sendable, CustomStringConvertible {
  /// The identity's number: items get 0, 1, 2 … in the order they were added.
  public let rawValue: Int32

  /// Creates an identity from its number.
  public init(rawValue: Int32) { self.rawValue = rawValue }

  /// Orders identities by number.
  public static func < (lhs: ItemID, rhs: ItemID) -> Bool { lhs.rawValue < rhs.rawValue }

  /// The number as text.
  public var description: String { "#\(rawValue)" }
}

extension SearchModel {
  /// The content of one item: the values of each field and each attribute, in schema order.
  public struct Record: Hashable, Sendable {
    /// The values of each field (a field may have several values, or none).
    public var fields: [[String]]
    /// The value of each attribute.
    public var attributes: [String]

    /// Creates a record.
    public init(fields: [[String]], attributes: [String] = []) {
      self.fields = fields
      self.attributes = attributes
    }
  }
}
