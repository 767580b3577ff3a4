#!/usr/bin/env bash
# Builds one libFuzzer harness with the address sanitizer and runs it.
#
#   bash Fuzz/run.sh TARGET SECONDS [libFuzzer options…]
#   bash Fuzz/run.sh --build               # build only: Fuzz/.build/fuzz
#   bash Fuzz/run.sh --list                # the targets
#
# A harness is Fuzz/Harnesses/TARGET.swift. Every harness is compiled with the sources of
# SearchEngine, SearchCore and SearchDataSets (and the files the harnesses'
# `// fuzz-sources:` lines name) into one module (so
# they reach internal API as a test would) and one binary, with the toolchain's libFuzzer
# and AddressSanitizer (`swiftc -sanitize=fuzzer,address`); CICU's C and C++ are compiled
# with clang and the same sanitizer. The binary runs the harness FUZZ_TARGET names
# (Harnesses/Support/Main.swift). The run starts from the committed seeds,
# Fuzz/Seeds/TARGET/, and keeps what it finds new in Fuzz/.corpus/TARGET/ (not committed);
# a crash or a failed oracle leaves its input in Fuzz/.findings/TARGET/.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
build="$here/.build"

targets() { for f in "$here"/Harnesses/*.swift; do basename "$f" .swift; done; }

if [[ "${1:-}" == "--list" ]]; then targets; exit 0; fi
build_only=false
if [[ "${1:-}" == "--build" ]]; then build_only=true; shift; fi
if ! $build_only; then
  target=${1:?usage: Fuzz/run.sh TARGET SECONDS [libFuzzer options…] (targets: $(targets | tr '\n' ' '))}
  [[ -f "$here/Harnesses/$target.swift" ]] || {
    echo "Fuzz/run.sh: no harness Fuzz/Harnesses/$target.swift; targets: $(targets | tr '\n' ' ')" >&2
    exit 2
  }
fi

mkdir -p "$build/cicu" "$build/module"
# CICU, instrumented for the sanitizer and coverage.
cflags=(-O1 -g -fsanitize=address,fuzzer-no-link -I "$root/Sources/CICU/include")
if [[ ! -f "$build/cicu/CICU.o" || "$root/Sources/CICU/CICU.c" -nt "$build/cicu/CICU.o" ]]; then
  clang "${cflags[@]}" -c "$root/Sources/CICU/CICU.c" -o "$build/cicu/CICU.o"
fi
if [[ ! -f "$build/cicu/AlphabeticIndex.o" || "$root/Sources/CICU/AlphabeticIndex.cpp" -nt "$build/cicu/AlphabeticIndex.o" ]]; then
  clang++ "${cflags[@]}" -c "$root/Sources/CICU/AlphabeticIndex.cpp" -o "$build/cicu/AlphabeticIndex.o"
fi
cat > "$build/module/module.modulemap" <<MAP
module CICU {
  header "$root/Sources/CICU/include/CICU.h"
  export *
}
MAP

binary="$build/fuzz"
mapfile -t sources < <(find "$root/Sources/SearchEngine" -name '*.swift' | sort)
harnesses=("$here"/Harnesses/*.swift "$here"/Harnesses/Support/*.swift)
# SearchCore (the controller, ItemSearch), SearchDataSets (the loaders, the manifest) and the
# files a harness of other code names on a `// fuzz-sources:` line (SearchREPL's, and
# SearchCommandLine's, which SearchREPL's import) are compiled into the one module too, so their
# imports of the package's modules go (a copy without them). Benchmarks/ is never compiled here.
mkdir -p "$build/sources"
extras=$(cd "$root" && find Sources/SearchCore Sources/SearchDataSets -name '*.swift' | sort
  sed -n 's|^// fuzz-sources: ||p' "$here"/Harnesses/*.swift | sort -u)
for extra in $extras; do
  copy="$build/sources/$(basename "$extra")"
  if [[ ! -f "$copy" || "$root/$extra" -nt "$copy" ]]; then
    # A name qualified by its module (`SearchEngine.Ranking`, where ItemSearch nests its own
    # Ranking) is the one module's.
    sed -E -e 's#^(@_exported )?import ((struct|enum|class|protocol|typealias) )?(SearchEngine|SearchCore|SearchDataSets|SearchCommandLine)(\.[A-Za-z]+)?$#// (import \4\5: this file is compiled into the one module)#' \
      -e 's#([^/A-Za-z])(SearchEngine|SearchDataSets)\.([A-Z])#\1SearchCore.\3#g' \
      "$root/$extra" > "$copy"
  fi
  sources+=("$copy")
done
# (`head` may close the pipe before `ls` is done: that is not a failure.)
newest=$(ls -t "${sources[@]}" "${harnesses[@]}" | head -1 || true)
if [[ ! -x "$binary" || "$newest" -nt "$binary" ]]; then
  echo "Fuzz/run.sh: building the harnesses" >&2
  # Whole-module, as SwiftPM builds release: file by file, each of the module's files
  # would parse all the others again (224 CPU-s against 145). Run in the build folder, where
  # the whole-module build leaves its module files.
  (cd "$build" && swiftc -swift-version 6 -parse-as-library -module-name SearchCore -package-name fuzz \
    -sanitize=fuzzer,address -O -wmo -g \
    -I "$build/module" \
    "${sources[@]}" "${harnesses[@]}" \
    "$build/cicu/CICU.o" "$build/cicu/AlphabeticIndex.o" \
    -licuuc -licui18n -licudata -lstdc++ \
    -o "$binary.new" 2> >(grep -v "Cannot export local symbol '__asan" >&2))
  # A rename, so that runs still going keep the binary they started with.
  mv "$binary.new" "$binary"
fi
$build_only && exit 0

seconds=${2:?usage: Fuzz/run.sh TARGET SECONDS [libFuzzer options…]}
shift 2
mkdir -p "$here/.corpus/$target" "$here/.findings/$target"
seeds=()
[[ -d "$here/Seeds/$target" ]] && seeds=("$here/Seeds/$target")
cd "$root"
# libFuzzer reports a crash; Swift's own backtrace would bury it.
export SWIFT_BACKTRACE=enable=no
export FUZZ_TARGET="$target"
exec "$binary" -max_total_time="$seconds" -print_final_stats=1 \
  -artifact_prefix="$here/.findings/$target/" "$@" \
  "$here/.corpus/$target" "${seeds[@]}"
