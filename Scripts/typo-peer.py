#!/usr/bin/env python3
"""The peer `SearchBenchmarks --suite typos` types the same keystrokes into: tantivy (PyPI
`tantivy`, Rust's Lucene-like engine) with fuzzy term queries, one per query word, under the same
typo budget as SearchCore's words syntax.

Run by the bench through Scripts/typo-peer-venv.sh's virtual environment; it speaks a line
protocol on standard input and output (tab-separated, UTF-8):

  D <tab> ID <tab> TEXT   a document: an item's number and its searched text, already folded by
                          SearchCore's normaliser (the peer is compared on matching, not folding)
  B <tab> ONE <tab> TWO   the budget: 1 typo from ONE characters, 2 from TWO (0 below ONE)
  C                       commit: build the index; answers `ready <milliseconds of CPU>`
  Q <tab> TEXT            a query, folded; answers one JSON object: `count` (all matches), `ids`
                          (the first 10, best first), `cpu_ms` (this process's CPU time for it)

Each query word must match a token of the document within its budget (Damerau: a transposition
is one edit); the last word, when the query does not end in white space, matches a prefix of a
token (tantivy's prefix fuzzy query). An exact token ranks first (a boosted term query beside
each fuzzy one). A word of 0 budget is an exact token, or a token's prefix for the last word.
"""
import json
import sys
import time

import tantivy


def main() -> int:
    builder = tantivy.SchemaBuilder()
    builder.add_integer_field("id", stored=True, fast=True)
    builder.add_text_field("text", stored=False)
    schema = builder.build()
    index = tantivy.Index(schema)
    writer = index.writer(heap_size=400_000_000, num_threads=1)
    one, two = 5, 9
    searcher = None
    out = sys.stdout
    for raw in sys.stdin:
        line = raw.rstrip("\n")
        kind, _, rest = line.partition("\t")
        if kind == "D":
            number, _, text = rest.partition("\t")
            writer.add_document(tantivy.Document(id=int(number), text=text))
        elif kind == "B":
            first, _, second = rest.partition("\t")
            one, two = int(first), int(second)
        elif kind == "C":
            start = time.process_time()
            writer.commit()
            writer.wait_merging_threads()
            index.reload()
            searcher = index.searcher()
            out.write("ready %.3f\n" % ((time.process_time() - start) * 1000))
            out.flush()
        elif kind == "Q":
            if searcher is None:
                print("a query before the commit", file=sys.stderr)
                return 2
            start = time.process_time()
            words = rest.split()
            prefix_last = bool(rest) and not rest[-1].isspace()
            clauses = []
            for position, word in enumerate(words):
                prefix = prefix_last and position == len(words) - 1
                length = len(word)
                budget = 2 if length >= two else 1 if length >= one else 0
                fuzzy = tantivy.Query.fuzzy_term_query(
                    schema, "text", word, distance=budget, transposition_cost_one=True,
                    prefix=prefix)
                exact = tantivy.Query.boost_query(
                    tantivy.Query.term_query(schema, "text", word), 10.0)
                either = tantivy.Query.boolean_query(
                    [(tantivy.Occur.Should, exact), (tantivy.Occur.Should, fuzzy)])
                clauses.append((tantivy.Occur.Must, either))
            if clauses:
                found = searcher.search(
                    tantivy.Query.boolean_query(clauses), limit=10, count=True)
                ids = [searcher.doc(address)["id"][0] for _, address in found.hits]
                count = found.count
            else:
                ids, count = [], 0
            cpu = (time.process_time() - start) * 1000
            out.write(json.dumps({"count": count, "ids": ids, "cpu_ms": cpu}) + "\n")
            out.flush()
        elif kind:
            print("unknown line kind %r" % kind, file=sys.stderr)
            return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
