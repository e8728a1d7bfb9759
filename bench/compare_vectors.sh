#!/usr/bin/env bash
# Synthetic embeddings: ROWS (1,000,000) unit vectors of DIM (128) f32 per
# row, written as one rows x dim .npy array, by polyrt (vec_norm(hash_vec(
# hash(row), DIM)), every core, --format npy) and by numpy (PCG64 uniforms
# normalized with numpy.linalg.norm, bench/vector_peer.py, one process),
# into /dev/shm so that the disk is not measured, ROUNDS (5) times in
# alternation; prints each round, the fastest and median of each in M rows/s
# and polyrt's speed over numpy's.
#   bench/compare_vectors.sh    POLYRT=build/cli/polyrt PYTHON=build-python/venv/bin/python
set -euo pipefail
cd "$(dirname "$0")/.."
polyrt=${POLYRT:-build/cli/polyrt}
python=${PYTHON:-build-python/venv/bin/python}
rounds=${ROUNDS:-5}
rows=${ROWS:-1000000}
dim=${DIM:-128}
out=$(mktemp -d /dev/shm/polyrt-vectors.XXXXXX)
trap 'rm -rf "$out"' EXIT
program=$out/embeddings.polydat
printf 'input row: u64\nembedding := vec_norm(hash_vec(hash(row), %s))\n' "$dim" >"$program"

source bench/timing.sh

mine=() peer=()
for ((round = 1; round <= rounds; ++round)); do
  rm -rf "$out/polyrt" "$out/numpy.npy"
  p=$(seconds "$polyrt" run "$program" --cycles 0..$rows --format npy --out "$out/polyrt")
  n=$(seconds "$python" bench/vector_peer.py "$rows" "$dim" "$out/numpy.npy")
  mine+=("$p") peer+=("$n")
  echo "round $round: polyrt $p s, numpy $n s"
done
summary "polyrt" "${mine[@]}"
summary "numpy " "${peer[@]}"
speed_ratio "polyrt / numpy" "${mine[*]}" "${peer[*]}"
