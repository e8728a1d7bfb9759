#!/usr/bin/env bash
# `polyrt stats` of examples/users.polydat (12 columns, 6 of them text)
# against `polyrt run` of the same rows as CSV to /dev/null, on every core:
# ROWS rows (100,000,000), ROUNDS rounds (3) alternating the two so that both
# see the same machine. Prints each round, the fastest and the median of
# each, and the ratio stats / run of the fastest runs and of the medians
# (the issue's target: at most 3x).
#   bench/compare_stats.sh              POLYRT=build/cli/polyrt ROUNDS=3 ROWS=100000000
set -euo pipefail
cd "$(dirname "$0")/.."
polyrt=${POLYRT:-build/cli/polyrt}
rounds=${ROUNDS:-3}
rows=${ROWS:-100000000}

source bench/timing.sh
runs=() stats=()
for ((round = 1; round <= rounds; ++round)); do
  r=$(seconds "$polyrt" run examples/users.polydat --cycles 0..$rows --format csv)
  s=$(seconds "$polyrt" stats examples/users.polydat --cycles 0..$rows)
  runs+=("$r") stats+=("$s")
  echo "round $round: run $r s, stats $s s"
done
awk -v r="$(fastest "${runs[@]}")" -v s="$(fastest "${stats[@]}")" -v rm="$(median "${runs[@]}")" \
  -v sm="$(median "${stats[@]}")" -v n="$rows" 'BEGIN {
    printf "run:   fastest %.3f s, median %.3f s (%d rows)\n", r, rm, n
    printf "stats: fastest %.3f s, median %.3f s\n", s, sm
    printf "ratio stats / run: fastest %.2fx, median %.2fx\n", s / r, sm / rm }'
