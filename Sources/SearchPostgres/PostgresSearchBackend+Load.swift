#if PostgreSQL
  import Foundation
  import NIOCore
  import PostgresNIO
  import SearchEngine
  import Synchronization

  extension PostgresSearchBackend {
    /// What a load did.
    public struct LoadReport: Sendable {
      /// The items written.
      public var items: Int
      /// Time spent folding the items and copying them to the server.
      public var copying: Duration
      /// Time spent building the indexes.
      public var indexing: Duration
      /// The rare grams of one or two characters whose rows were listed (see the table
      /// layout).
      public var shortGrams: Int
    }

    /// Creates the data set's table on the server, or replaces it, with every item of `model`
    /// in its order: folded with the backend's normaliser, copied with `COPY … FROM STDIN`,
    /// then indexed.
    ///
    /// It is one transaction: clients see the old table until the new one is complete.
    ///
    /// - Parameters:
    ///   - model: The items, with the schema the backend was made with.
    ///   - progress: Called with the items written so far and the total.
    /// - Throws: ``PostgresSearchError``.
    @discardableResult
    public func load(
      _ model: SearchModel, progress: (@Sendable (_ written: Int, _ total: Int) -> Void)? = nil
    ) async throws(PostgresSearchError) -> LoadReport {
      let layout = self.layout
      do { _ = try ServerRowFolder(schema: layout.schema, normalizer: layout.normalizer) } catch {
        throw .backend(
          SearchBackendError(.rejected, error.description, advice: "correct the data set"))
      }
      // Fail before anything is sent: PostgreSQL text cannot hold a NUL.
      for (position, id) in model.ids.enumerated() {
        for field in layout.schema.fields.indices
        where model.values(of: id, field: field).contains(where: { $0.utf8.contains(0) }) {
          throw .unstorableText(item: position + 1, field: layout.schema.fields[field].name)
        }
      }
      let clock = ContinuousClock()
      let start = clock.now
      let copied: ContinuousClock.Instant
      var shortGrams = 0
      do {
        do {
          let (copiedAt, rare) = try await withConnection(timed: false) { connection in
            // A load takes as long as it takes: the time limit is for searches.
            try await Self.execute(
              ["BEGIN", "SET LOCAL statement_timeout = 0"] + layout.createStatements, on: connection
            )
            // Merged in the order chunks come, one at a time.
            let collector = Mutex(ShortGrams.Collector())
            try await connection.copyFrom(
              table: layout.name, columns: layout.columns, format: .text(.init()),
              logger: Self.copyLogger
            ) { writer in
              // Chunks are folded and encoded on every core and written as they come: COPY
              // takes rows in any order (each carries its place in model order).
              let ids = model.ids
              let chunk = 4096
              let chunks = (ids.count + chunk - 1) / chunk
              let width = max(ProcessInfo.processInfo.activeProcessorCount, 1) * 2
              var written = 0
              try await withThrowingTaskGroup(of: (ByteBuffer, Int, [ShortGrams.Key: [Int32]]).self)
              { group in
                var next = 0
                func start() {
                  let range = (next * chunk)..<min((next + 1) * chunk, ids.count)
                  next += 1
                  group.addTask {
                    let folder = try ServerRowFolder(
                      schema: layout.schema, normalizer: layout.normalizer)
                    var buffer = ByteBuffer()
                    var postings: [ShortGrams.Key: [Int32]] = [:]
                    for position in range {
                      let id = ids[position]
                      let record = model.record(of: id)
                      let row = try folder.row(record)
                      Self.writeCopyLine(
                        id: id, position: position, record: record, row: row, layout: layout,
                        into: &buffer)
                      for key in ShortGrams.keys(of: row.folded) {
                        postings[key, default: []].append(id.rawValue)
                      }
                    }
                    return (buffer, range.count, postings)
                  }
                }
                while next < min(width, chunks) { start() }
                while let (buffer, count, postings) = try await group.next() {
                  try await writer.write(buffer)
                  collector.withLock { $0.add(postings) }
                  written += count
                  progress?(written, ids.count)
                  if next < chunks { start() }
                }
              }
            }
            let copied = ContinuousClock().now
            try await Self.execute(layout.indexStatements, on: connection)
            // The rare short grams' rows, after the table's rows (one COPY at a time).
            let rare = collector.withLock { $0.rare }
            try await Self.execute(layout.shortGramStatements, on: connection)
            try await connection.copyFrom(
              table: layout.shortGramTable, columns: ["gram", "ids"], format: .text(.init()),
              logger: Self.copyLogger
            ) { writer in
              var buffer = ByteBuffer()
              for (gram, ids) in rare {
                Self.writeShortGramLine(gram: gram, ids: ids, into: &buffer)
                if buffer.readableBytes > 1 << 20 {
                  try await writer.write(buffer)
                  buffer.clear()
                }
              }
              try await writer.write(buffer)
            }
            try await Self.execute(layout.shortGramIndexStatements, on: connection)
            var sql = PostgresSQL()
            let name = sql.bind(layout.name)
            let fingerprint = sql.bind(layout.fingerprint)
            let items = sql.bind(model.count)
            try await connection.query(
              sql.query(
                """
                INSERT INTO \(PostgresTableLayout.registry) (name, fingerprint, items) VALUES (\(name), \(fingerprint), \(items)) \
                ON CONFLICT (name) DO UPDATE SET fingerprint = EXCLUDED.fingerprint, items = EXCLUDED.items, loaded_at = now()
                """), logger: Self.copyLogger)
            try await Self.execute(["COMMIT"], on: connection)
            try await self.noteWrite(on: connection)
            return (copied, rare.count)
          }
          copied = copiedAt
          shortGrams = rare
        }
      } catch let error as PostgresSearchError {
        throw error
      } catch {
        throw .backend(SearchBackendError.postgres(error, address: address, table: layout.name))
      }
      return LoadReport(
        items: model.count, copying: copied - start, indexing: clock.now - copied,
        shortGrams: shortGrams)
    }

    private static let copyLogger = Logger(label: "SearchPostgres.load")

    private static func execute(_ statements: [String], on connection: PostgresConnection)
      async throws
    {
      for statement in statements {
        try await connection.query(PostgresQuery(unsafeSQL: statement), logger: copyLogger)
      }
    }

    /// One row in COPY's text format: tab-separated, `\N` for NULL, backslash escapes.
    static func writeCopyLine(
      id: ItemID, position: Int, record: SearchModel.Record, row: ServerRow,
      layout: PostgresTableLayout,
      into buffer: inout ByteBuffer
    ) {
      var fields: [String?] = [
        String(id.rawValue), String(position), row.isIrregular ? "t" : "f",
        arrayLiteral(row.edgeScalars),
      ]
      for field in layout.searchedFields { fields.append(row.folded[field] ?? "") }
      for field in layout.schema.fields.indices {
        fields.append(arrayLiteral(field < record.fields.count ? record.fields[field] : []))
      }
      for attribute in layout.schema.attributes.indices {
        fields.append(attribute < record.attributes.count ? record.attributes[attribute] : "")
      }
      fields += row.numbers
      for (index, field) in fields.enumerated() {
        if index > 0 { buffer.writeInteger(UInt8(ascii: "\t")) }
        guard let field else {
          buffer.writeString("\\N")
          continue
        }
        writeCopyText(field, into: &buffer)
      }
      buffer.writeInteger(UInt8(ascii: "\n"))
    }

    /// A value in COPY's text format: backslash escapes for the backslash, tab, newline and
    /// carriage return.
    static func writeCopyText(_ text: String, into buffer: inout ByteBuffer) {
      for byte in text.utf8 {
        switch byte {
        case UInt8(ascii: "\\"): buffer.writeString("\\\\")
        case UInt8(ascii: "\t"): buffer.writeString("\\t")
        case UInt8(ascii: "\n"): buffer.writeString("\\n")
        case UInt8(ascii: "\r"): buffer.writeString("\\r")
        default: buffer.writeInteger(byte)
        }
      }
    }

    /// One row of the short-gram table in COPY's text format: the gram (escaped as every
    /// text) and its rows as an integer array.
    static func writeShortGramLine(gram: String, ids: [Int32], into buffer: inout ByteBuffer) {
      writeCopyText(gram, into: &buffer)
      buffer.writeString("\t{")
      buffer.writeString(ids.map(String.init).joined(separator: ","))
      buffer.writeString("}\n")
    }

    /// An array of text as PostgreSQL reads it: every element quoted, `"` and `\` escaped.
    static func arrayLiteral(_ values: [String]) -> String {
      var result = "{"
      for (index, value) in values.enumerated() {
        if index > 0 { result += "," }
        result += "\""
        for scalar in value.unicodeScalars {
          if scalar == "\"" || scalar == "\\" { result += "\\" }
          result.unicodeScalars.append(scalar)
        }
        result += "\""
      }
      return result + "}"
    }
  }
#endif
