// The ScopeBars guide's swift block, verbatim (GuideExampleTests checks that every swift block
// of the guides is in this folder, and drives this one).
import SearchCore

/// The products' scope bar, with and without text; the observer sets `statusLabel`.
@MainActor
func scopeBarsExample(products: SearchCorpus, statusLabel: StatusLabel) throws
  -> (controller: SearchController, titles: [String], token: SearchController.ObservationToken)
{
  let controller = try SearchController(corpus: products)
  let titles = controller.searchBar.scopeTitles  // ["All", "Device", "Desktop", "Portable"]
  let token = controller.observe { event in
    if case .stateDidChange(let state) = event { statusLabel.text = state.description }
  }
  controller.begin()  // "Dimmed": no text, scope "All"
  try controller.selectScope(1)  // "Device", with no text: "22 results"
  controller.setText("ipad")  // "4 results"
  try controller.selectScope(3)  // "Portable": "No Results"
  return (controller, titles, token)
}
