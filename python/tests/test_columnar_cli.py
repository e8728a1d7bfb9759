"""`polyrt run --format parquet|arrow|arrows`: every output type at its real
width and sign, read back exactly by pyarrow, DuckDB and polars (values
equal to the Python package's to_arrow of the same rows), with parts, the
codecs, and no file at all when a run fails."""

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

import polyrt
from conftest import built, run_polyrt

TYPES = """
input x
extern doc: json = '{{"a": 1}}'
wide := hash(x)
small := (x % 200) as u8
mid := (x % 60000) as u16
word := (x * 7) as u32
signed := (x as i64 - 3) as i32
tiny := (x as i64 % 100 - 50) as i8
short := (x as i64 % 60000 - 30000) as i16
neg := x as i64 - 1000
ratio := unit_interval(hash(x + 1))
single := (x as f64 / 4.0) as f32
flag := coin_flip(x, 0.3)
name := one_of(x, "Ana", "Bo", "Cy", "Dee")
text := "row {x} of ü"
raw := u64_to_bytes(x)
obj := json_merge(doc, json_with("x", x))
emb := hash_vec(x, 4)
ragged := str_to_vec_i32(if(x % 2 == 0, "[1]", "[1, 2]"))
"""

EXPECTED_TYPES = {
    "wide": pa.uint64(), "small": pa.uint8(), "mid": pa.uint16(), "word": pa.uint32(),
    "signed": pa.int32(), "tiny": pa.int8(), "short": pa.int16(), "neg": pa.int64(),
    "ratio": pa.float64(), "single": pa.float32(), "flag": pa.bool_(),
    "name": pa.large_string(), "text": pa.large_string(), "raw": pa.large_binary(),
    "obj": pa.large_string(), "emb": pa.list_(pa.float32(), 4),
    "ragged": pa.large_list(pa.int32()),
}

ROWS = 70000  # more than one chunk


@pytest.fixture
def types_program(tmp_path):
    path = tmp_path / "types.polydat"
    path.write_text(TYPES)
    return path



def read(path, fmt):
    if fmt == "parquet":
        return pq.read_table(path)
    if fmt == "arrow":
        return pa.ipc.open_file(path).read_all()
    return pa.ipc.open_stream(path).read_all()


def expected(program, rows=ROWS):
    return polyrt.compile(program).batch().to_arrow(0, rows)


@pytest.mark.parametrize("fmt", ["parquet", "arrow", "arrows"])
def test_every_type_round_trips(polyrt_cli, types_program, tmp_path, fmt):
    out = tmp_path / f"t.{fmt}"
    r = run_polyrt(polyrt_cli, types_program, "--cycles", f"0..{ROWS}", "--format", fmt, "--out", out)
    assert r.returncode == 0, r.stderr.decode()
    table = read(out, fmt)
    assert {f.name: f.type for f in table.schema} == EXPECTED_TYPES
    assert table.num_rows == ROWS
    want = expected(types_program.read_text())
    for name in EXPECTED_TYPES:
        if name == "emb":
            continue
        assert table.column(name).to_pylist() == want.column(name).to_pylist(), name
    assert table.column("emb").to_pylist() == [list(v) for v in want.column("emb").to_pylist()]


def test_duckdb_and_polars_read_the_types(polyrt_cli, types_program, tmp_path):
    duckdb = pytest.importorskip("duckdb")
    polars = pytest.importorskip("polars")
    out = tmp_path / "t.parquet"
    assert run_polyrt(polyrt_cli, types_program, "--rows", ROWS, "--format", "parquet", "--out", out).returncode == 0
    con = duckdb.connect()
    kinds = dict(con.execute(f"SELECT column_name, column_type FROM (DESCRIBE '{out}')").fetchall())
    assert kinds["wide"] == "UBIGINT" and kinds["small"] == "UTINYINT" and kinds["tiny"] == "TINYINT"
    assert kinds["ratio"] == "DOUBLE" and kinds["single"] == "FLOAT" and kinds["flag"] == "BOOLEAN"
    assert kinds["name"] == "VARCHAR" and kinds["raw"] == "BLOB" and kinds["emb"] == "FLOAT[]"  # Parquet has no fixed-size list
    total, flags = con.execute(
        f"SELECT sum(neg), count(*) FILTER (WHERE flag) FROM '{out}'"
    ).fetchone()
    assert total == sum(range(ROWS)) - 1000 * ROWS
    assert flags == sum(expected(types_program.read_text()).column("flag").to_pylist())
    frame = polars.read_parquet(out)
    assert frame["signed"].dtype == polars.Int32 and frame["word"].dtype == polars.UInt32
    assert frame["text"][5] == "row 5 of ü"
    ipc = tmp_path / "t.arrow"
    assert run_polyrt(polyrt_cli, types_program, "--rows", 100, "--format", "arrow", "--out", ipc).returncode == 0
    assert polars.read_ipc(ipc)["name"].to_list() == frame["name"][:100].to_list()


