/// The first rows of a backend's answer and how many there are in all: what a list needs to
/// show its first screen and the size of its scroll bar.
public struct BackendPrefix: Hashable, Sendable {
  /// The first matching items, in model order.
  public var items: [ItemID]
  /// Whether ``items`` is the whole answer.
  public var isComplete: Bool
  /// How many items match in all: exact when ``isComplete``.
  public var count: ResultCount

  /// Creates a prefix.
  public init(items: [ItemID], isComplete: Bool, count: ResultCount) {
    self.items = items
    self.isComplete = isComplete
    self.count = count
  }
}
