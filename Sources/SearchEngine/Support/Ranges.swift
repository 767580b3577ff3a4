extension [Range<Int>] {
  /// The ranges sorted, with overlapping or touching ones joined and empty ones left out.
  func merged() -> [Range<Int>] {
    var result: [Range<Int>] = []
    for range in sorted(by: { $0.lowerBound < $1.lowerBound }) where !range.isEmpty {
      if let last = result.last, range.lowerBound <= last.upperBound {
        result[result.count - 1] = last.lowerBound..<Swift.max(last.upperBound, range.upperBound)
      } else {
        result.append(range)
      }
    }
    return result
  }
}
