/// Why a saved index file cannot be used: it is stale (made from other data, other folding or
/// by another version of the format), damaged, or cannot be read or written.
///
/// Its description names the file, says what is wrong and advises to build the index again.
public struct SavedIndexError: Error, Hashable, Sendable, CustomStringConvertible {
  /// What kind of problem the file has.
  public enum Kind: Hashable, Sendable {
    /// The file is whole but was made from other data, folding or format: build it again.
    case stale
    /// The file is truncated or its content is inconsistent.
    case corrupt
    /// The file cannot be opened, read or written.
    case io
  }

  /// What kind of problem the file has.
  public var kind: Kind
  /// The file's path.
  public var file: String
  /// What is wrong.
  public var reason: String

  /// Creates an error.
  public init(_ kind: Kind, file: String, reason: String) {
    self.kind = kind
    self.file = file
    self.reason = reason
  }

  /// "FILE: saved index is stale: REASON; build it again".
  public var description: String {
    let what: String
    switch kind {
    case .stale: what = "the saved index is stale"
    case .corrupt: what = "the saved index is damaged"
    case .io: what = "the saved index cannot be used"
    }
    return "\(file): \(what): \(reason); build the index again from the data"
  }
}
