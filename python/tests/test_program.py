import pickle
import threading

import numpy as np
import pytest

import polyrt
from polyrt._batch import _numpy_columns

LADDER = """
input cycle: u64
extern salt: u64 = 5
extern flag: bool = true
h := hash(cycle ^ salt)
x := mod(h, 1000)
f := unit_interval(h)
b := flag
s := "id-{x}"
"""


def test_compile_source_and_metadata():
    p = polyrt.compile(LADDER)
    assert p.inputs == {"cycle": "u64"}
    assert p.externs == {"salt": polyrt.Extern("u64", 5), "flag": polyrt.Extern("bool", True)}
    assert p.outputs == {"h": "u64", "x": "u64", "f": "f64", "b": "bool", "s": "str"}
    assert "native" in p.engine


def test_compile_file_and_path(examples, tmp_path):
    by_str = polyrt.compile(str(examples / "users.polydat"))
    by_path = polyrt.compile(examples / "users.polydat")
    assert by_str.outputs == by_path.outputs
    assert "email" in by_str.outputs


def test_state_pulls_every_type():
    state = polyrt.compile(LADDER).state()
    state.set_inputs(7)
    h = state.pull("h")
    assert isinstance(h, int) and 0 <= h < 2**64
    assert state["x"] == h % 1000
    assert isinstance(state["f"], float) and 0.0 <= state["f"] < 1.0
    assert state["b"] is True
    state.set_externs(flag=False)
    assert state["b"] is False
    assert state["s"] == f"id-{state['x']}"


def test_request_is_set_inputs_and_pulls():
    for engine, provenance in (("native", "raw"), ("native", "pushpull"), ("interpreter", "auto")):
        state = polyrt.compile(LADDER, engine=engine, provenance=provenance).state(salt=3)
        for cycle in (0, 7, 2**64 - 1):
            got = state.request([cycle], ("h", "x", "f", "b"))
            state.set_inputs(cycle)
            assert got == tuple(state[o] for o in ("h", "x", "f", "b"))
            assert isinstance(got[2], float) and isinstance(got[3], bool)
        with pytest.raises(polyrt.WriteError, match="request got 2 value"):
            state.request((1, 2), ("h",))
        with pytest.raises(polyrt.WriteError, match=r"'s' is a str: read it with state.pull\('s'\)"):
            state.request((1,), ("s",))
        with pytest.raises(polyrt.WriteError, match="nope"):
            state.request((1,), ("nope",))
    failing = polyrt.compile("input c: u64\nx := in_range(hash(c), 0, 10)\n", provenance="raw").state()
    with pytest.raises(polyrt.EvalError):
        failing.request((0,), ("x",))


def test_request_loops_look_names_up_once_and_see_other_names():
    # A tuple of names is looked up once per state; any other names, or a
    # list changed in place, are looked up again.
    state = polyrt.compile("input c: u64\na := c + 1\nb := c + 2\n").state()
    names = ("a", "b")
    assert state.request([1], names) == (2, 3)
    assert state.request([5], names) == (6, 7)
    assert state.request([5], ("b", "a")) == (7, 6)
    assert state.request([5], names) == (6, 7)
    listed = ["a", "b"]
    assert state.request([1], listed) == (2, 3)
    listed[0] = "b"
    assert state.request([1], listed) == (3, 3)
    with pytest.raises(polyrt.WriteError, match="nope"):
        state.request([1], ("a", "nope"))
    assert state.request([2], names) == (3, 4)
    many = ("a", "b") * 6  # past the stack buffers
    assert state.request([3], many) == (4, 5) * 6
    assert state.request([4], many) == (5, 6) * 6


def test_a_shared_state_serves_threads_asking_for_other_names():
    state = polyrt.compile("input c: u64\na := c + 1\nb := c + 2\nd := c * 2\n").state()
    wants = [(("a", "b"), lambda c: (c + 1, c + 2)), (("d",), lambda c: (c * 2,)),
             (("b", "d", "a"), lambda c: (c + 2, c * 2, c + 1))]
    failures = []

    def ask(names, want):
        for c in range(3000):
            got = state.request([c], names)
            if got != want(c):
                failures.append((names, c, got))

    threads = [threading.Thread(target=ask, args=w) for w in wants * 2]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert failures == []


