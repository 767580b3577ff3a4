import SearchCore
import SearchDataSets
import SearchEngine

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The saved index of a data set: where it lives, what it was made from, and loading a
/// corpus from it (or from the data when there is none, or it is stale).
enum SavedIndex {
  /// The default file of a manifest: `NAME.index` beside `NAME.manifest.json`.
  static func defaultPath(forManifest path: String) -> String {
    for suffix in [".manifest.json", ".json"] where path.hasSuffix(suffix) {
      return String(path.dropLast(suffix.count)) + ".index"
    }
    return path + ".index"
  }

  /// What the data set is now: the data file's size, modification time and a hash of samples
  /// of its bytes, and a hash of the whole manifest.
  ///
  /// Size and time catch every ordinary rewrite; the sampled hash (the first and last 64 KiB and 64
  /// blocks of 4 KiB spread over the file) catches a copy over it that kept both, for ~0.4 MB read
  /// rather than the whole file, which would cost more than the rest of a start from the index.
  static func sourceIdentity(manifestPath: String) throws -> String {
    let manifest = try Manifest.load(from: manifestPath)
    let dataPath = manifest.dataFilePath(manifestPath: manifestPath)
    let manifestHash = try hash(of: manifestPath, sampled: false)
    var status = stat()
    guard stat(dataPath, &status) == 0 else {
      throw CommandError(
        "\(dataPath): cannot read the data file: \(String(cString: strerror(errno)))")
    }
    let sample = try hash(of: dataPath, sampled: true)
    return "data \(status.st_size) bytes, modified \(status.st_mtim.tv_sec)."
      + "\(status.st_mtim.tv_nsec), sample hash \(hex(sample)); manifest hash \(hex(manifestHash))"
  }

  /// Which saved index a command reads, from its ``IndexOption``, and the command that
  /// rebuilds it (for advice).
  struct Choice: Sendable {
    /// The file given with `--index`, or nil for the default.
    var path: String?
    /// Whether `--no-index` turned saved indexes off.
    var isOff: Bool
    /// The command that builds the index again.
    var rebuild: String

    /// The choice of `option`, for the data set `corpus` (as given) folded by `folding`.
    init(_ option: IndexOption, corpus: String, folding: FoldingOptions) {
      path = option.index
      isOff = option.noIndex
      rebuild = SavedIndex.rebuildCommand(corpus: corpus, folding: folding, output: option.index)
    }

    /// No saved index: build from the data.
    static let off = Choice(path: nil, isOff: true, rebuild: "")

    private init(path: String?, isOff: Bool, rebuild: String) {
      self.path = path
      self.isOff = isOff
      self.rebuild = rebuild
    }
  }

  /// The command that builds the index again, for advice.
  static func rebuildCommand(corpus: String, folding: FoldingOptions, output: String?) -> String {
    var command = "SearchREPL index --corpus \(corpus)"
    if let fold = folding.fold { command += " --fold \(fold)" }
    if let locale = folding.locale { command += " --locale \(locale)" }
    if let output { command += " --output \(output)" }
    return command
  }

  /// The corpus of a data set: from the saved index when `option` names one (an error when
  /// it is stale) or the default one exists and is fresh (a warning on standard error when
  /// it is stale), else built from the data.
  static func loadCorpus(
    manifestPath: String, normalizer: Normalizer, index: SavedIndex.Choice,
    allowsDataOutsideFolder: Bool, progress: LoadProgress? = nil
  ) throws -> SearchCorpus {
    if let explicit = index.path ?? (index.isOff ? nil : defaultPath(forManifest: manifestPath)) {
      let path = explicit
      let advice = index.rebuild
      if index.path != nil || access(path, F_OK) == 0 {
        do {
          let source = try sourceIdentity(manifestPath: manifestPath)
          return try SearchCorpus(contentsOf: path, normalizer: normalizer, source: source)
        } catch let error as SavedIndexError {
          if index.path != nil { throw CommandError("\(error.description): \(advice)") }
          Terminal.write(
            "warning: \(error.description) (\(advice)); building from the data instead\n", to: 2)
        }
      }
    }
    let source = try DataSource.load(
      input: nil, corpus: manifestPath, allowsDataOutsideFolder: allowsDataOutsideFolder,
      progress: progress)
    return try SearchCorpus(model: source.model, normalizer: normalizer, progress: progress)
  }

  private static func hex(_ value: UInt64) -> String {
    let digits = String(value, radix: 16)
    return String(repeating: "0", count: 16 - digits.count) + digits
  }

  /// An FNV-1a hash of a file's bytes, or of samples of them.
  private static func hash(of path: String, sampled: Bool) throws -> UInt64 {
    let descriptor = try FileBytes.open(path, regularOnly: true).mapError {
      CommandError("\(path): cannot read it: \($0.message); \($0.hint)")
    }.get()
    defer { close(descriptor) }
    var status = stat()
    guard fstat(descriptor, &status) == 0 else {
      throw CommandError("\(path): cannot read its size")
    }
    let size = Int(status.st_size)
    var ranges: [Range<Int>] = []
    if !sampled || size <= 512 * 1024 {
      ranges = [0..<size]
    } else {
      ranges.append(0..<65_536)
      for block in 0..<64 {
        let start = 65_536 + block * ((size - 2 * 65_536) / 64)
        ranges.append(start..<(start + 4096))
      }
      ranges.append((size - 65_536)..<size)
    }
    var hash: UInt64 = 0xCBF2_9CE4_8422_2325
    var buffer = [UInt8](repeating: 0, count: 65_536)
    for range in ranges {
      var offset = range.lowerBound
      while offset < range.upperBound {
        let wanted = min(buffer.count, range.upperBound - offset)
        let got = buffer.withUnsafeMutableBytes {
          pread(descriptor, $0.baseAddress, wanted, off_t(offset))
        }
        guard got > 0 else { throw CommandError("\(path): cannot read it at offset \(offset)") }
        for byte in buffer[0..<got] { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01B3 }
        offset += got
      }
    }
    return hash
  }
}
