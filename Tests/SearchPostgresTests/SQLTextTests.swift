#if PostgreSQL
  import NIOCore
  import Testing

  @testable import SearchCore

  import SearchEngine
  @testable import SearchPostgres

  /// What reaches the server as text: LIKE and regular-expression patterns that match their
  /// text literally, arrays and COPY lines that PostgreSQL reads back as the values written.
  @Suite struct SQLTextTests {
    /// A folded column's short grams: every run of one and two scalars that holds no
    /// separator, each once, however the text is split into values; and back to text.
    @Test func shortGramsAreTheRunsOfOneAndTwoScalars() {
      let separator = String(Character(ServerText.separator))
      let column = separator + "東京" + separator + "aba" + separator + "e\u{301}" + separator
      let grams = Set(ShortGrams.keys(of: [column, nil]).map(ShortGrams.text(of:)))
      #expect(grams == ["東", "京", "東京", "a", "b", "ab", "ba", "e", "\u{301}", "e\u{301}"])
      // No gram spans two values or holds the separator.
      #expect(!grams.contains { $0.unicodeScalars.contains(ServerText.separator) })
      #expect(ShortGrams.gram(ofCore: separator + "ö") == "ö")
      #expect(ShortGrams.gram(ofCore: separator + "ab" + separator) == "ab")
      #expect(ShortGrams.gram(ofCore: "abc") == nil)
      #expect(ShortGrams.gram(ofCore: "") == nil)
    }

    /// Postings of grams that pass the limit are dropped for good, across chunks.
    @Test func commonGramsAreNotListed() {
      var collector = ShortGrams.Collector()
      let rare = ShortGrams.keys(of: ["x"]).first ?? 0
      let common = ShortGrams.keys(of: ["y"]).first ?? 0
      collector.add([rare: [3, 1], common: Array(0..<Int32(ShortGrams.rareLimit))])
      collector.add([rare: [2], common: [9_999]])
      collector.add([common: [10_000]])
      #expect(collector.rare.map(\.gram) == ["x"])
      #expect(collector.rare.first?.ids == [1, 2, 3])
    }

    @Test func likePatternsEscapeTheirWildcards() {
      #expect(PostgresSQL.escapeLike("100%") == "100\\%")
      #expect(PostgresSQL.escapeLike("a_b") == "a\\_b")
      #expect(PostgresSQL.escapeLike("c:\\dir") == "c:\\\\dir")
      #expect(PostgresSQL.escapeLike("zürich") == "zürich")
    }

    @Test func regularExpressionsEscapeEveryOperator() {
      #expect(PostgresSQL.escapeRegex("a.b*c") == "a\\.b\\*c")
      #expect(PostgresSQL.escapeRegex("(x|y)") == "\\(x\\|y\\)")
      #expect(PostgresSQL.escapeRegex("ab9") == "ab9")
      #expect(PostgresSQL.escapeRegex("é ") == "é\\ ")
    }

    @Test func conditionsBindEveryText() {
      var sql = PostgresSQL()
      let text = sql.render(
        .all([
          .contains(field: 0, text: "'; DROP TABLE t; --"), .not(.number(1, equals: "42")),
          .attribute(2, in: ["Europe"]),
        ]))
      #expect(text == "(f0 LIKE $1 AND NOT ((n1 = $2) IS TRUE) AND a2 = ANY($3))")
      #expect(!text.contains("DROP"))
    }

    @Test func arraysQuoteEveryElement() {
      #expect(PostgresSearchBackend.arrayLiteral([]) == "{}")
      #expect(PostgresSearchBackend.arrayLiteral(["a", "b c"]) == "{\"a\",\"b c\"}")
      #expect(
        PostgresSearchBackend.arrayLiteral(["say \"hi\"", "a\\b", "{x,y}"])
          == "{\"say \\\"hi\\\"\",\"a\\\\b\",\"{x,y}\"}")
    }

    @Test func copyLinesEscapeTabsNewlinesAndBackslashes() throws {
      let schema = SearchModel.Schema(
        fields: [SearchModel.Schema.Field(name: "name")], attributes: ["kind"], scopeBar: ScopeBar()
      )
      let normalizer = try Normalizer()
      let layout = try PostgresTableLayout(name: "t", schema: schema, normalizer: normalizer)
      let record = SearchModel.Record(fields: [["a\tb\\c\nd"]], attributes: ["x"])
      let row = try ServerRowFolder(schema: schema, normalizer: normalizer).row(record)
      var buffer = ByteBuffer()
      PostgresSearchBackend.writeCopyLine(
        id: ItemID(rawValue: 7), position: 3, record: record, row: row, layout: layout,
        into: &buffer)
      let line = buffer.readString(length: buffer.readableBytes) ?? ""
      let columns = line.dropLast().split(separator: "\t", omittingEmptySubsequences: false)
      #expect(line.hasSuffix("\n"))
      #expect(columns.count == layout.columns.count)
      #expect(columns[0] == "7")
      #expect(columns[1] == "3")
      #expect(columns[2] == "f")
      #expect(columns[3] == "{}")
      #expect(columns[4] == "\u{1F}a\\tb\\\\c\\nd\u{1F}")
      #expect(columns[5] == "{\"a\\tb\\\\\\\\c\\nd\"}")
      #expect(columns[6] == "x")
    }

    @Test func tableNamesAreCheckedAndDerived() throws {
      let schema = SearchModel.Schema(
        fields: [SearchModel.Schema.Field(name: "name")], attributes: [], scopeBar: ScopeBar())
      for bad in ["", "1abc", "a-b", "a b", "x\"; DROP", String(repeating: "a", count: 64)] {
        #expect(throws: PostgresSearchError.badTableName(bad)) {
          try PostgresTableLayout(name: bad, schema: schema, normalizer: try Normalizer())
        }
      }
      // The registry's own name would replace the list of loaded data sets.
      for reserved in ["search_data_sets", "Search_Data_Sets"] {
        #expect(throws: PostgresSearchError.reservedTableName(reserved)) {
          try PostgresTableLayout(name: reserved, schema: schema, normalizer: try Normalizer())
        }
      }
      #expect(
        try PostgresTableLayout(name: "words_sample", schema: schema, normalizer: try Normalizer())
          .quoted == "\"words_sample\"")
    }

    /// A table records the folding rules and the ICU version its text was folded by: a table
    /// loaded before the rules changed (folded otherwise) is refused, not searched as if equal.
    @Test func theFingerprintNamesTheFoldingRules() throws {
      let schema = SearchModel.Schema(
        fields: [SearchModel.Schema.Field(name: "name")], attributes: [], scopeBar: ScopeBar())
      let root = try PostgresTableLayout(name: "t", schema: schema, normalizer: try Normalizer())
      let turkish = try PostgresTableLayout(
        name: "t", schema: schema, normalizer: try Normalizer(locale: "tr"))
      #expect(root.fingerprint.contains("rules \(Normalizer.rulesVersion), ICU \(ICU.version)"))
      #expect(ICU.version.first?.isNumber == true)
      #expect(root.fingerprint != turkish.fingerprint)
    }

    @Test func addressesReadLikePsql() throws {
      let full = try PostgresAddress(
        url: "postgres://ann:secret@db.example:6543/shop?sslmode=require")
      #expect(full.user == "ann")
      #expect(full.password == "secret")
      #expect(full.host == "db.example")
      #expect(full.port == 6543)
      #expect(full.database == "shop")
      #expect(full.tls == .require)
      #expect(!full.description.contains("secret"))
      let socket = try PostgresAddress(url: "postgresql://ann@/shop?host=/run/postgresql")
      #expect(socket.socketFolder == "/run/postgresql")
      #expect(socket.host == nil)
      #expect(throws: PostgresSearchError.self) {
        try PostgresAddress(url: "postgres://x/y?sslmode=maybe")
      }
      #expect(throws: PostgresSearchError.self) {
        try PostgresAddress(url: "postgres://x/y?color=red")
      }
      let encoded = try PostgresAddress(url: "postgres://ann:S3%2Fc%3Fr%23e%25t@[::1]:6543/shop")
      #expect(encoded.password == "S3/c?r#e%t")
      #expect(encoded.host == "::1" && encoded.port == 6543 && encoded.database == "shop")
      #expect(encoded.description == "postgres://ann@[::1]:6543/shop")
      let at = try PostgresAddress(url: "postgres://ann:p@ss@db.example")
      #expect(at.password == "p@ss" && at.host == "db.example" && at.port == 5432)
    }

    /// A malformed address is an error that says what is wrong and where (no connection is
    /// tried), and quotes it with its password hidden, whatever the form.
    @Test func malformedAddressesSayWhatIsWrongAndHideThePassword() {
      let cases: [(url: String, shown: String, reason: String)] = [
        (
          "postgres:search:S3cretPW@127.0.0.1", "postgres:search:***@127.0.0.1",
          "\"//\" must follow \"postgres:\""
        ),
        (
          "postgresql:/search:S3cretPW@x", "postgresql:/search:***@x",
          "\"//\" must follow \"postgresql:\""
        ),
        (
          "postgres://search:S3cretPW@127.0.0.1:notaport/db",
          "postgres://search:***@127.0.0.1:notaport/db",
          "the port after \"127.0.0.1:\" is not a number: give one from 1 to 65535"
        ),
        (
          "postgres://search:S3cretPW@host:99999/db", "postgres://search:***@host:99999/db",
          "the port after \"host:\" is 99999, out of range"
        ),
        (
          "postgres://search:S3cret/PW@host/db", "postgres://search:***@host/db",
          "the password holds \"/\", which a URL reserves: write / as %2F"
        ),
        (
          "postgres://search:S3cret?PW@host/db", "postgres://search:***@host/db",
          "the password holds \"?\", which a URL reserves: write ? as %3F"
        ),
        (
          "postgres://search:S3c#ret/PW@host/db", "postgres://search:***@host/db",
          "the password holds \"#\" and \"/\", which a URL reserves: write # as %23, / as %2F"
        ),
        (
          "postgres://search:S3cret%zzPW@host/db", "postgres://search:***@host/db",
          "the password has a % without two hex digits after it: write % itself as %25"
        ),
        // No host: what follows "search:" is no port, and may be a password.
        (
          "postgres://search:S3cretPW/db", "postgres://search:***/db",
          "the port after \"search:\" is not a number"
        ),
        ("search:S3cretPW@host/db", "search:***@host/db", "it must start with postgres://"),
        ("mysql://search:S3cretPW@host/db", "mysql://search:***@host/db", "it must start with"),
      ]
      for (url, shown, reason) in cases {
        do {
          let address = try PostgresAddress(url: url)
          Issue.record("\(url) reads as \(address)")
        } catch {
          let text = error.description
          #expect(text.contains("cannot read the address \"\(shown)\": \(reason)"), "\(text)")
          #expect(!text.contains("S3c"), "\(text)")
        }
      }
    }
  }
#endif
