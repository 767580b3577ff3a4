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
///
/// When the engine under the list refuses (ICU cannot fold or collate, the model refuses a
/// change), ``underlying`` holds its typed error: an ``/SearchEngine/ICUError``, a ``/SearchEngine/SearchModel/Error``, a
/// ``/SearchEngine/SearchCorpus/Error``, a ``SectionedTable/Error``…; two errors are equal when their codes,
/// details and descriptions are.
public struct ItemSearchError: Error, Hashable, Sendable, CustomStringConvertible {
  /// What went wrong, to compare with `==` or branch on with `if`, or `switch` with a
  /// `default`; a release may add codes.
  public struct Code: Hashable, Sendable, CustomStringConvertible {
    private let name: String
    private init(name: String) { self.name = name }

    /// Two items have the same `id`.
    public static let duplicateID = Code(name: "duplicateID")
    /// No item has the `id`.
    public static let unknownID = Code(name: "unknownID")
    /// Two scopes have the same title.
    public static let duplicateScopeTitle = Code(name: "duplicateScopeTitle")
    /// The position is outside the list.
    public static let positionOutOfRange = Code(name: "positionOutOfRange")
    /// No row adapter for a kind, and no fallback.
    public static let noAdapter = Code(name: "noAdapter")
    /// ICU has no data for the locale.
    public static let unknownLocale = Code(name: "unknownLocale")
    /// ICU could not fold or collate: ``ItemSearchError/underlying`` is the ``/SearchEngine/ICUError``.
    public static let icu = Code(name: "icu")
    /// The model refused a change: ``ItemSearchError/underlying`` is the
    /// ``/SearchEngine/SearchModel/Error``.
    public static let model = Code(name: "model")
    /// Another part of the engine refused: ``ItemSearchError/underlying`` says which.
    public static let engine = Code(name: "engine")

    /// The code's name, such as "duplicateID".
    public var description: String { name }
  }

  /// What went wrong.
  public let code: Code
  /// The item `id` (as text), the scope title, the kind (as text) or the locale (as written)
  /// at fault.
  public let value: String?
  /// The position asked for, for ``Code/positionOutOfRange``.
  public let position: Int?
  /// The engine's own error, for ``Code/icu``, ``Code/model`` and ``Code/engine``: the most
  /// specific one (the ``/SearchEngine/ICUError`` a ``/SearchEngine/SearchCorpus/Error`` carries, say).
  public let underlying: (any Error)?
  /// The error as one line of text.
  public let description: String

  private init(
    _ code: Code, _ description: String, value: String? = nil, position: Int? = nil,
    underlying: (any Error)? = nil
  ) {
    self.code = code
    self.description = description
    self.value = value
    self.position = position
    self.underlying = underlying
  }

  /// Two items have the same `id` (given as text).
  public static func duplicateID(_ id: String) -> Self {
    Self(
      .duplicateID, "two items have the id \(id); ids must be unique (update the item instead)",
      value: id)
  }
  /// No item has this `id` (given as text).
  public static func unknownID(_ id: String) -> Self {
    Self(.unknownID, "no item has the id \(id)", value: id)
  }
  /// Two scopes have the same title.
  public static func duplicateScopeTitle(_ title: String) -> Self {
    Self(
      .duplicateScopeTitle,
      "two scopes are titled \"\(title)\"; give each scope its own title", value: title)
  }
  /// The position is outside the list.
  public static func positionOutOfRange(_ position: Int, count: Int) -> Self {
    Self(
      .positionOutOfRange, "position \(position) is outside the list's 0...\(count)",
      position: position)
  }
  /// No row adapter for a kind (given as text), and no fallback.
  public static func noAdapter(kind: String) -> Self {
    Self(.noAdapter, "no row adapter for kind \(kind); register one or set a fallback", value: kind)
  }
  /// ICU has no data for the locale (given as written).
  public static func unknownLocale(_ locale: String) -> Self {
    Self(
      .unknownLocale,
      "ICU has no data for the locale \"\(locale)\"; give a language it knows (\"tr\","
        + " \"sv\", \"de_AT\"), or nil for the root locale", value: locale)
  }
  /// The engine refused: `error`, or the ICU or model error it carries, is ``underlying``, and
  /// gives the code (``Code/icu``, ``Code/model``, else ``Code/engine``) and the message.
  package static func engine(_ error: any Error) -> Self {
    let specific = innermost(error)
    let code: Code =
      switch specific {
      case is ICUError: .icu
      case is SearchModel.Error: .model
      default: .engine
      }
    return Self(code, "\(error)", underlying: specific)
  }

  /// The ICU or model error that `error` carries, or `error`.
  private static func innermost(_ error: any Error) -> any Error {
    if let error = error as? SearchController.Error, let corpus = error.corpusError {
      return innermost(corpus)
    }
    if let error = error as? SearchCorpus.Error {
      if let icu = error.icuError { return icu }
      if let model = error.modelError { return model }
    }
    if let error = error as? SectionedTable.Error, let icu = error.icuError { return icu }
    return error
  }

  /// Whether the two have the same code, details and description (their ``underlying``
  /// errors are compared by their descriptions).
  public static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.code == rhs.code && lhs.value == rhs.value && lhs.position == rhs.position
      && lhs.description == rhs.description
  }

  /// Hashes the code and description.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(code)
    hasher.combine(description)
  }
}
