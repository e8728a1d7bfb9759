#!/usr/bin/env bash
# The string-heavy comparison: polyrt's lineitem-shaped table
# (examples/lineitem.polydat, 16 columns, 9 of them text) against
# tpchgen-cli's real TPC-H lineitem at scale factor 1, both 6,001,215 rows of
# CSV into a RAM-backed directory (/dev/shm), alternating, ROUNDS times (3);
# prints each run, the medians and their ratio. tpchgen-cli (the Rust TPC-H
# generator on PyPI) is installed with pip into a temporary virtual
# environment: a peer to measure against, never a polyrt dependency.
#   bench/compare_tpchgen.sh            POLYRT=build/cli/polyrt ROUNDS=3
set -euo pipefail
cd "$(dirname "$0")/.."
polyrt=${POLYRT:-build/cli/polyrt}
rounds=${ROUNDS:-3}
rows=6001215
work=$(mktemp -d -p /dev/shm 2>/dev/null || mktemp -d)
venv=$(mktemp -d)
trap 'rm -rf "$work" "$venv"' EXIT

python3 -m venv "$venv" || {
  echo "compare_tpchgen: python3 -m venv failed (apt-get install python3-venv)" >&2
  exit 1
}
"$venv/bin/pip" install --quiet tpchgen-cli
outputs=l_orderkey,l_partkey,l_suppkey,l_linenumber,l_quantity,l_extendedprice,l_discount,l_tax
outputs=$outputs,l_returnflag,l_linestatus,l_shipdate,l_commitdate,l_receiptdate,l_shipinstruct
outputs=$outputs,l_shipmode,l_comment

source bench/timing.sh
median() { tr ' ' '\n' | grep . | sort -n | awk '{a[NR] = $1} END {print a[int((NR + 1) / 2)]}'; }

ours=() theirs=()
for ((round = 1; round <= rounds; ++round)); do
  t=$(seconds "$polyrt" run examples/lineitem.polydat --cycles 0..$rows --outputs "$outputs" \
    --device cpu --out "$work/polyrt.csv")
  ours+=("$t")
  rm -f "$work/polyrt.csv"
  u=$(seconds "$venv/bin/tpchgen-cli" csv -s 1 --tables lineitem --output-dir "$work/tpch")
  theirs+=("$u")
  echo "round $round: polyrt $t s, tpchgen-cli $u s ($(wc -l < "$work/tpch/lineitem.csv") lines)"
  rm -rf "$work/tpch"
done
ours_median=$(echo "${ours[*]}" | median)
theirs_median=$(echo "${theirs[*]}" | median)
awk -v a="$ours_median" -v b="$theirs_median" -v n=$rows 'BEGIN {
  printf "polyrt lineitem-shaped: %.2f M rows/s (median %.3f s)\n", n / a / 1e6, a
  printf "tpchgen-cli lineitem:   %.2f M rows/s (median %.3f s)\n", n / b / 1e6, b
  printf "ratio (polyrt / tpchgen-cli rows/s): %.2fx\n", b / a }'
