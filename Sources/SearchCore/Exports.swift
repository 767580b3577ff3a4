// An app imports SearchCore alone: the engine's types its API takes and returns come with it,
// by name. The engine's other types (the folder and its texts, terms, the in-memory backend,
// the errors of files and input, the decimal reader) stay in SearchEngine, for `import
// SearchEngine`. `PublicSurfaceTests` counts what an app sees. The list (sorted by name, as the
// formatter keeps imports): items and their model; folding, queries and what they find; scopes
// and tokens; a server behind the list; the errors these throw.

@_exported import typealias SearchEngine.AttributeCondition
@_exported import struct SearchEngine.AttributeFilter
@_exported import typealias SearchEngine.AttributeFilterError
@_exported import typealias SearchEngine.Completion
@_exported import typealias SearchEngine.CorpusError
@_exported import struct SearchEngine.Folding
@_exported import typealias SearchEngine.Highlight
@_exported import struct SearchEngine.ICUError
@_exported import struct SearchEngine.ItemID
@_exported import typealias SearchEngine.ItemRecord
@_exported import struct SearchEngine.MarkedText
@_exported import typealias SearchEngine.Model
@_exported import typealias SearchEngine.ModelChange
@_exported import typealias SearchEngine.ModelError
@_exported import struct SearchEngine.Normalizer
@_exported import typealias SearchEngine.QuerySyntax
@_exported import struct SearchEngine.RowAdapterError
@_exported import typealias SearchEngine.Scope
@_exported import struct SearchEngine.ScopeBar
@_exported import protocol SearchEngine.SearchBackend
@_exported import struct SearchEngine.SearchBackendError
@_exported import struct SearchEngine.SearchCorpus
@_exported import struct SearchEngine.SearchModel
@_exported import struct SearchEngine.SearchQuery
@_exported import struct SearchEngine.SearchResult
@_exported import struct SearchEngine.TypoTolerance
@_exported import typealias SearchEngine.TypoToleranceError
