import PropertyBased
import SearchCoreTesting
import TestSupport
import Testing

@testable import SearchEngine

/// The radix sort orders as a comparison sort of (key, position) does.
@Suite struct RadixSortTests {
  @Test func ordersAsAStableComparisonSort() async {
    await propertyCheck(count: TestBudget.cases(300), input: Gen.int(in: 0...1_000_000)) { seed in
      var random = SplitMix64(seed: UInt64(seed))
      let bits = Int(random.next() % 64) + 1
      // Few distinct keys (many ties) or many; some digits shared by every key.
      let distinct = random.next() % 2 == 0 ? 4 : 5_000
      let shared = random.next() & (bits == 64 ? .max : (1 << UInt64(bits)) - 1)
      let varying = bits == 64 ? UInt64.max : (1 << UInt64(bits)) - 1
      let mask = random.next() % 3 == 0 ? varying & 0x7FF_F800 : varying
      let values = (0..<distinct).map { _ in shared & ~mask | random.next() & mask }
      let keys = (0..<Int(random.next() % 3_000)).map { _ in
        values[Int(random.next() % UInt64(values.count))]
      }
      let expected = keys.indices.sorted { (keys[$0], $0) < (keys[$1], $1) }.map(Int32.init)
      #expect(RadixSort.stableOrder(of: keys, bits: bits) == expected, "\(bits) bits")
    }
  }
}
