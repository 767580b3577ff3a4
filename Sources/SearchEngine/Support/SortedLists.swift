/// Set operations on ascending lists without duplicates, each one merge of the two.
enum SortedLists {
  /// The elements of both lists, ascending.
  static func intersection<Element: Comparable>(_ a: [Element], _ b: [Element]) -> [Element] {
    var result: [Element] = []
    result.reserveCapacity(min(a.count, b.count))
    var (i, j) = (0, 0)
    while i < a.count && j < b.count {
      if a[i] < b[j] {
        i += 1
      } else if b[j] < a[i] {
        j += 1
      } else {
        result.append(a[i])
        i += 1
        j += 1
      }
    }
    return result
  }

  /// The elements of either list, ascending.
  static func union<Element: Comparable>(_ a: [Element], _ b: [Element]) -> [Element] {
    if a.isEmpty { return b }
    if b.isEmpty { return a }
    var result: [Element] = []
    result.reserveCapacity(a.count + b.count)
    var (i, j) = (0, 0)
    while i < a.count || j < b.count {
      if j == b.count || (i < a.count && a[i] < b[j]) {
        result.append(a[i])
        i += 1
      } else {
        if i < a.count && a[i] == b[j] { i += 1 }
        result.append(b[j])
        j += 1
      }
    }
    return result
  }

  /// The elements of `a` that are not in `b`, ascending.
  static func difference<Element: Comparable>(_ a: [Element], _ b: [Element]) -> [Element] {
    var result: [Element] = []
    result.reserveCapacity(a.count)
    var j = 0
    for value in a {
      while j < b.count && b[j] < value { j += 1 }
      if j == b.count || b[j] != value { result.append(value) }
    }
    return result
  }
}
