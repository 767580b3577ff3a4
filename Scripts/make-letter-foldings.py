#!/usr/bin/env python3
"""Writes Sources/SearchEngine/Normalization/LetterFoldings.swift: the Latin letters that
`Folding.diacritics` folds although they have no decomposition (ø → o, ł → l, đ → d, þ → th,
æ → ae, ı → i, ...), as Unicode TR #30's DiacriticFolding did. Derived from the Unicode
Character Database, never written by hand; ICU's "Latin-ASCII" transliterator checks it.

Which letters (from UnicodeData.txt; every rule is about the data, no code point is named):

 1. A Latin letter (general category Lu, Ll or Lt, name starting with LATIN) with no
    decomposition at all. A letter with a canonical decomposition (é, ǿ) loses its marks
    through NFD already; one with a compatibility decomposition (ĳ, ŀ, ſ, ǆ) is NFKC's
    business (Folding.compatibility).
 2. Its name is "LATIN SMALL|CAPITAL LETTER|LIGATURE B WITH M (AND M ...)", where every M is
    a mark drawn onto the letter (STROKE, BAR, HOOK, CURL, TAIL, MIDDLE TILDE, BELT, LOOP,
    DESCENDER, FLOURISH, ...: any words; the name says the letter is B plus something) and B
    is a base: a letter A-Z (also as "BARRED O" or "U BAR"), two letters A-Z (a ligature:
    AE, OE, AA, AV, OO, ...), or THORN, ETH, DOTLESS I. Or the name is just "LATIN
    SMALL|CAPITAL LETTER|LIGATURE B" with a base that is not one letter A-Z (Æ, Þ, ı, Ʉ).
    Two letters in a name are not always a ligature: Ȣ OU is a letter of its own, Ꝭ IS an
    abbreviation, Ƕ HWAIR a letter of Gothic transliteration. A two-letter base counts only
    when ICU's Latin-ASCII writes the letter and its case partner as those two letters.
 3. The folded form of B is B's letters (lowercase for a small letter, uppercase for a
    capital: Æ → AE, as NFKC writes Ĳ → IJ and ICU's Latin-ASCII writes Æ → AE), THORN → th,
    ETH → d, DOTLESS I → i.
 4. The letter has a case partner (UnicodeData's simple uppercase or lowercase mapping to
    another code point). A bicameral letter is a letter of some orthography (Polish ł/Ł,
    Hausa ɓ/Ɓ, Maltese ħ/Ħ); letters without one (ɕ, ʐ, ᶀ, ᵬ, 𝼀) are phonetic symbols of
    the IPA and its extensions, where a hook or a tilde is the whole point of the symbol.
 5. Closure over case: the case partner of a chosen letter is chosen too, folding to the
    partner's case of the same letters (Ɖ LATIN CAPITAL LETTER AFRICAN D, the capital of
    ɖ d with tail, folds to D), unless the partner is ASCII (ı's capital is I).

Left out, and why (the documentation in Normalization.md says the same):
  - letters that are not a base letter with something drawn on it: ŋ eng, ĸ kra, ƿ wynn,
    ȝ yogh, ə schwa, ɛ open e, ɔ open o, ʒ ezh, ſ long s (NFKC folds it);
  - turned, reversed, small-capital and other phonetic letters (rule 2's base fails);
  - ß, which case folding already turns into ss.

The script then runs ICU's "Latin-ASCII" transliterator (a small C program compiled against
libicu-dev) over every chosen letter and prints where ICU folds it differently, and prints
the Latin letters without a decomposition that ICU folds to ASCII and the table leaves out.
Neither list stops the script: ICU's choices are a cross-check, not the rule (ICU writes
ŋ → n and ð → d; the table agrees on ð and leaves ŋ alone).

Usage: python3 Scripts/make-letter-foldings.py   ($UNICODE_DIR overrides /usr/share/unicode,
Debian's unicode-data; needs cc and libicu-dev for the cross-check, skipped without them.)
Stdlib only; the output is deterministic for a given UnicodeData.txt.
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

here = os.path.dirname(os.path.abspath(__file__))
root = os.path.dirname(here)
unicode_dir = os.environ.get("UNICODE_DIR", "/usr/share/unicode")
output = os.path.join(root, "Sources", "SearchEngine", "Normalization", "LetterFoldings.swift")

NAME = re.compile(r"LATIN (SMALL|CAPITAL) (?:LETTER|LIGATURE) (.+?)(?: WITH (.+))?$")
SPECIAL_BASES = {"THORN": "th", "ETH": "d", "DOTLESS I": "i"}


def read_unicode_data():
    rows = {}
    with open(os.path.join(unicode_dir, "UnicodeData.txt"), encoding="utf-8") as file:
        for line in file:
            fields = line.rstrip("\n").split(";")
            rows[int(fields[0], 16)] = fields
    return rows


def unicode_version():
    with open(os.path.join(unicode_dir, "DerivedCoreProperties.txt"), encoding="utf-8") as file:
        match = re.search(r"DerivedCoreProperties-([0-9.]+)\.txt", file.readline())
    return match.group(1) if match else "unknown"


def case_partner(fields):
    mapping = fields[12] or fields[13]
    return int(mapping, 16) if mapping else None


def base_letters(base):
    """The letters a name's base stands for: "O" → "o", "BARRED O" and "U BAR" → the
    letter, "AE" → "ae", "THORN" → "th"; None for any other base."""
    if base in SPECIAL_BASES:
        return SPECIAL_BASES[base]
    match = re.fullmatch(r"BARRED ([A-Z])|([A-Z]) BAR|([A-Z]{1,2})", base)
    if match is None:
        return None
    return next(group for group in match.groups() if group).lower()


def choose(rows, icu_folded):
    table = {}
    for cp, fields in rows.items():
        name, category, decomposition = fields[1], fields[2], fields[5]
        if category not in ("Lu", "Ll", "Lt") or decomposition:
            continue
        match = NAME.match(name)
        if not match:
            continue
        letters = base_letters(match.group(2))
        if letters is None or (match.group(3) is None and len(match.group(2)) == 1):
            continue  # not a base plus a mark, or a plain A-Z letter
        if case_partner(fields) is None:
            continue  # phonetic only
        folded = letters.upper() if match.group(1) == "CAPITAL" else letters
        if len(letters) == 2 and match.group(2) not in SPECIAL_BASES:
            # Two letters in a name are a ligature (AE, OE, AA, OO) or a letter of its own
            # that a transliteration writes with two letters (OU, HV, TZ, the abbreviation
            # IS): only ICU writing it and its case partner as those letters says it is a
            # ligature.
            partner = case_partner(fields)
            if icu_folded.get(cp) != folded or icu_folded.get(partner, "").lower() != letters:
                continue
        table[cp] = folded
    for cp, letters in list(table.items()):
        partner = case_partner(rows[cp])
        if partner >= 0x80 and partner not in table:
            capital = rows[partner][2] == "Lu"
            table[partner] = letters.upper() if capital else letters.lower()
    return dict(sorted(table.items()))


ICU_PROGRAM = r"""
#include <stdio.h>
#include <stdlib.h>
#include <unicode/uclean.h>
#include <unicode/utrans.h>
#include <unicode/ustring.h>
#include <unicode/uversion.h>
int main(void) {
  UErrorCode status = U_ZERO_ERROR;
  UChar id[32];
  u_uastrcpy(id, "Latin-ASCII");
  UTransliterator *t = utrans_openU(id, -1, UTRANS_FORWARD, NULL, 0, NULL, &status);
  if (U_FAILURE(status)) { fprintf(stderr, "%s\n", u_errorName(status)); return 1; }
  UVersionInfo version;
  char text[U_MAX_VERSION_STRING_LENGTH];
  u_getVersion(version);
  u_versionToString(version, text);
  printf("%s\n", text);
  unsigned long cp;
  while (scanf("%lx", &cp) == 1) {
    UChar buffer[64];
    int32_t length = 0;
    U16_APPEND_UNSAFE(buffer, length, (UChar32)cp);
    int32_t limit = length;
    utrans_transUChars(t, buffer, &length, 64, 0, &limit, &status);
    char out[256];
    u_strToUTF8(out, sizeof out, NULL, buffer, length, &status);
    if (U_FAILURE(status)) { fprintf(stderr, "%s\n", u_errorName(status)); return 1; }
    printf("%lX %s\n", cp, out);
  }
  utrans_close(t);
  return 0;
}
"""


def icu_latin_ascii(code_points):
    """ICU's version and its Latin-ASCII folding of each code point, or None without cc."""
    compiler = shutil.which("cc")
    if compiler is None:
        return None
    with tempfile.TemporaryDirectory() as folder:
        source = os.path.join(folder, "latin_ascii.c")
        binary = os.path.join(folder, "latin_ascii")
        with open(source, "w") as file:
            file.write(ICU_PROGRAM)
        built = subprocess.run([compiler, source, "-o", binary, "-licui18n", "-licuuc"],
                               capture_output=True, text=True)
        if built.returncode != 0:
            print("ICU cross-check skipped: " + built.stderr.strip(), file=sys.stderr)
            return None
        run = subprocess.run([binary], input=" ".join("%X" % cp for cp in code_points),
                             capture_output=True, text=True, check=True)
    lines = run.stdout.split("\n")
    folded = {}
    for line in lines[1:]:
        if line:
            cp, _, text = line.partition(" ")
            folded[int(cp, 16)] = text
    return lines[0], folded