def test_engines_agree():
    values = []
    for engine in ("interpreter", "closures", "native"):
        state = polyrt.compile(LADDER, engine=engine).state(salt=11)
        state.set_inputs([123456])
        values.append([state[o] for o in ("h", "x", "f", "b", "s")])
    assert values[0] == values[1] == values[2]


def test_externs_are_typed():
    state = polyrt.compile(LADDER).state()
    with pytest.raises(polyrt.WriteError, match="salt"):
        state.set_externs(salt="no")
    with pytest.raises(polyrt.WriteError, match="out of range"):
        state.set_externs(salt=-1)
    with pytest.raises(polyrt.WriteError, match="no extern named 'sallt'; externs: salt, flag"):
        state.set_externs(sallt=1)
    state.set_externs(salt=None)  # unset: outputs that need it are None
    state.set_inputs(1)
    assert state["h"] is None


def test_unknown_output_lists_the_outputs():
    state = polyrt.compile(LADDER).state()
    state.set_inputs(1)
    with pytest.raises(polyrt.WriteError, match="nope"):
        state["nope"]


def test_compile_error_has_position():
    with pytest.raises(polyrt.CompileError) as e:
        polyrt.compile("input c: u64\nx := hash(c\n", file_name="bad.polydat")
    assert e.value.file == "bad.polydat"
    assert e.value.line >= 1 and e.value.column >= 1
    assert "bad.polydat:" in str(e.value)
    assert isinstance(e.value, polyrt.Error)


def test_eval_error_is_catchable():
    p = polyrt.compile("input c: u64\nx := in_range(hash(c), 0, 10)\n")
    state = p.state()
    state.set_inputs(0)
    with pytest.raises(polyrt.EvalError) as e:
        state["x"]
    assert isinstance(e.value, polyrt.Error)


def test_wrong_coordinate_count():
    state = polyrt.compile(LADDER).state()
    with pytest.raises(polyrt.WriteError):
        state.set_inputs(1, 2)


def test_bad_engine_names_the_valid_ones():
    with pytest.raises(polyrt.WriteError, match="interpreter, closures, native"):
        polyrt.compile(LADDER, engine="jit")


def test_program_pickles_as_source():
    p = polyrt.compile(LADDER)
    q = pickle.loads(pickle.dumps(p))
    a, b = p.state(), q.state()
    a.set_inputs(99)
    b.set_inputs(99)
    assert a["s"] == b["s"] and q.outputs == p.outputs


