import SearchEngine

/// What a load did: how many lines of the data file were read, how many became items, and why
/// the others were rejected.
///
/// `loaded + rejected.count == linesRead` always. The lines read are the lines of the data
/// file (a final "\n" ends the last line, it does not start another) except a TSV header, and
/// except the lines at the end of the file that hold nothing or only "\r": those are ignored.
/// Whether rejected lines are fatal is the caller's decision.
public struct LoadReport: Hashable, Sendable {
  /// The lines of data read (header and ignored final blank lines not included).
  public var linesRead: Int
  /// The lines that became items.
  public var loaded: Int
  /// One error per rejected line, in file order; a rejected line leaves no trace in the model.
  public var rejected: [InputError]

  /// Creates a report.
  public init(linesRead: Int = 0, loaded: Int = 0, rejected: [InputError] = []) {
    self.linesRead = linesRead
    self.loaded = loaded
    self.rejected = rejected
  }
}
