#!/usr/bin/env bash
# The Python package in a virtual environment of its own (VENV, default
# build-python/venv): Debian's python3 (whose headers python3-dev installs),
# the build tools with pip (setup_venv.sh), then `pip install .[test]`, which builds the
# extension module from this CMake project (incrementally: its build tree
# under build-python/ is kept) along with pytest, pyarrow, polars, pandas
# and Dask for the tests.
set -euo pipefail
cd "$(dirname "$0")/.."
venv="${VENV:-build-python/venv}"
VENV="$venv" bash scripts/setup_venv.sh
# The compiler by the name the command's build knows it (CMake's default, c++;
# scikit-build would take Python's x86_64-linux-gnu-g++, the same compiler
# under a name ccache tells apart), so ccache serves this build the objects
# `make build` compiled with the same flags.
export CXX="${CXX:-c++}"
# No build isolation: the tools above are used as installed (no download per build).
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check --no-build-isolation \
  ".[test]"
