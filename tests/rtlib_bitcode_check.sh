#!/usr/bin/env bash
# Checks the rtlib bitcode the build embeds: no undefined symbol and no
# 128-bit division on the host, and nvptx PTX that uses only correctly rounded
# (.rn) float arithmetic, no fma or approximate instruction, and passes
# `ptxas -arch=sm_90` when a CUDA toolkit is found. What NVPTX cannot lower
# (wide integers, math calls) is the lowering check's (codegen/pipeline/
# nvptx_lowering.cpp), which a unit test runs over this bitcode.
set -euo pipefail
llvm_bin=$1
host_bc=$2
nvptx_bc=$3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

undefined=$("$llvm_bin/llvm-nm" --undefined-only "$host_bc")
if [ -n "$undefined" ]; then
  echo "FAIL: the host rtlib bitcode references undefined symbols:"; echo "$undefined"; exit 1
fi

# A 128-bit division or remainder is a libgcc call (__udivti3, __umodti3)
# that a JIT-compiled host twin cannot resolve in a process without libgcc
# (Python's extension module).
wide=$("$llvm_bin/llvm-dis" "$host_bc" -o - | grep -nE '= (u|s)(div|rem) i128' || true)
if [ -n "$wide" ]; then
  echo "FAIL: the rtlib divides 128-bit integers (a libgcc call):"; echo "$wide"; exit 1
fi

"$llvm_bin/llc" -mtriple=nvptx64-nvidia-cuda -mcpu=sm_90 -mattr=+ptx80 "$nvptx_bc" -o "$work/rtlib.ptx"
if grep -nE '\b(fma|mul|add|sub|div)\.f64\b|\.approx|\bfma\.rn' "$work/rtlib.ptx"; then
  echo "FAIL: the PTX contains fused, approximate or contractible float instructions"; exit 1
fi
grep -q 'mul.rn.f64' "$work/rtlib.ptx" || { echo "FAIL: expected mul.rn.f64 in the PTX"; exit 1; }

ptxas=""
for candidate in "$(command -v ptxas || true)" "${CUDA_HOME:+$CUDA_HOME/bin/ptxas}" /usr/local/cuda/bin/ptxas; do
  if [ -n "$candidate" ] && [ -x "$candidate" ]; then ptxas=$candidate; break; fi
done
if [ -z "$ptxas" ]; then
  echo "SKIP ptxas: no CUDA toolkit found (PATH, \$CUDA_HOME/bin, /usr/local/cuda/bin)"
else
  "$ptxas" -arch=sm_90 "$work/rtlib.ptx" -o /dev/null
  echo "ptxas -arch=sm_90: ok ($ptxas)"
fi
echo "rtlib bitcode checks passed"
