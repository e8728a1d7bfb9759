#!/usr/bin/env bash
# The GPU tier's check on a machine with an NVIDIA GPU (docs/gpu.md).
#
#   scripts/device_check.sh bundle   on the build machine: a static-LLVM,
#       MPI-free Release build of polyrt, its tests, the differential driver
#       and the benchmarks, stripped and packed with every shared library
#       they need beyond glibc, libstdc++ and libgcc_s into
#       build-device/device-bundle.tar.xz (one solid xz archive: the
#       binaries share most of their bytes). It then checks that every binary
#       resolves every library from the bundle and the C/C++ runtime alone.
#   scripts/device_check.sh run      on the GPU machine, from the repository
#       root with the bundle present: unpacks it (tar with xz, or python3
#       alone), says which driver, GPU and library it found, runs the GPU
#       tests against the real driver, the GPU tier against the CPU batch tier
#       over random programs and the GPU benchmarks, each under a time limit,
#       and prints one table, line by line as each result is known. A step
#       that fails or crashes is a line of the table; the others still run.
#       Everything (each step's log, gtest XML, benchmark JSON, the
#       machine's diagnostics, the table) is written to $OUT when set, else
#       to a new temporary directory. Needs no package and no network. The
#       steps' time limits sum to under 4 minutes (a first GPU run has about
#       15 in all, machine start included, and may need a rerun).
#   scripts/device_check.sh rehearse   here, without a GPU: `run`'s steps on
#       the local build (build/, no bundle) against the driver's test double
#       presenting itself as a real driver (POLYRT_CUDA_DOUBLE=as_real): no
#       row may read FAILED.
#
# POLYRT_LIBCUDA (default libcuda.so.1) picks the driver; pointing it at the
# driver's test double (build/cuda_double/libcuda.so.1) rehearses `run` on a
# machine without a GPU.
set -uo pipefail
cd "$(dirname "$0")/.."
root=$PWD
bundle=build-device/device-bundle.tar.xz
targets=(cli/polyrt tests/polyrt_tests tests/polyrt_difftest bench/polyrt_bench)

# What every Linux machine has: the C library, the dynamic loader and the
# C++ runtime. Everything else a binary needs travels in the bundle.
is_system_library() {
  case "$1" in
    linux-vdso.so.* | ld-linux*.so.* | libc.so.* | libm.so.* | libdl.so.* | libpthread.so.* | \
      librt.so.* | libstdc++.so.* | libgcc_s.so.*) return 0 ;;
  esac
  return 1
}

