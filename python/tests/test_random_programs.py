"""Random programs of the differential test's generator (printed by
polyrt_difftest --program SEED): the Python batch gives exactly what
per-state pulls give, and fails with the same message at the same row."""

import struct
import subprocess

import numpy as np
import pytest

import polyrt

from conftest import built

ROWS = 48


def same(a, b):
    if isinstance(a, float) and isinstance(b, float):
        return struct.pack("<d", a) == struct.pack("<d", b)
    return type(a) is type(b) and a == b


def python_value(v):
    """A batch column's row as a pull gives it (a vector's row as a list)."""
    if isinstance(v, np.ndarray):
        return v.tolist()
    return v.item() if hasattr(v, "item") else v


def oracle(program, outputs, coordinates, first):
    """Per-state values row by row; the first failure ends it (what a batch raises)."""
    state = program.state()
    columns = {o: [] for o in outputs}
    for row in range(ROWS):
        state.set_inputs([first + row] + [7] * (coordinates - 1) if coordinates else [])
        for o in outputs:
            try:
                columns[o].append(state[o])
            except polyrt.EvalError as e:
                return columns, str(e)
    return columns, None


@pytest.mark.parametrize("seed", range(1, 61))
def test_random_program(seed):
    driver = built("tests/polyrt_difftest")
    printed = subprocess.run(
        [str(driver), "--program", str(seed)], check=True, capture_output=True, text=True
    ).stdout
    first_line, source = printed.split("\n", 1)
    outputs = first_line.split()
    if not outputs:
        pytest.skip("no output the batch tier runs")
    program = polyrt.compile(source, engine="interpreter")
    coordinates = len(program.inputs)
    first = seed * 1000
    want, failure = oracle(program, outputs, coordinates, first)
    fixed = {name: 7 for name in list(program.inputs)[1:]}
    batch = program.batch(outputs, inputs=fixed)
    if failure is not None:
        with pytest.raises(polyrt.EvalError) as e:
            batch.evaluate(first, first + ROWS)
        assert str(e.value) == failure
        return
    got = batch.evaluate(first, first + ROWS)
    for o in outputs:
        column = got[o]
        values = [None] * ROWS if column is None else [python_value(v) for v in column]
        assert all(same(a, b) for a, b in zip(values, want[o])), (seed, o, source)
