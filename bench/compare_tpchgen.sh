#!/usr/bin/env bash
# The string-heavy comparison: polyrt's lineitem-shaped tables against
# tpchgen-cli's real TPC-H lineitem at scale factor 1, all 6,001,215 rows of
# CSV into a RAM-backed directory (/dev/shm), alternating, ROUNDS times (3);
# prints each run, the medians and the ratios. polyrt writes two tables of
# lineitem's 16 columns: examples/lineitem.polydat (text built by string
# interpolation) and bench/lineitem_strings.polydat (written independently:
# format_f64 prices, date_components and printf dates, combinations words
# and a printf of several of them). tpchgen-cli (the Rust TPC-H generator on
# PyPI) is installed with pip into a temporary virtual environment: a peer
# to measure against, never a polyrt dependency. THREADS (default: every
# core) bounds polyrt's threads.
#   bench/compare_tpchgen.sh            POLYRT=build/cli/polyrt ROUNDS=3 THREADS=
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

threads=()
[[ -n ${THREADS:-} ]] && threads=(--threads "$THREADS")
polyrt_csv() {  # program: writes it as CSV, prints the seconds
  local t
  t=$(seconds "$polyrt" run "$1" --cycles 0..$rows --outputs "$outputs" --device cpu \
    "${threads[@]}" --out "$work/polyrt.csv")
  rm -f "$work/polyrt.csv"
  echo "$t"
}

example=() strings=() theirs=()
for ((round = 1; round <= rounds; ++round)); do
  t=$(polyrt_csv examples/lineitem.polydat)
  example+=("$t")
  s=$(polyrt_csv bench/lineitem_strings.polydat)
  strings+=("$s")
  u=$(seconds "$venv/bin/tpchgen-cli" csv -s 1 --tables lineitem --output-dir "$work/tpch")
  theirs+=("$u")
  echo "round $round: polyrt example $t s, polyrt strings $s s, tpchgen-cli $u s" \
    "($(wc -l < "$work/tpch/lineitem.csv") lines)"
  rm -rf "$work/tpch"
done
example_median=$(echo "${example[*]}" | median)
strings_median=$(echo "${strings[*]}" | median)
theirs_median=$(echo "${theirs[*]}" | median)
awk -v a="$example_median" -v s="$strings_median" -v b="$theirs_median" -v n=$rows 'BEGIN {
  printf "polyrt examples/lineitem.polydat:     %.2f M rows/s (median %.3f s)\n", n / a / 1e6, a
  printf "polyrt bench/lineitem_strings.polydat: %.2f M rows/s (median %.3f s)\n", n / s / 1e6, s
  printf "tpchgen-cli lineitem:                 %.2f M rows/s (median %.3f s)\n", n / b / 1e6, b
  printf "ratio to tpchgen-cli (rows/s): example %.2fx, strings %.2fx\n", b / a, b / s }'