def test_stream_to_a_pipe_and_parts(polyrt_cli, types_program, tmp_path):
    r = run_polyrt(polyrt_cli, types_program, "--rows", 1000, "--format", "arrows", "--outputs", "wide,name")
    assert r.returncode == 0, r.stderr.decode()
    streamed = pa.ipc.open_stream(r.stdout).read_all()
    assert streamed.column("wide").to_pylist() == expected(types_program.read_text(), 1000).column("wide").to_pylist()
    parts = tmp_path / "parts"
    r = run_polyrt(polyrt_cli, types_program, "--rows", 10000, "--format", "parquet", "--parts", 3, "--out", parts)
    assert r.returncode == 0, r.stderr.decode()
    files = sorted(parts.glob("*.parquet"))
    assert [f.name for f in files] == ["types.1.parquet", "types.2.parquet", "types.3.parquet"]
    joined = pa.concat_tables([pq.read_table(f) for f in files])
    whole = tmp_path / "whole.parquet"
    assert run_polyrt(polyrt_cli, types_program, "--rows", 10000, "--format", "parquet", "--out", whole).returncode == 0
    assert joined.equals(pq.read_table(whole))


@pytest.mark.parametrize("codec,name", [(None, "ZSTD"), ("snappy", "SNAPPY"), ("gzip", "GZIP"),
                                        ("none", "UNCOMPRESSED"), ("zstd:9", "ZSTD")])
def test_parquet_codecs_and_dictionaries(polyrt_cli, types_program, tmp_path, codec, name):
    out = tmp_path / "c.parquet"
    args = ["--rows", ROWS, "--format", "parquet", "--out", out, "--outputs", "wide,name"]
    r = run_polyrt(polyrt_cli, types_program, *args, *(["--compress", codec] if codec else []))
    assert r.returncode == 0, r.stderr.decode()
    meta = pq.ParquetFile(out).metadata
    wide, name_column = meta.row_group(0).column(0), meta.row_group(0).column(1)
    assert wide.compression == name
    assert not wide.has_dictionary_page  # unique hashes: no dictionary tried
    assert name_column.has_dictionary_page  # four names
    assert wide.statistics.has_min_max and wide.statistics.null_count == 0


def test_arrow_ipc_compression(polyrt_cli, types_program, tmp_path):
    out, plain = tmp_path / "z.arrow", tmp_path / "plain.arrow"
    r = run_polyrt(polyrt_cli, types_program, "--rows", 5000, "--format", "arrow", "--compress", "zstd", "--out", out)
    assert r.returncode == 0, r.stderr.decode()
    assert read(out, "arrow").column("name").to_pylist() == expected(types_program.read_text(), 5000).column("name").to_pylist()
    assert run_polyrt(polyrt_cli, types_program, "--rows", 5000, "--format", "arrow", "--out", plain).returncode == 0
    assert read(plain, "arrow").equals(read(out, "arrow"))
    assert out.stat().st_size * 2 < plain.stat().st_size  # the bodies are compressed


def test_refusals_leave_no_file(polyrt_cli, tmp_path, examples):
    failing = tmp_path / "failing.polydat"
    failing.write_text("input x\nv := in_range(x, 0, 50000)\n")
    out = tmp_path / "f.parquet"
    r = run_polyrt(polyrt_cli, failing, "--rows", 100000, "--format", "parquet", "--out", out)
    assert r.returncode == 1 and b"50000" in r.stderr
    r = run_polyrt(polyrt_cli, examples / "users.polydat", "--rows", 10, "--format", "arrow", "--compress", "gzip", "--out", out)
    assert r.returncode == 2 and b"--format arrow takes --compress none or zstd, not gzip" in r.stderr
    r = run_polyrt(polyrt_cli, examples / "users.polydat", "--rows", 10, "--format", "parquet", "--engine", "native", "--out", out)
    assert r.returncode == 2 and b"runs on the batch tier" in r.stderr
    r = run_polyrt(polyrt_cli, examples / "users.polydat", "--rows", 10, "--format", "parquet", "--out", out,
            env={"POLYRT_ARROW_MODULE": str(tmp_path / "nowhere.so"), "PATH": "/usr/bin:/bin"})
    assert r.returncode == 2 and b"built without its Arrow module" in r.stderr, r.stderr
    assert list(tmp_path.iterdir()) == [failing]


