import PropertyBased
import SearchCoreTesting
import TestSupport
import Testing

@testable import SearchEngine

/// A bitset's runs are those of the integers it holds, for any set and range.
@Suite struct BitsetTests {
  /// A random set below a random capacity: sparse, dense, or in long runs, so that runs cross
  /// words and fill them.
  static func randomSet(using random: inout SplitMix64) -> (Bitset, [Bool]) {
    let capacity = Int(random.next() % 400)
    let density = [0.05, 0.5, 0.95][Int(random.next() % 3)]
    let runLength = Int(random.next() % 3) == 0 ? 70 : 1
    var states: [Bool] = []
    while states.count < capacity {
      let inside = Double(random.next() % 1_000) / 1_000 < density
      states += repeatElement(inside, count: min(runLength, capacity - states.count))
    }
    var set = Bitset(capacity: capacity)
    for (value, inside) in states.enumerated() where inside { set.insert(value) }
    return (set, states)
  }

  /// The maximal runs of true values of `states` within `range`.
  private static func runs(of states: [Bool], in range: Range<Int>) -> [Range<Int>] {
    var runs: [Range<Int>] = []
    for value in range where states[value] {
      if let last = runs.last, last.upperBound == value {
        runs[runs.count - 1] = last.lowerBound..<(value + 1)
      } else {
        runs.append(value..<(value + 1))
      }
    }
    return runs
  }

  @Test func runsAreTheMaximalRunsOfTheSetWithinARange() async {
    await propertyCheck(count: TestBudget.cases(300), input: Gen.int(in: 0...1_000_000)) { seed in
      var random = SplitMix64(seed: UInt64(seed))
      let (set, states) = Self.randomSet(using: &random)
      let lower = states.isEmpty ? 0 : Int(random.next() % UInt64(states.count + 1))
      let upper = lower + Int(random.next() % UInt64(states.count - lower + 1))
      var found: [Range<Int>] = []
      set.forEachRun(in: lower..<upper) { found.append($0) }
      #expect(found == Self.runs(of: states, in: lower..<upper), "seed \(seed)")
    }
  }
}
