#!/usr/bin/env bash
# A JSON tile of ten users columns (bench/users_tile.polydat) rendered as one
# document per row (written with --format tsv, which leaves it as it is),
# against the same ten columns written as JSON Lines by --format jsonl:
# ROWS rows (5,000,000) to /dev/null on every core, ROUNDS times (7) in
# alternation; prints each round, the fastest and median of each in M
# rows/s, and the tile's share of JSON Lines' speed.
#   bench/compare_tile.sh              POLYRT=build/cli/polyrt ROUNDS=7 ROWS=5000000
set -euo pipefail
cd "$(dirname "$0")/.."
polyrt=${POLYRT:-build/cli/polyrt}
rounds=${ROUNDS:-7}
rows=${ROWS:-5000000}
program=bench/users_tile.polydat
columns=user_id,first_name,country,region,age,score,premium,plate,email,label

source bench/timing.sh

tile=() jsonl=()
for ((round = 1; round <= rounds; ++round)); do
  t=$(seconds "$polyrt" run $program --cycles 0..$rows --outputs doc --format tsv)
  j=$(seconds "$polyrt" run $program --cycles 0..$rows --outputs $columns --format jsonl)
  tile+=("$t") jsonl+=("$j")
  echo "round $round: tile $t s, jsonl $j s"
done
summary "tile " "${tile[@]}"
summary "jsonl" "${jsonl[@]}"
speed_ratio "tile / jsonl" "${tile[*]}" "${jsonl[*]}"
