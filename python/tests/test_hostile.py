"""The Python API under hostile and careless use: huge and reversed ranges,
fork, files that must not be replaced, programs that are not files, values
of the wrong type and text that is not UTF-8. Each case is a clear
polyrt.Error (or TypeError), never a crash, a hang or a silent surprise."""

import multiprocessing
import os
import pickle
import re
import stat
import subprocess
import sys
import time
import warnings

import numpy as np
import pytest

import polyrt

from conftest import built

PROGRAM = "input c: u64\nh := hash(c)\nf := unit_interval(h)\nname := one_of(h, \"ann\", \"bob\")\n"


@pytest.fixture
def batch():
    return polyrt.compile(PROGRAM).batch()


# ---- huge ranges ------------------------------------------------------------


def test_a_range_too_large_for_memory_is_refused_before_allocating(batch):
    for call in (
        lambda: batch.evaluate(0, 2**61 + 1),
        lambda: batch.evaluate(0, 2**64 - 1),
        lambda: batch.to_arrow(0, 2**61 + 1),
        lambda: next(batch.iter_batches(0, 2**62, rows=2**61)),
    ):
        with pytest.raises(polyrt.WriteError, match="more than (this machine's memory|2\\*\\*64)"):
            call()


def test_parquet_compression_is_the_commands(tmp_path, batch):
    # write_parquet takes the codecs `polyrt run --format parquet --compress`
    # takes, and refuses another before making a file.
    pq = pytest.importorskip("pyarrow.parquet")
    if polyrt._polyrt.columnar_module_error():
        pytest.skip("pyarrow's writer takes pyarrow's codec names")
    path = tmp_path / "c.parquet"
    for codec, why in (("lz4", "unknown compression 'lz4' (valid: none, gzip, zstd, snappy"),
                       ("zstd:99", "zstd takes 1-19"),
                       ("", "unknown compression ''")):
        with pytest.raises(polyrt.OutputError, match=re.escape(why)):
            batch.write_parquet(path, 0, 10, compression=codec)
    assert os.listdir(tmp_path) == []
    batch.write_parquet(path, 0, 10, compression="gzip:3")
    assert pq.ParquetFile(path).metadata.row_group(0).column(0).compression == "GZIP"


def test_a_huge_row_group_of_a_small_range_is_fine(tmp_path, batch):
    pq = pytest.importorskip("pyarrow.parquet")
    path = tmp_path / "small.parquet"
    batch.write_parquet(path, 0, 1000, row_group_rows=2**62)
    assert pq.read_table(path).num_rows == 1000


def test_a_huge_range_on_the_gpu_is_refused_before_allocating():
    double = built("cuda_double/libcuda.so.1")
    code = (
        "import polyrt\n"
        "for outputs in (['h'], ['name']):  # a str output's offsets too\n"
        f"    b = polyrt.compile({PROGRAM!r}).batch(outputs, device='gpu')\n"
        "    for stop in (2**61 + 1, 2**64 - 1):\n"
        "        try:\n"
        "            b.evaluate(0, stop, on_device=True)\n"
        "        except polyrt.WriteError as e:\n"
        "            print('refused', e)\n"
    )
    env = dict(os.environ, POLYRT_LIBCUDA=str(double))
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert out.stdout.count("refused") == 4, out.stdout


def test_coordinates_never_wrap(batch):
    with pytest.raises(polyrt.WriteError, match="coordinates are 0 to 2\\*\\*64 - 1"):
        batch.evaluate(2**64 - 1, 2**64 + 1)
    with pytest.raises(polyrt.WriteError, match="coordinates are 0 to 2\\*\\*64 - 1"):
        batch.evaluate(-1, 3)


# ---- reversed and empty ranges -----------------------------------------------


def test_reversed_ranges_are_refused_alike_and_leave_files_untouched(tmp_path, batch):
    pytest.importorskip("pyarrow")
    path = tmp_path / "keep.parquet"
    path.write_bytes(b"previous")
    for call in (
        lambda: batch.evaluate(10, 0),
        lambda: batch.to_arrow(10, 0),
        lambda: batch.iter_batches(5, 1),  # refused at the call, not at the first next()
        lambda: batch.write_parquet(path, 10, 0),
    ):
        with pytest.raises(polyrt.WriteError, match="stop is before start"):
            call()
    assert path.read_bytes() == b"previous"
    assert sorted(os.listdir(tmp_path)) == ["keep.parquet"]


