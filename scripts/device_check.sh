#!/usr/bin/env bash
# The GPU tier's check on a machine with an NVIDIA GPU (docs/gpu.md).
#
#   scripts/device_check.sh bundle   on the build machine: a static-LLVM
#       Release build of polyrt, its tests, the differential driver and the
#       benchmarks, stripped and packed into build-device/device-bundle.tar.xz
#       (one solid xz archive: the binaries share most of their bytes, so it
#       stays far below the 64 MiB a device machine receives).
#   scripts/device_check.sh run      on the GPU machine, from the repository
#       root with build-device/device-bundle.tar.xz present: unpacks it, lists
#       the devices, runs the GPU tests against the real driver, the GPU tier
#       against the CPU batch tier over random programs for 60 s and the GPU
#       benchmarks, and prints one table. Needs no package and no network.
#
# POLYRT_LIBCUDA (default libcuda.so.1) picks the driver; pointing it at the
# driver's test double (build/cuda_double/libcuda.so.1) rehearses `run` on a
# machine without a GPU.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
bundle=build-device/device-bundle.tar.xz
targets=(cli/polyrt tests/polyrt_tests tests/polyrt_difftest bench/polyrt_bench)

make_bundle() {
  cmake -S . -B build-device -G Ninja -DCMAKE_BUILD_TYPE=Release -DPOLYRT_STATIC_LLVM=ON >/dev/null
  cmake --build build-device -j "$(nproc)" --target polyrt polyrt_tests polyrt_difftest polyrt_bench
  stage=$(mktemp -d)
  trap 'rm -rf "${stage:-}"' EXIT
  mkdir -p "$stage/build-device/lib"
  for t in "${targets[@]}"; do
    mkdir -p "$stage/build-device/$(dirname "$t")"
    strip -o "$stage/build-device/$t" "build-device/$t"
  done
  # The shared libraries that are not part of every Linux system.
  ldd build-device/tests/polyrt_tests | awk '/=> \// {print $3}' | while read -r lib; do
    case "$(basename "$lib")" in
      libc.so.*|libm.so.*|libgcc_s.so.*|libstdc++.so.*|libz.so.*) ;;
      *) cp -L "$lib" "$stage/build-device/lib/" ;;
    esac
  done
  # The binaries name source files (examples, test programs) by absolute path.
  echo "$root" > "$stage/build-device/source-root"
  tar -C "$stage" -cf - build-device | xz -9e -T1 --lzma2=dict=192MiB > "$bundle.tmp"
  mv "$bundle.tmp" "$bundle"
  local bytes
  bytes=$(stat -c %s "$bundle")
  echo "bundle: $bundle, $((bytes / 1048576)) MiB ($(du -sh "$stage/build-device" | cut -f1) unpacked)"
  if [ "$bytes" -gt $((60 * 1048576)) ]; then
    echo "device_check: the bundle exceeds 60 MiB" >&2
    exit 1
  fi
}

# "1.23G/s" -> bytes per second.
to_number() {
  awk -v v="$1" 'BEGIN {
    n = v + 0; u = substr(v, length(n "") + 1, 1)
    m = (u == "k") ? 1e3 : (u == "M") ? 1e6 : (u == "G") ? 1e9 : (u == "T") ? 1e12 : 1
    printf "%.6g", n * m }'
}

