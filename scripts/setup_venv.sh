#!/usr/bin/env bash
# The virtual environment (VENV, default build-python/venv) with what the
# build itself uses from PyPI: the Python package's build tools, and pyarrow,
# whose wheel ships Apache Arrow's and Parquet's C++ libraries with their
# headers: polyrt's Arrow module (--format parquet, arrow, arrows) is built
# against them (Debian 12 packages no Arrow C++); and lizard, which the
# complexity test runs (tests/complexity_check.py). Quick when all is there.
set -euo pipefail
cd "$(dirname "$0")/.."
venv="${VENV:-build-python/venv}"
if [ ! -x "$venv/bin/python" ]; then
  /usr/bin/python3 -m venv "$venv"
fi
if ! "$venv/bin/python" -c "import pyarrow, nanobind, scikit_build_core, lizard" 2>/dev/null; then
  "$venv/bin/python" -m pip install --quiet --disable-pip-version-check \
    "scikit-build-core>=0.10" "nanobind>=2.2" "pyarrow>=18" "lizard>=1.17"
fi