def test_empty_ranges_are_empty_everywhere(tmp_path, batch):
    pq = pytest.importorskip("pyarrow.parquet")
    assert all(len(c) == 0 for c in batch.evaluate(7, 7).values())
    assert batch.to_arrow(7, 7).num_rows == 0
    assert list(batch.iter_batches(7, 7)) == []
    batch.write_parquet(tmp_path / "empty.parquet", 7, 7)
    assert pq.read_table(tmp_path / "empty.parquet").num_rows == 0


# ---- fork ---------------------------------------------------------------------


def _child_sum(start):
    batch = polyrt.compile(PROGRAM).batch(["h"])
    return int(batch.evaluate(start, start + 3_000_000)["h"].sum(dtype=np.uint64))


@pytest.mark.parametrize("method", ["fork", "spawn", "forkserver"])
def test_a_child_process_evaluates_after_the_parent_did(method):
    batch = polyrt.compile(PROGRAM).batch(["h"])
    want = int(batch.evaluate(0, 3_000_000)["h"].sum(dtype=np.uint64))  # the pool is running
    context = multiprocessing.get_context(method)
    with context.Pool(2) as pool:
        result = pool.map_async(_child_sum, [0, 0])
        assert result.get(timeout=120) == [want, want]
    # The parent's pool still works after the fork.
    assert int(batch.evaluate(0, 3_000_000)["h"].sum(dtype=np.uint64)) == want


# ---- files written like the command writes them ---------------------------------


def test_parquet_files_get_a_new_files_mode(tmp_path, batch):
    pytest.importorskip("pyarrow")
    old = os.umask(0o027)
    try:
        batch.write_parquet(tmp_path / "mode.parquet", 0, 10)
    finally:
        os.umask(old)
    assert stat.S_IMODE(os.stat(tmp_path / "mode.parquet").st_mode) == 0o640


def test_parquet_refuses_what_the_command_refuses(tmp_path, examples):
    pytest.importorskip("pyarrow")
    target = tmp_path / "target.parquet"
    target.write_bytes(b"keep")
    link = tmp_path / "link.parquet"
    link.symlink_to(target)
    readonly = tmp_path / "ro.parquet"
    readonly.write_bytes(b"keep")
    readonly.chmod(0o444)
    source = tmp_path / "users.polydat"
    source.write_bytes((examples / "users.polydat").read_bytes())
    batch = polyrt.compile(source).batch(["user_id"])
    for path, why in (
        (link, "is a symbolic link"),
        (readonly, "is read-only"),
        (source, "a source file of the program"),
    ):
        with pytest.raises(polyrt.OutputError, match=why):
            batch.write_parquet(path, 0, 10)
    assert target.read_bytes() == b"keep" and readonly.read_bytes() == b"keep"
    assert source.read_bytes() == (examples / "users.polydat").read_bytes()
    assert sorted(os.listdir(tmp_path)) == ["link.parquet", "ro.parquet", "target.parquet", "users.polydat"]


def test_a_killed_writers_temporary_is_removed_by_the_next_write(tmp_path, batch):
    pytest.importorskip("pyarrow")
    path = tmp_path / "rows.parquet"
    code = f"import polyrt, sys\npolyrt.compile({PROGRAM!r}).batch().write_parquet(sys.argv[1], 0, 10**12)\n"
    writer = subprocess.Popen([sys.executable, "-c", code, str(path)])
    try:
        deadline = time.monotonic() + 60
        while not any(n.startswith(".rows.parquet.polyrt-tmp-") for n in os.listdir(tmp_path)):
            assert writer.poll() is None and time.monotonic() < deadline
            time.sleep(0.01)
    finally:
        writer.kill()  # killed while the temporary is open
        writer.wait()
    leftovers = [n for n in os.listdir(tmp_path) if n.startswith(".rows.parquet.polyrt-tmp-")]
    assert len(leftovers) == 1, os.listdir(tmp_path)
    batch.write_parquet(path, 0, 100)
    assert os.listdir(tmp_path) == ["rows.parquet"]


# ---- reading programs -------------------------------------------------------------


def test_programs_are_read_under_the_commands_rules(tmp_path):
    fifo = tmp_path / "fifo.polydat"
    os.mkfifo(fifo)
    for path, why in (
        (str(fifo), "it is a FIFO"),
        ("/dev/zero", "it is a character device"),
        (str(tmp_path), "it is a directory"),
        ("examples/users.polydt", "No such file"),
        ("no/such/program.polydat", "No such file"),
    ):
        with pytest.raises(polyrt.CompileError, match=why):
            polyrt.compile(path)