run_checks() {
  local start
  start=$(date +%s)
  command -v xz >/dev/null || { echo "device_check: xz is needed to unpack $bundle" >&2; exit 1; }
  [ -f "$bundle" ] || { echo "device_check: no $bundle (run: $0 bundle)" >&2; exit 1; }
  tar -xJf "$bundle"
  local baked
  baked=$(cat build-device/source-root)
  if [ "$baked" != "$root" ] && [ ! -e "$baked" ]; then
    mkdir -p "$(dirname "$baked")"
    ln -s "$root" "$baked"
  fi
  export LD_LIBRARY_PATH="$root/build-device/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
  export POLYRT_LIBCUDA="${POLYRT_LIBCUDA:-libcuda.so.1}"
  POLYRT_CACHE_DIR=$(mktemp -d)
  export POLYRT_CACHE_DIR
  local out
  out=$(mktemp -d)

  build-device/cli/polyrt devices | tee "$out/devices"

  local tests="CudaDriver*:GpuBatch*:GpuFaults*:GpuCli*:HostTwin*:PtxCompiler*:NvptxTarget*"
  local tests_status=0
  build-device/tests/polyrt_tests --gtest_filter="$tests" > "$out/tests" 2>&1 || tests_status=$?
  local passed failed skipped
  passed=$(grep -c '^\[       OK \]' "$out/tests" || true)
  failed=$(grep -c '^\[  FAILED  \] .*(' "$out/tests" || true)
  skipped=$(grep -c '^\[  SKIPPED \] .*(' "$out/tests" || true)
  [ "$tests_status" -eq 0 ] || grep -B2 -A12 'Failure' "$out/tests" | head -60

  local diff_status=0
  build-device/tests/polyrt_difftest --seconds 60 --seed "$(date +%s)" > "$out/difftest" 2>&1 ||
    diff_status=$?
  [ "$diff_status" -eq 0 ] || head -60 "$out/difftest"

  build-device/bench/polyrt_bench --benchmark_filter='Gpu' --benchmark_repetitions=3 \
    --benchmark_report_aggregates_only=true --benchmark_format=csv > "$out/bench.csv" 2>/dev/null ||
    true
  median() {  # column 6: bytes_per_second, 7: items_per_second, 3: real_time
    awk -F, -v n="\"$1/real_time_median\"" -v c="$2" '$1 == n {print $c}' "$out/bench.csv"
  }
  local write d2h
  write=$(median BM_Gpu_DeviceWriteBandwidth 6)
  d2h=$(median BM_Gpu_PinnedDeviceToHostBandwidth 6)
  ratio() { awk -v a="$1" -v b="$2" 'BEGIN {if (b > 0 && a != "") printf "%.0f %%", 100 * a / b; else print "n/a"}'; }
  rate() { awk -v a="$1" 'BEGIN {if (a != "") printf "%.2f G", a / 1e9; else print "n/a"}'; }

  echo
  echo "| check | result |"
  echo "| --- | --- |"
  echo "| devices | $(grep -c '^gpu [0-9]' "$out/devices" || true) GPU(s): $(grep '^gpu' "$out/devices" | head -1) |"
  echo "| GPU tests on the driver ($POLYRT_LIBCUDA) | $passed passed, $failed failed, $skipped skipped |"
  echo "| GPU tier vs CPU tier, 60 s | $(tail -1 "$out/difftest") |"
  echo "| device write bandwidth (memset) | $(rate "$write")B/s |"
  echo "| pinned device-to-host bandwidth | $(rate "$d2h")B/s |"
  for b in Ladder Stress; do
    local dr th target=""
    dr=$(median "BM_GpuDeviceResident/${b}" 6)
    th=$(median "BM_GpuToHost/${b}" 6)
    [ "$b" = Ladder ] && target=" (target >= 80 %)"
    echo "| $b device-resident | $(rate "$(median "BM_GpuDeviceResident/${b}" 7)")rows/s, $(rate "$dr")B/s = $(ratio "$dr" "$write") of memset$target |"
    echo "| $b to host | $(rate "$(median "BM_GpuToHost/${b}" 7)")rows/s, $(rate "$th")B/s = $(ratio "$th" "$d2h") of pinned D2H$target |"
  done
  echo "| compile of a new program, cold (PTX + cubin) | $(median BM_GpuCompile_NewProgramCold 3) ms (target < 150) |"
  echo "| compile from the caches | $(median BM_GpuCompile_Cached 3) ms (target < 5) |"
  echo "| wall time | $(($(date +%s) - start)) s |"
  [ "$tests_status" -eq 0 ] && [ "$diff_status" -eq 0 ]
}

case "${1:-}" in
  bundle) make_bundle ;;
  run) run_checks ;;
  *)
    echo "usage: $0 bundle|run" >&2
    exit 2
    ;;
esac
