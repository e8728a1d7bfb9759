#!/usr/bin/env bash
# `polyrt run --format parquet` measured in one run against (1) the same rows
# as CSV (examples/users.polydat, 12 columns, 6 of them text) and (2) DuckDB's
# COPY ... TO (FORMAT parquet) of four comparable hashed u64 columns
# (examples/ladder.polydat's account_id, shard, payload_class, event_token),
# both zstd, row groups of 131,072 rows, files in RAM (/dev/shm), ROUNDS
# alternating rounds (5). DuckDB is the Python package in VENV
# (benchmark-only: pip install duckdb). Prints each one's fastest and median
# and the rows/s ratios. With BASELINE (another build's polyrt, its Arrow
# module beside it), each round also times the baseline's users Parquet and
# ladder Parquet, for the change's ratio.
#   bench/compare_parquet.sh     POLYRT=build/cli/polyrt ROUNDS=5 USERS_ROWS=5000000 LADDER_ROWS=30000000
#   BASELINE=/tmp/old/polyrt bench/compare_parquet.sh
set -euo pipefail
cd "$(dirname "$0")/.."
polyrt=${POLYRT:-build/cli/polyrt}
baseline=${BASELINE:-}
python=${VENV:-build-python/venv}/bin/python
rounds=${ROUNDS:-5}
users_rows=${USERS_ROWS:-5000000}
ladder_rows=${LADDER_ROWS:-30000000}
dir=$(mktemp -d /dev/shm/polyrt-parquet.XXXXXX)
trap 'rm -rf "$dir"' EXIT
source bench/timing.sh

duckdb_copy() {
  "$python" - "$1" "$2" <<'PY'
import sys, time, duckdb
rows, path = int(sys.argv[1]), sys.argv[2]
con = duckdb.connect()
con.execute("SET threads TO 2")
start = time.perf_counter()
con.execute(f"""COPY (SELECT hash(i + 77) % 10000000 AS account_id,
                             hash(xor(hash(i + 77) % 10000000, 5)) % 64 AS shard,
                             hash(xor(hash(i + 77), 5)) % 8 AS payload_class,
                             hash(xor(hash(xor(hash(i + 77) % 10000000, 5)), hash(xor(hash(i + 77), 5))))
                               AS event_token
                      FROM range({rows}) t(i))
                TO '{path}' (FORMAT parquet, COMPRESSION zstd, ROW_GROUP_SIZE 131072)""")
print(f"{time.perf_counter() - start:.3f}")
PY
}

users_parquet() {
  seconds "$1" run examples/users.polydat --cycles 0..$users_rows --out "$dir/u.parquet" \
    --format parquet
}
ladder_parquet() {
  seconds "$1" run examples/ladder.polydat --cycles 0..$ladder_rows --format parquet \
    --set tenant_seed=77 --set operation_seed=5 --outputs account_id,shard,payload_class,event_token \
    --out "$dir/l.parquet"
}

csv=() parquet=() ladder=() duck=() base_parquet=() base_ladder=()
for ((round = 1; round <= rounds; ++round)); do
  t=$(seconds "$polyrt" run examples/users.polydat --cycles 0..$users_rows --out "$dir/u.csv")
  u=$(users_parquet "$polyrt")
  csv+=("$t") parquet+=("$u")
  l=$(ladder_parquet "$polyrt")
  d=$(duckdb_copy "$ladder_rows" "$dir/d.parquet")
  ladder+=("$l") duck+=("$d")
  echo "round $round: users csv $t s, parquet $u s; ladder parquet $l s, DuckDB $d s"
  if [[ -n $baseline ]]; then
    bu=$(users_parquet "$baseline")
    bl=$(ladder_parquet "$baseline")
    base_parquet+=("$bu") base_ladder+=("$bl")
    echo "round $round: baseline users parquet $bu s, ladder parquet $bl s"
  fi
  rm -f "$dir"/*
done
rows=$users_rows
summary "users csv      " "${csv[@]}"
summary "users parquet  " "${parquet[@]}"
rows=$ladder_rows
summary "ladder parquet " "${ladder[@]}"
summary "DuckDB parquet " "${duck[@]}"
speed_ratio "users parquet / csv" "${parquet[*]}" "${csv[*]}"
speed_ratio "ladder parquet: polyrt / DuckDB" "${ladder[*]}" "${duck[*]}"
if [[ -n $baseline ]]; then
  speed_ratio "users parquet: polyrt / baseline" "${parquet[*]}" "${base_parquet[*]}"
  speed_ratio "ladder parquet: polyrt / baseline" "${ladder[*]}" "${base_ladder[*]}"
fi