def test_a_latin1_program_round_trips_through_pickle(tmp_path):
    path = tmp_path / "latin1.polydat"
    path.write_bytes("input c: u64\nname := \"caf\xe9\"\n".encode("latin-1"))
    program = polyrt.compile(path)
    state = program.state()
    state.set_inputs(1)
    assert state["name"] == "caf\udce9"  # surrogateescape: the byte is kept
    copy = pickle.loads(pickle.dumps(program))
    state = copy.state()
    state.set_inputs(1)
    assert state["name"].encode("utf-8", "surrogateescape") == b"caf\xe9"


def test_text_that_is_not_utf8_is_valid_in_arrow(tmp_path):
    pa = pytest.importorskip("pyarrow")
    pq = pytest.importorskip("pyarrow.parquet")
    path = tmp_path / "latin1.polydat"
    path.write_bytes(
        'input c: u64\nextern s: str = "\xe9"\nname := "caf\xe9{c}"\nt := s\n'.encode("latin-1")
    )
    program = polyrt.compile(path)
    assert program.externs["s"].default == "\udce9"
    batch = program.batch(["name"])
    assert list(batch.evaluate(0, 2)["name"]) == ["caf\udce90", "caf\udce91"]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        table = batch.to_arrow(0, 2)
        table.validate(full=True)
        assert table.column("name").to_pylist() == ["caf\ufffd0", "caf\ufffd1"]
        batch.write_parquet(tmp_path / "t.parquet", 0, 2)
    assert any(issubclass(w.category, polyrt.InvalidUtf8Warning) for w in caught)
    assert pq.read_table(tmp_path / "t.parquet").column("name").to_pylist() == [
        "caf\ufffd0",
        "caf\ufffd1",
    ]
    assert table.schema.field("name").type == pa.large_string()
    # A str extern with surrogates round-trips to the same bytes.
    state = program.state(s="x\udcffy")
    state.set_inputs(0)
    assert state["t"] == "x\udcffy"


# ---- types at the boundary --------------------------------------------------------


def test_a_str_where_a_list_belongs_is_a_type_error():
    program = polyrt.compile(PROGRAM)
    with pytest.raises(TypeError, match="wrap it in"):
        program.batch("h")
    with pytest.raises(TypeError, match="wrap it in"):
        polyrt.compile(PROGRAM, outputs="h")
    with pytest.raises(TypeError, match="wrap it in"):
        polyrt.compile(PROGRAM, lib="mods")


@pytest.mark.parametrize("value", [-1, 2**64, 1.5, None, "3", True])
def test_inputs_must_be_coordinates(value):
    program = polyrt.compile("input a: u64\ninput b: u64\nv := hash(a ^ b)\n")
    with pytest.raises(polyrt.WriteError, match="inputs\\['b'\\] is .*coordinates are ints"):
        program.batch(inputs={"b": value})


def test_names_must_be_str():
    program = polyrt.compile("input a: u64\ninput b: u64\nv := hash(a ^ b)\n")
    with pytest.raises(polyrt.WriteError, match="must be a str"):
        program.batch(inputs={1: 2})
    with pytest.raises(polyrt.WriteError, match="iterate must be a str"):
        program.batch(iterate=3)
    with pytest.raises(polyrt.WriteError, match="must be a str"):
        program.batch(externs={1: 2})


def test_a_json_extern_says_it_is_json():
    program = polyrt.compile("input c: u64\nextern doc: json\nv := doc\n")
    with pytest.raises(polyrt.WriteError, match="extern 'doc' is json"):
        program.state(doc=5)


def test_duplicate_outputs_are_refused():
    with pytest.raises(polyrt.WriteError, match="name .h. twice"):
        polyrt.compile(PROGRAM).batch(["h", "f", "h"])


def test_huge_values_are_cut_in_messages():
    program = polyrt.compile("input c: u64\nextern s: str\nx := (s + \"{c}\") as u64\n")
    with pytest.raises(polyrt.EvalError) as e:
        program.batch(["x"], externs={"s": "a" * 1_000_000}).evaluate(0, 10)
    assert len(str(e.value)) < 3000
    assert "bytes omitted" in str(e.value)


# ---- GPU faults ---------------------------------------------------------------------


