"""polyrt.register_node: Python functions as nodes programs call, per row
and vectorized over the batch tier's columns, with the failures a host's
bug gets (an EvalError naming the function and the row) and the
registrations the registry refuses. Names are registered once per process:
each test registers its own."""

import numpy as np
import pytest

import polyrt


def test_a_row_function_runs_on_every_engine_and_the_batch_tier():
    polyrt.register_node("py_tag", lambda prefix, n: f"{prefix}-{n:04}", inputs=["str", "u64"], result="str")
    program = polyrt.compile('input cycle\nt := py_tag("job", cycle % 10000)\n')
    for engine in ("interpreter", "closures", "native"):
        state = polyrt.compile('input cycle\nt := py_tag("job", cycle % 10000)\n', engine=engine).state()
        state.set_inputs(42)
        assert state["t"] == "job-0042"
    column = program.batch(["t"], chunk_rows=1000).evaluate(0, 3000)["t"]
    assert [str(v) for v in column[:3]] == ["job-0000", "job-0001", "job-0002"]
    assert str(column[2999]) == "job-2999"


def test_a_vectorized_function_reads_numpy_columns():
    @polyrt.register_node("py_scaled", inputs=["u64", "f64", "bool"], result="f64", vectorized=True)
    def scaled(x, factor, flag):
        assert isinstance(x, np.ndarray) and x.dtype == np.uint64
        assert factor.dtype == np.float64 and flag.dtype == np.bool_
        return (x % 1000) * factor + np.where(flag, 0.5, 0.0)

    source = "input x\nh := hash(x)\nv := py_scaled(h, 0.25, h % 2 == 0)\n"
    columns = polyrt.compile(source).batch(["h", "v"], chunk_rows=65536).evaluate(0, 200_000)
    h = columns["h"]
    np.testing.assert_array_equal(columns["v"], (h % 1000) * 0.25 + np.where(h % 2 == 0, 0.5, 0.0))
    state = polyrt.compile(source).state()
    state.set_inputs(7)
    assert state["v"] == columns["v"][7]


def test_exceptions_and_wrong_results_are_eval_errors_naming_the_function_and_row():
    def refuse_seven(x):
        if x == 7:
            raise ValueError("seven is refused")
        return x + 1

    polyrt.register_node("py_refuse_seven", refuse_seven, inputs=["u64"], result="u64")
    program = polyrt.compile("input x\nv := py_refuse_seven(x)\n")
    with pytest.raises(polyrt.EvalError, match=r"host function 'py_refuse_seven' threw: .*seven is refused(.|\n)*x=7"):
        program.batch(["v"], chunk_rows=100).evaluate(0, 1000)
    polyrt.register_node("py_short", lambda x: x[:-1], inputs=["u64"], result="u64", vectorized=True)
    with pytest.raises(polyrt.EvalError, match=r"host function 'py_short' threw: returned 0 values for 1 rows"):
        polyrt.compile("input x\nv := py_short(x)\n").batch(["v"]).evaluate(0, 10)
    polyrt.register_node("py_text", lambda x: "text", inputs=["u64"], result="u64")
    with pytest.raises(polyrt.EvalError, match="py_text"):
        state = polyrt.compile("input x\nv := py_text(x)\n").state()
        state.set_inputs(1)
        state["v"]


def test_results_of_the_wrong_type_are_eval_errors_in_the_nodes_words():
    # Vectorized: numpy's unsafe casts (0.5 -> 0, -5 -> 2**64 - 5, text to
    # numbers) once passed silently.
    cases = [
        ("py_vec_half", lambda x: x * 0.5, "u64", r"returned an array of float64, not the u64"),
        ("py_vec_negative", lambda x: x.astype(np.int64) - 5, "u64",
         r"returned an array of int64 with a negative value, not the u64"),
        ("py_vec_text", lambda x: np.array(["a"] * len(x)), "f64", r"returned an array of <U1, not the f64"),
        ("py_vec_big", lambda x: x + np.uint64(2**63), "i64", r"with a value above 2\*\*63 - 1, not the i64"),
    ]
    for name, fn, result, message in cases:
        polyrt.register_node(name, fn, inputs=["u64"], result=result, vectorized=True)
        with pytest.raises(polyrt.EvalError, match=message):
            polyrt.compile(f"input x\nv := {name}(x)\n").batch(["v"]).evaluate(0, 10)
    # Right types pass: an int64 array of non-negative values for u64.
    polyrt.register_node("py_vec_ok", lambda x: x.astype(np.int64), inputs=["u64"], result="u64", vectorized=True)
    assert list(polyrt.compile("input x\nv := py_vec_ok(x)\n").batch(["v"]).evaluate(0, 3)["v"]) == [0, 1, 2]
    # Row form: what it returned and what it was registered with.
    polyrt.register_node("rt4_r", lambda x: 0.5, inputs=["u64"], result="u64")
    state = polyrt.compile("input x\nv := rt4_r(x)\n").state()
    state.set_inputs(1)
    with pytest.raises(polyrt.EvalError, match=r"returned 0.5 \(a float\), not the u64 it was registered with"):
        state["v"]
    # An exception whose message holds a lone surrogate: its type and message.
    def surrogate(x):
        raise ValueError("bad \ud800 value")

    polyrt.register_node("py_surrogate", surrogate, inputs=["u64"], result="u64")
    state = polyrt.compile("input x\nv := py_surrogate(x)\n").state()
    state.set_inputs(1)
    with pytest.raises(polyrt.EvalError, match=r"ValueError: bad \\ud800 value"):
        state["v"]


def test_bad_registrations_are_refused():
    polyrt.register_node("py_once", lambda x: x, inputs=["u64"], result="u64")
    with pytest.raises(polyrt.RegistrationError, match="already registered by the host"):
        polyrt.register_node("py_once", lambda x: x, inputs=["u64"], result="u64")
    with pytest.raises(polyrt.RegistrationError, match="already polyrt's"):
        polyrt.register_node("hash", lambda x: x, inputs=["u64"], result="u64")
    with pytest.raises(polyrt.RegistrationError, match="unknown type 'u65'"):
        polyrt.register_node("py_bad_type", lambda x: x, inputs=["u65"], result="u64")
    with pytest.raises(TypeError, match="must be callable"):
        polyrt.register_node("py_not_callable", 3, inputs=["u64"], result="u64")
    with pytest.raises(polyrt.CompileError, match="py_once"):
        polyrt.compile('input x\nv := py_once("a")\n')


def test_an_impure_function_is_called_again_on_every_write():
    calls = []

    def tick():
        calls.append(1)
        return len(calls)

    polyrt.register_node("py_tick", tick, inputs=[], result="u64", pure=False)
    state = polyrt.compile("input x\nv := py_tick()\n").state()
    state.set_inputs(1)
    first = state["v"]
    state.set_inputs(1)
    assert state["v"] == first + 1


def test_emitted_rows_are_columns():
    program = polyrt.compile('input cycle\nid := mod(hash(cycle), 1000)\nrow := emit_row("jsonl", "cycle,id", cycle, id)\n')
    rows = program.batch(["row.row"]).evaluate(0, 2)["row.row"]
    assert [str(r) for r in rows] == ['{"cycle":0,"id":535}', '{"cycle":1,"id":465}']
