#!/usr/bin/env bash
# Front-end compile time of two builds of polyrt_bench (e.g. the one of an
# earlier commit against this one), their BM_FrontEnd_* benchmarks (the
# interpreter engine: parse, expansions, checker and passes, no code
# generation) in ROUNDS (3) alternating rounds: per benchmark the fastest
# and median time of each and AFTER/BEFORE (below 1: AFTER is faster).
#   bench/compare_front_end.sh BEFORE_BENCH [AFTER_BENCH]
#   (AFTER defaults to build/bench/polyrt_bench; ROUNDS=..., FILTER=a regex)
# An earlier commit's bench binary: `git checkout COMMIT && ninja -C build
# polyrt_bench && cp build/bench/polyrt_bench /tmp/before && git checkout -`.
set -euo pipefail
cd "$(dirname "$0")/.."
before=${1:?usage: bench/compare_front_end.sh BEFORE_BENCH [AFTER_BENCH]}
after=${2:-build/bench/polyrt_bench}
filter=${FILTER:-BM_FrontEnd_}
out=$(mktemp -d /dev/shm/polyrt-front-end.XXXXXX)
trap 'rm -rf "$out"' EXIT
for ((round = 1; round <= ${ROUNDS:-3}; ++round)); do
  for side in before after; do
    binary=$before
    [[ $side == after ]] && binary=$after
    "$binary" --benchmark_filter="$filter" --benchmark_min_time=1 2>/dev/null |
      awk -v side="$side" '/^BM_/ {print side, $1, $2}' >>"$out/times"
  done
done
awk '{t[$2, $1] = t[$2, $1] " " $3; names[$2] = 1}
  function stat(list, which,   a, n, i, j, x) {
    n = split(list, a, " ")
    for (i = 1; i <= n; ++i) for (j = i + 1; j <= n; ++j) if (a[j] < a[i]) {x = a[i]; a[i] = a[j]; a[j] = x}
    return which == "fastest" ? a[1] : a[int((n + 1) / 2)]
  }
  END {
    for (name in names) {
      bf = stat(t[name, "before"], "fastest"); bm = stat(t[name, "before"], "median")
      af = stat(t[name, "after"], "fastest"); am = stat(t[name, "after"], "median")
      printf "%-34s before %8.2f ms (median %8.2f), after %8.2f ms (median %8.2f): after/before fastest %.2f, median %.2f\n",
             name, bf, bm, af, am, af / bf, am / bm
    }
  }' "$out/times" | sort
