"""The types beside u64, f64, str and bool: the narrow and signed integers
and f32, bytes and json: per-state values and externs, batch columns of
each type's numpy dtype or Python objects, and Arrow columns."""
import json

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


BYTES_JSON = """
input x
extern key: bytes = "00ff"
extern doc: json = '{{"a": 1}}'
raw := u64_to_bytes(x)
digest := sha256(key)
obj := json_merge(doc, json_with("x", x))
"""


def test_bytes_and_json_values_and_columns():
    program = polyrt.compile(BYTES_JSON)
    state = program.state()
    state.set_inputs(2)
    assert state.pull("raw") == (2).to_bytes(8, "little")
    assert state.pull("obj") == '{"a":1,"x":2}'
    state.set_externs(key=b"abc", doc='[1,  2]')
    assert state.pull("digest").hex().startswith("ba7816bf")
    assert state.pull("obj") == "[1,2]"
    state.set_externs(key=bytearray(b"abc"))
    assert state.pull("digest").hex().startswith("ba7816bf")
    with pytest.raises(polyrt.WriteError, match="bytes or bytearray is expected"):
        state.set_externs(key="abc")
    with pytest.raises(polyrt.WriteError, match="as json"):
        state.set_externs(doc="{oops")
    batch = program.batch()
    out = batch.evaluate(0, 3)
    assert list(out["raw"]) == [r.to_bytes(8, "little") for r in range(3)]
    assert list(out["obj"]) == ['{"a":1,"x":%d}' % r for r in range(3)]
    table = batch.to_arrow(0, 3)
    assert str(table.schema.field("raw").type) == "large_binary"
    assert table.column("raw").to_pylist()[1] == (1).to_bytes(8, "little")


PARTITIONS = """
input x
parts := partitions("20%,30%,*", 1000)
part := partition_at(parts, x % 3)
start := start_of(part)
"""


def test_partitions_are_json_text_values_and_columns():
    program = polyrt.compile(PARTITIONS)
    state = program.state()
    state.set_inputs(1)
    assert json.loads(state.pull("part"))["start_ord"] == 200
    assert state.pull("start") == 200
    assert len(json.loads(state.pull("parts"))) == 3
    out = program.batch().evaluate(0, 3)
    assert [json.loads(p)["end_ord"] for p in out["part"]] == [200, 500, 1000]
    assert list(out["start"]) == [0, 200, 500]
    table = program.batch().to_arrow(0, 3)
    assert str(table.schema.field("part").type) == "large_string"
