import json
import os
import signal
import subprocess
import sys
import threading
import time

import numpy as np
import pytest

import polyrt

from conftest import built, run_cli

TWO_INPUTS = """
input row: u64
input table: u64
extern salt: u64 = 3
extern tag: str
h := hash(row ^ hash(table) ^ salt)
v := mod(h, 100)
f := unit_interval(h)
name := one_of(h, "ann", "bob", "cy")
label := "t{table}-{v}"
tagged := default_or(tag, "none") + "/" + name
tag_only := tag
"""


def per_state(program, outputs, rows, fixed=None, externs=None):
    """The values per-state pulls give: the oracle for the batch."""
    state = program.state(**(externs or {}))
    out = {o: [] for o in outputs}
    for r in rows:
        state.set_inputs([r] + list(fixed or []))
        for o in outputs:
            out[o].append(state[o])
    return out


def test_evaluate_matches_per_state_pulls(examples):
    program = polyrt.compile(examples / "users.polydat", engine="interpreter")
    batch = program.batch()
    got = batch.evaluate(1000, 1300)
    want = per_state(program, list(program.outputs), range(1000, 1300))
    for name, kind in program.outputs.items():
        column = got[name]
        assert len(column) == 300
        if kind == "u64":
            assert column.dtype == np.uint64
        elif kind == "f64":
            assert column.dtype == np.float64
        assert list(column) == want[name], name


def test_numeric_arrays_own_polyrt_buffers():
    batch = polyrt.compile(TWO_INPUTS).batch(["h", "f"])
    got = batch.evaluate(0, 50000)
    for column in got.values():
        assert not column.flags.owndata and column.base is not None  # a capsule: no copy
        assert column.flags.writeable and column.flags.c_contiguous
    del batch  # the arrays outlive the batch
    assert got["h"][49999] == polyrt.compile(TWO_INPUTS).batch(["h"]).evaluate(49999, 50000)["h"][0]


def test_iterate_and_fixed_inputs_by_name():
    program = polyrt.compile(TWO_INPUTS)
    batch = program.batch(["v", "label"], iterate="table", inputs={"row": 42})
    got = batch.evaluate(5, 25)
    state = program.state()
    for i, table in enumerate(range(5, 25)):
        state.set_inputs(42, table)
        assert got["v"][i] == state["v"] and got["label"][i] == state["label"]


def test_externs_and_none_columns():
    program = polyrt.compile(TWO_INPUTS)
    unset = program.batch(["tag_only", "tagged"]).evaluate(0, 10)
    assert unset["tag_only"] is None  # None on every row: the extern has no default
    assert all(t.startswith("none/") for t in unset["tagged"])
    table = program.batch(["tag_only", "tagged"]).to_arrow(0, 10)
    assert table.column("tag_only").null_count == 10
    got = program.batch(["tagged"], externs={"tag": "x", "salt": 9}).evaluate(0, 10)
    want = per_state(program, ["tagged"], range(10), [0], {"tag": "x", "salt": 9})
    assert list(got["tagged"]) == want["tagged"]


def test_to_arrow_polars_pandas_agree(examples):
    pa = pytest.importorskip("pyarrow")
    pl = pytest.importorskip("polars")
    batch = polyrt.compile(examples / "users.polydat").batch()
    table = batch.to_arrow(0, 20000)
    assert table.num_rows == 20000
    assert table.schema.field("email").type == pa.large_string()
    assert table.schema.field("user_id").type == pa.uint64()
    assert table.schema.field("score").type == pa.float64()
    columns = batch.evaluate(0, 20000)
    for name in table.column_names:
        assert table.column(name).to_pylist() == list(columns[name]), name
    frame = batch.to_polars(0, 20000)
    assert frame.shape == (20000, len(table.column_names))
    assert frame["email"].to_list() == table.column("email").to_pylist()
    assert frame.equals(pl.from_arrow(table))
    pandas_frame = batch.to_pandas(0, 20000)
    assert list(pandas_frame["plate"]) == table.column("plate").to_pylist()


