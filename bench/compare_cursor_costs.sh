#!/usr/bin/env bash
# What issue 52's cursors cost. (1) Compiling polydat's toy test definition
# (tests/data/polydat/toy_test_definition.polydat, whose body cursor's bound
# is the extern rows_total, evaluated on a probe of the program) against the
# same file with the literal bound, `polyrt check`, ROUNDS (15) times in
# alternation. (2) A time-boxed run (`until_elapsed(100000, MS)`, MS 1500)
# against the same rows with --rows, both on the per-state native engine,
# ROUNDS (5) times in alternation: the rule is checked once per chunk, so
# the rows/s should match.
#   bench/compare_cursor_costs.sh    POLYRT=build/cli/polyrt ROUNDS=... MS=...
set -euo pipefail
cd "$(dirname "$0")/.."
polyrt=${POLYRT:-build/cli/polyrt}
out=$(mktemp -d /dev/shm/polyrt-cursors.XXXXXX)
trap 'rm -rf "$out"' EXIT
source bench/timing.sh

toy=tests/data/polydat/toy_test_definition.polydat
sed 's/range(0, rows_total) over p/range(0, 1000000) over p/' "$toy" >"$out/literal.polydat"
cp "$toy" "$out/expression.polydat"
a=() b=()
for ((round = 1; round <= ${ROUNDS:-15}; ++round)); do
  a+=("$(seconds "$polyrt" check "$out/expression.polydat")")
  b+=("$(seconds "$polyrt" check "$out/literal.polydat")")
done
awk -v af="$(fastest "${a[@]}")" -v am="$(median "${a[@]}")" -v bf="$(fastest "${b[@]}")" \
  -v bm="$(median "${b[@]}")" 'BEGIN {
    printf "check, expression bound: fastest %.1f ms, median %.1f; literal: %.1f, %.1f\n",
           af * 1e3, am * 1e3, bf * 1e3, bm * 1e3
    printf "expression / literal compile time: fastest %.2f, median %.2f\n", af / bf, am / bm }'

printf 'cursor op = until_elapsed(100000, %s)\nk := format_u64(u64_mod(hash(op), 1000), 10)\n' \
  "${MS:-1500}" >"$out/timed.polydat"
timed=() fixed=()
for ((round = 1; round <= ${ROUNDS:-5}; ++round)); do
  t=$(seconds "$polyrt" run "$out/timed.polydat" -q --out "$out/timed.csv")
  rows=$(($(wc -l <"$out/timed.csv") - 1))
  u=$(seconds "$polyrt" run "$out/timed.polydat" -q --engine native --rows "$rows" \
    --out "$out/fixed.csv")
  timed+=("$(awk -v r="$rows" -v t="$t" 'BEGIN {printf "%.0f", r / t}')")
  fixed+=("$(awk -v r="$rows" -v t="$u" 'BEGIN {printf "%.0f", r / t}')")
done
# rows/s: the largest is the fastest.
best() { printf '%s\n' "$@" | sort -n | tail -1; }
awk -v tb="$(best "${timed[@]}")" -v tm="$(median "${timed[@]}")" -v fb="$(best "${fixed[@]}")" \
  -v fm="$(median "${fixed[@]}")" 'BEGIN {
    printf "time-boxed: fastest %.2f M rows/s, median %.2f; --rows: fastest %.2f, median %.2f\n",
           tb / 1e6, tm / 1e6, fb / 1e6, fm / 1e6
    printf "time-boxed / --rows rows/s: fastest %.2f, median %.2f\n", tb / fb, tm / fm }'
