#!/usr/bin/env python3
"""Writes Corpus/words/bench-queries.txt: the fixed list of queries `SearchBenchmarks` types.

Every query is taken from W1's words (Corpus/words/W1.txt, built by build.sh), with a fixed
seed so that the list is the same on every machine: prefixes, infixes, two pieces of one word,
anchored prefixes and suffixes, and a few exclusions. Queries are lower case, as people type.
"""
import random
import sys
from pathlib import Path

here = Path(__file__).resolve().parent
words = [w for w in (here / "W1.txt").read_text(encoding="utf-8").split("\n") if w]
rng = random.Random(20261121)


def word(min_length):
    while True:
        w = rng.choice(words).lower()
        if len(w) >= min_length and " " not in w and not any(c in w for c in "^$!|'\\"):
            return w


queries = []
for _ in range(80):  # prefixes
    w = word(6)
    queries.append(w[: rng.randint(3, 7)])
for _ in range(60):  # infixes
    w = word(7)
    start = rng.randint(1, len(w) - 4)
    queries.append(w[start : start + rng.randint(3, 5)])
for _ in range(30):  # two pieces of one word
    w = word(9)
    cut = rng.randint(3, len(w) - 3)
    queries.append(w[: min(cut, 5)] + " " + w[cut : cut + 4])
for _ in range(10):  # anchored prefixes
    queries.append("^" + word(6)[: rng.randint(2, 5)])
for _ in range(10):  # anchored suffixes
    queries.append(word(6)[-rng.randint(3, 5) :] + "$")
for _ in range(10):  # exclusions
    w = word(8)
    other = word(5)
    queries.append(w[1:5] + " !" + other[:2])

out = here / "bench-queries.txt"
out.write_text("\n".join(queries) + "\n", encoding="utf-8")
print(f"wrote {out}: {len(queries)} queries", file=sys.stderr)
