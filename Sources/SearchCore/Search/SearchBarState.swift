import SearchEngine

extension SearchController {
  /// What a search bar shows and holds: its text, placeholder, scope bar and whether it has
  /// focus (UIKit's `UISearchBar` as the search controller sees it).
  public struct SearchBarState: Hashable, Sendable {
    /// The text in the field.
    public var text: String
    /// The grey hint shown while the field is empty, such as "Search 26,341 cities".
    public var placeholder: String
    /// The titles of the scope bar's buttons; empty when there is no scope bar.
    public var scopeTitles: [String]
    /// The selected scope button; 0 is "All", no filter.
    public var selectedScope: Int
    /// Whether a search is under way: the bar has focus and the controller is active.
    public var isActive: Bool
    /// The conditions of the tokens in the field (UIKit's `UISearchToken`s, SwiftUI's
    /// `tokens:`), which every result meets besides the text and the scope; empty for none.
    public var filter: AttributeFilter = .none

    /// Creates the state of a search bar.
    public init(
      text: String = "", placeholder: String = "", scopeTitles: [String] = [],
      selectedScope: Int = 0, isActive: Bool = false
    ) {
      self.text = text
      self.placeholder = placeholder
      self.scopeTitles = scopeTitles
      self.selectedScope = selectedScope
      self.isActive = isActive
    }
  }
}
