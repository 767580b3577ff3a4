#!/usr/bin/env python3
"""Builds the unicode data set from the Unicode Character Database in Debian's unicode-data.

    Corpus/unicode/unicode.tsv   one row per named character, the data file of
                                 unicode.manifest.json (46,060 rows with unicode-data 15.0.0-1)

Reads /usr/share/unicode/ (or $UNICODE_DIR): UnicodeData.txt, Blocks.txt, NameAliases.txt,
PropList.txt, DerivedCoreProperties.txt and Jamo.txt.

Columns (tab-separated, with a header line, sorted by code point):
    codepoint  U+ and four to six upper-case hex digits (U+00E9, U+1F600)
    character  the character itself (UTF-8); EMPTY for characters that cannot stand in a TSV
               cell or on a terminal: general categories Cc (controls), Cf (format characters),
               Zl, Zp (line and paragraph separator), and every Default_Ignorable_Code_Point
               (variation selectors, Hangul fillers, tag characters, ...); the Cf characters with
               the Prepended_Concatenation_Mark property (U+0600 ARABIC NUMBER SIGN, ...) are
               visible and are kept. Surrogates (Cs), private use (Co) and unassigned code
               points have no row at all. Combining marks (Mn, Me, Mc) are written alone.
    name       the Unicode name (field 1 of UnicodeData.txt); for "<control>" entries the
               Unicode 1.0 name (field 10) if there is one, else the first non-abbreviation alias
               from NameAliases.txt (U+0080, U+0081, U+0084, U+0099)
    block      the block from Blocks.txt
    group      Latin, Greek and Coptic, Cyrillic, CJK, Symbols, Emoji or Other, from the block
               (see GROUPS below)
    category   the general category (Lu, Ll, So, ...)

Ranges: UnicodeData.txt gives some ranges as <..., First>/<..., Last> pairs whose names are
algorithmic. Hangul syllables (U+AC00..U+D7A3, 11,172) are included with their algorithmic
names (HANGUL SYLLABLE GA), made from Jamo.txt as chapter 3.12 of the standard describes. CJK
unified ideographs (the URO and Extensions A to H, 97,046 code points, names
CJK UNIFIED IDEOGRAPH-4E00) and Tangut ideographs (6,145, TANGUT IDEOGRAPH-17000) are left out:
their names are only the code point. Surrogate and private-use ranges are left out (no name).
Characters listed one by one with a code-point name (CJK COMPATIBILITY IDEOGRAPH-F900, KHITAN
SMALL SCRIPT CHARACTER-18B00, NUSHU CHARACTER-1B170) are kept as UnicodeData.txt lists them.

Installs nothing: run `apt-get install unicode-data` first. Stdlib only; the output is
deterministic for a given package version. Contains Unicode Character Database data,
© Unicode, Inc., under the Unicode license (see /usr/share/doc/unicode-data/copyright); the
data were modified: selected, reformatted and combined.
"""
import os
import subprocess
import sys

EXPECTED_VERSION = "15.0.0-1"

COLUMNS = ["codepoint", "character", "name", "block", "group", "category"]