def swift_source(table, rows, version, icu_version):
    lines = [
        "// Generated by Scripts/make-letter-foldings.py from UnicodeData.txt of the Unicode",
        f"// Character Database {version} and ICU {icu_version}'s Latin-ASCII transliterator.",
        "// Do not edit: change the script and run it.",
        "",
        "/// The Latin letters that diacritic folding folds although they have no decomposition.",
        "///",
        "/// A letter with a stroke, bar, hook or other mark drawn on it folds to the letter",
        "/// (ø → o, ł → l, đ → d, ħ → h), a ligature to its letters (æ → ae, œ → oe), thorn to",
        "/// th, eth to d, dotless i to i. A capital folds to capitals (Æ → AE). See",
        "/// Scripts/make-letter-foldings.py for the rules that chose them.",
        "enum LetterFoldings {",
        f"  /// The folded form of each of the {len(table)} letters, by scalar value.",
        "  static let table: [UInt32: String] = [",
    ]
    for cp, letters in table.items():
        name = rows[cp][1].removeprefix("LATIN ")
        line = f'    0x{cp:04X}: "{letters}",  // {chr(cp)} {name}'
        if len(line) > 100:
            line = line[:100].rstrip()
        lines.append(line)
    lines += ["  ]", "}", ""]
    return "\n".join(lines)


