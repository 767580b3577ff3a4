// An app imports SearchCore alone: the engine's types its API takes and returns (Folding,
// Query, ItemID, SearchResult, Highlight, the backends…) come with it.
@_exported import SearchEngine
