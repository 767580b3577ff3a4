import SearchEngine

/// One change to the items of an ``ItemSearch``, for ``ItemSearch/apply(_:)``.
public enum ItemChange<Item: Identifiable & Sendable>: Sendable where Item.ID: Sendable {
  /// Adds an item at a position of the list (nil: the end).
  case insert(Item, at: Int? = nil)
  /// Replaces the item with the same `id`; its position stays.
  case update(Item)
  /// Removes the item with this `id`.
  case remove(Item.ID)
}

/// Something an ``ItemSearch`` cannot do, with what to do instead.
public enum ItemSearchError: Error, Hashable, Sendable, CustomStringConvertible {
  /// Two items have the same `id` (given as text).
  case duplicateID(String)
  /// No item has this `id` (given as text).
  case unknownID(String)
  /// Two scopes have the same title.
  case duplicateScopeTitle(String)
  /// The position is outside the list.
  case positionOutOfRange(Int, count: Int)
  /// No row adapter for a kind (given as text), and no fallback.
  case noAdapter(kind: String)
  /// ICU has no data for the locale (given as written).
  case unknownLocale(String)
  /// The engine refused: ICU could not fold or collate (the message says what failed).
  case engine(String)

  /// The error as one line of text.
  public var description: String {
    switch self {
    case .duplicateID(let id):
      return "two items have the id \(id); ids must be unique (update the item instead)"
    case .unknownID(let id): return "no item has the id \(id)"
    case .duplicateScopeTitle(let title):
      return "two scopes are titled \"\(title)\"; give each scope its own title"
    case .positionOutOfRange(let position, let count):
      return "position \(position) is outside the list's 0...\(count)"
    case .noAdapter(let kind):
      return "no row adapter for kind \(kind); register one or set a fallback"
    case .unknownLocale(let locale):
      return "ICU has no data for the locale \"\(locale)\"; give a language it knows (\"tr\","
        + " \"sv\", \"de_AT\"), or nil for the root locale"
    case .engine(let message): return message
    }
  }
}
