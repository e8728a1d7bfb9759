#!/usr/bin/env bash
# Installs the build into a temporary prefix and builds examples/embed
# against it, with the CMake package and with pkg-config, then runs both:
# the install rules and the package can never silently break.
#   install_test.sh BUILD_DIR SOURCE_DIR
set -euo pipefail
build=$1
source=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

cmake --install "$build" --prefix "$work/prefix" >/dev/null
"$work/prefix/bin/polyrt" --version
echo "installed: $(find "$work/prefix" -type f | wc -l) files, $(du -sh "$work/prefix" | cut -f1)"

start=$(date +%s%N)
cmake -S "$source/examples/embed" -B "$work/embed" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_PREFIX_PATH="$work/prefix" >/dev/null
cmake --build "$work/embed" >/dev/null
echo "consumer (find_package) built in $((($(date +%s%N) - start) / 1000000)) ms"
"$work/embed/embed"

pc_dir=$(dirname "$(find "$work/prefix" -name polyrt.pc)")
export PKG_CONFIG_PATH="$pc_dir"
# shellcheck disable=SC2046
c++ -O1 "$source/examples/embed/main.cpp" -o "$work/embed_pc" $(pkg-config --cflags --libs polyrt)
"$work/embed_pc" >/dev/null
echo "consumer (pkg-config) built and ran"

# The completion script is installed and defines the completion.
bash -c "source '$work/prefix/share/bash-completion/completions/polyrt' && complete -p polyrt" >/dev/null

# Every doc the README links is installed where its links point.
for doc in $(grep -o 'docs/[a-z-]*\.md' "$source/README.md" | sort -u); do
  test -f "$work/prefix/share/doc/polyrt/$doc" || { echo "not installed: $doc"; exit 1; }
done

# The installed command finds its installed Arrow module (when the build has one).
if [ -f "$build/cli/libpolyrt_arrow.so" ]; then
  "$work/prefix/bin/polyrt" run "$source/examples/users.polydat" --rows 1000 --format parquet \
    --out "$work/users.parquet"
  test -s "$work/users.parquet"
  echo "installed command wrote parquet through $(find "$work/prefix" -name libpolyrt_arrow.so)"
fi
