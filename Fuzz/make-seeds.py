#!/usr/bin/env python3
"""Writes Fuzz/Seeds/TARGET/, the committed seed inputs of each harness, from the
repository's own data: the queries of the corpora's regression cases, and lines of the
committed data sets. Each seed is a file named by the SHA-1 of its bytes (as libFuzzer names
its corpus). Run from anywhere; stdlib only."""
import glob
import hashlib
import os
import random

here = os.path.dirname(os.path.abspath(__file__))
root = os.path.dirname(here)


def write(target, seeds):
    folder = os.path.join(here, "Seeds", target)
    os.makedirs(folder, exist_ok=True)
    for old in os.listdir(folder):
        os.remove(os.path.join(folder, old))
    for seed in sorted(set(seeds)):
        name = hashlib.sha1(seed).hexdigest()
        with open(os.path.join(folder, name), "wb") as file:
            file.write(seed)
    print(f"{target}: {len(set(seeds))} seeds")


def case_queries():
    """The 'input' column of every Corpus/*/cases.tsv: queries, and typing sessions."""
    queries = []
    for path in sorted(glob.glob(os.path.join(root, "Corpus", "*", "cases.tsv"))):
        with open(path, encoding="utf-8") as file:
            for line in file:
                if line.startswith("#") or line.startswith("case\t") or not line.strip():
                    continue
                columns = line.rstrip("\n").split("\t")
                if len(columns) > 2 and columns[2]:
                    queries.append(columns[2])
    return queries


def data_lines(count_per_file):
    """Lines of the committed data sets, a fixed sample of each (seeded, so reruns agree)."""
    lines = []
    generator = random.Random(30)
    patterns = ["cities/cities.tsv", "unicode/unicode.tsv", "words/sample.txt",
                "products/products.tsv", "chat/chat.jsonl", "tweets/*.jsonl"]
    for pattern in patterns:
        for path in sorted(glob.glob(os.path.join(root, "Corpus", pattern))):
            with open(path, encoding="utf-8") as file:
                all_lines = file.read().split("\n")
            lines += generator.sample(all_lines, min(count_per_file, len(all_lines)))
    return lines


queries = case_queries()
write("query", [query.encode() for query in queries])
# The normaliser's input: an option byte (the default folding, 0b00111, and the latin and
# dotless-i variants), a locale byte (root, tr), then the text.
texts = queries + data_lines(60)
write("normalizer", [bytes([options, locale]) + text.encode()
                     for text in texts for (options, locale) in [(0x07, 0), (0x0F, 0), (0x07, 1)]
                     if len(text) < 400])


def chunks(lines, size, count):
    """`count` chunks of `size` consecutive lines, spread over `lines`."""
    step = max(1, len(lines) // max(count, 1))
    return ["\n".join(lines[start:start + size]) + "\n"
            for start in range(0, len(lines), step)][:count]


def read_lines(path):
    with open(os.path.join(root, "Corpus", path), encoding="utf-8") as file:
        return file.read().split("\n")[:-1]


# The loaders' input: a manifest byte (0: TSV with a header, name/alt/n/kind; 1: TSV without
# one, word and language by column; 2: JSON Lines), then the data file.
cities = read_lines("cities/cities.tsv")[1:]
rows = []
for line in cities:
    columns = line.split("\t")
    rows.append("\t".join([columns[1], columns[2], columns[5], columns[4]]))
loaders = [bytes([0]) + ("name\talt\tn\tkind\n" + chunk).encode() for chunk in chunks(rows, 20, 40)]
loaders += [bytes([1]) + chunk.encode() for chunk in chunks(read_lines("words/sample.tsv"), 30, 40)]
jsonl = read_lines("chat/chat.jsonl") + read_lines("tweets/tweets.jsonl")
loaders += [bytes([2]) + chunk.encode() for chunk in chunks(jsonl, 5, 40)]
write("loaders", loaders)

# The manifest reader's input: every committed manifest.
manifests = []
for path in sorted(glob.glob(os.path.join(root, "Corpus", "*", "*.manifest.json"))):
    with open(path, "rb") as file:
        manifests.append(file.read())
write("manifest", manifests)

# The key decoder's input: four split points, then what a terminal sends: typed text in
# several scripts, arrows and page keys (CSI and SS3), Alt and Ctrl keys, a bracketed paste,
# CR LF pairs, a lone Escape.
terminal = [
    b"sao paulo\r", "москва\x7f\x7fва\r".encode(), "東京\x1b[D\x1b[C\r".encode(),
    b"\x1b[A\x1b[B\x1b[5~\x1b[6~\x1bOA\x1bOH\x1bOF\x1b[H\x1b[F", b"\x1bb\x1bf\x1bd\x1b\x7f",
    b"\x01\x05\x0b\x15\x17\x0f\x03", b"\x1b[200~pasted\r\ntext\x1b[201~\r", b"a\r\nb\r\n",
    b"\x1b", b"\x1b[Z\t", b"\x1b[3~\x1b[1;5C\x1b[1;5D", "e\u0301 👍🏽\r".encode(),
]
write("keys", [bytes([cut, cut * 2 % 256, cut * 3 % 256, 255]) + text
               for text in terminal for cut in (1, 3, 7)])

# The REPL command parser's input: one line of each command, as the README and the tests
# write them.
commands = [
    "type sao paulo", "type \"  padded \"", "paste new york", "back 2", "back", "clear",
    "scope Europe", "scope 2", "search", "cancel", "begin", "end", "show", "show results 2",
    "show original", "next", "prev", "select 0.1", "select 3", "delete 1",
    "insert name=Zürich; country=CH", "insert name=a\\;b; alternate names=x|y",
    "update 0.1 name=Bern", "set minlen 3", "set mode background", "set coalesce 150",
    "set rank on", "set sections letter:name", "set fold -case,latin", "set locale tr",
    "wait", "stats", "help", "help insert", "quit", "# a comment", "   ", "fitler uber",
]
write("commands", [line.encode() for line in commands])

# The differential harness reads its input as a sequence of choices (folding, locale, syntax,
# the items' pieces, then the session's steps): random bytes, long enough for a corpus of ten
# items and a session of a few dozen steps, from a fixed generator so the seeds do not change.
choices = random.Random(14)
write("differential", [bytes(choices.randrange(256) for _ in range(choices.randrange(200, 600)))
                       for _ in range(40)])

# The reading harness takes a line limit, a size limit and the size of a read, then the
# bytes: chunks of the committed data sets under limits they fit, pass by a line, and pass in
# size; and the line ends a reader meets (CR LF, CR alone, NUL, no final "\n").
reading = [bytes([31, 0xFF, 16]) + b"a\r\nb\rc\x00\n\nd", bytes([0, 0, 1])]
for text in chunks(data_lines(40), 4, 10):
    text = text.encode()
    reading += [bytes([31, 0xFF, 7]) + text, bytes([12, 0xFF, 3]) + text,
                bytes([31, 100, 16]) + text]
write("reading", reading)

# The saved-index harness reads one change after a count byte (0: one change): a part (two
# bytes, taken modulo the saved file's parts), an element (two bytes), an operand (four
# bytes) and how to change it (a byte: 0 a value a structure takes, operand 3 being
# 0x7FFFFFFF; 2 a flipped bit). One seed of each per part, as the file has about 100.
savedindex = []
for part in range(128):
    for element, operand, kind in [(1, 3, 0), (0, 0, 2)]:
        savedindex.append(bytes([0, part >> 8, part & 0xFF, element >> 8, element & 0xFF])
                          + operand.to_bytes(4, "big") + bytes([kind]))
write("savedindex", savedindex)
