#!/usr/bin/env bash
# `make dist`: the polyrt command built with LLVM linked statically, packed
# with its license, README, bash completion and SYSTEM-REQUIREMENTS into
# polyrt-VERSION-linux-ARCH.tar.gz (in the repository root).
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${1:-build-dist}
# Without MPI: the tarball must not need an MPI library (MPI launches need a
# build from source, docs/scale-out.md).
cmake -S . -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=Release -DPOLYRT_STATIC_LLVM=ON -DPOLYRT_MPI=OFF \
  -DPOLYRT_BUILD_TESTS=OFF -DPOLYRT_BUILD_BENCHMARKS=OFF >/dev/null
cmake --build "$dir" -j "$(nproc)" --target polyrt
version=$(sed -n 's/^project(polyrt VERSION \([0-9.]*\).*/\1/p' CMakeLists.txt)
name="polyrt-$version-linux-$(uname -m)"
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
mkdir -p "$stage/$name/bin" "$stage/$name/share/bash-completion/completions"
strip -o "$stage/$name/bin/polyrt" "$dir/cli/polyrt"
cp LICENSE NOTICE README.md "$stage/$name/"
cp scripts/polyrt-completion.bash "$stage/$name/share/bash-completion/completions/polyrt"
{
  echo "$name needs from the system (everything else, LLVM included, is in bin/polyrt):"
  ldd "$dir/cli/polyrt" | awk '/=>/ {print "  " $1}' | sort
  echo "  glibc $(ldd --version | head -1 | awk '{print $NF}') or newer"
  echo "GPUs (optional): an NVIDIA driver for CUDA 12 or newer (libcuda.so.1), loaded at run time."
} > "$stage/$name/SYSTEM-REQUIREMENTS"
tar -C "$stage" -czf "$name.tar.gz" "$name"
echo "$name.tar.gz: $(du -h "$name.tar.gz" | cut -f1)"
cat "$stage/$name/SYSTEM-REQUIREMENTS"