def main():
    rows = read_unicode_data()
    latin_bare = [cp for cp, f in rows.items()
                  if f[2] in ("Lu", "Ll", "Lt") and f[1].startswith("LATIN ") and not f[5]
                  and cp >= 0x80]
    icu = icu_latin_ascii(latin_bare)
    if icu is None:
        sys.exit("needs cc and libicu-dev: ICU decides which two-letter names are ligatures")
    icu_version, folded = icu
    table = choose(rows, folded)
    differing = [cp for cp in table if folded.get(cp) != table[cp]]
    print(f"ICU {icu_version} Latin-ASCII folds {len(differing)} of the {len(table)}"
          " letters otherwise:")
    for cp in differing:
        print(f"  U+{cp:04X} {chr(cp)} table {table[cp]!r}, ICU {folded.get(cp)!r}"
              f"  {rows[cp][1]}")
    left = [cp for cp in latin_bare if cp not in table and folded.get(cp, "").isascii()
            and folded.get(cp) and case_partner(rows[cp]) is not None]
    print(f"ICU folds {len(left)} other cased Latin letters without a decomposition to"
          " ASCII; the table leaves them:")
    for cp in left:
        print(f"  U+{cp:04X} {chr(cp)} ICU {folded[cp]!r}  {rows[cp][1]}")
    with open(output, "w", encoding="utf-8") as file:
        file.write(swift_source(table, rows, unicode_version(), icu_version))
    print(f"{os.path.relpath(output, root)}: {len(table)} letters")


main()