def test_iter_batches_cover_the_range(examples):
    pa = pytest.importorskip("pyarrow")
    batch = polyrt.compile(examples / "users.polydat").batch(["user_id", "email"])
    batches = list(batch.iter_batches(10, 10 + 25000, rows=10000))
    assert [b.num_rows for b in batches] == [10000, 10000, 5000]
    assert pa.Table.from_batches(batches).equals(batch.to_arrow(10, 25010))
    with pytest.raises(ValueError):
        list(batch.iter_batches(0, 10, rows=0))


def test_write_parquet_round_trips(tmp_path, examples):
    pq = pytest.importorskip("pyarrow.parquet")
    batch = polyrt.compile(examples / "users.polydat").batch()
    path = tmp_path / "users.parquet"
    batch.write_parquet(path, 0, 30000, row_group_rows=8000, compression="snappy")
    read = pq.read_table(path)
    assert read.equals(batch.to_arrow(0, 30000))
    assert pq.ParquetFile(path).metadata.num_row_groups == 4
    assert sorted(os.listdir(tmp_path)) == ["users.parquet"]


def test_write_parquet_writes_the_commands_file_and_falls_back_to_pyarrow(tmp_path, examples, polyrt_cli):
    # The command's writer (the Arrow module beside the extension): the very
    # bytes `polyrt run --format parquet` writes. Without the module (a
    # package built where pyarrow was not), pyarrow's writer: the same table.
    pq = pytest.importorskip("pyarrow.parquet")
    program = examples / "users.polydat"
    batch = polyrt.compile(program).batch()
    ours = tmp_path / "python.parquet"
    batch.write_parquet(ours, 5, 200_005, compression="zstd:3")
    command = tmp_path / "command.parquet"
    r = subprocess.run([polyrt_cli, "run", str(program), "--cycles", "5..200005", "--format", "parquet",
                        "--compress", "zstd:3", "--out", str(command)], capture_output=True)
    assert r.returncode == 0, r.stderr.decode()
    assert ours.read_bytes() == command.read_bytes()
    assert pq.ParquetFile(ours).metadata.num_row_groups == 2  # the command's 131,072 rows a group
    fallback = tmp_path / "fallback.parquet"
    code = (
        "import sys, polyrt, polyrt._polyrt as native\n"
        "assert 'nowhere' in native.columnar_module_error()\n"
        f"polyrt.compile(open({str(program)!r}).read()).batch().write_parquet(sys.argv[1], 5, 200_005,"
        " row_group_rows=131072)\n"
    )
    env = dict(os.environ, POLYRT_ARROW_MODULE=str(tmp_path / "nowhere.so"))
    r = subprocess.run([sys.executable, "-c", code, str(fallback)], capture_output=True, env=env)
    assert r.returncode == 0, r.stderr.decode()
    assert pq.read_table(fallback).equals(pq.read_table(ours))
    assert pq.ParquetFile(fallback).metadata.num_row_groups == 2


def test_failures_leave_no_file_and_name_the_smallest_coordinate(tmp_path):
    program = polyrt.compile("input c: u64\nx := in_range(c, 0, 4999)\n")
    path = tmp_path / "x.parquet"
    with pytest.raises(polyrt.EvalError) as e:
        program.batch().write_parquet(path, 0, 100000, row_group_rows=1000)
    assert "5000" in str(e.value)
    assert os.listdir(tmp_path) == []
    with pytest.raises(polyrt.EvalError) as again:
        program.batch().evaluate(0, 100000)
    state = program.state()
    state.set_inputs(5000)
    with pytest.raises(polyrt.EvalError) as pulled:
        state["x"]
    assert str(again.value) == str(pulled.value)