def test_every_device_and_a_traversal_write_the_same_table(polyrt_cli, types_program, tmp_path):
    import os

    env = dict(os.environ, POLYRT_LIBCUDA=str(built("cuda_double/libcuda.so.1")))
    tables = {}
    for device in ("cpu", "gpu", "all"):
        out = tmp_path / f"{device}.parquet"
        r = run_polyrt(polyrt_cli, types_program, "--rows", 30000, "--format", "parquet", "--device",
                device, "--out", out, env=env)
        assert r.returncode == 0, r.stderr.decode()
        tables[device] = pq.read_table(out)
    assert tables["gpu"].equals(tables["cpu"]) and tables["all"].equals(tables["cpu"])
    sweep = tmp_path / "sweep.polydat"
    sweep.write_text("input cycle\nfor a in 0..3, f in 0.5, 1.5 {\n  v := a * 2\n}\n")
    out = tmp_path / "sweep.arrow"
    assert run_polyrt(polyrt_cli, sweep, "--rows", 2, "--format", "arrow", "--out", out).returncode == 0
    rows = read(out, "arrow").to_pylist()
    assert len(rows) == 12 and rows[2] == {"cycle": 0, "a": 1, "f": 0.5, "v": 2}


def test_a_traversal_on_the_per_state_engine_writes_parquet_as_traverse_gives_it(polyrt_cli, tmp_path):
    # Its rows were refused in every format but text: they are chunks of the
    # one traversal runner now, as the lattice body's are.
    source = (
        "input cycle\nn := cycle % 4\nfor i in 0..{n}, j in x, y where i > 0 {\n"
        "  z := hash(i) % 1000\n  s := \"{j}-{i}\"\n  maybe := if(i == 2, None, z)\n}\n"
    )
    path = tmp_path / "opening.polydat"
    path.write_text(source)
    out = tmp_path / "opening.parquet"
    r = run_polyrt(polyrt_cli, path, "--cycles", "0..40", "--format", "parquet", "--out", out)
    assert r.returncode == 0, r.stderr.decode()
    table = pq.read_table(out)
    expected = polyrt.compile(source).traverse_arrow(0, 40)
    assert table.column_names == ["cycle", "i", "j", "z", "s", "maybe"]
    assert table.to_pylist() == expected.to_pylist()
    assert table.column("maybe").null_count == 20 and table.num_rows == 60
    numeric = tmp_path / "numeric.polydat"
    numeric.write_text("input cycle\nn := cycle % 4\nfor i in 0..{n} {\n  z := hash(i) % 1000\n}\n")
    r = run_polyrt(polyrt_cli, numeric, "--cycles", "0..4", "--format", "npy", "--out", tmp_path / "n")
    assert r.returncode == 2 and b"needs the row count first" in r.stderr
    assert not (tmp_path / "n").exists()


def test_parquet_row_groups_keep_their_statistics_and_bytes_on_every_device(polyrt_cli, tmp_path):
    # Row groups are encoded apart (on several threads) and assembled into one
    # file: each keeps its rows, its statistics and its dictionaries where its
    # pages landed, and the bytes do not depend on threads or devices.
    import os

    program = tmp_path / "groups.polydat"
    program.write_text(
        "input x\nid := hash(x)\ncode := one_of(x, \"a\", \"b\", \"c\")\n"
        "maybe := if(x % 7 == 3, None, x % 1000)\nnote := \"row {x}\"\n"
    )
    rows = 300000  # two whole row groups of 131,072 and a short one
    env = dict(os.environ, POLYRT_LIBCUDA=str(built("cuda_double/libcuda.so.1")))
    files = {}
    for how in (("--threads", "1"), ("--threads", "2"), ("--device", "gpu"), ("--device", "all")):
        out = tmp_path / f"g{len(files)}.parquet"
        r = run_polyrt(polyrt_cli, program, "--rows", rows, "--format", "parquet", *how, "--out", out, env=env)
        assert r.returncode == 0, r.stderr.decode()
        files[how] = out.read_bytes()
    assert len(set(files.values())) == 1
    out = tmp_path / "g0.parquet"
    table = pq.read_table(out)
    assert table.equals(polyrt.compile(program.read_text()).batch().to_arrow(0, rows))
    meta = pq.ParquetFile(out).metadata
    assert [meta.row_group(g).num_rows for g in range(meta.num_row_groups)] == [131072, 131072, 37856]
    first = 0
    for g in range(meta.num_row_groups):
        group = meta.row_group(g)
        values = table.slice(first, group.num_rows)
        first += group.num_rows
        for c, name in enumerate(table.column_names):
            stats, column = group.column(c).statistics, values.column(name)
            assert stats.null_count == column.null_count, (g, name)
            present = [v for v in column.to_pylist() if v is not None]
            assert (stats.min, stats.max) == (min(present), max(present)), (g, name)
        assert group.column(1).has_dictionary_page and not group.column(0).has_dictionary_page
    empty = tmp_path / "empty.parquet"
    r = run_polyrt(polyrt_cli, program, "--rows", 0, "--format", "parquet", "--out", empty)
    assert r.returncode == 0, r.stderr.decode()
    nothing = pq.read_table(empty)
    assert nothing.num_rows == 0 and nothing.schema.equals(table.schema)
