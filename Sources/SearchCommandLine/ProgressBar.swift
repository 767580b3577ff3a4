import Foundation
import SearchCore
import SearchEngine
import Synchronization

/// A progress bar on standard error for a load that takes a while: nothing for the first
/// half second (most loads end sooner), then a bar redrawn ten times a second until the load
/// ends, when the line is cleared.
package final class ProgressBar: Sendable {
  /// How long a load runs before the bar appears.
  package static let delay: Duration = .milliseconds(500)

  private let progress: LoadProgress
  private let label: String
  private let stopped = Atomic<Bool>(false)
  /// Wakes the drawing thread early when the load ends.
  private let wake = DispatchSemaphore(value: 0)
  /// Signalled by the drawing thread once its line is cleared.
  private let cleared = DispatchSemaphore(value: 0)

  private init(progress: LoadProgress, label: String) {
    self.progress = progress
    self.label = label
  }

  /// Runs `body` with a progress bar labelled `label` when `shown`; `body` reports to the
  /// ``LoadProgress`` it is given.
  package static func run<Result>(
    _ label: String, shown: Bool, _ body: (LoadProgress) throws -> Result
  ) rethrows -> Result {
    let progress = LoadProgress()
    guard shown else { return try body(progress) }
    let bar = ProgressBar(progress: progress, label: label)
    Thread.detachNewThread { bar.draw() }
    defer { bar.stop() }
    return try body(progress)
  }

  private func draw() {
    let clock = ContinuousClock()
    let start = clock.now
    var drawn = false
    while !stopped.load(ordering: .acquiring) {
      if clock.now - start >= Self.delay {
        Terminal.write("\r" + line() + "\u{1B}[K", to: STDERR_FILENO)
        drawn = true
      }
      _ = wake.wait(timeout: .now() + .milliseconds(100))
    }
    if drawn { Terminal.write("\r\u{1B}[K", to: STDERR_FILENO) }
    cleared.signal()
  }

  /// One line: `Loading cities  indexing ██████████░░░░░░░░░░  52%`.
  private func line() -> String {
    let fraction = progress.fraction
    let width = 20
    let full = Int((fraction * Double(width)).rounded(.down))
    let bar = String(repeating: "█", count: full) + String(repeating: "░", count: width - full)
    let percent = Int((fraction * 100).rounded(.down))
    return "Loading \(label)  \(progress.phase) \(bar) \(percent)%"
  }

  /// Ends the bar and waits until its line is cleared, so that nothing printed next shares
  /// the line with it.
  private func stop() {
    stopped.store(true, ordering: .releasing)
    wake.signal()
    cleared.wait()
  }
}
