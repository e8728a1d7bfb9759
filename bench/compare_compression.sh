#!/usr/bin/env bash
# examples/users.polydat to CSV in a file in RAM (/dev/shm), plain, .zst and
# .gz, ROWS rows (5,000,000), ROUNDS alternating rounds (5): each one's
# fastest and median rows/s, and the compressed runs' rows/s as a share of
# plain CSV's (issue 49 asks >= 0.7x for .zst on 2 threads).
#   bench/compare_compression.sh        POLYRT=build/cli/polyrt ROUNDS=5 ROWS=5000000
set -euo pipefail
cd "$(dirname "$0")/.."
polyrt=${POLYRT:-build/cli/polyrt}
rounds=${ROUNDS:-5}
rows=${ROWS:-5000000}
dir=$(mktemp -d /dev/shm/polyrt-compression.XXXXXX)
trap 'rm -rf "$dir"' EXIT

source bench/timing.sh

plain=() zst=() gz=()
for ((round = 1; round <= rounds; ++round)); do
  for kind in csv csv.zst csv.gz; do
    t=$(seconds "$polyrt" run examples/users.polydat --cycles 0..$rows --out "$dir/users.$kind")
    size=$(stat -c %s "$dir/users.$kind")
    echo "round $round: $kind $t s, $size bytes"
    case $kind in csv) plain+=("$t") ;; csv.zst) zst+=("$t") ;; csv.gz) gz+=("$t") ;; esac
    rm -f "$dir/users.$kind"
  done
done
summary "csv     " "${plain[@]}"
summary "csv.zst " "${zst[@]}"
summary "csv.gz  " "${gz[@]}"
speed_ratio "zstd / plain" "${zst[*]}" "${plain[*]}"
speed_ratio "gzip / plain" "${gz[*]}" "${plain[*]}"