# Block -> group. Checked in this order: the explicit lists, then the words in the block name.
EMOJI_BLOCKS = {
    "Mahjong Tiles",
    "Domino Tiles",
    "Playing Cards",
    "Miscellaneous Symbols and Pictographs",
    "Emoticons",
    "Transport and Map Symbols",
    "Supplemental Symbols and Pictographs",
    "Symbols and Pictographs Extended-A",
}
SYMBOL_BLOCKS = {
    "Currency Symbols",
    "Letterlike Symbols",
    "Number Forms",
    "Arrows",
    "Supplemental Arrows-A",
    "Supplemental Arrows-B",
    "Supplemental Arrows-C",
    "Miscellaneous Symbols and Arrows",
    "Mathematical Operators",
    "Supplemental Mathematical Operators",
    "Miscellaneous Mathematical Symbols-A",
    "Miscellaneous Mathematical Symbols-B",
    "Mathematical Alphanumeric Symbols",
    "Arabic Mathematical Alphabetic Symbols",
    "Miscellaneous Technical",
    "Control Pictures",
    "Optical Character Recognition",
    "Enclosed Alphanumerics",
    "Enclosed Alphanumeric Supplement",
    "Box Drawing",
    "Block Elements",
    "Geometric Shapes",
    "Geometric Shapes Extended",
    "Miscellaneous Symbols",
    "Dingbats",
    "Ornamental Dingbats",
    "Braille Patterns",
    "Symbols for Legacy Computing",
    "Alchemical Symbols",
    "Chess Symbols",
    "Ancient Symbols",
    "Musical Symbols",
    "Byzantine Musical Symbols",
    "Znamenny Musical Notation",
    "Tai Xuan Jing Symbols",
    "Yijing Hexagram Symbols",
    "Counting Rod Numerals",
}
CJK_BLOCKS = {  # besides every block whose name contains "CJK"
    "Hiragana",
    "Katakana",
    "Katakana Phonetic Extensions",
    "Kana Supplement",
    "Kana Extended-A",
    "Kana Extended-B",
    "Small Kana Extension",
    "Hangul Jamo",
    "Hangul Compatibility Jamo",
    "Hangul Jamo Extended-A",
    "Hangul Jamo Extended-B",
    "Hangul Syllables",
    "Bopomofo",
    "Bopomofo Extended",
    "Kanbun",
    "Kangxi Radicals",
    "Ideographic Description Characters",
    "Ideographic Symbols and Punctuation",
    "Enclosed Ideographic Supplement",
    "Halfwidth and Fullwidth Forms",
}
LATIN_BLOCKS = {  # besides every block whose name contains "Latin"
    "IPA Extensions",
    "Phonetic Extensions",
    "Phonetic Extensions Supplement",
}


def group_of(block):
    if block in EMOJI_BLOCKS:
        return "Emoji"
    if block in SYMBOL_BLOCKS:
        return "Symbols"
    if block in CJK_BLOCKS or "CJK" in block:
        return "CJK"
    if block in LATIN_BLOCKS or "Latin" in block:
        return "Latin"
    if "Greek" in block or "Coptic" in block:
        return "Greek and Coptic"
    if "Cyrillic" in block:
        return "Cyrillic"
    return "Other"


def data_lines(path):
    """The lines of a UCD file without comments, split at ';' and stripped."""
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.split("#", 1)[0].strip()
            if line:
                yield [cell.strip() for cell in line.split(";")]


def code_range(text):
    if ".." in text:
        first, last = text.split("..")
        return int(first, 16), int(last, 16)
    return int(text, 16), int(text, 16)


def property_set(path, name):
    result = set()
    for cells in data_lines(path):
        if cells[1] == name:
            first, last = code_range(cells[0])
            result.update(range(first, last + 1))
    return result


def hangul_names(ucd):
    """Algorithmic Hangul syllable names (The Unicode Standard, section 3.12)."""
    short = {}
    for cells in data_lines(os.path.join(ucd, "Jamo.txt")):
        short[int(cells[0], 16)] = cells[1]
    leads = [short[0x1100 + i] for i in range(19)]
    vowels = [short[0x1161 + i] for i in range(21)]
    trails = [""] + [short[0x11A8 + i] for i in range(27)]
    names = {}
    for s in range(19 * 21 * 28):
        l, rest = divmod(s, 21 * 28)
        v, t = divmod(rest, 28)
        names[0xAC00 + s] = "HANGUL SYLLABLE " + leads[l] + vowels[v] + trails[t]
    return names


def package_version():
    try:
        out = subprocess.run(["dpkg-query", "-W", "-f=${Version}", "unicode-data"],
                             capture_output=True, text=True, check=False)
        return out.stdout.strip() or "unknown"
    except OSError:
        return "unknown"


