"""Vector types: per-state values as lists, externs from lists and numpy
arrays, batch columns as 2-d numpy arrays, Arrow fixed-size lists where the
program fixes the dimension (large lists elsewhere), and Parquet."""
import numpy as np
import pytest

import polyrt

SOURCE = """
input x
extern q: vec_f32 = "[1, 0, 0, 0]"
a := hash_vec(x, 4)
d := vec_dot(a, q)
ids := str_to_vec_i64(printf("[{}, {}]", x, x + 1))
ragged := str_to_vec_i32(if(x % 2 == 0, "[1]", "[1, 2]"))
"""


def test_values_and_externs():
    state = polyrt.compile(SOURCE).state()
    state.set_inputs(0)
    a = state.pull("a")
    assert isinstance(a, list) and len(a) == 4
    assert a[0] == float(np.float32(0.7666216))
    assert state.pull("d") == a[0]
    assert state.pull("ids") == [0, 1]
    state.set_externs(q=np.array([0, 1, 0, 0], dtype=np.float32))
    assert state.pull("d") == a[1]
    state.set_externs(q=[0.0, 0.0, 1.0, 0.0])
    assert state.pull("d") == a[2]
    with pytest.raises(polyrt.WriteError, match=r"extern 'q' is vec_f32; got 'abc'"):
        state.set_externs(q="abc")
    with pytest.raises(polyrt.WriteError, match=r"q\[1\]"):
        state.set_externs(q=[1.0, "x"])
    state.set_externs(q=[1.0, 2.0])  # a shorter vector: the row fails, naming both lengths
    with pytest.raises(polyrt.EvalError, match=r"vec_dot: operand lengths differ \(4 vs 2\)"):
        state.pull("d")


def test_batch_columns_are_two_dimensional():
    batch = polyrt.compile(SOURCE).batch()
    out = batch.evaluate(0, 1000)
    assert out["a"].shape == (1000, 4) and out["a"].dtype == np.float32
    assert out["ids"].shape == (1000, 2) and out["ids"].dtype == np.int64
    assert out["ids"][999].tolist() == [999, 1000]
    state = polyrt.compile(SOURCE).state()
    state.set_inputs(999)
    assert out["a"][999].tolist() == state.pull("a")
    # rows of different lengths: one array per row
    assert out["ragged"].dtype == object
    assert out["ragged"][1].tolist() == [1, 2] and out["ragged"][0].tolist() == [1]


def test_arrow_lists_and_parquet(tmp_path):
    pa = pytest.importorskip("pyarrow")
    pq = pytest.importorskip("pyarrow.parquet")
    batch = polyrt.compile(SOURCE).batch()
    table = batch.to_arrow(0, 100)
    assert table.schema.field("a").type == pa.list_(pa.float32(), 4)
    assert table.schema.field("ragged").type == pa.large_list(pa.int32())
    assert table.column("ids")[7].as_py() == [7, 8]
    assert table.column("a").to_pylist()[3] == batch.evaluate(3, 4)["a"][0].tolist()
    path = str(tmp_path / "v.parquet")
    batch.write_parquet(path, 0, 100)
    assert pq.read_table(path).column("ragged").to_pylist() == table.column("ragged").to_pylist()
    assert pa.table(batch.range(0, 100, rows=30)).equals(table)


def test_preview_shows_vectors_as_the_command_does():
    preview = polyrt.compile(SOURCE).batch(["a", "ids"]).preview(0, 2)
    assert "[0.7666216,-0.13694401,-0.94713247,0.94176394]" in repr(preview)
    assert "[1,2]" in repr(preview)
