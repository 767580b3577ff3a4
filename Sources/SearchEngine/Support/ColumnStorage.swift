/// The storage of one of the big flat arrays of the model and the index (a column's text, its
/// value starts, the model's order): a Swift array, or a read-only view of part of a mapped
/// saved index file (``SavedMapping``).
///
/// Reading is the same either way. The first change to a view copies it into an array
/// (copy on write): a mapping is never written to.
struct ColumnStorage<Element: BitwiseCopyable & Sendable>: @unchecked Sendable {
  // Sendable: an array of Sendable elements, or a view of pages that are never written,
  // kept mapped by the reference to their mapping.

  /// The elements while they are an array; empty while ``view`` is set.
  private var array: [Element]
  /// The elements while they are a view of a mapping.
  private var view: View?

  private struct View {
    let mapping: SavedMapping
    let elements: UnsafeBufferPointer<Element>
  }

  /// No element.
  init() { array = [] }

  /// The elements of `array`.
  init(_ array: [Element]) { self.array = array }

  /// A view of `count` elements at byte `offset` of `mapping`, which the caller has checked to
  /// lie in the file and to be aligned for `Element`.
  init(mapping: SavedMapping, offset: Int, count: Int) {
    array = []
    let start = UnsafeMutableRawPointer(mutating: mapping.base + offset)
      .bindMemory(to: Element.self, capacity: count)
    view = View(mapping: mapping, elements: UnsafeBufferPointer(start: start, count: count))
  }

  /// Whether the elements are a view of a mapped file (until their first change).
  var isMapped: Bool { view != nil }

  /// Runs `body` with the elements' memory.
  @inline(__always)
  func withUnsafeBufferPointer<R>(_ body: (UnsafeBufferPointer<Element>) throws -> R) rethrows
    -> R
  {
    if let view { return try body(view.elements) }
    return try array.withUnsafeBufferPointer(body)
  }

  /// Runs `body` with the elements' bytes.
  func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) -> R) -> R {
    withUnsafeBufferPointer { body(UnsafeRawBufferPointer($0)) }
  }

  /// The elements as an array (a copy when they are mapped).
  var elements: [Element] { view.map { Array($0.elements) } ?? array }

  /// Where the elements start in their mapped file, while they are a view of one.
  var mappedOffset: Int? {
    guard let view, let base = view.elements.baseAddress else { return nil }
    return UnsafeRawPointer(base) - view.mapping.base
  }

  /// Runs `body` on the elements as an array, copying a view into one first.
  @inline(__always)
  mutating func modify<R>(_ body: (inout [Element]) -> R) -> R {
    if let view {
      array = Array(view.elements)
      self.view = nil
    }
    return body(&array)
  }

  /// Appends an element.
  @inline(__always)
  mutating func append(_ element: Element) { modify { $0.append(element) } }

  /// Appends elements.
  mutating func append<S: Sequence<Element>>(contentsOf elements: S) {
    modify { $0.append(contentsOf: elements) }
  }

  /// Reserves room for `capacity` elements.
  mutating func reserveCapacity(_ capacity: Int) { modify { $0.reserveCapacity(capacity) } }
}

extension ColumnStorage: RandomAccessCollection, MutableCollection {
  var startIndex: Int { 0 }
  var endIndex: Int { view?.elements.count ?? array.count }

  @inline(__always)
  subscript(position: Int) -> Element {
    get {
      if let view {
        // A view's buffer checks its bounds in debug builds only: an array traps always.
        precondition(position >= 0 && position < view.elements.count, "index out of range")
        return view.elements[position]
      }
      return array[position]
    }
    set { modify { $0[position] = newValue } }
  }

  func withContiguousStorageIfAvailable<R>(
    _ body: (UnsafeBufferPointer<Element>) throws -> R
  ) rethrows -> R? {
    if let view { return try body(view.elements) }
    return try array.withUnsafeBufferPointer(body)
  }
}

extension ColumnStorage: ExpressibleByArrayLiteral {
  init(arrayLiteral elements: Element...) { self.init(elements) }
}

extension ColumnStorage: Equatable where Element: Equatable {
  static func == (lhs: Self, rhs: Self) -> Bool { lhs.elementsEqual(rhs) }
}