def test_program_shared_by_threads():
    p = polyrt.compile(LADDER)
    expected = {}
    state = p.state()
    for c in range(200):
        state.set_inputs(c)
        expected[c] = state["h"]
    failures = []

    def work():
        s = p.state()
        for c in range(200):
            s.set_inputs(c)
            if s["h"] != expected[c]:
                failures.append(c)

    threads = [threading.Thread(target=work) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not failures


def test_coordinates_are_checked():
    state = polyrt.compile(LADDER).state()
    for bad in (-1, 2**64, True, "7", 1.5):
        with pytest.raises(polyrt.WriteError, match="coordinate 0"):
            state.set_inputs(bad)
    two = polyrt.compile("input a: u64\ninput b: u64\nx := a * 10 + b\n").state()
    for args in ((3, 4), ([3, 4],), ((3, 4),), (np.array([3, 4], dtype=np.uint64),)):
        two.set_inputs(*args)
        assert two["x"] == 34
    many = polyrt.compile("".join(f"input c{i}: u64\n" for i in range(12)) + "x := c11 + c0\n").state()
    many.set_inputs(list(range(100, 112)))
    assert many["x"] == 211


def test_plans_and_ptx_as_the_command_prints_them():
    program = polyrt.compile(LADDER)
    batch = program.plan()
    assert batch.startswith("batch plan: ") and "step 0" in batch
    gpu = program.plan(device="gpu", outputs=["x", "s"])
    assert "kernels on the GPU" in gpu and "copy to the host" in gpu
    assert "kernel resources" in gpu  # registers and occupancy, or why there is no ptxas
    assert program.plan("state").startswith("engine: native")
    assert "define" in program.plan("state", llvm=True)
    assert "nvptx64-nvidia-cuda" in program.plan(device="gpu", llvm=True)
    ptx = program.ptx(["x"], sm=80, cuda_driver="12.4")
    assert ".target sm_80" in ptx and ".version 8.4" in ptx
    assert program.ptx(cuda_driver=12000).count(".version 8.0") == 1
    with pytest.raises(polyrt.Error, match="supports 60, 61"):
        program.ptx(sm=91)
    # One rule with the command's --cuda-driver: "12040" is 12.4, not 12040.0.
    assert program.ptx(["x"], sm=80, cuda_driver="12040") == ptx
    for bad in ("12.x", "12", "12.100", ""):
        with pytest.raises(polyrt.WriteError, match="cuda_driver expects"):
            program.ptx(cuda_driver=bad)
    with pytest.raises(polyrt.WriteError, match="'batch' or 'state'"):
        program.plan("kernels")
    with pytest.raises(polyrt.RefusedError, match="interpreter has no plan"):
        polyrt.compile(LADDER, engine="interpreter").plan("state")


def test_plans_as_data_are_what_the_text_shows():
    program = polyrt.compile(LADDER)
    batch = program.plan_data()
    text = program.plan()
    assert batch["kind"] == "batch" and batch["device"] == "cpu"
    assert text.startswith(f"batch plan: {len(batch['steps'])} step(s), {batch['columns']} column(s)")
    for k, step in enumerate(batch["steps"]):
        nodes = ", ".join(f"{node} -> {binding}" for node, binding in step["nodes"])
        assert f"step {k}: {step['kind']} [{nodes}]" in text
    gpu = program.plan_data(device="gpu", outputs=["x", "s"])
    copies = [c for step in gpu["steps"] for c in step["copied_before"]] + gpu["copied_to_host_last"]
    assert gpu["device"] == "gpu" and copies
    assert all(c in program.plan(device="gpu", outputs=["x", "s"]) for c in copies)
    texts = polyrt.compile('input x\nname := first_names(hash(x))\ns := str_upper(x as str)\n')
    steps = texts.plan_data(device="gpu")["steps"]
    assert steps[0]["kind"] == "GPU kernel" and steps[0]["text_bytes_per_row"] > 0
    host = [step for step in steps if step["kind"] == "host, on a CPU worker"]
    assert [step["why_host"] for step in host] == ["no GPU form of 'str_upper'"]
    assert f": {host[0]['why_host']}" in texts.plan(device="gpu")
    assert gpu["rows_on_device"] and gpu["why_rows_on_host"] == ""
    hosted = polyrt.compile("input x\nv := unit_interval(hash(x)) as f32\ns := str_upper(x as str)\n")
    data = hosted.plan_data(device="gpu")
    assert not data["rows_on_device"]
    assert data["why_rows_on_host"] == "output 's' is made by a host step"
    assert f"encoded on the host: {data['why_rows_on_host']}" in hosted.plan(device="gpu")
    state = program.plan_data("state")
    assert state["engine"] == program.engine and state["mode"] in ("Raw", "Pull", "PushPull")
    assert f"slots: {state['slot_count']}" in program.plan("state")
    assert {s["kind"] for s in state["steps"]} <= {"native segment", "kit", "host step"}
    with pytest.raises(polyrt.WriteError, match="'cpu' or 'gpu'"):
        program.plan_data(device="tpu")


def test_traverse_returns_one_row_per_tuple_as_run_writes_them():
    program = polyrt.compile(
        "input cycle\ninput shard\nbase := cycle * 100 + shard\n"
        'for a in 0..2, tag in p, q where {a} > 0 || {tag} == "p" {\n'
        "  v := base + a * 10\n  label := \"{tag}-{a}\"\n}\n"
    )
    rows = program.traverse(7, 9, inputs={"shard": 3})
    assert list(rows) == ["cycle", "a", "tag", "v", "label"]
    assert rows["cycle"].tolist() == [7, 7, 7, 8, 8, 8] and rows["cycle"].dtype == np.uint64
    assert rows["v"].tolist() == [703, 713, 713, 803, 813, 813]
    assert rows["label"].tolist() == ["p-0", "p-1", "q-1"] * 2
    only = program.traverse(0, 1, outputs=["label"])
    assert list(only) == ["cycle", "a", "tag", "label"]
    assert all(len(c) == 0 for c in program.traverse(5, 5).values())
    with pytest.raises(polyrt.WriteError, match="stop is before start"):
        program.traverse(5, 4)
    with pytest.raises(polyrt.WriteError, match="not an input the rows keep fixed"):
        program.traverse(0, 1, inputs={"cycle": 1})
    with pytest.raises(polyrt.WriteError, match="does not exist"):
        program.traverse(0, 1, traversal=1)


def test_traverse_runs_each_cursor_slice_cycle_by_cycle():
    program = polyrt.compile(
        "input cycle\n"
        'for p in partitions("*/4", 1000) {\n'
        "  cursor rows = range(0, 1000) over p\n"
        "  row := rows.ordinal\n  part := rows.cursor.idx\n}\n"
    )
    rows = program.traverse(0, 1, outputs=["row", "part"])
    assert rows["row"].tolist() == list(range(1000))
    assert rows["part"].tolist() == [r // 250 for r in range(1000)]
    assert rows["row"][250] == 250 and rows["row"][499] == 499


def test_traverse_of_a_literal_lattice_runs_in_the_batch_tier_with_the_same_rows():
    program = polyrt.compile(
        "input cycle\n"
        "for a in 0..4, t in x, y, g in geometric(1, 2.5, 2) {\n"
        "  v := hash(a) % 100\n  s := t + \"!\"\n  f := g * 2.0\n}\n"
    )
    rows = program.traverse(3, 6)
    types = program._native.traversal_column_types(0)
    per_state = _numpy_columns(
        program._native.traverse(0, 3, 3, [0], [], {}, False, "cpu", 0, 0), types
    )
    assert list(rows) == list(per_state)
    for name, column in per_state.items():
        assert rows[name].tolist() == column.tolist(), name
    assert rows["f"].dtype == np.float64 and rows["cycle"].dtype == np.uint64
    assert list(program.traverse(3, 4, outputs=["s"])) == ["cycle", "a", "t", "g", "s"]
    with pytest.raises(polyrt.WriteError, match="not an output of the traversal's body"):
        program.traverse(3, 4, outputs=["nope"])


FIBER = (
    "input cycle\n"
    'cursor q = range(0, 1000000) over "20%,30%,*"\n'
    "slot := q.ordinal\n"
    "row := mod(hash(slot), 1000000)\n"
)


def test_a_top_level_cursor_takes_the_chosen_partition_and_pickles_with_it():
    every = polyrt.compile(FIBER)  # no choice: every partition in turn
    assert every.cursors[0]["every_partition"] and every.cursors[0]["size"] == 1000000
    with pytest.raises(polyrt.CompileError, match="resolves to 2 partitions that leave gaps"):
        polyrt.compile(FIBER.replace("20%,30%,*", "10%,~10%,10%"))
    program = polyrt.compile(FIBER, partition=1)
    assert program.cursors == [
        {"name": "q", "partition": 1, "partitions": 3, "every_partition": False, "first": 200000,
         "size": 300000, "range": (0, 1000000), "wall_clock": None}
    ]
    rows = program.batch().evaluate(0, 3)
    assert rows["slot"].tolist() == [200000, 200001, 200002]
    assert rows["row"][0] == 70708
    copy = pickle.loads(pickle.dumps(program))
    assert copy.cursors[0]["partition"] == 1
    assert polyrt.compile(FIBER, partition={"q": 2}).cursors[0]["first"] == 500000
    with pytest.raises(TypeError, match="a partition index is an int"):
        polyrt.compile(FIBER, partition=-1)
    with pytest.raises(TypeError, match="a cursor's name is a non-empty str"):
        polyrt.compile(FIBER, partition={"": 1})


def test_traverse_flattens_nested_traversals():
    program = polyrt.compile(
        "input cycle\nc := cycle\n"
        "for a in 1..3 {\n  base := a * 100\n  for b in 1..3 { v := base + b + c }\n}\n"
    )
    rows = program.traverse(0, 2)
    assert list(rows) == ["cycle", "a", "b", "v"]
    assert rows["v"].tolist() == [101, 102, 201, 202, 102, 103, 202, 203]
    assert rows["a"].tolist() == [1, 1, 2, 2, 1, 1, 2, 2]


def test_traverse_arrow_types_the_columns_on_both_paths():
    pa = pytest.importorskip("pyarrow")
    lattice = polyrt.compile("input cycle\nfor a in 0..3, t in x, y { v := a * 2\n s := t + \"!\" }\n")
    table = lattice.traverse_arrow(5, 7)
    assert table.column_names == ["cycle", "a", "t", "v", "s"]
    assert table.schema.field("s").type == pa.large_string()
    assert table.schema.field("a").type == pa.uint64()
    assert table.column("s").to_pylist()[:2] == ["x!", "y!"]
    assert table.num_rows == 12
    per_state = polyrt.compile(
        "input cycle\nbase := cycle\nfor a in 0..3 where {a} != 1 { v := a + base\n f := 0.5 }\n"
    )
    table = per_state.traverse_arrow(1, 3, outputs=["f", "v"])
    assert table.column_names == ["cycle", "a", "f", "v"]
    assert table.column("v").to_pylist() == [1, 3, 2, 4]
    assert table.schema.field("f").type == pa.float64()


def test_traverse_types_and_checks_alike_on_both_paths():
    # A vector output (a fixed-size list in Arrow, where pyarrow once raised
    # ArrowInvalid), a u32 and an f32: one dtype per output on the lattice
    # path and the per-state one (which gave object arrays), and Batch's
    # argument rules on both.
    pa = pytest.importorskip("pyarrow")
    body = "{ v := hash_vec(a, 3)\n n := (a as u32)\n f := (a as f32) }\n"
    lattice = polyrt.compile("input c\nfor a in 0..2 " + body)
    per_state = polyrt.compile("input c\nfor a in 0..2 where {a} != 5 " + body)
    got = []
    for program in (lattice, per_state):
        columns = program.traverse(0, 2)
        assert {k: (v.dtype.name, v.shape) for k, v in columns.items()} == {
            "c": ("uint64", (4,)), "a": ("uint64", (4,)), "v": ("float32", (4, 3)),
            "n": ("uint32", (4,)), "f": ("float32", (4,)),
        }
        table = program.traverse_arrow(0, 2)
        assert table.schema.field("v").type == pa.list_(pa.float32(), 3)
        got.append(table)
        with pytest.raises(polyrt.WriteError, match="names 'v' twice"):
            program.traverse(0, 2, outputs=["v", "v"])
        with pytest.raises(polyrt.WriteError, match="traverse.*coordinates are 0 to 2\\*\\*64 - 1"):
            program.traverse(0, 2**64)
        assert list(program.traverse(0, 1, outputs=[])) == ["c", "a", "v", "n", "f"]
    assert got[0].equals(got[1])


def test_traverse_takes_externs():
    # It had no externs argument: a traversal reading an unset extern gave
    # no rows, and nothing could set it.
    program = polyrt.compile(
        "input cycle\nextern n: u64\nm := n\nfor a in 0..{m} where {a} != 99 { v := a * 2 }\n"
    )
    assert len(program.traverse(0, 1)["a"]) == 0
    rows = program.traverse(0, 2, externs={"n": 3})
    assert rows["v"].tolist() == [0, 2, 4, 0, 2, 4]
    with pytest.raises(polyrt.WriteError, match="nope"):
        program.traverse(0, 1, externs={"nope": 1})
    lattice = polyrt.compile("input cycle\nextern n: u64\nfor a in 0..3 { v := a }\n")
    assert lattice.traverse(0, 1, externs={"n": 3})["v"].tolist() == [0, 1, 2]
    with pytest.raises(polyrt.WriteError, match="nope"):
        lattice.traverse(0, 1, externs={"nope": 1})


SEEDED = """
input cycle
private key := hash(cycle)
id := key % 1000000
name := one_of(hash(key + 1), "Ana", "Bo", "Cy", "Dee")
"""


def test_seed_rekeys_reproducibly_on_every_engine_and_the_batch():
    import pickle

    plain = polyrt.compile(SEEDED).batch().evaluate(0, 2000)
    seeded = [polyrt.compile(SEEDED, seed=5, engine=e) for e in ("native", "closures", "interpreter")]
    columns = seeded[0].batch().evaluate(0, 2000)
    assert (columns["id"] != plain["id"]).any()
    for program in seeded:
        state = program.state()
        for x in (0, 1, 1999):
            state.set_inputs(x)
            assert state.pull("id") == columns["id"][x]
    again = pickle.loads(pickle.dumps(seeded[0]))  # a copy (a Dask worker's) keeps the seed
    assert (again.batch().evaluate(0, 2000)["id"] == columns["id"]).all()
    assert (polyrt.compile(SEEDED, seed=6).batch().evaluate(0, 2000)["id"] != columns["id"]).any()
    with pytest.raises(ValueError, match=r"seed=...\) must be in \[0, 2\^64\), got -1"):
        polyrt.compile(SEEDED, seed=-1)
    with pytest.raises(TypeError, match="must be an int"):
        polyrt.compile(SEEDED, seed="5")


RAMPUP = """
const keys := is_positive(keycount)
cursor row = range(0, keys) over cursor
seq_key := format_u64(row, 10)
scaled := ratio * 2.0
label := "k-" + tag
"""


def test_params_are_a_workloads_values_as_nmbrs_hands_them():
    import pickle

    program = polyrt.compile(
        RAMPUP,
        params={"keycount": 1000, "cursor": "10%..10.5%", "ratio": 0.25, "tag": "x", "unused": True},
    )
    assert [(c["first"], c["size"]) for c in program.cursors] == [(100, 5)]
    state = program.state()
    state.set_inputs(2)
    assert (state.pull("seq_key"), state.pull("scaled"), state.pull("label")) == ("102", 0.5, "k-x")
    assert "unused" not in program.externs
    timed = polyrt.compile("cursor op = until_elapsed(100, 5000)\nk := op\n").cursors[0]
    assert timed["size"] is None and timed["wall_clock"]["min_ms"] == 5000
    again = pickle.loads(pickle.dumps(program))  # a copy keeps the params
    assert [(c["first"], c["size"]) for c in again.cursors] == [(100, 5)]
    with pytest.raises(polyrt.CompileError, match=r"argument 2 of range fails"):
        polyrt.compile(RAMPUP, params={"keycount": 0, "cursor": "0..1%", "ratio": 1.0, "tag": ""})
    with pytest.raises(TypeError, match=r"'keycount' must be an int, float, bool or str"):
        polyrt.compile(RAMPUP, params={"keycount": [1]})


def test_private_bindings_are_helpers():
    program = polyrt.compile(SEEDED)
    assert list(program.outputs) == ["id", "name"]
    assert program.batch().to_arrow(0, 3).column_names == ["id", "name"]
    with pytest.raises(polyrt.WriteError, match="'key' is a private binding"):
        program.batch(outputs=["key"])
