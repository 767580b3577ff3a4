import Foundation

/// The lines a person entered at the REPL's prompt, oldest first, kept across sessions in a
/// file of one line each.
///
/// The file is `$SEARCHREPL_HISTORY` when that is set (an empty value keeps no file),
/// otherwise `$XDG_STATE_HOME/searchrepl/history`, otherwise
/// `~/.local/state/searchrepl/history`. Reading and writing never fail loudly: a file that
/// cannot be read is an empty history, one that cannot be written is left as it was.
struct LineHistory: Equatable, Sendable {
  /// The most entries kept; older ones are dropped first.
  static let capacity = 1000

  /// Where ``save()`` writes; nil keeps the history in memory only.
  var path: String?
  /// The entries, oldest first: none blank, no two neighbours equal, at most ``capacity``.
  private(set) var entries: [String] = []

  /// A history of `entries` (filtered as ``add(_:)`` does), saved to `path` if one is given.
  init(entries: [String] = [], path: String? = nil) {
    self.path = path
    for entry in entries { add(entry) }
  }

  /// The history in the file at `path`; empty when there is no path or it cannot be read.
  static func load(path: String?) -> LineHistory {
    guard let path, let data = FileManager.default.contents(atPath: path) else {
      return LineHistory(path: path)
    }
    let text = String(decoding: data, as: UTF8.self)
    let lines = text.split(whereSeparator: \.isNewline).map(String.init)
    return LineHistory(entries: Array(lines.suffix(capacity * 2)), path: path)
  }

  /// The history in the default file (see the type's description).
  static func loadDefault() -> LineHistory {
    load(path: defaultPath())
  }

  /// The default file for `environment`; nil when there is none (no home directory, or
  /// `SEARCHREPL_HISTORY` set to an empty value).
  static func defaultPath(
    environment: [String: String] = ProcessInfo.processInfo.environment
  ) -> String? {
    if let path = environment["SEARCHREPL_HISTORY"] { return path.isEmpty ? nil : path }
    // The XDG specification: a relative value is invalid and is ignored.
    if let state = environment["XDG_STATE_HOME"], state.hasPrefix("/") {
      return state + "/searchrepl/history"
    }
    guard let home = environment["HOME"], !home.isEmpty else { return nil }
    return home + "/.local/state/searchrepl/history"
  }

  /// Appends `line`, unless it is blank or equal to the newest entry; a line break in it
  /// becomes a space, so the entry stays one line of the file.
  mutating func add(_ line: String) {
    guard !line.allSatisfy(\.isWhitespace) else { return }
    let entry =
      line.contains(where: \.isNewline)
      ? String(line.map { $0.isNewline ? " " : $0 }) : line
    guard entries.last != entry else { return }
    entries.append(entry)
    if entries.count > Self.capacity { entries.removeFirst(entries.count - Self.capacity) }
  }

  /// Writes the entries to ``path``, creating its directory; whether that worked.
  @discardableResult
  func save() -> Bool {
    guard let path else { return false }
    let url = URL(fileURLWithPath: path)
    let manager = FileManager.default
    let directory = url.deletingLastPathComponent()
    do {
      try manager.createDirectory(at: directory, withIntermediateDirectories: true)
      var text = entries.joined(separator: "\n")
      if !text.isEmpty { text += "\n" }
      try Data(text.utf8).write(to: url, options: .atomic)
      // What a person typed is theirs alone to read.
      try? manager.setAttributes([.posixPermissions: 0o600], ofItemAtPath: path)
      return true
    } catch {
      return false
    }
  }
}