# Fails when `binary`, run with only `lib_dir` on the library path and no
# other environment, would miss a library or take one from the system that
# is not a system library (so it would be missing on a bare machine).
check_libraries() {
  local binary=$1 lib_dir=$2 line name path bad=0
  while read -r line; do
    name=$(awk '{print $1}' <<< "$line")
    if [[ "$line" == *"not found"* ]]; then
      echo "device_check: $binary: $name is not found" >&2
      bad=1
      continue
    fi
    path=$(awk '/=>/ {print $3}' <<< "$line")
    [ -z "$path" ] && continue
    if [[ "$path" != "$lib_dir"/* ]] && ! is_system_library "$(basename "$path")"; then
      echo "device_check: $binary: $name comes from $path, not the bundle" >&2
      bad=1
    fi
  done < <(env -i LD_LIBRARY_PATH="$lib_dir" ldd "$binary")
  return "$bad"
}

make_bundle() {
  set -e
  cmake -S . -B build-device -G Ninja -DCMAKE_BUILD_TYPE=Release -DPOLYRT_STATIC_LLVM=ON \
    -DPOLYRT_MPI=OFF >/dev/null
  cmake --build build-device -j "$(nproc)" --target polyrt polyrt_tests polyrt_difftest polyrt_bench
  stage=$(mktemp -d)
  trap 'rm -rf "${stage:-}"' EXIT
  local lib_dir="$stage/build-device/lib"
  mkdir -p "$lib_dir"
  for t in "${targets[@]}"; do
    mkdir -p "$stage/build-device/$(dirname "$t")"
    strip -o "$stage/build-device/$t" "build-device/$t"
    ldd "build-device/$t" | awk '/=> \// {print $3}' | while read -r lib; do
      is_system_library "$(basename "$lib")" || cp -Ln "$lib" "$lib_dir/" 2>/dev/null || true
    done
  done
  local bad=0
  for t in "${targets[@]}"; do check_libraries "$stage/build-device/$t" "$lib_dir" || bad=1; done
  [ "$bad" -eq 0 ] || { echo "device_check: the bundle is incomplete" >&2; exit 1; }
  # The binaries name source files (examples, test programs) by absolute path.
  echo "$root" > "$stage/build-device/source-root"
  tar -C "$stage" -cf - build-device | xz -9e -T1 --lzma2=dict=192MiB > "$bundle.tmp"
  mv "$bundle.tmp" "$bundle"
  local bytes
  bytes=$(stat -c %s "$bundle")
  echo "bundle: $bundle, $((bytes / 1048576)) MiB ($(du -sh "$stage/build-device" | cut -f1) unpacked;" \
    "libraries: $(ls "$lib_dir" | tr '\n' ' '))"
  if [ "$bytes" -gt $((60 * 1048576)) ]; then
    echo "device_check: the bundle exceeds 60 MiB" >&2
    exit 1
  fi
}

# Unpacks the bundle with xz when the machine has it, else with Python's
# lzma module (python3 is on every machine that lacks xz).
unpack() {
  if command -v xz >/dev/null; then
    tar -xJf "$bundle"
  else
    python3 -c 'import sys, tarfile; tarfile.open(sys.argv[1], "r:xz").extractall(".")' "$bundle"
  fi
}

# The machine as a failure would need it described: the GPU's link, clocks,
# power and modes, the OS, the C library, cores and locked-memory limit.
describe_machine() {
  echo "driver library: $POLYRT_LIBCUDA"
  if command -v nvidia-smi >/dev/null; then
    timeout 30 nvidia-smi --query-gpu=name,driver_version,memory.total,pcie.link.gen.current,\
pcie.link.gen.max,pcie.link.width.current,clocks.sm,clocks.mem,clocks.max.sm,power.limit,\
persistence_mode,compute_mode,mig.mode.current,ecc.mode.current,clocks_throttle_reasons.active \
      --format=csv
  else
    echo "nvidia-smi: not found"
  fi
  grep -E '^(PRETTY_NAME|VERSION_ID)=' /etc/os-release 2>/dev/null
  echo "glibc: $(ldd --version 2>&1 | head -1)"
  echo "cores: $(nproc); locked memory limit (ulimit -l): $(ulimit -l)"
  for t in "${targets[@]}"; do
    ldd "$bin/$t" 2>&1 | grep "not found" | sed "s|^|$t: |"
  done
}

run_checks() {
  local start out table
  start=$(date +%s)
  out=${OUT:-$(mktemp -d)}
  mkdir -p "$out"
  table="$out/table.md"
  : > "$table"
  row() {  # one line of the table, printed and kept as soon as it is known
    echo "| $1 | $2 |" | tee -a "$table"
  }
  # A step's status: 0, its own failure code, or 124 when it ran out of time.
  status_text() {
    case "$1" in
      0) echo "ok" ;;
      124) echo "TIMED OUT" ;;
      *) [ "$1" -gt 128 ] && echo "CRASHED (signal $(($1 - 128)))" || echo "FAILED (exit $1)" ;;
    esac
  }
  if [ "$bin" = build-device ]; then
    [ -f "$bundle" ] || { echo "device_check: no $bundle (run: $0 bundle)" | tee "$out/error"; exit 1; }
    if ! unpack > "$out/unpack.log" 2>&1; then
      echo "device_check: cannot unpack $bundle: $(cat "$out/unpack.log")" | tee "$out/error"
      exit 1
    fi
    local baked
    baked=$(cat build-device/source-root)
    if [ "$baked" != "$root" ] && [ ! -e "$baked" ]; then
      mkdir -p "$(dirname "$baked")" && ln -s "$root" "$baked" ||
        echo "device_check: cannot link $baked to $root: tests that read source files will fail" |
        tee -a "$out/error"
    fi
    export LD_LIBRARY_PATH="$root/build-device/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
  fi
  export POLYRT_LIBCUDA="${POLYRT_LIBCUDA:-libcuda.so.1}"
  POLYRT_CACHE_DIR=$(mktemp -d)
  export POLYRT_CACHE_DIR

  # What this machine has, first: the check's numbers mean nothing without it.
  describe_machine > "$out/machine" 2>&1
  cat "$out/machine"
  local status
  timeout 20 "$bin/cli/polyrt" devices > "$out/devices" 2>&1
  status=$?
  cat "$out/devices"
  echo
  echo "| check | result |" | tee -a "$table"
  echo "| --- | --- |" | tee -a "$table"
  if [ "$status" -eq 0 ]; then
    row "devices" "$(grep -c '^gpu [0-9]' "$out/devices") GPU(s): $(grep '^gpu' "$out/devices" | head -1)"
  else
    row "devices" "$(status_text "$status"): $(tail -1 "$out/devices")"
  fi

  # The GPU tests (tests/gpu_test_filter.txt, which CI's rehearsal of this
  # check runs too: gpu_tests_as_a_real_driver).
  local tests
  tests=$(cat tests/gpu_test_filter.txt)
  timeout 60 "$bin/tests/polyrt_tests" --gtest_filter="$tests" --gtest_output="xml:$out/tests.xml" \
    > "$out/tests.log" 2>&1
  local tests_status=$?
  local passed failed skipped
  passed=$(grep -c '^\[       OK \]' "$out/tests.log")
  failed=$(grep -c '^\[  FAILED  \] .*(' "$out/tests.log")
  skipped=$(grep -c '^\[  SKIPPED \] .*(' "$out/tests.log")
  row "GPU tests on the driver ($POLYRT_LIBCUDA)" \
    "$(status_text "$tests_status"): $passed passed, $failed failed, $skipped skipped$(
      grep '^\[  FAILED  \] .*(' "$out/tests.log" | sed 's/^\[  FAILED  \] / /; s/ (.*//' | head -5 | tr '\n' ',')"

  timeout 30 "$bin/tests/polyrt_difftest" --seconds 25 --seed "$(date +%s)" \
    > "$out/difftest.log" 2>&1
  local diff_status=$?
  row "GPU tier vs CPU tier, 25 s" "$(status_text "$diff_status"): $(tail -1 "$out/difftest.log")"

  run_commands "$out"

  timeout 60 "$bin/bench/polyrt_bench" --benchmark_filter='Gpu' --benchmark_repetitions=2 \
    --benchmark_min_time=0.2 --benchmark_report_aggregates_only=true --benchmark_format=csv \
    --benchmark_out="$out/bench.json" --benchmark_out_format=json > "$out/bench.csv" \
    2> "$out/bench.log"
  local bench_status=$?
  median() {  # column 6: bytes_per_second, 7: items_per_second, 3: real_time
    awk -F, -v n="\"$1/real_time_median\"" -v c="$2" '$1 == n {print $c}' "$out/bench.csv"
  }
  ratio() { awk -v a="$1" -v b="$2" 'BEGIN {if (b > 0 && a != "") printf "%.0f %%", 100 * a / b; else print "n/a"}'; }
  rate() {  # in G, or M below a billion
    awk -v a="$1" 'BEGIN {if (a == "") print "n/a "; else if (a >= 1e9) printf "%.2f G", a / 1e9;
                          else printf "%.2f M", a / 1e6}'
  }
  times() { awk -v a="$1" -v b="$2" 'BEGIN {if (b > 0 && a != "") printf "%.1fx", a / b; else print "n/a"}'; }
  [ "$bench_status" -eq 0 ] || row "benchmarks" "$(status_text "$bench_status") (see bench.log)"
  local write d2h
  write=$(median BM_Gpu_DeviceWriteBandwidth 6)
  d2h=$(median BM_Gpu_PinnedDeviceToHostBandwidth 6)
  row "device write bandwidth (memset)" "$(rate "$write")B/s"
  row "pinned device-to-host bandwidth" "$(rate "$d2h")B/s"
  for b in Ladder Stress; do
    local dr th target=""
    dr=$(median "BM_GpuDeviceResident/${b}" 6)
    th=$(median "BM_GpuToHost/${b}" 6)
    [ "$b" = Ladder ] && target=" (target >= 80 %)"
    row "$b device-resident" \
      "$(rate "$(median "BM_GpuDeviceResident/${b}" 7)")rows/s, $(rate "$dr")B/s = $(ratio "$dr" "$write") of memset$target"
    row "$b to host" \
      "$(rate "$(median "BM_GpuToHost/${b}" 7)")rows/s, $(rate "$th")B/s = $(ratio "$th" "$d2h") of pinned D2H$target"
  done
  for t in Users Lineitem; do
    local on_gpu on_cpu target=""
    on_gpu=$(median "BM_GpuTableToCsv/${t}Gpu" 6)
    on_cpu=$(median "BM_GpuTableToCsv/${t}Cpu" 6)
    [ "$t" = Users ] && target=", target >= 5x"
    row "$t to CSV on the GPU" \
      "$(rate "$on_gpu")B/s = $(ratio "$on_gpu" "$d2h") of pinned D2H (target >= 80 %); $(times "$on_gpu" "$on_cpu") the CPU tier's $(rate "$on_cpu")B/s$target"
  done
  row "Users, every column in device memory (6 str)" \
    "$(rate "$(median BM_GpuUsersToDevice 7)")rows/s, $(rate "$(median BM_GpuUsersToDevice 6)")B/s of columns = $(ratio "$(median BM_GpuUsersToDevice 6)" "$write") of memset"
  row "Embeddings (768 f32 unit vectors) device-resident" \
    "$(rate "$(median BM_GpuEmbeddingsToDevice 7)")rows/s, $(rate "$(median BM_GpuEmbeddingsToDevice 6)")B/s = $(ratio "$(median BM_GpuEmbeddingsToDevice 6)" "$write") of memset (target >= 70 %)"
  row "Embeddings (768 f32 unit vectors) to host" \
    "$(rate "$(median BM_GpuEmbeddingsToHost 7)")rows/s, $(rate "$(median BM_GpuEmbeddingsToHost 6)")B/s = $(ratio "$(median BM_GpuEmbeddingsToHost 6)" "$d2h") of pinned D2H"
  # How --out could write faster than one thread (issue 55 item 5): one
  # file's 256 MiB in /dev/shm by 1, 4 and 16 threads, by positioned writes
  # and through a mapping (bench/file_write_bench.cpp).
  timeout 8 "$bin/bench/polyrt_bench" --benchmark_filter='FileWrite/.*/(1|4|16)/' \
    --benchmark_min_time=0.1 --benchmark_format=csv > "$out/bench_files.csv" 2>> "$out/bench.log"
  local files_status=$? writes=""
  for way in Pwrite Mapped; do
    writes+="$way"
    for n in 1 4 16; do
      writes+=" $n: $(rate "$(awk -F, -v n="\"BM_FileWrite/$way/$n/real_time\"" \
        '$1 == n {print $6}' "$out/bench_files.csv")")B/s"
    done
    writes+="; "
  done
  row "one file written by threads (1, 4, 16)" "$(status_text "$files_status"): ${writes%; }"
  row "compile of a new program, cold (PTX + cubin)" "$(median BM_GpuCompile_NewProgramCold 3) ms (target < 150)"
  row "compile from the caches" "$(median BM_GpuCompile_Cached 3) ms (target < 5)"
  row "wall time" "$(($(date +%s) - start)) s; logs in $out"
  [ "$tests_status" -eq 0 ] && [ "$diff_status" -eq 0 ] && [ "$bench_status" -eq 0 ]
}

# `polyrt run` as a user runs it: a new process with an empty JIT cache and
# again with a warm one, then users and lineitem on every --device choice,
# to /dev/null and to a file in RAM, each line with its rows/s and what -v
# said (the devices' shares, auto's reason). 60 s in all: what would start
# after them is a row saying it did not run. (The steps' limits: devices 20,
# tests 60, differential 30, these 60, benchmarks 60, file writes 8: under 4
# minutes.)
run_commands() {
  local out=$1 rows=4000000 cold warm
  local deadline=$(($(date +%s) + 60))
  local cold_cache
  cold_cache=$(mktemp -d)
  timed_run() {  # seconds of one command; its stderr in $out/run.err, then runs.log
    local began ended code left=$((deadline - $(date +%s)))
    [ "$left" -gt 0 ] || { echo "not run (the step's 60 s were spent)"; return; }
    began=$(date +%s%N)
    timeout "$((left < 20 ? left : 20))" "$@" 2> "$out/run.err" >/dev/null
    code=$?
    ended=$(date +%s%N)
    cat "$out/run.err" >> "$out/runs.log"
    [ "$code" -eq 0 ] || { echo "$(status_text "$code")"; return; }
    awk -v ns=$((ended - began)) 'BEGIN {printf "%.2f", ns / 1e9}'
  }
  cold=$(POLYRT_CACHE_DIR=$cold_cache timed_run "$bin/cli/polyrt" run examples/users.polydat \
    --rows 100000 --device gpu --out /dev/null)
  warm=$(POLYRT_CACHE_DIR=$cold_cache timed_run "$bin/cli/polyrt" run examples/users.polydat \
    --rows 100000 --device gpu --out /dev/null)
  row "polyrt run, 100k users rows on the GPU, new process" "cold cache $cold s, warm $warm s"
  rm -rf "$cold_cache"
  # Where each GPU chunk's time goes (POLYRT_GPU_TRACE=1: prepare, pinned
  # bytes, each kernel's time and blocks, copies), a line per chunk in
  # $out/trace_PROGRAM.txt; the row sums the lines.
  for program in users lineitem; do
    local t
    t=$(POLYRT_GPU_TRACE=1 timed_run "$bin/cli/polyrt" run "examples/$program.polydat" \
      --rows "$rows" --device gpu --out /dev/null)
    grep '^polyrt: gpu [0-9]* chunk ' "$out/run.err" > "$out/trace_$program.txt"
    row "trace $program --device gpu (trace_$program.txt)" "$t s; $(awk -F'; ' '
      {n++; split($1, a, "+"); rows += a[2] + 0; for (i = 2; i <= NF; i++) {
        split($i, f, " "); if (f[1] == "on") device += f[4]; else if (f[2] == "to") ms[f[1] " to host"] += f[4];
        else ms[f[1]] += f[2]}}
      END {printf "%d chunks of %.0f rows, %.0f ms on the device:", n, n ? rows / n : 0, device;
        for (k in ms) printf " %s %.0f", k, ms[k]}' "$out/trace_$program.txt" | cut -c1-200)"
  done
  local file=/dev/shm/polyrt-device-check.csv
  [ -d /dev/shm ] || file=$(mktemp)
  for program in users lineitem; do
    for device in cpu gpu all auto; do
      for target in /dev/null "$file"; do
        echo "== $program --device $device --out $target" >> "$out/runs.log"
        local t
        t=$(timed_run "$bin/cli/polyrt" run "examples/$program.polydat" --rows "$rows" \
          --device "$device" -v --out "$target")
        rm -f "$file"
        # -v's shares ("gpu 0 (...): N rows (71.3 % of the rows)") as "gpu 0 71.3 %",
        # and what auto chose.
        local said
        said=$(sed -nE 's/^polyrt: (cpu|gpu [0-9]+)[^:]*: [0-9]+ rows \(([0-9.]+) % of the rows\).*/\1 \2 %/p;
          s/^polyrt: --device auto (.*)/auto \1/p' "$out/run.err" | tr '\n' ';' | cut -c1-200)
        if [[ "$t" =~ ^[0-9.]+$ ]]; then
          row "run $program --device $device > ${target##*/}" \
            "$(awk -v n="$rows" -v s="$t" 'BEGIN {printf "%.2f M rows/s", n / s / 1e6}'); $said"
        else
          row "run $program --device $device > ${target##*/}" "$t (see runs.log)"
        fi
      done
    done
  done
}

case "${1:-}" in
  bundle) make_bundle ;;
  run)
    bin=build-device
    run_checks
    ;;
  rehearse)
    bin=${BUILD_DIR:-build}
    export POLYRT_LIBCUDA=${POLYRT_LIBCUDA:-$root/$bin/cuda_double/libcuda.so.1}
    export POLYRT_CUDA_DOUBLE=as_real
    mkdir -p "$bin/cuda_double" && run_checks
    ;;
  *)
    echo "usage: $0 bundle|run|rehearse" >&2
    exit 2
    ;;
esac
