#if PostgreSQL

  import SearchEngine
  /// A data set's table on a PostgreSQL server, as the schema and the normaliser lay it out.
  ///
  /// | column | holds |
  /// | --- | --- |
  /// | `id integer` | the item's identity in the model (`ItemID`) |
  /// | `ord numeric` | its place in model order (insertions take the midpoint of their neighbours) |
  /// | `irregular boolean`, `edges text[]` | what a substring test cannot settle (see `ServerRow`) |
  /// | `f0`, `f1`, … `text` | each searched field's values, folded, between separators (U+001F) |
  /// | `v0`, `v1`, … `text[]` | each field's original values, for display and highlights |
  /// | `a0`, `a1`, … `text` | the attributes (scopes filter on them) |
  /// | `n0`, `n1`, … `text` | the number attributes in canonical form (a number term matches them) |
  ///
  /// A `pg_trgm` GIN index on each folded column serves the `LIKE` and `~` tests. A second
  /// table, the sample (``sampleQuoted``), holds a copy of one row in ``sampleRate``, chosen by
  /// a hash of the identity and kept so by every change: counting a query's matches there
  /// estimates its count in all for the price of a small scan. A third, the short-gram table
  /// (``shortGramQuoted``), lists for each rare gram of one or two scalars the rows that
  /// hold it (``ShortGrams``). A row of
  /// `search_data_sets` records the layout's fingerprint, so that a client folding otherwise,
  /// or with another schema, is told to load the data set again instead of getting other
  /// answers.
  struct PostgresTableLayout: Sendable {
    let name: String
    let schema: SearchModel.Schema
    let normalizer: Normalizer

    init(name: String, schema: SearchModel.Schema, normalizer: Normalizer)
      throws(PostgresSearchError)
    {
      let scalars = Array(name.unicodeScalars)
      func isLetter(_ scalar: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || scalar == "_"
      }
      guard let first = scalars.first, scalars.count <= 63, isLetter(first),
        scalars.allSatisfy({ isLetter($0) || ("0"..."9").contains($0) })
      else { throw .badTableName(name) }
      // Loading it would replace the registry of every data set.
      guard name.lowercased() != Self.registry else { throw .reservedTableName(name) }
      self.name = name
      self.schema = schema
      self.normalizer = normalizer
    }

    /// The name quoted for SQL (it holds only letters, digits and underscores).
    var quoted: String { "\"\(name)\"" }

    var searchedFields: [Int] { schema.fields.indices.filter { schema.fields[$0].isSearched } }

    /// The columns in the order COPY writes them.
    var columns: [String] {
      ["id", "ord", "irregular", "edges"] + searchedFields.map { "f\($0)" }
        + schema.fields.indices.map { "v\($0)" } + schema.attributes.indices.map { "a\($0)" }
        + schema.numberAttributes.indices.map { "n\($0)" }
    }

    /// What the table's layout and folding depend on: equal fingerprints give equal answers.
    var fingerprint: String {
      var parts: [String] = [
        "layout 3 (sample 1/\(Self.sampleRate), short grams of at most \(ShortGrams.rareLimit) rows)"
      ]
      parts.append(
        "fields "
          + schema.fields.map { "\($0.name)\($0.isSearched ? "" : " (not searched)")" }.joined(
            separator: ", "))
      parts.append("attributes " + schema.attributes.joined(separator: ", "))
      parts.append("numbers " + schema.numberAttributes.joined(separator: ", "))
      parts.append(
        "folding \(normalizer.folding)\(normalizer.isTurkic ? ", Turkic i" : ""), \(normalizer.rulesIdentity)"
      )
      return parts.joined(separator: "; ")
    }

    static let registry = "search_data_sets"

    var createStatements: [String] {
      let folded = searchedFields.map { "f\($0) text NOT NULL" }
      let values = schema.fields.indices.map { "v\($0) text[] NOT NULL" }
      let attributes = schema.attributes.indices.map { "a\($0) text NOT NULL" }
      let numbers = schema.numberAttributes.indices.map { "n\($0) text" }
      let columns =
        [
          "id integer CONSTRAINT \(indexName("id")) PRIMARY KEY", "ord numeric NOT NULL",
          "irregular boolean NOT NULL",
          "edges text[] NOT NULL",
        ]
        + folded + values + attributes + numbers
      return [
        "CREATE EXTENSION IF NOT EXISTS pg_trgm",
        """
        CREATE TABLE IF NOT EXISTS \(Self.registry) (name text PRIMARY KEY, fingerprint text NOT NULL, \
        items bigint NOT NULL, loaded_at timestamptz NOT NULL DEFAULT now())
        """,
        "DROP TABLE IF EXISTS \(quoted)",
        "DROP TABLE IF EXISTS \(sampleQuoted)",
        "DROP TABLE IF EXISTS \(shortGramQuoted)",
        "CREATE TABLE \(quoted) (\(columns.joined(separator: ", ")))",
      ]
    }

    /// One row in this many is in the sample: enough rows for an estimate within a few
    /// percent for a query that matches thousands (the counts a first page does not give).
    static let sampleRate = 32

    /// The short-gram table's name, unquoted (for COPY), and quoted.
    var shortGramTable: String { String(indexName("short").dropFirst().dropLast()) }
    var shortGramQuoted: String { indexName("short") }

    /// Makes the short-gram table (``ShortGrams``), empty.
    var shortGramStatements: [String] {
      [
        "CREATE TABLE \(shortGramQuoted) (gram text CONSTRAINT \(indexName("short_gram")) PRIMARY KEY, ids integer[] NOT NULL)"
      ]
    }

    /// Once the short-gram table's rows are in (changes find a row's lists by the grams of
    /// its old and new text, through the primary key).
    var shortGramIndexStatements: [String] { ["ANALYZE \(shortGramQuoted)"] }

    /// The sample table's quoted name.
    var sampleQuoted: String { indexName("sample") }

    /// Whether the row of identity `id` (an SQL expression) belongs to the sample.
    static func isSampled(_ id: String) -> String { "(hashint4(\(id)) & \(sampleRate - 1)) = 0" }

    /// The quoted name of one of the table's indexes (or its primary key), `suffix` saying
    /// which: the table name's first 32 characters, a hash of the whole name, and the suffix,
    /// joined by `~`.
    ///
    /// Indexes share a namespace with tables, and PostgreSQL cuts names at 63 bytes. Names
    /// made as `NAME_f0` clash for table names that differ only in case or beyond 63 bytes,
    /// and with a table later loaded under such a name (`ws_f0` beside `ws`, `ab_pkey` beside
    /// `ab`); a table name never holds `~`, and the hash tells apart names that share their
    /// first 32 characters (32 + 1 + 16 + 1 + the longest suffix, 9, stay under 63).
    func indexName(_ suffix: String) -> String {
      var hash: UInt64 = 0xcbf2_9ce4_8422_2325  // FNV-1a
      for byte in name.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
      let hex = String(hash, radix: 16)
      return
        "\"\(name.prefix(32))~\(String(repeating: "0", count: 16 - hex.count) + hex)~\(suffix)\""
    }

    /// Built after the rows are in: one pass each instead of an update per row.
    var indexStatements: [String] {
      var statements = searchedFields.map {
        "CREATE INDEX \(indexName("f\($0)")) ON \(quoted) USING gin (f\($0) gin_trgm_ops)"
      }
      statements.append("CREATE UNIQUE INDEX \(indexName("ord")) ON \(quoted) (ord)")
      statements.append("CREATE INDEX \(indexName("edges")) ON \(quoted) USING gin (edges)")
      statements.append(
        "CREATE INDEX \(indexName("irregular")) ON \(quoted) (id) WHERE irregular")
      for attribute in scopeAttributes {
        statements.append(
          "CREATE INDEX \(indexName("a\(attribute)")) ON \(quoted) (a\(attribute))")
      }
      statements.append("ANALYZE \(quoted)")
      statements.append(
        "CREATE TABLE \(sampleQuoted) AS SELECT * FROM \(quoted) WHERE \(Self.isSampled("id"))")
      statements.append("CREATE UNIQUE INDEX \(indexName("sample_id")) ON \(sampleQuoted) (id)")
      statements.append("ANALYZE \(sampleQuoted)")
      return statements
    }

    /// The attributes a scope filters on.
    var scopeAttributes: [Int] {
      Array(
        Set(
          schema.scopeBar.scopes.compactMap { $0.attribute.flatMap(schema.attributeIndex(named:)) })
      ).sorted()
    }
  }
#endif
