#!/usr/bin/env bash
# Installs, with apt-get, whatever polyrt's build needs and this machine lacks.
# Idempotent: when everything is present it installs nothing and touches no list.
set -euo pipefail

packages=(llvm-19-dev clang-19 libclang-rt-19-dev libtbb-dev libzstd-dev zlib1g-dev libre2-dev ninja-build ccache
          libyaml-cpp-dev      # nmbrs workload files (cli/workload_file.hpp)
          cmake g++ libgtest-dev libbenchmark-dev python3 python3-dev python3-venv libopenmpi-dev
          openmpi-bin procps   # procps: pgrep, which tests/mpi_test.sh uses to signal one rank
          chromium)            # renders polyrt stats --html reports in the tests

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi

echo "polyrt setup: installing ${missing[*]}"
sudo_cmd=()
if [ "$(id -u)" -ne 0 ]; then
  sudo_cmd=(sudo)
fi
"${sudo_cmd[@]}" apt-get update
DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y --no-install-recommends "${missing[@]}"
