#if canImport(FoundationEssentials)
  import FoundationEssentials
#elseif canImport(Foundation)
  import Foundation
#endif

#if canImport(FoundationEssentials) || canImport(Foundation)
  extension MarkedText {
    /// The text as an attributed string whose marked runs get `attributes` (bold, a
    /// background colour…), for SwiftUI's `Text` or a UIKit label.
    @available(macOS 12, iOS 15, tvOS 15, watchOS 8, *)
    public func attributedString(marking attributes: AttributeContainer) -> AttributedString {
      var result = AttributedString()
      for run in runs {
        var part = AttributedString(String(run.text))
        if run.isMarked { part.mergeAttributes(attributes) }
        result += part
      }
      return result
    }
  }
#endif