def _on_the_double(code: str, fault: str) -> str:
    """`code`'s standard output, run in a process of its own on the driver's
    test double with `fault` injected (a fault ends a device for its process)."""
    double = built("cuda_double/libcuda.so.1")
    env = dict(os.environ, POLYRT_LIBCUDA=str(double), POLYRT_CUDA_DOUBLE=fault)
    out = subprocess.run(
        [sys.executable, "-c", f"import polyrt, numpy as np\np = polyrt.compile({PROGRAM!r})\n" + code],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert out.returncode == 0, out.stderr
    return out.stdout


def test_a_gpu_fault_ends_the_device_not_the_process():
    code = (
        "want = p.batch(['h', 'f']).evaluate(0, 300000)\n"
        "try:\n"
        "    p.batch(['h', 'f'], device='gpu', chunk_rows=20000).evaluate(0, 300000)\n"
        "except polyrt.DeviceError as e:\n"
        "    print('gpu:', e)\n"
        "try:\n"
        "    p.batch(['h'], device='gpu')\n"
        "except polyrt.DeviceError as e:\n"
        "    print('again:', e)\n"
        "auto = p.batch(['h', 'f'], device='auto')\n"
        "print('auto:', auto.device)\n"
        "assert np.array_equal(auto.evaluate(0, 300000)['h'], want['h'])\n"
        "print('done')\n"
    )
    lines = _on_the_double(code, "launch_failure_at=3").splitlines()
    assert lines[0].startswith("gpu: ") and "CUDA_ERROR_LAUNCH_FAILED" in lines[0], lines
    assert "unusable for the rest of this process" in lines[1], lines
    assert "CUDA_ERROR_LAUNCH_FAILED" in lines[1], lines
    assert lines[2].startswith("auto: cpu (no GPU: GPU 0 is unusable"), lines
    assert lines[3] == "done"


@pytest.mark.parametrize("device", ["all", "auto"])
def test_a_gpu_fault_under_all_or_auto_is_a_warning_and_a_complete_result(device):
    code = (
        "import warnings\n"
        "want = p.batch(['h', 'f']).evaluate(0, 3000000)\n"
        "with warnings.catch_warnings(record=True) as caught:\n"
        "    warnings.simplefilter('always')\n"
        f"    got = p.batch(['h', 'f'], device={device!r}).evaluate(0, 3000000)\n"
        "assert all(np.array_equal(got[k], want[k]) for k in want)\n"
        "print([str(w.message) for w in caught if w.category is polyrt.DeviceFaultWarning])\n"
    )
    # The GPU's first launch faults: auto may leave the double's GPU out
    # after measuring it on the first rows, and all, on a loaded machine,
    # may hand the slow double a single chunk (a later launch then never
    # comes: seen once under make test).
    out = _on_the_double(code, "launch_failure_at=1")
    assert "CUDA_ERROR_LAUNCH_FAILED" in out and "the result is complete" in out


@pytest.mark.parametrize(
    "fault, says",
    [
        ("context_failure", "cuDevicePrimaryCtxRetain failed: CUDA_ERROR_DEVICES_UNAVAILABLE"),
        ("missing_entry=cuLaunchKernel", "lacks entry points polyrt needs (cuLaunchKernel)"),
    ],
)
def test_a_gpu_that_cannot_start_leaves_the_cpu(fault, says):
    code = (
        "want = p.batch(['h', 'f']).evaluate(0, 100000)\n"
        "for device in ('gpu', 'auto', 'all'):\n"
        "    try:\n"
        "        b = p.batch(['h', 'f'], device=device)\n"
        "        got = b.evaluate(0, 100000)\n"
        "        assert all(np.array_equal(got[k], want[k]) for k in want)\n"
        "        print(device, 'ran on', b.device)\n"
        "        b.evaluate(0, 10, on_device=True)\n"
        "    except polyrt.Error as e:\n"
        "        print(device, type(e).__name__, e)\n"
    )
    lines = _on_the_double(code, fault).splitlines()
    assert lines[0].startswith("gpu DeviceError") and says in lines[0], lines
    for device, line, refused in zip(("auto", "all"), lines[1::2], lines[2::2]):
        assert line.startswith(f"{device} ran on cpu (no GPU: ") and says in line, lines
        assert refused.startswith(f"{device} WriteError"), lines


def test_devices_says_what_the_batch_tier_can_use():
    here = polyrt.devices()
    assert here["cpu"]["cores"] >= 1 and here["cpu"]["vector_isa"]
    assert here["text"].startswith(f"cpu: {here['cpu']['cores']} cores, ")
    code = "d = polyrt.devices()\nprint(len(d['gpus']), d['gpus'][1]['name'], d['no_gpu_reason'])\n"
    assert _on_the_double(code, "devices=2").split() == [
        "2", "polyrt", "CUDA", "test", "double", "1", "None"]


def test_bench_measures_every_tier_and_refuses_bad_settings(examples, tmp_path):
    report = polyrt.bench(examples / "users.polydat", seconds=0.02, threads=1, outputs=["user_id"])
    assert [c["engine"] for c in report["compile"]] == [
        "interpreter", "closures", "native", "batch kernels (cpu)"]
    assert all(c["cold_ms"] > 0 and c["cached_ms"] > 0 for c in report["compile"])
    assert [s["engine"] for s in report["per_state"]] == [
        "interpreter", "closures", "native", "native, request"]
    assert all(s["requests"] > 0 and s["p50_ns"] <= s["p99_ns"] for s in report["per_state"])
    cpu = report["batch"][0]
    assert cpu["device"] == "cpu, 1 thread" and cpu["rows"] > 0 and cpu["skipped"] is None
    assert report["text"].startswith("compile ")
    program = tmp_path / "p.polydat"
    program.write_text("input cycle\ninput shard\nextern tag: str = \"t\"\nid := hash(cycle) + shard\n")
    fixed = polyrt.bench(program, seconds=0.01, threads=1, inputs={"shard": 5}, externs={"tag": "x"})
    assert fixed["batch"][0]["rows"] > 0
    for kwargs, error, says in (
        ({"inputs": {"cycle": 1}}, polyrt.WriteError, "the first input iterates"),
        ({"inputs": {"nope": 1}}, polyrt.WriteError, "not an input"),
        ({"externs": {"tag": 3}}, polyrt.WriteError, "tag"),
        ({"outputs": ["nope"]}, polyrt.WriteError, "nope"),
        ({"seconds": 0}, polyrt.WriteError, "seconds must be in"),
        ({"threads": 0}, polyrt.WriteError, "threads"),
    ):
        with pytest.raises(error, match=says):
            polyrt.bench(program, **kwargs)


# ---- untrusted programs (docs/security.md) ----------------------------------


def test_untrusted_programs_read_only_their_data_roots_and_allowed_names(tmp_path, monkeypatch):
    monkeypatch.setenv("RT4_SECRET", "hunter2")
    root = tmp_path / "root"
    root.mkdir()
    (root / "people.csv").write_text("name\nada\nalan\n")
    (tmp_path / "secret.csv").write_text("password\nhunter2\n")
    reads_env = 'input c\nx := env("RT4_SECRET") as u64\n'
    with pytest.raises(polyrt.ConstantFoldError) as trusted:
        polyrt.compile(reads_env)
    assert "hunter2" in str(trusted.value)  # what confinement is for
    for kwargs in ({"untrusted": True}, {"allow_env": ["RT4_SECRET"]}):
        with pytest.raises(polyrt.Error) as confined:
            polyrt.compile(reads_env, **kwargs)
        assert "hunter2" not in str(confined.value)
    secret = f'input c\nx := file_line_at(1, "{tmp_path / "secret.csv"}")\n'
    with pytest.raises(polyrt.CompileError, match="outside the data roots"):
        polyrt.compile(secret, data_roots=[root])
    people = f'input c\nx := csv_field(c, "{root / "people.csv"}", "name")\n'
    program = polyrt.compile(people, data_roots=[root])
    assert program.batch().text(0, 2) == b"x\nada\nalan\n"
    # A pickled copy compiles confined too.
    copy = pickle.loads(pickle.dumps(polyrt.compile(people, untrusted=True, data_roots=[root])))
    assert copy.batch().text(0, 1) == b"x\nada\n"
    assert copy._confinement == (True, [str(root)], [])
    with pytest.raises(TypeError):
        polyrt.compile(people, allow_env="RT4_SECRET")  # a lone str is not a list of names


def test_stats_of_subnormal_floats():
    stats = polyrt.compile("input c\nx := (c as f64) * 5e-324\n").batch().stats(0, 1000)
    numeric = stats["columns"][0]["numeric"]
    assert numeric["max"] == 999 * 5e-324
    assert numeric["quantiles"]["p1"] > 0


def test_a_pickled_program_finds_the_data_files_the_original_found(tmp_path, monkeypatch):
    (tmp_path / "people.csv").write_text("name\nada\n")
    path = tmp_path / "p.polydat"
    path.write_text('input c\nn := csv_field(c, "people.csv", "name")\n')
    monkeypatch.chdir("/")  # the file is found beside the program, not here
    copy = pickle.loads(pickle.dumps(polyrt.compile(path)))
    assert copy.batch().text(0, 1) == b"n\nada\n"
