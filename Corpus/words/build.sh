#!/usr/bin/env bash
# Builds W1: every line of seven Debian word lists, in UTF-8, one word per line.
#   Corpus/words/W1.txt      the words, in the order of the lists below (1,562,133 lines)
#   Corpus/words/W1.tsv      the same words with their language (word<TAB>language), the
#                            data file of words.manifest.json
#   Corpus/words/sample.txt  every 250th line of W1 (6,249 lines), committed so that the
#                            README's first command works before W1 is built
#   Corpus/words/sample.tsv  the same lines with their language (sample.manifest.json),
#                            committed for the tests
# Needs the Debian packages named below (`.ci/run` installs them); the Swedish list is
# Latin-1 on disk and is converted.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
dict=${DICT_DIR:-/usr/share/dict}

# package:file:encoding:language
lists=(
  wamerican:american-english:UTF-8:English
  wspanish:spanish:UTF-8:Spanish
  witalian:italian:UTF-8:Italian
  wngerman:ngerman:UTF-8:German
  wfrench:french:UTF-8:French
  wportuguese:portuguese:UTF-8:Portuguese
  wswedish:swedish:ISO-8859-1:Swedish
)

out="$here/W1.txt"
tsv="$here/W1.tsv"
: > "$out.tmp"
: > "$tsv.tmp"
for entry in "${lists[@]}"; do
  IFS=: read -r package file encoding language <<< "$entry"
  if [ ! -r "$dict/$file" ]; then
    echo "missing $dict/$file: install the Debian package $package (apt-get install $package)" >&2
    rm -f "$out.tmp" "$tsv.tmp"
    exit 1
  fi
  iconv -f "$encoding" -t UTF-8 "$dict/$file" | tee -a "$out.tmp" \
    | awk -v language="$language" '{ print $0 "\t" language }' >> "$tsv.tmp"
done
mv "$out.tmp" "$out"
mv "$tsv.tmp" "$tsv"
awk 'NR % 250 == 1' "$out" > "$here/sample.txt"
awk 'NR % 250 == 1' "$tsv" > "$here/sample.tsv"
echo "built $out: $(wc -l < "$out") lines"
