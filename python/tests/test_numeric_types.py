"""The numeric types beside u64 and f64: per-state values and externs, and
batch columns of each type's own numpy dtype."""

import numpy as np
import pytest

import polyrt

SOURCE = """
input x
extern lo: i16 = -300
extern gain: f32 = 0.25
small := (x % 200) as u8
signed := (x as i64 - 3) as i32
single := (x as f64 / 4.0) as f32
wide := x as i64 + lo
scaled := gain * 2.0
"""


def test_values_and_externs_keep_their_types():
    state = polyrt.compile(SOURCE).state()
    state.set_inputs(1)
    assert state.pull("signed") == -2
    assert state.pull("wide") == -299
    assert state.pull("single") == 0.25
    state.set_externs(lo=-32768)
    assert state.pull("wide") == -32767
    with pytest.raises(polyrt.WriteError, match="out of range: -32768 to 32767"):
        state.set_externs(lo=40000)
    state.set_externs(gain=0.1)  # rounded to the nearest f32
    assert state.pull("scaled") == float(np.float32(0.1)) * 2.0


def test_batch_columns_have_each_types_dtype():
    batch = polyrt.compile(SOURCE).batch()
    out = batch.evaluate(0, 5000)
    assert out["small"].dtype == np.uint8
    assert out["signed"].dtype == np.int32
    assert out["single"].dtype == np.float32
    assert out["wide"].dtype == np.int64
    x = np.arange(5000)
    assert (out["small"] == x % 200).all()
    assert (out["signed"] == x - 3).all()
    assert (out["single"] == (x / 4.0).astype(np.float32)).all()
    assert (out["wide"] == x - 300).all()
    table = batch.to_arrow(0, 10)
    assert str(table.schema.field("signed").type) == "int32"
    assert str(table.schema.field("single").type) == "float"
