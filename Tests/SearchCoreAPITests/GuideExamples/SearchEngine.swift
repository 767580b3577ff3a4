// The SearchEngine overview's swift block, verbatim (GuideExampleTests checks that every swift
// block of the guides is in this folder, and drives this one).
import SearchEngine

/// Folding a text and a pattern alike, and mapping the match back to the original text.
func overviewExample() throws -> (text: FoldedText, ranges: [Range<String.Index>]) {
  let normalizer = try Normalizer()
  let text = try normalizer.foldedText("Un café")
  let pattern = try FoldedPattern("CAFE", normalizer: normalizer)
  let ranges = pattern.originalRanges(in: text)  // one range: "café" in "Un café"
  return (text, ranges)
}
