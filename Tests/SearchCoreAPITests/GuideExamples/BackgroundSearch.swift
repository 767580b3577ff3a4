// The BackgroundSearch guide's swift block, verbatim (GuideExampleTests checks that every swift
// block of the guides is in this folder, and drives this one).
import SearchCore

/// A background search superseded by the next keystroke; the observer sets `statusLabel`.
@MainActor
func backgroundSearchExample(products: SearchCorpus, statusLabel: StatusLabel) throws
  -> (controller: SearchController, token: SearchController.ObservationToken)
{
  let controller = try SearchController(
    corpus: products, placeholder: "Search products",
    configuration: SearchConfiguration(mode: .background))
  let token = controller.observe { event in
    if case .reload(.deferred, _, let rows) = event {
      statusLabel.text = "\(rows) results"  // and reload the results table
    }
  }
  controller.begin()
  controller.setText("i")
  controller.setText("ip")  // supersedes the search of "i", whose results never show
  // When the search of "ip" ends: one deferred reload, generation 2, "15 results";
  // controller.discardedSearches is 1.
  return (controller, token)
}
