#!/usr/bin/env python3
"""An independent reference of the ranking rules, for the `rank` cases of Corpus/*/cases.tsv.

    python3 Corpus/rank-reference.py MANIFEST SCOPE QUERY [COUNT]

Prints the number of matches and the first COUNT (default 10) in ranked order, by their
display text. It shares no code with the engine: folding is Python's (casefold, NFKD,
combining marks and default-ignorables removed), words are runs of letters and digits
(Unicode categories L and N), lengths are bytes of folded UTF-8, and the rules are those of
Sources/SearchEngine/SearchEngine.docc/Articles/RankingRules.md, read from the manifest's
"ranking" (the default rules with its attributes after exactness, or the order it lists).

Only what the cases use: plain terms of the extended syntax (each must occur in some searched
value), no typos. A term that is a number equal to a number attribute ("matchNumbers")
matches as a whole value of the first field.
"""
import csv
import json
import os
import re
import sys
import unicodedata

DEFAULT = ["words", "typos", "field", "exactness", "position", "length"]


def fold(text):
    text = unicodedata.normalize("NFKD", text.casefold())
    return "".join(
        c for c in text
        if unicodedata.category(c) not in ("Mn", "Me") and c not in "\u00ad\u200b\u200c\u200d\u2060\ufeff"
    ).casefold()


def is_word(c):
    return unicodedata.category(c)[0] in "LN"


def canonical_number(text):
    """A decimal in canonical form ("+007" -> "7", "499.00" -> "499"), or None."""
    match = re.fullmatch(r"([+-]?)(\d+)(?:\.(\d+))?", text.strip())
    if not match:
        return None
    whole = match.group(2).lstrip("0") or "0"
    fraction = (match.group(3) or "").rstrip("0")
    number = whole + ("." + fraction if fraction else "")
    return ("-" if match.group(1) == "-" and number != "0" else "") + number


def load(manifest_path):
    manifest = json.load(open(manifest_path, encoding="utf-8"))
    data = os.path.join(os.path.dirname(manifest_path), manifest["data"])
    rows = list(csv.reader(open(data, encoding="utf-8", newline=""), delimiter="\t", quoting=csv.QUOTE_NONE))
    header = rows.pop(0) if manifest.get("header") else None

    def cell(row, source):
        if isinstance(source, int):
            return row[source - 1] if source - 1 < len(row) else ""
        return row[header.index(source)]

    items = []
    for row in rows:
        fields = []
        for field in manifest["fields"]:
            text = cell(row, field.get("source", field["name"]))
            separator = field.get("separator")
            values = [v for v in text.split(separator)] if separator else [text]
            fields.append([v for v in values if v != ""] if separator else values)
        attributes = {a["name"]: cell(row, a.get("source", a["name"])) for a in manifest.get("attributes", [])}
        items.append((fields, attributes))
    return manifest, items


def rules_of(manifest):
    listed = manifest.get("ranking", [])
    if any(isinstance(r, str) for r in listed):
        return listed
    rules = list(DEFAULT)
    place = rules.index("exactness") + 1
    return rules[:place] + listed + rules[place:]


def display(manifest, item):
    fields, attributes = item
    text = manifest.get("display") or "{" + manifest["fields"][0]["name"] + "}"
    for index, field in enumerate(manifest["fields"]):
        text = text.replace("{" + field["name"] + "}", fields[index][0] if fields[index] else "")
    for name, value in attributes.items():
        text = text.replace("{" + name + "}", value)
    return text


def best_match(term, value, is_open):
    """(exactness, position) of the term's best occurrence in a folded value, or None."""
    best = None
    start = value.find(term)
    while start >= 0:
        end = start + len(term)
        starts = start == 0 or not is_word(value[start - 1])
        ends = end == len(value) or not is_word(value[end])
        if start == 0 and end == len(value):
            exactness = 0
        elif not starts:
            exactness = 3
        elif ends and not is_open:
            exactness = 1
        else:
            exactness = 2
        position = 0 if start == 0 else 1
        best = (exactness, position) if best is None else (min(best[0], exactness), best[1])
        start = value.find(term, start + 1)
    return best


def ranked(manifest_path, scope_title, query):
    manifest, items = load(manifest_path)
    names = [f["name"] for f in manifest["fields"]]
    searched = [i for i, f in enumerate(manifest["fields"]) if f.get("searched", True)]
    scopes = manifest.get("scopes", [])
    scope = next((s for s in scopes if s["title"].lower() == scope_title.lower()), None)
    if scope is None and scope_title.isdigit():
        scope = scopes[int(scope_title)] if int(scope_title) < len(scopes) else None
    if scope and scope.get("fields"):
        searched = [names.index(n) for n in scope["fields"]]
    number_attributes = [a["name"] for a in manifest.get("attributes", []) if a.get("matchNumbers")]
    rules = rules_of(manifest)
    # Measures of one match in the rules' order: field, exactness, position, length.
    measures = [r for r in rules if r in ("field", "exactness", "position", "length")]
    measures += [m for m in ("field", "exactness", "position", "length") if m not in measures]
    terms = [fold(t) for t in query.split(" ") if t != ""]
    results = []
    for index, item in enumerate(items):
        fields, attributes = item
        if scope and scope.get("attribute") and attributes[scope["attribute"]] not in scope["values"]:
            continue
        key = {"words": 0, "typos": 0, "field": 0, "exactness": 0, "position": 0, "length": 10**9}
        matched_all = True
        for number, term in enumerate(terms):
            is_open = number == len(terms) - 1 and not query.endswith(" ")
            best = None
            for field in searched:
                for value in fields[field]:
                    folded = fold(value)
                    found = best_match(term, folded, is_open)
                    if found is None:
                        continue
                    match = {"field": field, "exactness": found[0], "position": found[1],
                             "length": len(folded.encode("utf-8"))}
                    ordered = tuple(match[m] for m in measures)
                    if best is None or ordered < best[0]:
                        best = (ordered, match)
            number_text = canonical_number(term)
            if number_text is not None and any(
                    canonical_number(attributes[a]) == number_text for a in number_attributes):
                match = {"field": 0, "exactness": 0, "position": 0, "length": 10**9}
                ordered = tuple(match[m] for m in measures)
                if best is None or ordered < best[0]:
                    best = (ordered, match)
            if best is None:
                matched_all = False
                break
            match = best[1]
            key["words"] -= 1
            for measure in ("field", "exactness", "position"):
                key[measure] += match[measure]
            key["length"] = min(key["length"], match["length"])
        if not matched_all:
            continue
        sort_key = []
        for rule in rules:
            if isinstance(rule, dict):
                text = attributes.get(rule["attribute"], "")
                number = canonical_number(text)
                value = float(number) if number is not None else None
                if value is None:
                    sort_key.append((1, 0.0))
                else:
                    sort_key.append((0, value if rule["order"] == "ascending" else -value))
            else:
                sort_key.append(key[rule])
        sort_key.append(index)
        results.append((sort_key, display(manifest, item)))
    results.sort(key=lambda r: r[0])
    return [text for _, text in results]


if __name__ == "__main__":
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    path, scope_title, query = sys.argv[1], sys.argv[2], sys.argv[3]
    count = int(sys.argv[4]) if len(sys.argv) > 4 else 10
    found = ranked(path, scope_title, query)
    print(f"#{len(found)}: " + " | ".join(found[:count]))
