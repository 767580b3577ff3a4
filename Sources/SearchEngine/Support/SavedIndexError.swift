/// Why a saved index file cannot be used: it is stale (made from other data, other folding or
/// by another version of the format), damaged, or cannot be read or written.
///
/// Its description names the file, says what is wrong and advises to build the index again.
public struct SavedIndexError: Error, Hashable, Sendable, CustomStringConvertible {
  /// What kind of problem the file has, to compare with `==` or branch on with `if`, or
  /// `switch` with a `default`; a release may add codes.
  public struct Code: Hashable, Sendable, CustomStringConvertible {
    private let name: String
    private init(name: String) { self.name = name }

    /// The file is whole but was made from other data, folding or format: build it again.
    public static let stale = Code(name: "stale")
    /// The file is truncated or its content is inconsistent.
    public static let corrupt = Code(name: "corrupt")
    /// The file cannot be opened, read or written.
    public static let io = Code(name: "io")

    /// The code's name, such as "stale".
    public var description: String { name }
  }

  /// The old name of ``Code``.
  @available(*, deprecated, renamed: "Code")
  public typealias Kind = Code

  /// What kind of problem the file has.
  public var code: Code
  /// The old name of ``code``.
  @available(*, deprecated, renamed: "code")
  public var kind: Code {
    get { code }
    set { code = newValue }
  }
  /// The file's path.
  public var file: String
  /// What is wrong.
  public var reason: String

  /// Creates an error.
  public init(_ code: Code, file: String, reason: String) {
    self.code = code
    self.file = file
    self.reason = reason
  }

  /// "FILE: saved index is stale: REASON; build it again".
  public var description: String {
    let what =
      switch code {
      case .stale: "the saved index is stale"
      case .corrupt: "the saved index is damaged"
      default: "the saved index cannot be used"
      }
    return "\(file): \(what): \(reason); build the index again from the data"
  }
}
