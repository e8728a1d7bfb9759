#!/usr/bin/env bash
# The exact-tail samplers against polydat's tabulated dist_* siblings in
# the batch tier: ROWS (20,000,000) rows of one f64 column each
# (sample_normal / dist_normal, sample_exponential / dist_exponential,
# sample_pareto / dist_pareto, sample_zipf / dist_zipf at n 100,000 (its
# alias table) and 1,000,000 (rejection-inversion); sample_gamma,
# sample_poisson and sample_binomial, which have no sibling, against
# dist_normal), written as .npy into /dev/shm, ROUNDS (5) times in
# alternation; prints each pair's fastest and median rows/s ratio
# (sampler / sibling; the issue asks for at least 0.5).
#   bench/compare_samplers.sh    POLYRT=build/cli/polyrt ROWS=... ROUNDS=...
set -euo pipefail
cd "$(dirname "$0")/.."
polyrt=${POLYRT:-build/cli/polyrt}
rounds=${ROUNDS:-5}
rows=${ROWS:-20000000}
out=$(mktemp -d /dev/shm/polyrt-samplers.XXXXXX)
trap 'rm -rf "$out"' EXIT
source bench/timing.sh

pairs=(
  "sample_normal(u, 0.0, 1.0)|dist_normal(u, 0.0, 1.0)"
  "sample_exponential(u, 2.0)|dist_exponential(u, 2.0)"
  "sample_pareto(u, 1.0, 1.5)|dist_pareto(u, 1.0, 1.5)"
  "sample_zipf(x, 100000, 1.1)|dist_zipf(u, 100000, 1.1)"
  "sample_zipf(x, 1000000, 1.1)|dist_zipf(u, 1000000, 1.1)"
  "sample_gamma(x, 2.5, 1.0)|dist_normal(u, 0.0, 1.0)"
  "sample_poisson(x, 37.5)|dist_normal(u, 0.0, 1.0)"
  "sample_binomial(x, 1000, 0.3)|dist_normal(u, 0.0, 1.0)"
)
program() {  # one column v := EXPRESSION over a hashed row
  printf 'input row\nprivate x := hash(row)\nprivate u := unit_interval(x)\nv := %s\n' "$1" >"$2"
}
for pair in "${pairs[@]}"; do
  sampler=${pair%%|*} sibling=${pair##*|}
  program "$sampler" "$out/a.polydat"
  program "$sibling" "$out/b.polydat"
  a=() b=()
  for ((round = 1; round <= rounds; ++round)); do
    rm -rf "$out/a" "$out/b"
    a+=("$(seconds "$polyrt" run "$out/a.polydat" --cycles 0..$rows --format npy --out "$out/a")")
    rm -rf "$out/a"
    b+=("$(seconds "$polyrt" run "$out/b.polydat" --cycles 0..$rows --format npy --out "$out/b")")
  done
  speed_ratio "$sampler / $sibling" "${a[*]}" "${b[*]}"
done
