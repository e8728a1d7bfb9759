import os
import pathlib
import subprocess

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
# The C++ build (make test builds it first): the polyrt command, the CUDA
# driver double and the differential test's program generator.
BUILD = pathlib.Path(os.environ.get("POLYRT_BUILD_DIR", str(ROOT / "build")))


@pytest.fixture
def examples():
    return ROOT / "examples"


@pytest.fixture
def polyrt_cli():
    return str(built("cli/polyrt"))


def built(relative):
    """A file of the C++ build: under make test (POLYRT_BUILD_DIR set) a
    missing one fails the test, else it skips it."""
    path = BUILD / relative
    if not path.exists():
        message = f"no {path}: build polyrt first (make build)"
        if "POLYRT_BUILD_DIR" in os.environ:
            pytest.fail(message)
        pytest.skip(message)
    return path


def run_cli(cli, *args):
    return subprocess.run([cli, *args], check=True, capture_output=True).stdout


def run_polyrt(cli, *args, **kwargs):
    """`polyrt run ARGS...` (each argument as text), its status and output kept."""
    return subprocess.run([cli, "run", *map(str, args)], capture_output=True, **kwargs)
