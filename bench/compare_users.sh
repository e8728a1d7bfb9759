#!/usr/bin/env bash
# examples/users.polydat (12 columns, 6 of them text) to CSV on every core,
# ROWS rows (20,000,000) to /dev/null, ROUNDS times (7), alternating with the
# polyrt binary BASELINE when one is given (another build: the commit before
# a change, say), so that both see the same machine; prints each run, the
# fastest and the median of each, in M rows/s, and their ratio. On a shared
# machine the fastest run is the least disturbed one.
#   bench/compare_users.sh              POLYRT=build/cli/polyrt ROUNDS=7 ROWS=20000000
#   BASELINE=/tmp/old/polyrt bench/compare_users.sh
set -euo pipefail
cd "$(dirname "$0")/.."
polyrt=${POLYRT:-build/cli/polyrt}
baseline=${BASELINE:-}
rounds=${ROUNDS:-7}
rows=${ROWS:-20000000}

source bench/timing.sh

ours=() theirs=()
for ((round = 1; round <= rounds; ++round)); do
  t=$(seconds "$polyrt" run examples/users.polydat --cycles 0..$rows --format csv)
  ours+=("$t")
  if [[ -n $baseline ]]; then
    u=$(seconds "$baseline" run examples/users.polydat --cycles 0..$rows --format csv)
    theirs+=("$u")
    echo "round $round: polyrt $t s, baseline $u s"
  else
    echo "round $round: polyrt $t s"
  fi
done
summary "polyrt  " "${ours[@]}"
if [[ -n $baseline ]]; then
  summary "baseline" "${theirs[@]}"
  awk -v a="$(fastest "${ours[@]}")" -v b="$(fastest "${theirs[@]}")" \
    'BEGIN {printf "ratio (polyrt / baseline rows/s, fastest runs): %.2fx\n", b / a}'
fi
