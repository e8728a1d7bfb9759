#!/usr/bin/env bash
# The Python package's figures (bench/python_bench.py): evaluate() into numpy
# against the C++ evaluate_into, write_parquet against DuckDB's COPY ... TO
# parquet, and a users-like table against Mimesis and Faker, each pair
# measured alternately in the same run, ROUNDS times (3), as ratios of
# medians. The peers are installed with pip into a temporary directory: never
# polyrt dependencies. Needs `make python` (the package in VENV) and
# `make build` (the C++ benchmark binary).
#   bench/python_bench.sh          VENV=build-python/venv BUILD_DIR=build ROUNDS=3
set -euo pipefail
cd "$(dirname "$0")/.."
venv=${VENV:-build-python/venv}
build=${BUILD_DIR:-build}
peers=$(mktemp -d)
work=$(mktemp -d -p /dev/shm 2>/dev/null || mktemp -d)
trap 'rm -rf "$peers" "$work"' EXIT
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check --target "$peers" \
  duckdb faker mimesis
PYTHONPATH="$peers" "$venv/bin/python" bench/python_bench.py --cpp-bench "$build/bench/polyrt_bench" \
  --work "$work" --rounds "${ROUNDS:-3}"
