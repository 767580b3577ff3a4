#!/usr/bin/env bash
# Makes the virtual environment of `SearchBenchmarks --suite typos`'s peer (Scripts/typo-peer.py):
# tantivy 0.27.0 from PyPI, in .build/typo-peer-venv (not committed). Prints the environment's
# python. Run again, it only prints it.
set -euo pipefail
cd "$(dirname "$0")/.."
venv=.build/typo-peer-venv
if [ ! -x "$venv/bin/python" ] || ! "$venv/bin/python" -c "import tantivy" 2> /dev/null; then
  python3 -m venv "$venv" >&2
  timeout 300 "$venv/bin/pip" install -q tantivy==0.27.0 >&2
fi
echo "$PWD/$venv/bin/python"
