import SearchCommandLine

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// One of the project's speed targets as the bench reports it: our figure beside its peer's from the
/// same run, their ratio, and whether the ratio is within the limit.
struct BenchTarget {
  /// What is compared, such as "w1: keystroke ≥ 3 chars, CPU p50 vs SQLite FTS5".
  var name: String
  /// Our figure and the peer's, in the unit `unit` names.
  var figure: Double
  var peerFigure: Double
  var unit: String
  /// The largest `figure / peerFigure` that meets the target, nil when there is none.
  var limit: Double?

  /// Our figure over the peer's.
  var ratio: Double { peerFigure > 0 ? figure / peerFigure : .nan }

  /// Whether the ratio is within the limit (nil without a limit or a ratio).
  var met: Bool? {
    guard let limit, ratio.isFinite else { return nil }
    return ratio <= limit
  }

  /// One line of text: both figures, the ratio, the limit and the verdict.
  var text: String {
    let verdict = met.map { $0 ? "met" : "NOT met" } ?? "no limit"
    let bound = limit.map { String(format: " (limit ≤ %.2f×)", $0) } ?? ""
    return "  target \(name): "
      + String(format: "%.3f %@ vs %.3f %@ = %.2f×", figure, unit, peerFigure, unit, ratio)
      + bound + ": " + verdict
  }

  /// The target as a JSON object.
  var json: String {
    var object = JSONObject()
    object.add("name", name)
    object.add("figure", figure)
    object.add("peer_figure", peerFigure)
    object.add("unit", unit)
    object.add("ratio", ratio)
    if let limit { object.add("limit", limit) } else { object.add("limit", raw: "null") }
    if let met { object.add("met", met) } else { object.add("met", raw: "null") }
    return object.json
  }
}

/// The CPU time of the whole process (every thread: the engine's scans run on all cores), in
/// milliseconds, from `CLOCK_PROCESS_CPUTIME_ID`.
func processCPUMilliseconds() -> Double {
  var time = timespec()
  guard clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time) == 0 else { return .nan }
  return Double(time.tv_sec) * 1000 + Double(time.tv_nsec) / 1e6
}

/// A buffer larger than the last-level cache, touched between keystrokes in `--gap-ms` mode so
/// that each keystroke starts with cold CPU caches, as one typed after a pause does.
final class CacheEvictor {
  /// 64 MiB: larger than the last-level cache of the machines the bench runs on.
  static let byteCount = 64 << 20
  private var buffer = [UInt8](repeating: 0, count: CacheEvictor.byteCount)
  private var round: UInt8 = 0

  /// Writes one byte of every cache line of the buffer.
  func evict() {
    round &+= 1
    let value = round
    buffer.withUnsafeMutableBytes { bytes in
      var offset = 0
      while offset < bytes.count {
        bytes[offset] = value
        offset += 64
      }
    }
  }
}
