#!/usr/bin/env bash
# Builds W1: every line of seven Debian word lists, in UTF-8, one word per line.
#   Corpus/words/W1.txt      the words, in the order of the lists below (1,562,133 lines)
#   Corpus/words/sample.txt  every 250th line of W1 (6,249 lines), committed so that the
#                            README's first command works before W1 is built
# Needs the Debian packages named below (`.ci/run` installs them); the Swedish list is
# Latin-1 on disk and is converted.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
dict=${DICT_DIR:-/usr/share/dict}

# package:file:encoding
lists=(
  wamerican:american-english:UTF-8
  wspanish:spanish:UTF-8
  witalian:italian:UTF-8
  wngerman:ngerman:UTF-8
  wfrench:french:UTF-8
  wportuguese:portuguese:UTF-8
  wswedish:swedish:ISO-8859-1
)

out="$here/W1.txt"
tmp="$out.tmp"
: > "$tmp"
for entry in "${lists[@]}"; do
  IFS=: read -r package file encoding <<< "$entry"
  if [ ! -r "$dict/$file" ]; then
    echo "missing $dict/$file: install the Debian package $package (apt-get install $package)" >&2
    rm -f "$tmp"
    exit 1
  fi
  iconv -f "$encoding" -t UTF-8 "$dict/$file" >> "$tmp"
done
mv "$tmp" "$out"
awk 'NR % 250 == 1' "$out" > "$here/sample.txt"
echo "built $out: $(wc -l < "$out") lines"