def main():
    ucd = os.environ.get("UNICODE_DIR", "/usr/share/unicode")
    needed = ["UnicodeData.txt", "Blocks.txt", "NameAliases.txt", "PropList.txt",
              "DerivedCoreProperties.txt", "Jamo.txt"]
    for name in needed:
        if not os.path.isfile(os.path.join(ucd, name)):
            sys.exit(f"missing {ucd}/{name}: install the Debian package unicode-data "
                     f"(apt-get install unicode-data)")
    version = package_version()
    if version != EXPECTED_VERSION:
        print(f"warning: unicode-data {version}, not {EXPECTED_VERSION}: the counts in "
              f"Corpus/README.md will differ", file=sys.stderr)

    blocks = []
    for cells in data_lines(os.path.join(ucd, "Blocks.txt")):
        first, last = code_range(cells[0])
        blocks.append((first, last, cells[1]))
    blocks.sort()

    def block_of(cp):
        for first, last, name in blocks:
            if first <= cp <= last:
                return name
        sys.exit(f"U+{cp:04X} is in no block")

    aliases = {}
    for cells in data_lines(os.path.join(ucd, "NameAliases.txt")):
        cp = int(cells[0], 16)
        if cells[2] != "abbreviation" and cp not in aliases:
            aliases[cp] = cells[1]

    ignorable = property_set(os.path.join(ucd, "DerivedCoreProperties.txt"),
                             "Default_Ignorable_Code_Point")
    prepended = property_set(os.path.join(ucd, "PropList.txt"), "Prepended_Concatenation_Mark")
    hangul = hangul_names(ucd)

    entries = []  # (code point, name, category)
    skipped = {}  # range name -> code points left out
    pending = None
    for cells in data_lines(os.path.join(ucd, "UnicodeData.txt")):
        cp, name, category = int(cells[0], 16), cells[1], cells[2]
        if name.endswith(", First>"):
            pending = (cp, name[1:-len(", First>")], category)
            continue
        if name.endswith(", Last>"):
            first, range_name, range_category = pending
            if range_name != name[1:-len(", Last>")]:
                sys.exit(f"U+{cp:04X}: range {name} does not close {range_name}")
            pending = None
            if range_name == "Hangul Syllable":
                for c in range(first, cp + 1):
                    entries.append((c, hangul[c], range_category))
            else:
                skipped[range_name] = skipped.get(range_name, 0) + cp - first + 1
            continue
        if name == "<control>":
            name = cells[10] or aliases.get(cp, "<control>")
        elif name.startswith("<"):
            sys.exit(f"U+{cp:04X}: unexpected name {name}")
        entries.append((cp, name, category))
    entries.sort()

    rows = []
    empty_cells = {}
    for cp, name, category in entries:
        hidden = (category in ("Cc", "Cs", "Co", "Cn", "Zl", "Zp")
                  or (category == "Cf" and cp not in prepended)
                  or cp in ignorable)
        if hidden:
            empty_cells[category] = empty_cells.get(category, 0) + 1
        block = block_of(cp)
        cells = [f"U+{cp:04X}", "" if hidden else chr(cp), name, block, group_of(block), category]
        for cell in cells:
            if any(ch in cell for ch in "\t\r\n"):
                sys.exit(f"U+{cp:04X}: a cell holds a tab or a line break")
        rows.append(cells)

    here = os.path.dirname(os.path.abspath(__file__))
    path = os.path.join(here, "unicode.tsv")
    with open(path + ".tmp", "w", encoding="utf-8", newline="\n") as out:
        out.write("\t".join(COLUMNS) + "\n")
        for cells in rows:
            out.write("\t".join(cells) + "\n")
    os.replace(path + ".tmp", path)

    counts = {}
    for cells in rows:
        counts[cells[4]] = counts.get(cells[4], 0) + 1
    summary = ", ".join(f"{name} {counts[name]:,}" for name in sorted(counts))
    print(f"built {path}: {len(rows):,} characters ({summary}), "
          f"{os.path.getsize(path):,} bytes, unicode-data {version}")
    hidden_summary = ", ".join(f"{c} {n:,}" for c, n in sorted(empty_cells.items()))
    print(f"empty character cells: {sum(empty_cells.values()):,} ({hidden_summary})")
    skipped_summary = ", ".join(f"{n} {c:,}" for n, c in sorted(skipped.items()))
    print(f"ranges left out: {skipped_summary}")


if __name__ == "__main__":
    main()