def test_bad_arguments_are_polyrt_errors():
    program = polyrt.compile(TWO_INPUTS)
    with pytest.raises(polyrt.WriteError, match="nope"):
        program.batch(["nope"])
    with pytest.raises(polyrt.WriteError, match="its inputs: row, table"):
        program.batch(inputs={"rows": 1})
    with pytest.raises(polyrt.WriteError, match="iterates"):
        program.batch(iterate="row", inputs={"row": 1})
    with pytest.raises(polyrt.WriteError, match="cpu, gpu, auto, all"):
        program.batch(device="tpu")
    with pytest.raises(polyrt.WriteError, match="before start"):
        program.batch().evaluate(10, 5)
    with pytest.raises(polyrt.WriteError, match="salt"):
        program.batch(externs={"salt": "text"})


def test_gpu_without_a_driver_is_a_device_error():
    env = dict(os.environ, POLYRT_LIBCUDA="/nonexistent/libcuda.so.1")
    code = (
        "import polyrt\n"
        "p = polyrt.compile('input c: u64\\nx := hash(c)\\n')\n"
        "try:\n"
        "    p.batch(device='gpu')\n"
        "except polyrt.DeviceError as e:\n"
        "    print('DeviceError', e)\n"
        "print(p.batch(device='auto').device)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith("DeviceError")
    assert "cpu (no GPU:" in out.stdout


def test_gpu_batch_on_the_driver_double(examples):
    double = built("cuda_double/libcuda.so.1")
    env = dict(os.environ, POLYRT_LIBCUDA=str(double))
    code = (
        "import sys, polyrt, numpy as np\n"
        "p = polyrt.compile(sys.argv[1])\n"
        "outputs = [o for o, t in p.outputs.items() if t != 'str']\n"
        "for device in ('gpu', 'all'):\n"
        "    b = p.batch(outputs, device=device)\n"
        "    got, want = b.evaluate(0, 70000), p.batch(outputs).evaluate(0, 70000)\n"
        "    assert all(np.array_equal(got[o], want[o]) for o in outputs), device\n"
        "    for format in ('csv', 'tsv', 'jsonl'):\n"
        "        text = p.batch(device=device).text(5, 30005, format)\n"
        "        assert text == p.batch(device='cpu').text(5, 30005, format), format\n"
        "    print(b.device)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code, str(examples / "users.polydat")],
        env=env,
        capture_output=True,
        text=True,
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith("gpu 0")


def test_values_equal_the_cli(examples, polyrt_cli):
    for example, fixed in (
        ("users.polydat", {}),
        ("lineitem.polydat", {}),
        ("ladder.polydat", {"tenant_seed": 7, "operation_seed": 9}),
    ):
        path = examples / example
        settings = [arg for name, v in fixed.items() for arg in ("--set", f"{name}={v}")]
        lines = run_cli(
            polyrt_cli, "run", str(path), "--cycles", "0..2000", "--format", "jsonl", *settings
        )
        rows = [json.loads(line) for line in lines.splitlines()]
        columns = polyrt.compile(path).batch(list(rows[0]), inputs=fixed).evaluate(0, 2000)
        for name in rows[0]:
            assert [row[name] for row in rows] == list(columns[name]), (example, name)


def test_keyboard_interrupt_stops_a_long_evaluate(tmp_path):
    program = polyrt.compile("input c: u64\nx := hash(hash(hash(c)))\ns := \"{x}-{x}\"\n")
    batch = program.batch()
    timer = threading.Timer(0.3, lambda: os.kill(os.getpid(), signal.SIGINT))
    timer.start()
    began = time.monotonic()
    with pytest.raises(KeyboardInterrupt):
        batch.write_parquet(tmp_path / "big.parquet", 0, 10**12, row_group_rows=1 << 20)
    assert time.monotonic() - began < 1.5
    assert os.listdir(tmp_path) == []
    timer = threading.Timer(0.3, lambda: os.kill(os.getpid(), signal.SIGINT))
    timer.start()
    began = time.monotonic()
    with pytest.raises(KeyboardInterrupt):
        batch.evaluate(0, 10**9)
    assert time.monotonic() - began < 1.5


def test_text_longer_than_its_first_chunk_foretold():
    # A text column's bytes are reserved at its first chunk's bytes a row;
    # rows that grow longer outgrow that room, which grows by doubling.
    alphabet = "abcdefghij" * 50
    program = polyrt.compile(f'input x\ns := substring("{alphabet}", 0, x / 500)\nn := x + 1\n')
    rows = 250_000
    columns = program.batch().evaluate(0, rows)
    offsets, data = program.batch().to_arrow(0, rows).column("s").chunk(0).buffers()[1:3]
    lengths = [min(x // 500, 500) for x in range(rows)]
    assert list(columns["s"][::997]) == [alphabet[:n] for n in lengths[::997]]
    assert np.array_equal(columns["n"], np.arange(1, rows + 1, dtype=np.uint64))
    ends = np.frombuffer(offsets, dtype=np.int64)[: rows + 1]
    assert int(ends[-1]) == sum(lengths) and np.array_equal(np.diff(ends), lengths)


def test_recycled_buffers_hold_the_new_rows():
    program = polyrt.compile(TWO_INPUTS)
    batch = program.batch(["h", "f"])
    rows = 300_000  # buffers of over 1 MiB: recycled through the cache
    first = batch.evaluate(0, rows)
    del first
    second = batch.evaluate(rows, 2 * rows)
    fresh = program.batch(["h", "f"]).evaluate(rows, 2 * rows)
    assert np.array_equal(second["h"], fresh["h"]) and np.array_equal(second["f"], fresh["f"])
    polyrt.set_buffer_cache_limit(0)  # frees what is kept; evaluate still works
    assert np.array_equal(batch.evaluate(rows, 2 * rows)["h"], fresh["h"])
    polyrt.set_buffer_cache_limit(1 << 30)


def test_parquet_dictionary_only_for_few_distinct_values(tmp_path, examples):
    pq = pytest.importorskip("pyarrow.parquet")
    batch = polyrt.compile(examples / "users.polydat").batch(["seed", "region", "email"])
    path = tmp_path / "u.parquet"
    batch.write_parquet(path, 0, 100_000)
    group = pq.ParquetFile(path).metadata.row_group(0)
    encodings = {group.column(i).path_in_schema: group.column(i).encodings for i in range(3)}
    assert "RLE_DICTIONARY" in encodings["region"]
    assert "RLE_DICTIONARY" not in encodings["seed"]


def _prints_ok_on_the_double(code):
    """Runs `code` in a new interpreter on the CUDA driver's test double; it
    must print ok."""
    env = dict(os.environ, POLYRT_LIBCUDA=str(built("cuda_double/libcuda.so.1")))
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "ok"


def test_device_columns_on_the_driver_double():
    """The driver double's device memory is host memory: the protocol fields
    point at the very words the CPU tier computes."""
    code = r"""
import ctypes, gc, numpy as np, polyrt
p = polyrt.compile("input x: u64\nextern unset: u64\nh := hash(x)\nf := unit_interval(h)\nnone := unset + 1\n")
want = p.batch(["h", "f"]).evaluate(10, 5010)
columns = p.batch(device="gpu").evaluate(10, 5010, on_device=True)
assert columns["none"] is None
for name, kind, typestr in (("h", np.uint64, "<u8"), ("f", np.float64, "<f8")):
    c = columns[name]
    cai = c.__cuda_array_interface__
    assert cai["shape"] == (5000,) and cai["typestr"] == typestr and cai["version"] == 3
    assert cai["strides"] is None and cai["stream"] is None
    address, read_only = cai["data"]
    assert address == c.address != 0 and read_only is False
    assert c.__dlpack_device__() == (2, 0)  # kDLCUDA, GPU 0
    words = np.ctypeslib.as_array((ctypes.c_uint64 * 5000).from_address(address)).view(kind)
    assert np.array_equal(words, want[name]), name
capsule = columns["h"].__dlpack__()
get = ctypes.pythonapi.PyCapsule_GetPointer
get.restype, get.argtypes = ctypes.c_void_p, [ctypes.py_object, ctypes.c_char_p]
tensor = get(capsule, b"dltensor")  # a DLManagedTensor: its DLTensor's data pointer first
address = ctypes.c_void_p.from_address(tensor).value
del columns
gc.collect()
kept = np.ctypeslib.as_array((ctypes.c_uint64 * 5000).from_address(address))
assert np.array_equal(kept, want["h"])  # the capsule keeps the memory
try:
    p.batch(["h"]).evaluate(0, 10, on_device=True)
except polyrt.WriteError as e:
    assert "runs on cpu" in str(e)
else:
    raise AssertionError("on_device on the CPU was not refused")
print("ok")
"""
    _prints_ok_on_the_double(code)


def test_text_columns_on_the_device_match_the_cpu_tier(examples):
    """users.polydat's str columns stay in device memory as (offsets, data)
    pairs: the same bytes as the CPU tier's, through the protocol's
    addresses, to_numpy and to_arrow."""
    code = f"""
import ctypes, numpy as np, polyrt
p = polyrt.compile({str(examples / "users.polydat")!r})
want = p.batch().evaluate(100, 9100)
columns = p.batch(device="gpu").evaluate(100, 9100, on_device=True)
for name, column in columns.items():
    if isinstance(column, polyrt.DeviceColumn):
        assert np.array_equal(column.to_numpy(), want[name]), name
        continue
    assert isinstance(column, polyrt.DeviceTextColumn) and column.type == "str", name
    assert len(column) == 9000 and column.offsets.dtype == np.int64 and column.data.dtype == np.uint8
    cai = column.offsets.__cuda_array_interface__
    assert cai["shape"] == (9001,) and cai["typestr"] == "<i8"
    assert column.data.__cuda_array_interface__["shape"] == (column.nbytes,)
    assert column.offsets.__dlpack_device__() == (2, 0)
    offsets = np.ctypeslib.as_array((ctypes.c_int64 * 9001).from_address(cai["data"][0]))
    data = ctypes.string_at(column.data.address, column.nbytes)
    texts = [data[offsets[r]:offsets[r + 1]].decode() for r in range(9000)]
    assert texts == list(want[name]), name
    assert list(column.to_numpy()) == list(want[name]), name
    arrow = column.to_arrow()
    assert str(arrow.type) == "large_string" and arrow.to_pylist() == list(want[name]), name
print("ok")
"""
    pytest.importorskip("pyarrow")
    _prints_ok_on_the_double(code)


def test_vector_columns_on_the_device_are_rows_by_dim_arrays():
    """A vector of a fixed dimension left in device memory is a rows x dim
    array for DLPack and the CUDA array interface (its elements are dense),
    the CPU tier's values; a ragged one has offsets and data only."""
    code = r"""
import ctypes, numpy as np, polyrt
p = polyrt.compile("input x: u64\ne := vec_norm(hash_vec(x, 24))\n"
                   "r := str_to_vec_i32(printf(\"[{}]\", x % 9))\n"
                   "ragged := hash_vec(x, x % 3 + 1)\n")
want = p.batch().evaluate(7, 2007)
columns = p.batch(device="gpu").evaluate(7, 2007, on_device=True)
e = columns["e"]
assert isinstance(e, polyrt.DeviceVectorColumn) and e.shape == (2000, 24) and e.dtype == np.float32
cai = e.__cuda_array_interface__
assert cai["shape"] == (2000, 24) and cai["typestr"] == "<f4" and cai["data"][0] == e.data.address
values = np.ctypeslib.as_array((ctypes.c_float * (2000 * 24)).from_address(cai["data"][0]))
assert np.array_equal(values.reshape(2000, 24), want["e"])
assert np.array_equal(e.to_numpy(), want["e"])
capsule = e.__dlpack__()
get = ctypes.pythonapi.PyCapsule_GetPointer
get.restype, get.argtypes = ctypes.c_void_p, [ctypes.py_object, ctypes.c_char_p]
tensor = get(capsule, b"dltensor")  # DLTensor: data, device (8), ndim (int32), dtype (4), shape*
ndim = ctypes.c_int32.from_address(tensor + 16).value
shape = ctypes.cast(ctypes.c_void_p.from_address(tensor + 24).value, ctypes.POINTER(ctypes.c_int64))
assert ndim == 2 and (shape[0], shape[1]) == (2000, 24)
assert str(e.to_arrow().type) == "fixed_size_list<item: float>[24]"
assert np.array_equal(columns["r"].to_numpy(), want["r"])
ragged = columns["ragged"]
assert list(map(list, ragged.to_numpy())) == list(map(list, want["ragged"]))
try:
    ragged.__dlpack__()
except polyrt.WriteError as err:
    assert "dimension the program does not fix" in str(err)
else:
    raise AssertionError("a ragged vector gave a 2-D array")
print("ok")
"""
    pytest.importorskip("pyarrow")
    _prints_ok_on_the_double(code)


def test_missing_optional_modules_say_what_to_install(monkeypatch):
    batch = polyrt.compile(TWO_INPUTS).batch(["v"])
    for module, call in (
        ("pyarrow", lambda: batch.to_arrow(0, 5)),
        ("polars", lambda: batch.to_polars(0, 5)),
        ("pandas", lambda: batch.to_pandas(0, 5)),
    ):
        monkeypatch.setitem(sys.modules, module, None)  # import fails as if not installed
        with pytest.raises(ImportError, match=f"pip install {module}"):
            call()
        monkeypatch.undo()


def test_range_is_an_arrow_stream_for_pyarrow_polars_and_duckdb(examples):
    pa = pytest.importorskip("pyarrow")
    pl = pytest.importorskip("polars")
    duckdb = pytest.importorskip("duckdb")
    batch = polyrt.compile(examples / "users.polydat").batch(["user_id", "region", "score"])
    r = batch.range(100, 10_100, rows=3_000)
    expected = batch.to_arrow(100, 10_100)
    assert pa.table(r).equals(expected)
    reader = pa.RecordBatchReader.from_stream(r)
    sizes = [b.num_rows for b in reader]
    assert sizes == [3_000, 3_000, 3_000, 1_000]
    assert pa.schema(r) == expected.schema
    frame = pl.DataFrame(r)
    assert frame["user_id"].to_list() == expected.column("user_id").to_pylist()
    counts = duckdb.sql("select region, count(*) as n from r group by region order by region").fetchall()
    regions = expected.column("region").to_pylist()
    assert counts == sorted((v, regions.count(v)) for v in set(regions))
    # Numeric columns reach Arrow without a copy: the first batch's user_id
    # buffer is the numpy array polyrt evaluated into.
    first = next(iter(pa.RecordBatchReader.from_stream(batch.range(0, 10, rows=10))))
    assert first.column("user_id").to_numpy(zero_copy_only=True).dtype == np.uint64
    with pytest.raises(ValueError):
        batch.range(0, 10, rows=0)


def test_preview_and_html_reprs(examples):
    program = polyrt.compile(examples / "users.polydat")
    batch = program.batch(["user_id", "email", "score"])
    preview = batch.preview(5, rows=3)
    columns = batch.evaluate(5, 8)
    assert preview.rows == [
        [int(columns["user_id"][r]), columns["email"][r], float(columns["score"][r])] for r in range(3)
    ]
    text = repr(preview)
    assert "user_id" in text and "u64" in text and text.endswith("3 rows from 5")
    page = preview._repr_html_()
    assert page.count("<tr>") == 4 and "<small>str</small>" in page and "@example.com" in page
    assert "<script" not in page
    assert "polyrt.Program" in program._repr_html_() and "user_id" in program._repr_html_()
    assert "device" in batch._repr_html_()
    with pytest.raises(ValueError):
        batch.preview(rows=0)
    # Text is escaped; None shows as None.
    odd = polyrt.compile('input c\nextern nick: str\nn := nick\nt := "<b>&"\n').batch()
    page = odd.preview(rows=1)._repr_html_()
    assert "&lt;b&gt;&amp;" in page and "<i>None</i>" in page


def test_text_is_what_polyrt_run_writes(examples, polyrt_cli):
    path = examples / "users.polydat"
    batch = polyrt.compile(path).batch()
    for format in ("csv", "tsv", "jsonl"):
        cli = subprocess.run(
            [str(polyrt_cli), "run", str(path), "--cycles", "3..2003", "--format", format, "--device", "cpu"],
            capture_output=True,
            check=True,
        ).stdout
        assert batch.text(3, 2003, format) == cli, format
    body = batch.text(3, 2003, "csv", header=False)
    assert body.count(b"\n") == 2000 and not body.startswith(b"seed,")
    assert batch.text(7, 7, "tsv") == batch.text(0, 0, "tsv")  # the header line alone
    with pytest.raises(polyrt.WriteError, match="no text row format 'npy'"):
        batch.text(0, 10, "npy")
    with pytest.raises(polyrt.WriteError, match="stop is before start"):
        batch.text(10, 5)


def test_the_driver_library_is_the_file_loaded_not_its_soname():
    """Loaded by its soname (no POLYRT_LIBCUDA), the driver's library is the
    file dlopen found, symbolic links resolved: the bare libcuda.so.1 named
    no file, and the device check failed to copy it."""
    double = built("cuda_double/libcuda.so.1")
    env = {k: v for k, v in os.environ.items() if k != "POLYRT_LIBCUDA"}
    env["LD_LIBRARY_PATH"] = str(double.parent)
    out = subprocess.run(
        [sys.executable, "-c", "import polyrt; print(polyrt.devices()['cuda_driver_library'])"],
        env=env, capture_output=True, text=True, check=True,
    )
    assert out.stdout.strip() == os.path.realpath(double)


def test_columns_project_what_is_generated():
    import pyarrow as pa

    program = polyrt.compile(
        "input cycle\nid := hash(cycle)\nname := one_of(id, \"a\", \"b\")\nslow := sha256(u64_to_bytes(id))\n"
    )
    batch = program.batch(threads=2)
    whole = batch.to_arrow(0, 5000)
    some = batch.to_arrow(0, 5000, columns=["name", "id"])
    assert some.column_names == ["name", "id"]
    assert some.column("id").equals(whole.column("id"))
    assert some.column("name").equals(whole.column("name"))
    streamed = pa.table(batch.range(0, 5000, 1000, columns=["id"]))
    assert streamed.column_names == ["id"] and streamed.column("id").equals(whole.column("id"))
    parts = list(batch.iter_batches(0, 5000, 2000, columns=["name"]))
    assert [b.num_rows for b in parts] == [2000, 2000, 1000]
    with pytest.raises(ValueError, match=r"names 'nope', which is not an output of this batch"):
        batch.range(0, 10, columns=["nope"])


def test_an_applications_primary_context_keeps_its_flags():
    """An application (PyTorch, ...) that made the GPU's primary context first
    keeps its scheduling flags; a context polyrt makes gets blocking sync."""
    double = built("cuda_double/libcuda.so.1")
    env = dict(os.environ, POLYRT_LIBCUDA=str(double))
    code = (
        "import ctypes, sys, polyrt\n"
        "cuda = ctypes.CDLL(sys.argv[1])\n"
        "if sys.argv[2] == 'app':\n"
        "    assert cuda.cuInit(0) == 0\n"
        "    assert cuda.cuDevicePrimaryCtxSetFlags_v2(0, 1) == 0  # CU_CTX_SCHED_SPIN\n"
        "    context = ctypes.c_void_p()\n"
        "    assert cuda.cuDevicePrimaryCtxRetain(ctypes.byref(context), 0) == 0\n"
        "p = polyrt.compile('input x\\ny := hash(x)\\n')\n"
        "p.batch(device='gpu').evaluate(0, 1000)\n"
        "cuda.polyrtCudaDoubleCount.restype = ctypes.c_int64\n"
        "print(cuda.polyrtCudaDoubleCount(b'primary_flags'))\n"
    )
    for who, flags in (("app", "1"), ("polyrt", "4")):
        out = subprocess.run([sys.executable, "-c", code, str(double), who], env=env,
                             capture_output=True, text=True)
        assert out.returncode == 0, out.stderr
        assert out.stdout.strip() == flags, who
